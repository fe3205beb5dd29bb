"""The net clock: start, pause, resume, adjust, expiry and the sweep."""

from __future__ import annotations

import logging
import math
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

import rules
from audit.services import audit_record
from matches import access, errors, selectors
from matches.models import Match
from matches.querycache import (
    WriteBatch,
)
from matches.services.base import (
    _MS,
    CLOSED,
    NOT_STARTED,
    SOURCE_CLOCK,
    SWEEP_BATCH,
    TIME_EXPIRED,
    Answer,
    Status,
    WriteResult,
)
from matches.services.guards import (
    _answer,
    _append,
    _check_playable,
    _check_player_may_act,
    _idempotent_replay,
    _role,
    _state,
)
from matches.services.lifecycle import (
    _after_start,
    _answer_started,
    _clock_halt,
    _clock_run,
    _schedule_expiry,
    _start_play,
    match_finish_from_state,
)
from matches.services.locks import _LOCKED_ROW, _SAVE_MATCH, _lock

if TYPE_CHECKING:
    from config.types import Actor

logger = logging.getLogger("matches.services")


CLOCK_ACTIONS = ("start", "pause", "resume", "adjust")


@transaction.atomic
def match_clock(
    *,
    match_id: int,
    action: str,
    actor: Actor | None,
    remaining_seconds: int | None = None,
    idempotency_key: str | None = None,
    request_hash: str = "",
    answer: Answer = Answer.NONE,
) -> WriteResult:
    """start / pause (technical break) / resume the net clock, or `adjust` it (organisers:
    set the remaining time, None for no limit). Out-of-order actions raise MatchError (409)."""
    match = _lock(match_id, actor)
    role = _role(actor, match)
    replayed = _idempotent_replay(match, idempotency_key, "clock", request_hash=request_hash)
    if replayed is not None:
        return replayed
    if action not in CLOCK_ACTIONS:
        raise ValueError(f"unknown clock action {action!r}")
    _check_playable(match)
    _check_player_may_act(match, role, actor)
    now = timezone.now()
    fields = ["updated_at"]
    data: dict[str, Any] = {}
    if action == "start":
        if match.status not in NOT_STARTED:
            raise errors.clock_already_started()
        fields += _start_play(match, now)
    elif action == "adjust":
        fields += _clock_adjust(match, actor, now, remaining_seconds, data)
    else:
        fields += _clock_pause_or_resume(match, action, now)
    match.save(update_fields=list(dict.fromkeys(fields)))
    reading = selectors.match_clock(match=match, now=now)
    data.update(
        {
            "elapsed_ms": reading.elapsed_ms,
            "deadline": reading.deadline.isoformat() if reading.deadline else None,
            "generation": match.clock_generation,
        }
    )
    audit_record(actor=actor, action=f"match.clock_{action}", match=match, data=data)
    if action == "start":
        _after_start(match)
    result = _answer(
        match,
        status_code=200,
        answer=answer,
        key=idempotency_key,
        endpoint="clock",
        request_hash=request_hash,
    )
    return _answer_started(match, result) if action == "start" else result


def _clock_adjust(
    match: Match,
    actor: Actor | None,
    now: datetime,
    remaining_seconds: int | None,
    data: dict[str, Any],
) -> list[str]:
    """An organiser sets the remaining time (None: no limit); what changed goes to `data`."""
    if not access.can_correct_match_clock(actor, match):
        raise errors.forbidden(_("Only an organiser can change the time of a match."))
    if match.clock_expired_at is not None:
        raise errors.clock_expired()
    data["limit_before"] = match.clock_limit_seconds
    fields: list[str] = []
    running = match.clock_running_since is not None
    if running:
        fields += _clock_halt(match, now)
    if remaining_seconds is None:
        match.clock_limit_seconds = None
    else:
        # The limit moves, the net time played stays true; never less than asked.
        match.clock_limit_seconds = math.ceil(match.clock_elapsed_ms / 1000) + remaining_seconds
    fields.append("clock_limit_seconds")
    if running:
        fields += _clock_run(match, now)
    data["remaining_seconds"] = remaining_seconds
    return fields


