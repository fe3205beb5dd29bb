"""Reads of the people pages: a player's history and tournaments, a tournament's referees,
and the search of the registration desk with who is already registered."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db.models import Q, QuerySet

from audit.models import AuditEntry
from tournaments.models import (
    IssuedLogin,
    Player,
    PlayerChange,
    RatingChange,
    Registration,
    Tournament,
)
from tournaments.selectors.players import player_list, player_rating_history
from tournaments.selectors.tournament import tournament_list

if TYPE_CHECKING:
    from config.types import Actor


def player_history(*, player: Player, user: Actor) -> QuerySet[AuditEntry]:
    """Every recorded change to the player, newest first; entries of a private tournament
    the user may not see are left out (its existence stays hidden)."""
    visible = tournament_list(user=user).values("pk")
    return (
        AuditEntry.objects.filter(player=player)
        .filter(Q(tournament__isnull=True) | Q(tournament__in=visible))
        .select_related("tournament")
        .order_by("-created_at", "-pk")
    )


def player_ratings(*, player: Player, user: Actor) -> QuerySet[RatingChange]:
    """His rating changes, newest first, without the games of tournaments hidden from `user`."""
    visible = tournament_list(user=user).values("pk")
    return player_rating_history(player=player).filter(
        Q(tournament__isnull=True) | Q(tournament__in=visible)
    )


def player_registrations(*, player: Player, user: Actor) -> QuerySet[Registration]:
    """His entries in the tournaments the user may see, newest tournament first."""
    visible = tournament_list(user=user).values("pk")
    return (
        Registration.objects.filter(player=player, tournament__in=visible)
        .select_related("tournament")
        .order_by("-tournament__date", "-tournament_id")
    )


def player_changes_to_decide(*, user: Actor) -> QuerySet[PlayerChange]:
    """Pending proposed changes `user` decides: of his own record (a player), or every one
    (a superuser), oldest first."""
    rows = PlayerChange.objects.filter(status=PlayerChange.Status.PENDING)
    if not user.is_authenticated:
        return rows.none()
    if not user.is_superuser:
        rows = rows.filter(player__user=user)
    return rows.select_related("player", "requested_by").order_by("created_at", "pk")


def player_changes_pending(*, player: Player) -> QuerySet[PlayerChange]:
    """The player's pending proposed changes (his card in the panel), oldest first."""
    return (
        PlayerChange.objects.filter(player=player, status=PlayerChange.Status.PENDING)
        .select_related("requested_by")
        .order_by("created_at", "pk")
    )


def player_search_with_status(
    *, search: str, tournament: Tournament, limit: int = 20
) -> list[tuple[Player, str | None]]:
    """Players found by `search`, each with his registration status in `tournament`
    ("active", "withdrawn" or None): the desk shows who is already there."""
    found = list(player_list(search=search)[:limit])
    status = dict(
        Registration.objects.filter(
            tournament=tournament, player__in=[p.pk for p in found]
        ).values_list("player_id", "status")
    )
    return [(p, status.get(p.pk)) for p in found]


def tournament_referees(*, tournament: Tournament) -> list[dict[str, Any]]:
    """The referees, each with whether his login was issued in the panel (its password can be
    reset there)."""
    referees = list(tournament.referees.order_by("username"))
    issued = set(
        IssuedLogin.objects.filter(user__in=[r.pk for r in referees]).values_list(
            "user_id", flat=True
        )
    )
    return [
        {
            "id": r.pk,
            "username": r.get_username(),
            "name": r.get_full_name(),
            "issued": r.pk in issued,
            "user": r,
        }
        for r in referees
    ]
