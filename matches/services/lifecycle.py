"""What starting, running, halting and finishing a match does around the writes."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone

import rules
from audit.services import audit_record
from matches import clock, hooks
from matches.models import Match, Table
from matches.selectors import discipline_of, has_time_rule
from matches.services.base import Status, WriteResult
from matches.services.guards import _bump_public
from matches.services.tables import _fill_tables

if TYPE_CHECKING:
    from config.types import Actor


def _after_start(match: Match) -> None:
    """Play began: the tournament is running from now on. The public pages change too, but
    the caller bumps the public version as its write's last statement (_answer_started)."""
    hooks.listener().match_started(match=match)


def _answer_started(match: Match, answer: WriteResult) -> WriteResult:
    """The public version of a match that started, bumped once the answer is rendered and
    stored: the tournament row is then locked only until the commit. At the start of a round
    every table bumps it within seconds, and a lock held through the rest of each write made
    them queue one behind the other, holding server threads that pages were waiting for."""
    _bump_public(match)
    return answer


# --- clock internals ------------------------------------------------------------------------


def _schedule_expiry(match: Match) -> None:
    clock_expire = hooks.expiry_task()  # matches.tasks, which calls these services
    match_id, generation, eta = match.pk, match.clock_generation, match.clock_deadline
    transaction.on_commit(
        lambda: clock_expire.apply_async(args=[match_id, generation], eta=eta), robust=True
    )


def _clock_run(match: Match, now: datetime) -> list[str]:
    """Let the clock run from `now`; a new generation makes any earlier task stale."""
    match.clock_running_since = now
    match.clock_generation += 1
    match.clock_deadline = None
    if has_time_rule(match) and match.clock_expired_at is None:
        match.clock_deadline = clock.deadline(
            limit_seconds=match.clock_limit_seconds,
            elapsed_ms=match.clock_elapsed_ms,
            running_since=now,
        )
    if match.clock_deadline is not None:
        _schedule_expiry(match)
    return ["clock_running_since", "clock_generation", "clock_deadline"]


def _clock_halt(match: Match, now: datetime) -> list[str]:
    """Stop the clock at `now`, keeping the net time played."""
    match.clock_elapsed_ms = clock.played_ms(
        elapsed_ms=match.clock_elapsed_ms, running_since=match.clock_running_since, now=now
    )
    match.clock_running_since = None
    match.clock_deadline = None
    match.clock_generation += 1
    return ["clock_elapsed_ms", "clock_running_since", "clock_deadline", "clock_generation"]


def _start_play(match: Match, now: datetime) -> list[str]:
    match.status = Status.RUNNING
    match.started_at = match.started_at or now
    return ["status", "started_at", *_clock_run(match, now)]


# --- finishing ------------------------------------------------------------------------------


def final_score(state: dict[str, Any]) -> tuple[int | None, int | None]:
    """The score a finished match records, as its discipline counts it (frames won, the
    frame's score with the head start, Duplex's final points...)."""
    return rules.of_state(state).result_score(state)


def _player(match: Match, slot: str | None) -> Any:
    if slot == "a":
        return match.player_a
    if slot == "b":
        return match.player_b
    return None


def match_finish_from_state(
    *, match: Match, actor: Actor | None, now: datetime | None = None
) -> Match:
    """Record the end the engine's state reached (race, time, golden ball, forfeit).

    Internal: call with the match locked, inside the write's transaction, after its state was
    saved. Sets winner, loser, result and score, stops the clock, then frees the table and
    tells the tournament."""
    state = match.state
    if not state.get("finished"):
        raise ValueError("the match's state is not finished")
    now = now or timezone.now()
    winner = state["winner"]
    match.winner = _player(match, winner)
    match.loser = _player(match, "b" if winner == "a" else "a")
    # The discipline says what its end reason records: won at the table, on time, forfeit.
    kind = discipline_of(state, match.ruleset).result_kind(state.get("end_reason"))
    match.result = Match.Result(kind)
    match.score_a, match.score_b = final_score(state)
    match.status = Status.FINISHED
    match.finished_at = now
    fields = ["winner", "loser", "result", "score_a", "score_b", "status", "finished_at"]
    if match.clock_running_since is not None:
        fields += _clock_halt(match, now)
    match.save(update_fields=[*fields, "updated_at"])
    _after_close(match, actor)
    return match


def _after_close(match: Match, actor: Actor | None) -> None:
    """The match ended: the public pages, the audit, the tournament, then the freed table."""
    _bump_public(match)
    audit_record(
        actor=actor,
        action="match.finished",
        match=match,
        data={
            "result": match.result,
            "winner": match.winner_id,
            "score": [match.score_a, match.score_b],
            "version": match.version,
        },
    )
    tournament = hooks.listener()
    tournament.match_finished(match=match)
    if match.table_id is not None and tournament.tournament_running(
        tournament_id=match.tournament_id
    ):
        table = Table.objects.select_for_update().get(pk=match.table_id)
        _fill_tables(tournament_id=match.tournament_id, tables=[table], actor=actor)