def _clock_pause_or_resume(match: Match, action: str, now: datetime) -> list[str]:
    """A technical break, or the end of one."""
    if match.status in NOT_STARTED:
        raise errors.clock_not_started()
    if match.clock_expired_at is not None:
        raise errors.clock_expired()
    if action == "pause":
        if match.status != Status.RUNNING or match.clock_running_since is None:
            raise errors.clock_not_running()
        fields = _clock_halt(match, now)
        match.status = Status.PAUSED
    else:
        if match.status != Status.PAUSED:
            raise errors.clock_not_paused()
        fields = _clock_run(match, now)
        match.status = Status.RUNNING
    return [*fields, "status"]


def _mark_expired(match: Match, now: datetime) -> list[str]:
    """The time is up: the clock stops at its limit."""
    fields = [*_clock_halt(match, now), "clock_expired_at"]
    if match.clock_limit_seconds is not None:
        match.clock_elapsed_ms = match.clock_limit_seconds * 1000
    match.clock_expired_at = now
    return fields


def _expire_locked(match: Match, *, via: str, now: datetime | None = None) -> bool:
    """Expire a locked match's clock if its deadline has passed; True if it did."""
    deadline = match.clock_deadline
    if (
        match.clock_expired_at is not None
        or match.clock_running_since is None
        or deadline is None
        or match.status in CLOSED
    ):
        return False
    now = now or timezone.now()
    if now < deadline:
        # Early (another machine's clock, a rounded ETA): try again at the deadline.
        _schedule_expiry(match)
        return False
    fields = [*_mark_expired(match, now), "updated_at"]
    seq = None
    try:
        state = rules.apply(_state(match), TIME_EXPIRED)
    except rules.RuleError as err:
        # E.g. a second time_expired: the clock is marked expired, the log is unchanged.
        state = None
        logger.info("match %s: time_expired refused by the engine: %s", match.pk, err.code)
    # At the end of a round every clock runs out at once: one statement each (WriteBatch).
    batch = WriteBatch()
    if state is not None:
        entry = _append(
            match, payload=dict(TIME_EXPIRED), source=SOURCE_CLOCK, actor=None, batch=batch
        )
        seq = entry.seq
        match.state = state
        fields += ["state", "version", "recent_log"]
    batch.update(_SAVE_MATCH, match, fields)
    audit_record(
        actor=None,
        action="match.clock_expired",
        match=match,
        data={
            "seq": seq,
            "version": match.version,
            "late_ms": (now - deadline) // _MS,
            "via": via,  # "task" at the deadline, or "sweep" when the task was lost
        },
        batch=batch,
    )
    batch.send()
    logger.info(
        "clock expired: match=%s tournament=%s via=%s late_ms=%s",
        match.pk,
        match.tournament_id,
        via,
        (now - deadline) // _MS,
    )
    if state is not None and state["finished"]:
        match_finish_from_state(match=match, actor=None, now=now)
    return True


def match_clock_expire(*, match_id: int, generation: int | None = None) -> bool:
    """The task at a clock's deadline. A stale generation (the clock was paused or changed
    since), an already expired or stopped clock: nothing happens. True if it expired."""
    with transaction.atomic():
        found = _LOCKED_ROW.fetch(match_id)
        match = found[0] if found else None
        if match is None or (generation is not None and generation != match.clock_generation):
            return False
        return _expire_locked(match, via="task")


def match_clock_sweep(*, now: datetime | None = None) -> int:
    """Expire every running clock whose deadline has passed (a lost or late task). Rows another
    worker holds are skipped, so two sweeps never expire one clock twice."""
    now = now or timezone.now()
    due = list(
        Match.objects.filter(
            status=Status.RUNNING, clock_deadline__lte=now, clock_expired_at__isnull=True
        )
        .order_by("clock_deadline")
        .values_list("pk", flat=True)[:SWEEP_BATCH]
    )
    expired = 0
    for match_id in due:
        with transaction.atomic():
            match = (
                Match.objects.select_for_update(skip_locked=True)
                .filter(pk=match_id, status=Status.RUNNING, clock_expired_at__isnull=True)
                .order_by("pk")  # as above: no join, so only the match row is locked
                .first()
            )
            if match is not None and _expire_locked(match, via="sweep"):
                expired += 1
    return expired
