"""Walkovers and judge calls."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

import rules
from audit.services import audit_record
from matches import access, errors
from matches.models import Match
from matches.services.base import CLOSED, Answer, Status, WriteResult
from matches.services.guards import _answer, _append, _idempotent_replay, _role, _state
from matches.services.lifecycle import _after_close, _clock_halt, _player, match_finish_from_state
from matches.services.locks import _lock, _user

if TYPE_CHECKING:
    from config.types import Actor


@transaction.atomic
def match_walkover(
    *, match: Match, winner_slot: str, actor: Actor | None, reason: str = ""
) -> Match:
    """The other player does not play (withdrawal, no-show). Before the match started: status
    walkover, no score. Once started: the engine's forfeit, so the score played stays."""
    if winner_slot not in ("a", "b"):
        raise ValueError("winner_slot must be 'a' or 'b'")
    locked = _lock(match.pk)
    if locked.status in CLOSED:
        raise errors.match_closed(locked.status, locked.get_status_display())
    if _player(locked, winner_slot) is None:
        raise errors.slot_empty(winner_slot)
    loser_slot = "b" if winner_slot == "a" else "a"
    now = timezone.now()
    audit_record(
        actor=actor,
        action="match.walkover",
        match=locked,
        data={"winner_slot": winner_slot, "reason": reason[:300], "status": locked.status},
    )
    if locked.status in (Status.RUNNING, Status.PAUSED):
        forfeit = {"type": "forfeit", "player": loser_slot}
        try:
            locked.state = rules.apply(_state(locked), forfeit)
        except rules.RuleError as err:  # a damaged state or ruleset: the organiser must look
            raise errors.rule_refusal(err) from None
        # The forfeit's log entry is its audit (tournaments.selectors.audit.AuditLog).
        _append(locked, payload=forfeit, source="organiser", actor=actor)
        locked.save(update_fields=["state", "version", "recent_log", "updated_at"])
        return match_finish_from_state(match=locked, actor=actor, now=now)
    locked.winner = _player(locked, winner_slot)
    locked.loser = _player(locked, loser_slot)
    locked.result = Match.Result.WALKOVER
    locked.status = Status.WALKOVER
    locked.finished_at = now
    locked.score_a = locked.score_b = None
    locked.save(
        update_fields=[
            "winner",
            "loser",
            "result",
            "status",
            "finished_at",
            "score_a",
            "score_b",
            "updated_at",
        ]
    )
    _after_close(locked, actor)
    return locked


# --- judge calls (self-scoring) -------------------------------------------------------------


@transaction.atomic
def match_judge_call(
    *,
    match_id: int,
    actor: Actor | None,
    note: str = "",
    idempotency_key: str | None = None,
    request_hash: str = "",
    answer: Answer = Answer.NONE,
) -> WriteResult:
    """A player (or the referee) calls the judge: the clock pauses if it runs, and the match is
    flagged on the table board until a judge resolves it. A second call changes nothing."""
    match = _lock(match_id, actor)
    replayed = _idempotent_replay(match, idempotency_key, "judge", request_hash=request_hash)
    if replayed is not None:
        return replayed
    _role(actor, match)
    if match.status in CLOSED:
        raise errors.match_finished()
    if match.judge_called_at is None:
        now = timezone.now()
        fields = ["judge_called_at", "judge_called_by", "judge_note", "updated_at"]
        paused = match.status == Status.RUNNING and match.clock_running_since is not None
        if paused:
            fields += _clock_halt(match, now)
            match.status = Status.PAUSED
            fields.append("status")
        match.judge_called_at = now
        match.judge_called_by = _user(actor)
        match.judge_note = note[:300]
        match.save(update_fields=fields)
        audit_record(
            actor=actor,
            action="match.judge_called",
            match=match,
            data={"note": match.judge_note, "clock_paused": paused, "version": match.version},
        )
    return _answer(
        match,
        status_code=200,
        answer=answer,
        key=idempotency_key,
        endpoint="judge",
        request_hash=request_hash,
    )


@transaction.atomic
def match_judge_resolve(
    *,
    match_id: int,
    actor: Actor | None,
    note: str = "",
    idempotency_key: str | None = None,
    request_hash: str = "",
    answer: Answer = Answer.NONE,
) -> WriteResult:
    """A judge (a referee of the tournament) or an organiser closes the call. The clock is not
    resumed: the judge resumes it when play goes on. Corrections are ordinary audited writes."""
    match = _lock(match_id, actor)
    replayed = _idempotent_replay(match, idempotency_key, "judge", request_hash=request_hash)
    if replayed is not None:
        return replayed
    if not access.can_resolve_judge_call(actor, match):
        raise errors.forbidden(_("Only a judge or an organiser can resolve a judge call."))
    if match.judge_called_at is None:
        raise errors.judge_not_called()
    audit_record(
        actor=actor,
        action="match.judge_resolved",
        match=match,
        data={
            "called_at": match.judge_called_at.isoformat(),
            "called_by": match.judge_called_by_id,
            "call_note": match.judge_note,
            "note": note[:300],
            "version": match.version,
        },
    )
    match.judge_called_at = None
    match.judge_called_by = None
    match.judge_note = ""
    match.save(update_fields=["judge_called_at", "judge_called_by", "judge_note", "updated_at"])
    return _answer(
        match,
        status_code=200,
        answer=answer,
        key=idempotency_key,
        endpoint="judge",
        request_hash=request_hash,
    )
