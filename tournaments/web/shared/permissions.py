"""How the faces declare who may use a view: the DRF permission classes of the API and the
mixins of the pages. Each decision is tournaments.access's (or matches.access's for a match);
these only ask it, so that every check ends in one place."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.mixins import AccessMixin
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest
from django.views import View
from rest_framework.exceptions import NotFound
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request

from matches.access import (
    can_manage_tournament,
    can_score_match,
    can_view_match,
    match_scoring_role,
)
from matches.models import Match, Table
from tournaments.access import can_view_tournament, is_organiser_role
from tournaments.models import Registration, Tournament


def _can_view_object(user: Any, obj: Any) -> bool:
    if isinstance(obj, Match):
        return can_view_match(user, obj)
    return can_view_tournament(user, _tournament_of(obj))


def require_visible(user: Any, obj: Any) -> None:
    """An object of a tournament the user may not see does not exist for him: 404, the answer
    to an unknown id, for reads and writes alike, so that guessing ids confirms nothing."""
    if not _can_view_object(user, obj):
        raise NotFound


def _tournament_of(obj: Any) -> Tournament:
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
        require_visible(request.user, obj)
        if request.method in SAFE_METHODS:
            return True
        return can_manage_tournament(request.user, _tournament_of(obj))


def signed_in(request: HttpRequest | Request) -> User:
    """The user of a view only signed-in users reach (LoginRequiredMixin, IsAuthenticated, the
    role mixins above): an anonymous request here is refused, never served as nobody's."""
    user = request.user
    if not user.is_authenticated:
        raise PermissionDenied
    return user


class MatchScoringPermission(BasePermission):
    """Read: anyone who may see the match. Write: organisers, referees, self-scoring players."""

    def has_permission(self, request: Any, view: Any) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return bool(request.user and request.user.is_authenticated)

    def has_object_permission(self, request: Any, view: Any, obj: Match) -> bool:
        require_visible(request.user, obj)
        if request.method in SAFE_METHODS:
            return True
        return can_score_match(request.user, obj)


class OrganiserRequiredMixin(AccessMixin, View):
    """Panel views: the user must organise `self.get_tournament()` (or be a superuser). A
    tournament he may not even see is a 404, as on the public pages; one he sees is a 403."""

    def dispatch(self, request: Any, *args: Any, **kwargs: Any) -> Any:
        if not request.user.is_authenticated:
            return self.handle_no_permission()
        tournament = self.get_tournament()
        if not can_manage_tournament(request.user, tournament):
            if not can_view_tournament(request.user, tournament):
                raise Http404
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)

    def get_tournament(self) -> Tournament:
        raise NotImplementedError("the view names its tournament")


class MatchWritePermission(BasePermission):
    """MatchScoringPermission with the role cached for the service that does the write."""

    def has_permission(self, request: Any, view: Any) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return bool(request.user and request.user.is_authenticated)

    def has_object_permission(self, request: Any, view: Any, obj: Match) -> bool:
        require_visible(request.user, obj)
        if request.method in SAFE_METHODS:
            return True
        return match_scoring_role(request.user, obj) is not None


class OrganiserRolePermission(BasePermission):
    """API: members of the organiser group and superusers, for every method."""

    def has_permission(self, request: Any, view: Any) -> bool:
        return is_organiser_role(request.user)


class OrganiserRoleRequiredMixin(AccessMixin, View):
    """Pages of the organiser role not tied to one tournament: anonymous → login, others 403."""

    def dispatch(self, request: Any, *args: Any, **kwargs: Any) -> Any:
        if not request.user.is_authenticated:
            return self.handle_no_permission()
        if not is_organiser_role(request.user):
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)
