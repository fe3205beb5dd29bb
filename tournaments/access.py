"""Who may do what: the one place where roles are turned into decisions.

Views declare what they need through the DRF permission classes and the view mixins below;
every check ends in one of these functions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib.auth.mixins import AccessMixin
from django.core.exceptions import PermissionDenied
from rest_framework.permissions import SAFE_METHODS, BasePermission

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

    from matches.models import Match
    from tournaments.models import Tournament

    User = AbstractBaseUser | AnonymousUser

ORGANISER_GROUP = "organiser"
REFEREE_GROUP = "referee"


def _in_group(user: Any, name: str) -> bool:
    cache = getattr(user, "_luza_groups", None)
    if cache is None:
        cache = set(user.groups.values_list("name", flat=True)) if user.is_authenticated else set()
        user._luza_groups = cache
    return name in cache


def is_organiser_role(user: Any) -> bool:
    """May create tournaments (the organiser group) or is a superuser."""
    return bool(user.is_authenticated and (user.is_superuser or _in_group(user, ORGANISER_GROUP)))


def can_manage_tournament(user: Any, tournament: Tournament) -> bool:
    if not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    return tournament.organisers.filter(pk=user.pk).exists()


def is_tournament_referee(user: Any, tournament: Tournament) -> bool:
    return bool(user.is_authenticated and tournament.referees.filter(pk=user.pk).exists())


def can_view_tournament(user: Any, tournament: Tournament) -> bool:
    if tournament.is_public:
        return True
    return can_manage_tournament(user, tournament) or is_tournament_referee(user, tournament)


def is_match_player(user: Any, match: Match) -> bool:
    if not user.is_authenticated:
        return False
    player_id = getattr(getattr(user, "player", None), "pk", None)
    return player_id is not None and player_id in (match.player_a_id, match.player_b_id)


def can_score_match(user: Any, match: Match) -> bool:
    """Organisers of the tournament, its referees, the match's referees, and with self-scoring
    the two players of the match."""
    if not user.is_authenticated:
        return False
    tournament = match.tournament
    if can_manage_tournament(user, tournament) or is_tournament_referee(user, tournament):
        return True
    if match.referees.filter(pk=user.pk).exists():
        return True
    return bool(tournament.self_scoring and is_match_player(user, match))


def can_view_match(user: Any, match: Match) -> bool:
    return can_view_tournament(user, match.tournament) or can_score_match(user, match)


# --- Declarations for views -----------------------------------------------------------------


def _tournament_of(obj: Any) -> Tournament:
    from matches.models import Match, Table
    from tournaments.models import Registration, Tournament

    if isinstance(obj, Tournament):
        return obj
    if isinstance(obj, Match | Registration | Table):
        return obj.tournament
    raise TypeError(f"no tournament for {type(obj).__name__}")


class TournamentPermission(BasePermission):
    """Read: anyone who may see the tournament. Write: its organisers."""

    def has_permission(self, request: Any, view: Any) -> bool:
        if request.method in SAFE_METHODS:
            return True
        if getattr(view, "action", None) == "create" and getattr(view, "creates_tournament", False):
            return is_organiser_role(request.user)
        return bool(request.user and request.user.is_authenticated)

    def has_object_permission(self, request: Any, view: Any, obj: Any) -> bool:
        tournament = _tournament_of(obj)
        if request.method in SAFE_METHODS:
            return can_view_tournament(request.user, tournament)
        return can_manage_tournament(request.user, tournament)


class MatchScoringPermission(BasePermission):
    """Read: anyone who may see the match. Write: organisers, referees, self-scoring players."""

    def has_permission(self, request: Any, view: Any) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return bool(request.user and request.user.is_authenticated)

    def has_object_permission(self, request: Any, view: Any, obj: Match) -> bool:
        if request.method in SAFE_METHODS:
            return can_view_match(request.user, obj)
        return can_score_match(request.user, obj)


class OrganiserRequiredMixin(AccessMixin):
    """Panel views: the user must organise `self.get_tournament()` (or be a superuser)."""

    def dispatch(self, request: Any, *args: Any, **kwargs: Any) -> Any:
        if not request.user.is_authenticated:
            return self.handle_no_permission()
        tournament = self.get_tournament()  # type: ignore[attr-defined]
        if not can_manage_tournament(request.user, tournament):
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)


def require_manage(user: Any, tournament: Tournament) -> None:
    if not can_manage_tournament(user, tournament):
        raise PermissionDenied


def require_score(user: Any, match: Match) -> None:
    if not can_score_match(user, match):
        raise PermissionDenied
