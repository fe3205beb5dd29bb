"""The tournament's side of a match's life: what the match writes call through matches.hooks.

Registered once, in TournamentsConfig.ready(); called inside the match write's transaction."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db.models import F

from tournaments.models import Tournament
from tournaments.services.progression import (
    tournament_on_match_finished,
    tournament_on_match_started,
)

if TYPE_CHECKING:
    from matches.models import Match


class TournamentSide:
    """matches.hooks.TournamentListener, implemented by the tournaments services."""

    def match_started(self, *, match: Match) -> None:
        tournament_on_match_started(match=match)

    def match_finished(self, *, match: Match) -> None:
        tournament_on_match_finished(match=match)

    def public_changed(self, *, tournament_id: int) -> None:
        Tournament.objects.filter(pk=tournament_id).update(public_version=F("public_version") + 1)

    def tournament_running(self, *, tournament_id: int) -> bool:
        return Tournament.objects.filter(
            pk=tournament_id, status=Tournament.Status.RUNNING
        ).exists()
