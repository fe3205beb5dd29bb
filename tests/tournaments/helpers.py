"""Finishing matches the way the matches app does, for driving a bracket in tests."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from matches.models import Match
from tournaments import services
from tournaments.models import Registration


def match(tournament: Any, key: str) -> Match:
    return Match.objects.get(tournament=tournament, key=key)


def finish(m: Match | Any, winner: str = "a", score: tuple[int, int] = (30, 20)) -> Match:
    """Finish a ready match as the matches app would: winner/loser, the score (winner's first),
    status finished, then the tournament's progression in the same transaction."""
    with transaction.atomic():
        row = Match.objects.select_for_update().get(pk=m.pk)
        assert row.status in ("ready", "on_table", "running"), (row.key, row.status)
        loser = "b" if winner == "a" else "a"
        row.winner_id = getattr(row, f"player_{winner}_id")
        row.loser_id = getattr(row, f"player_{loser}_id")
        setattr(row, f"score_{winner}", score[0])
        setattr(row, f"score_{loser}", score[1])
        row.status = Match.Status.FINISHED
        row.result = Match.Result.RACE
        row.finished_at = timezone.now()
        row.save()
        services.tournament_on_match_finished(match=row)
    return row


def ready_matches(tournament: Any) -> list[Match]:
    return list(
        Match.objects.filter(tournament=tournament, status="ready").order_by(
            "schedule_round", "stage", "round", "order"
        )
    )


def play_out(tournament: Any, pick=None) -> None:
    """Play every match to the end; ``pick(match) -> "a"|"b"`` (default: the better seed)."""
    seeds = dict(
        Registration.objects.filter(tournament=tournament).values_list("player_id", "seed")
    )

    def better(m: Match) -> str:
        return "a" if seeds[m.player_a_id] < seeds[m.player_b_id] else "b"

    choose = pick or better
    for _ in range(10_000):
        ready = ready_matches(tournament)
        if not ready:
            return
        for m in ready:
            finish(m, choose(m))
    raise AssertionError("the bracket never ended")
