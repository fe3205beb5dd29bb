"""Scoring events and undo: the event log of a match."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

import rules
from matches import access, errors, selectors
from matches.models import MatchEvent
from matches.querycache import (
    WriteBatch,
)
from matches.services.base import (
    NOT_STARTED,
    SOURCE_CLOCK,
    Answer,
    Status,
    WriteResult,
)
from matches.services.clock_control import _mark_expired
from matches.services.guards import (
    _answer,
    _append,
    _check_open,
    _check_playable,
    _check_player_may_act,
    _check_version,
    _idempotent_replay,
    _role,
    _ruleset,
    _state,
)
from matches.services.lifecycle import (
    _after_start,
    _answer_started,
    _start_play,
    match_finish_from_state,
)
from matches.services.locks import _SAVE_ENTRY, _SAVE_MATCH, _lock

if TYPE_CHECKING:
    from config.types import Actor


@transaction.atomic
def match_submit_event(
    *,
    match_id: int,
    event: Any,
    expected_version: int | None,
    actor: Actor | None,
    idempotency_key: str | None = None,
    request_hash: str = "",
    answer: Answer = Answer.NONE,
) -> WriteResult:
    """Append one engine event. The first event starts play (and the clock, if not started).

    Raises MatchError: stale version, match not playable, a refusal for who the actor is
    (403), the engine's refusal (RuleRefusal, 422)."""
    match = _lock(match_id, actor)
    role = _role(actor, match)
    replayed = _idempotent_replay(
        match,
        idempotency_key,
        "events",
        expected_version=expected_version,
        request_hash=request_hash,
    )
    if replayed is not None:
        return replayed
    if (
        isinstance(event, dict)
        and event.get("type") == "time_expired"
        and role != access.MATCH_ORGANISER
    ):
        raise errors.forbidden(_("Only the match clock or an organiser can end the time."))
    # A closed match says so whatever version the client saw: there is nothing to reload.
    _check_open(match)
    _check_player_may_act(match, role, actor, event)
    _check_version(match, expected_version)
    _check_playable(match)
    try:
        state = rules.apply(_state(match), event)
    except rules.RuleError as err:  # said in the user's language, with the players' names
        names = selectors.match_player_names(match=match)
        raise errors.rule_refusal(err, names=names) from None
    now = timezone.now()
    fields = ["state", "version", "recent_log", "updated_at"]
    started = match.status in NOT_STARTED
    if started:
        fields += _start_play(match, now)
    if event.get("type") == "time_expired" and match.clock_expired_at is None:
        fields += _mark_expired(match, now)  # entered by hand: the clock agrees
    # The log entry (the ball's audit too), the match and the idempotency record of a ball are
    # one statement on PostgreSQL (WriteBatch): sent before anything that reads them.
    batch = WriteBatch()
    _append(match, payload=event, source=role, actor=actor, batch=batch)
    match.state = state
    batch.update(_SAVE_MATCH, match, fields)
    if started or state["finished"]:
        batch.send()  # the start and the end of play read and write through the ORM
    if started:
        _after_start(match)
    if state["finished"]:
        match_finish_from_state(match=match, actor=actor, now=now)
    result = _answer(
        match,
        status_code=201,
        answer=answer,
        key=idempotency_key,
        endpoint="events",
        batch=batch,
        request_hash=request_hash,
    )
    batch.send()
    return _answer_started(match, result) if started else result


@transaction.atomic
def match_undo(
    *,
    match_id: int,
    actor: Actor | None,
    expected_version: int | None = None,
    idempotency_key: str | None = None,
    request_hash: str = "",
    answer: Answer = Answer.NONE,
) -> WriteResult:
    """Cancel the last event still in force: an "undo" entry is appended (the version grows)
    and the state is the fold of the events not undone. The clock's time_expired is undone
    by an organiser only; a finished match is corrected by the organiser, not undone."""
    match = _lock(match_id, actor)
    role = _role(actor, match)
    replayed = _idempotent_replay(
        match,
        idempotency_key,
        "undo",
        expected_version=expected_version,
        request_hash=request_hash,
    )
    if replayed is not None:
        return replayed
    # A finished match is corrected by the organiser, not undone: nothing reopens it.
    _check_open(match)
    _check_player_may_act(match, role, actor)
    _check_version(match, expected_version)
    in_force = list(
        MatchEvent.objects.filter(match=match, kind=MatchEvent.Kind.EVENT, undone=False).order_by(
            "seq"
        )
    )
    if not in_force:
        raise errors.nothing_to_undo()
    target = in_force.pop()
    ends_time = target.payload.get("type") == "time_expired"
    if (ends_time or target.source == SOURCE_CLOCK) and not access.can_correct_match_clock(
        actor, match
    ):
        raise errors.forbidden(_("Only an organiser can undo the end of time."))
    try:
        state = rules.replay(_ruleset(match), [e.payload for e in in_force])
    except rules.RuleError as err:  # a damaged log or ruleset: the organiser must look
        raise errors.rule_refusal(err, names=selectors.match_player_names(match=match)) from None
    batch = WriteBatch()  # one statement on PostgreSQL, as for an event
    target.undone = True
    batch.update(_SAVE_ENTRY, target, ["undone"])
    _append(  # the undo's audit too (tournaments.selectors.audit.AuditLog)
        match,
        payload={"seq": target.seq},
        source=role,
        actor=actor,
        kind=MatchEvent.Kind.UNDO,
        undoes=target,
        batch=batch,
    )
    match.state = state
    fields = ["state", "version", "recent_log", "updated_at"]
    if ends_time and match.clock_expired_at is not None:
        # The time is no longer up, but the net time played stays: the clock stands at the
        # limit, paused, until the organiser sets the remaining time and resumes.
        match.clock_expired_at = None
        fields.append("clock_expired_at")
        if match.status == Status.RUNNING:
            match.status = Status.PAUSED
            fields.append("status")
    batch.update(_SAVE_MATCH, match, fields)
    result = _answer(
        match,
        status_code=201,
        answer=answer,
        key=idempotency_key,
        endpoint="undo",
        batch=batch,
        request_hash=request_hash,
    )
    batch.send()
    return result
