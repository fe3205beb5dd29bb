"""Builders of the players' side tests: finished tournaments of the same players."""

from __future__ import annotations

from typing import Any

from tests.world import finish_by_forfeit, make_tournament, ready_matches, register
from tournaments import services
from tournaments.models import Player, Tournament


def play_out(tournament: Tournament, actor: Any, *, loser: str = "b") -> Tournament:
    """Every match decided (forfeits by `loser`'s slot) until the tournament is finished."""
    for _ in range(12):
        ready = ready_matches(tournament)
        if not ready:
            break
        for match in ready:
            finish_by_forfeit(match, actor, loser=loser)
    tournament.refresh_from_db()
    return tournament


def finished_with(
    organiser: Any,
    players: list[Player],
    *,
    name: str = "Этап",
    public: bool = True,
    loser: str = "b",
) -> Tournament:
    tournament = make_tournament(organiser, name=name, is_public=public, third_place="match")
    register(tournament, organiser, players)
    services.tournament_draw(tournament=tournament, actor=organiser, method="seeded")
    return play_out(tournament, organiser, loser=loser)
