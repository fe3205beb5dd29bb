"""Reads of the referee's home: every match a referee may score now, by tournament."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db.models import Q, QuerySet

from matches.models import Match
from matches.selectors import LIVE, QUEUE_ORDER, match_queryset
from tournaments.models import Tournament

if TYPE_CHECKING:
    from django.contrib.auth.models import User

ACTIVE_TOURNAMENT = (Tournament.Status.DRAWN, Tournament.Status.RUNNING)


def referee_tournaments(*, user: User) -> QuerySet[Tournament]:
    """The unfinished drawn tournaments `user` referees or organises (all for a superuser)."""
    tournaments = Tournament.objects.filter(status__in=ACTIVE_TOURNAMENT)
    if user.is_superuser:
        return tournaments.order_by("-date", "-pk")
    ids = Tournament.objects.filter(Q(referees=user) | Q(organisers=user)).values("pk")
    return tournaments.filter(pk__in=ids).order_by("-date", "-pk")


def referee_live_matches(*, user: User) -> list[dict[str, Any]]:
    """Per tournament, its matches on a table (by table number) then those ready, plus the
    matches `user` was named referee of elsewhere: everything he may score now."""
    tournaments = list(referee_tournaments(user=user))
    own = Q(tournament__in=tournaments)
    if not user.is_superuser:
        own |= Q(referees=user, tournament__status__in=ACTIVE_TOURNAMENT)
    matches = list(
        match_queryset()
        .filter(own, status__in=[*LIVE, Match.Status.READY])
        .distinct()
        .order_by("tournament_id", *QUEUE_ORDER)
    )
    by_tournament: dict[int, dict[str, Any]] = {}
    for match in matches:
        entry = by_tournament.setdefault(
            match.tournament_id, {"tournament": match.tournament, "live": [], "ready": []}
        )
        entry["live" if match.status in LIVE else "ready"].append(match)
    for entry in by_tournament.values():
        entry["live"].sort(key=lambda m: (m.table.number if m.table else 10_000, m.pk))
    for tournament in tournaments:
        by_tournament.setdefault(tournament.pk, {"tournament": tournament, "live": [], "ready": []})
    return list(by_tournament.values())
