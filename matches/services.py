"""Match writes: the event log, undo, the net clock, finishing, tables and judge calls.

Every write to a match locks its row (select_for_update) inside one transaction, so two
devices scoring one match are serialised; the unique (match, seq) constraint is the backstop.
Lock order: a match row, then the tournament row (public version, progression), then a table
row. Whoever holds a table lock never waits for a match lock (locked matches are skipped), so
the orders cannot deadlock.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import F, QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

import rules
from config.querycache import (
    CompiledInsert,
    CompiledQuery,
    CompiledUpdate,
    WriteBatch,
    insert_row,
)
from matches import clock, errors, selectors
from matches.models import IdempotencyRecord, Match, MatchEvent, Table
from tournaments import access
from tournaments.audit import audit_record
from tournaments.models import Tournament

logger = logging.getLogger(__name__)

Status = Match.Status
LIVE = (Status.ON_TABLE, Status.RUNNING, Status.PAUSED)
NOT_STARTED = (Status.READY, Status.ON_TABLE)
CLOSED = (Status.FINISHED, Status.WALKOVER, Status.VOID)
# Disciplines without a time-limit rule: their clock only shows the time (Duplex, D).
NO_TIME_RULE = frozenset({"duplex"})
TIME_EXPIRED = {"type": "time_expired"}
SOURCE_CLOCK = "clock"
SWEEP_BATCH = 200
_MS = timedelta(milliseconds=1)

RESULT_BY_END = {
    "frames": Match.Result.RACE,
    "game": Match.Result.RACE,
    "time": Match.Result.TIME,
    "golden_ball": Match.Result.TIME,
    "forfeit": Match.Result.FORFEIT,
}

Renderer = Callable[[Match], dict[str, Any]]
# The caller's permission check on the locked match (the API's object permissions), so that a
# write loads its match once; it raises to refuse.
Authorizer = Callable[[Match], None]


@dataclass
class WriteResult:
    """The match after a write, and the answer stored for its idempotency key."""

    match: Match
    status_code: int
    body: dict[str, Any] | None
    replayed: bool = False


# --- helpers --------------------------------------------------------------------------------


def _user(actor: Any) -> Any:
    return actor if actor is not None and getattr(actor, "is_authenticated", False) else None


# Tournament columns no write of a match reads: its texts, entry and prize settings (a finished
# match's progression locks and reads the tournament itself). Left out of the lock, they are not
# loaded and parsed on every ball, and its SQL stays short enough for the database driver to
# keep its parsed form (tests/performance/test_event_path.py).
_UNUSED_BY_WRITES = tuple(
    f"tournament__{name}"
    for name in (
        "description",
        "venue",
        "chief_judge",
        "stage_rules",
        "fee_bands",
        "place_shares",
        "preset",
        "entry_fee",
        "pool_percent",
        "prize_unit",
        "added_money",
        "max_players",
        "draw_method",
        "random_seed",
        "withdrawn_prize",
        "no_show_rule",
        "archived",
        "organiser_name",
        "organiser_logo",  # an image, up to 280 KB of text
        "diploma_places",
        "diploma_language",
        "diploma_amount",
        "diploma_degree",
        "online_entry",
        "entry_opens_at",
        "entry_closes_at",
        "entry_min_rating",
        "entry_max_rating",
    )
)


def _locked(pk: Any) -> QuerySet[Match]:
    """The match row locked (only it), with what its answer shows (selectors.match_queryset);
    unordered: first() would sort by Match's default ordering, a join of the tournament."""
    return (
        selectors.match_queryset()
        .defer(*_UNUSED_BY_WRITES)
        .select_for_update(of=("self",))
        .filter(pk=pk)
        .order_by()
    )


# Built once per thread: run on every scoring write, and its SQL (a hundred columns of four
# tables) costs more to build than to run. The second adds the role flags of the user given
# as its second argument (tournaments.access._role_flags): the role costs no query of its own.
_LOCKED_MATCH = CompiledQuery(lambda pk: _locked(pk)[:1])
_LOCKED_MATCH_AND_ROLE = CompiledQuery(
    lambda pk, user_id: _locked(pk).annotate(**access.role_flag_annotations(user_id))[:1],
    arity=2,
)

# The match row alone, locked: what a clock's expiry starts from. No joins: this runs for
# every clock at once at the end of a round; what a finish needs (players, tournament) is
# loaded then. Unordered, as Match's default ordering joins the tournament, and FOR UPDATE
# would lock the tournament row too: every expiry would stall every table's commit.
_LOCKED_ROW = CompiledQuery(
    lambda pk: Match.objects.select_for_update().filter(pk=pk).order_by()[:1]
)

# The rows every scored ball writes, inserted as save() would with their SQL built once.
_NEW_ENTRY = CompiledInsert(MatchEvent)
_NEW_RECORD = CompiledInsert(IdempotencyRecord)
_SAVE_MATCH = CompiledUpdate(Match)
_SAVE_ENTRY = CompiledUpdate(MatchEvent)


def _lock(match_id: int, actor: Any = None) -> Match:
    """Lock the match row (only it) and load it with its tournament, players and table; with
    the role flags of `actor` when a user writes."""
    user = _user(actor)
    if user is None:
        found = _LOCKED_MATCH.fetch(match_id)
    else:
        found = _LOCKED_MATCH_AND_ROLE.fetch(match_id, user.pk)
        if found:
            access.role_flags_loaded(found[0], user.pk)
    if not found:
        raise errors.MatchError("match_not_found", _("The match does not exist."), status=404)
    return found[0]


def _ruleset(match: Match) -> dict[str, Any]:
    return match.ruleset or match.tournament.ruleset


def _state(match: Match) -> dict[str, Any]:
    # A match made ready without its cached state starts from the ruleset's initial state.
    return match.state or rules.initial_state(_ruleset(match))


def _role(actor: Any, match: Match) -> str:
    role = access.match_scoring_role(actor, match) if _user(actor) else None
    if role is None:
        raise PermissionDenied(_("You may not score this match."))
    return role


def _check_version(match: Match, expected: int | None) -> None:
    if expected is not None and expected != match.version:
        raise errors.stale_version(current=match.version, expected=expected)


def _check_open(match: Match) -> None:
    """A match with a result (finished, walked over, corrected) or not needed takes nothing
    more: only the organiser's correction changes its result."""
    if match.status == Status.FINISHED:
        raise errors.match_finished()
    if match.status in (Status.WALKOVER, Status.VOID):
        raise errors.match_closed(match.status, match.get_status_display())


def _check_playable(match: Match) -> None:
    _check_open(match)
    if match.status == Status.SCHEDULED or match.player_a_id is None or match.player_b_id is None:
        raise errors.match_not_ready()


def player_slot(match: Match, actor: Any) -> str | None:
    """The slot of the acting user in the match (self-scoring), from the players loaded."""
    user = _user(actor)
    for slot, player in (("a", match.player_a), ("b", match.player_b)):
        if user is not None and player is not None and player.user_id == user.pk:
            return slot
    return None


def _check_player_may_act(match: Match, role: str, actor: Any, event: Any = None) -> None:
    """Self-scoring is fair: while a judge call is open only a referee or an organiser acts
    on the match, and a player concedes only for himself."""
    if role != access.MATCH_PLAYER:
        return
    if match.judge_called_at is not None:
        raise errors.judge_called()
    conceding = isinstance(event, dict) and event.get("type") == "forfeit"
    if conceding and event.get("player") != player_slot(match, actor):
        raise errors.concede_only_yourself()


def _idempotent_replay(
    match: Match, key: str | None, endpoint: str, *, expected_version: int | None = None
) -> WriteResult | None:
    """The stored answer of a write already made with `key`.

    A write that was made bumped the version past the one it expected; so a request that
    expects the current version is not a retry, and the lookup is skipped (a query on every
    scored ball). Should its key have been used all the same (a client reusing keys), the
    record's unique constraint refuses it in _answer and nothing is written."""
    if not key or (expected_version is not None and expected_version == match.version):
        return None
    found = list(IdempotencyRecord.objects.filter(match_id=match.pk, key=key)[:1])  # unique
    if not found:
        return None
    record = found[0]
    if record.endpoint != endpoint:
        raise errors.idempotency_key_reused()
    return WriteResult(match, record.status_code, record.response, replayed=True)


def _answer(
    match: Match,
    *,
    status_code: int,
    respond: Renderer | None,
    key: str | None,
    endpoint: str,
    batch: WriteBatch | None = None,
) -> WriteResult:
    """Render the answer inside the write's transaction and keep it for the idempotency key
    (queued in `batch` when given, which the caller sends)."""
    body = respond(match) if respond is not None else None
    if key:
        record = IdempotencyRecord(
            match=match,
            key=key,
            endpoint=endpoint,
            status_code=status_code,
            response=body if body is not None else {"id": match.pk, "version": match.version},
        )
        # A key that answered another request (see _idempotent_replay): this write is undone
        # with the transaction, and the client is told.
        insert_row(_NEW_RECORD, record, batch=batch, refused=errors.idempotency_key_reused)
    return WriteResult(match, status_code, body)


def _append(
    match: Match,
    *,
    payload: dict[str, Any],
    source: str,
    actor: Any,
    kind: str = MatchEvent.Kind.EVENT,
    undoes: MatchEvent | None = None,
    batch: WriteBatch | None = None,
) -> MatchEvent:
    """Append an entry to the match's log (queued in `batch` when given) and bump the
    version; Match.recent_log follows, the caller saves the match."""
    seq, expected = match.version + 1, match.version
    entry = MatchEvent(
        match=match,
        seq=seq,
        kind=kind,
        payload=payload,
        undoes=undoes,
        source=source,
        actor=_user(actor),
    )
    # The log's constraint refuses a second entry with this seq: only reachable if the row
    # lock was bypassed, it keeps the log whole.
    insert_row(
        _NEW_ENTRY,
        entry,
        batch=batch,
        refused=lambda: errors.stale_version(current=seq, expected=expected),
    )
    match.version = seq
    recent = [dict(item) for item in match.recent_log[-(selectors.LAST_EVENTS - 1) :]]
    if undoes is not None:
        for item in recent:
            if item["seq"] == undoes.seq:
                item["undone"] = True
    match.recent_log = [*recent, selectors.log_entry_data(entry)]
    return entry


def _bump_public(match: Match) -> None:
    _bump_public_id(match.tournament_id)


def _bump_public_id(tournament_id: int) -> None:
    """The public pages change: their ETags and the cached bracket follow public_version."""
    Tournament.objects.filter(pk=tournament_id).update(public_version=F("public_version") + 1)


def _after_start(match: Match) -> None:
    """Play began: the tournament is running from now on. The public pages change too, but
    the caller bumps the public version as its write's last statement (_answer_started)."""
    from tournaments import services as tournament_services  # tournaments imports matches

    tournament_services.tournament_on_match_started(match=match)


def _answer_started(match: Match, answer: WriteResult) -> WriteResult:
    """The public version of a match that started, bumped once the answer is rendered and
    stored: the tournament row is then locked only until the commit. At the start of a round
    every table bumps it within seconds, and a lock held through the rest of each write made
    them queue one behind the other, holding server threads that pages were waiting for."""
    _bump_public(match)
    return answer


def has_time_rule(match: Match) -> bool:
    discipline = (match.state or {}).get("discipline") or _ruleset(match).get("discipline")
    return discipline not in NO_TIME_RULE


# --- clock internals ------------------------------------------------------------------------


def _schedule_expiry(match: Match) -> None:
    from matches.tasks import clock_expire  # the tasks module imports this one

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
    """Frames won when a match is more than one frame, else the frame's score (head start
    included); Duplex: the final points (the plus points when it ended before frame 3)."""
    if state.get("discipline") == "duplex":
        points = state.get("final") or state.get("plus")
    elif state.get("ruleset", {}).get("frames_to_win", 1) > 1:
        points = state.get("frames")
    else:
        points = state.get("score")
    if not points:
        return None, None
    return points.get("a"), points.get("b")


def _player(match: Match, slot: str | None) -> Any:
    if slot == "a":
        return match.player_a
    if slot == "b":
        return match.player_b
    return None


def match_finish_from_state(*, match: Match, actor: Any, now: datetime | None = None) -> Match:
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
    match.result = RESULT_BY_END.get(state.get("end_reason") or "", Match.Result.RACE)
    match.score_a, match.score_b = final_score(state)
    match.status = Status.FINISHED
    match.finished_at = now
    fields = ["winner", "loser", "result", "score_a", "score_b", "status", "finished_at"]
    if match.clock_running_since is not None:
        fields += _clock_halt(match, now)
    match.save(update_fields=[*fields, "updated_at"])
    _after_close(match, actor)
    return match


def _after_close(match: Match, actor: Any) -> None:
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
    from tournaments import services as tournament_services  # tournaments imports matches

    tournament_services.tournament_on_match_finished(match=match)
    if (
        match.table_id is not None
        and Tournament.objects.filter(
            pk=match.tournament_id, status=Tournament.Status.RUNNING
        ).exists()
    ):
        table = Table.objects.select_for_update().get(pk=match.table_id)
        _fill_tables(tournament_id=match.tournament_id, tables=[table], actor=actor)


# --- events and undo ------------------------------------------------------------------------


@transaction.atomic
def match_submit_event(
    *,
    match_id: int,
    event: Any,
    expected_version: int | None,
    actor: Any,
    idempotency_key: str | None = None,
    respond: Renderer | None = None,
    authorize: Authorizer | None = None,
) -> WriteResult:
    """Append one engine event. The first event starts play (and the clock, if not started).

    Raises MatchError (stale version, match not playable), rules.RuleError (the engine's
    refusal), PermissionDenied."""
    match = _lock(match_id, actor)
    if authorize is not None:
        authorize(match)
    role = _role(actor, match)
    replayed = _idempotent_replay(
        match, idempotency_key, "events", expected_version=expected_version
    )
    if replayed is not None:
        return replayed
    if (
        isinstance(event, dict)
        and event.get("type") == "time_expired"
        and role != access.MATCH_ORGANISER
    ):
        raise PermissionDenied(_("Only the match clock or an organiser can end the time."))
    # A closed match says so whatever version the client saw: there is nothing to reload.
    _check_open(match)
    _check_player_may_act(match, role, actor, event)
    _check_version(match, expected_version)
    _check_playable(match)
    state = rules.apply(_state(match), event)
    now = timezone.now()
    fields = ["state", "version", "recent_log", "updated_at"]
    started = match.status in NOT_STARTED
    if started:
        fields += _start_play(match, now)
    if event.get("type") == "time_expired" and match.clock_expired_at is None:
        fields += _mark_expired(match, now)  # entered by hand: the clock agrees
    # The log entry, the match, the audit entry and the idempotency record of a ball are one
    # statement on PostgreSQL (WriteBatch): sent before anything that reads them.
    batch = WriteBatch()
    entry = _append(match, payload=event, source=role, actor=actor, batch=batch)
    match.state = state
    batch.update(_SAVE_MATCH, match, fields)
    audit_record(
        actor=actor,
        action="match.event",
        match=match,
        data={"seq": entry.seq, "event": event, "version": match.version},
        batch=batch,
    )
    if started or state["finished"]:
        batch.send()  # the start and the end of play read and write through the ORM
    if started:
        _after_start(match)
    if state["finished"]:
        match_finish_from_state(match=match, actor=actor, now=now)
    answer = _answer(
        match,
        status_code=201,
        respond=respond,
        key=idempotency_key,
        endpoint="events",
        batch=batch,
    )
    batch.send()
    return _answer_started(match, answer) if started else answer


@transaction.atomic
def match_undo(
    *,
    match_id: int,
    actor: Any,
    expected_version: int | None = None,
    idempotency_key: str | None = None,
    respond: Renderer | None = None,
    authorize: Authorizer | None = None,
) -> WriteResult:
    """Cancel the last event still in force: an "undo" entry is appended (the version grows)
    and the state is the fold of the events not undone. The clock's time_expired is undone
    by an organiser only; a finished match is corrected by the organiser, not undone."""
    match = _lock(match_id, actor)
    if authorize is not None:
        authorize(match)
    role = _role(actor, match)
    replayed = _idempotent_replay(match, idempotency_key, "undo", expected_version=expected_version)
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
        raise PermissionDenied(_("Only an organiser can undo the end of time."))
    state = rules.replay(_ruleset(match), [e.payload for e in in_force])
    batch = WriteBatch()  # one statement on PostgreSQL, as for an event
    target.undone = True
    batch.update(_SAVE_ENTRY, target, ["undone"])
    entry = _append(
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
    audit_record(
        actor=actor,
        action="match.undo",
        match=match,
        data={
            "seq": entry.seq,
            "undone_seq": target.seq,
            "event": target.payload,
            "version": match.version,
        },
        batch=batch,
    )
    answer = _answer(
        match, status_code=201, respond=respond, key=idempotency_key, endpoint="undo", batch=batch
    )
    batch.send()
    return answer


# --- the clock ------------------------------------------------------------------------------

CLOCK_ACTIONS = ("start", "pause", "resume", "adjust")


@transaction.atomic
def match_clock(
    *,
    match_id: int,
    action: str,
    actor: Any,
    remaining_seconds: int | None = None,
    idempotency_key: str | None = None,
    respond: Renderer | None = None,
    authorize: Authorizer | None = None,
) -> WriteResult:
    """start / pause (technical break) / resume the net clock, or `adjust` it (organisers:
    set the remaining time, None for no limit). Out-of-order actions raise MatchError (409)."""
    match = _lock(match_id, actor)
    if authorize is not None:
        authorize(match)
    role = _role(actor, match)
    replayed = _idempotent_replay(match, idempotency_key, "clock")
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
        if not access.can_correct_match_clock(actor, match):
            raise PermissionDenied(_("Only an organiser can change the time of a match."))
        if match.clock_expired_at is not None:
            raise errors.clock_expired()
        data["limit_before"] = match.clock_limit_seconds
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
    else:
        if match.status in NOT_STARTED:
            raise errors.clock_not_started()
        if match.clock_expired_at is not None:
            raise errors.clock_expired()
        if action == "pause":
            if match.status != Status.RUNNING or match.clock_running_since is None:
                raise errors.clock_not_running()
            fields += _clock_halt(match, now)
            match.status = Status.PAUSED
        else:
            if match.status != Status.PAUSED:
                raise errors.clock_not_paused()
            fields += _clock_run(match, now)
            match.status = Status.RUNNING
        fields.append("status")
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
    answer = _answer(match, status_code=200, respond=respond, key=idempotency_key, endpoint="clock")
    return _answer_started(match, answer) if action == "start" else answer


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


# --- walkover -----------------------------------------------------------------------------


@transaction.atomic
def match_walkover(*, match: Match, winner_slot: str, actor: Any, reason: str = "") -> Match:
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
        locked.state = rules.apply(_state(locked), forfeit)
        entry = _append(locked, payload=forfeit, source="organiser", actor=actor)
        locked.save(update_fields=["state", "version", "recent_log", "updated_at"])
        audit_record(
            actor=actor,
            action="match.event",
            match=locked,
            data={"seq": entry.seq, "event": forfeit, "version": locked.version},
        )
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
    actor: Any,
    note: str = "",
    idempotency_key: str | None = None,
    respond: Renderer | None = None,
) -> WriteResult:
    """A player (or the referee) calls the judge: the clock pauses if it runs, and the match is
    flagged on the table board until a judge resolves it. A second call changes nothing."""
    match = _lock(match_id, actor)
    replayed = _idempotent_replay(match, idempotency_key, "judge")
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
    return _answer(match, status_code=200, respond=respond, key=idempotency_key, endpoint="judge")


@transaction.atomic
def match_judge_resolve(
    *,
    match_id: int,
    actor: Any,
    note: str = "",
    idempotency_key: str | None = None,
    respond: Renderer | None = None,
) -> WriteResult:
    """A judge (a referee of the tournament) or an organiser closes the call. The clock is not
    resumed: the judge resumes it when play goes on. Corrections are ordinary audited writes."""
    match = _lock(match_id, actor)
    replayed = _idempotent_replay(match, idempotency_key, "judge")
    if replayed is not None:
        return replayed
    if not access.can_resolve_judge_call(actor, match):
        raise PermissionDenied(_("Only a judge or an organiser can resolve a judge call."))
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
    return _answer(match, status_code=200, respond=respond, key=idempotency_key, endpoint="judge")


# --- tables ---------------------------------------------------------------------------------


def _lock_table(*, tournament_id: int, table: Table | int) -> Table:
    """Lock a table of the tournament by instance or number."""
    # Ordered by pk, not Table's default (through the tournament, which FOR UPDATE would lock).
    qs = Table.objects.select_for_update().filter(tournament_id=tournament_id).order_by("pk")
    found = (
        qs.filter(pk=table.pk).first()
        if isinstance(table, Table)
        else qs.filter(number=table).first()
    )
    if found is None or not found.is_active:
        number = table.number if isinstance(table, Table) else table
        raise errors.table_not_found(number)
    return found


def _table_busy(table: Table) -> bool:
    return Match.objects.filter(table=table, status__in=LIVE).exists()


def _call_to_table(match: Match, table: Table, *, now: datetime, actor: Any) -> None:
    match.table = table
    match.called_at = now
    fields = ["table", "called_at", "updated_at"]
    if match.status == Status.READY:
        match.status = Status.ON_TABLE
        fields.append("status")
    match.save(update_fields=fields)
    audit_record(
        actor=actor,
        action="match.table_assigned",
        match=match,
        data={"table": table.number},
    )


def _fill_tables(*, tournament_id: int, tables: Iterable[Table], actor: Any) -> list[Match]:
    """Send the next ready matches to the given (locked) tables that are free, in queue order
    (schedule round, stage, round, order); a player already at a table is not called twice."""
    live = list(
        Match.objects.filter(tournament_id=tournament_id, status__in=LIVE).values_list(
            "table_id", "player_a_id", "player_b_id"
        )
    )
    busy_tables = {t for t, _a, _b in live if t is not None}
    busy_players = {p for _t, a, b in live for p in (a, b) if p is not None}
    free = [t for t in tables if t.is_active and t.pk not in busy_tables]
    if not free:
        return []
    queue = (
        Match.objects.select_for_update(skip_locked=True, of=("self",))
        .filter(
            tournament_id=tournament_id,
            status=Status.READY,
            held=False,
            table__isnull=True,
            player_a__isnull=False,
            player_b__isnull=False,
        )
        .order_by("schedule_round", "stage", "round", "order", "pk")
    )
    now = timezone.now()
    assigned: list[Match] = []
    for match in queue:
        if not free:
            break
        if match.player_a_id in busy_players or match.player_b_id in busy_players:
            continue
        _call_to_table(match, free.pop(0), now=now, actor=actor)
        busy_players.update((match.player_a_id, match.player_b_id))
        assigned.append(match)
    return assigned


@transaction.atomic
def tables_ensure(*, tournament: Tournament, count: int, actor: Any) -> list[Table]:
    """Tables 1..count exist and are in use; free tables above `count` go out of use."""
    if count < 0:
        raise ValueError("count must not be negative")
    existing = {
        t.number: t
        for t in Table.objects.select_for_update().filter(tournament=tournament).order_by("number")
    }
    created = [
        Table(tournament=tournament, number=n) for n in range(1, count + 1) if n not in existing
    ]
    Table.objects.bulk_create(created)
    Table.objects.filter(tournament=tournament, number__lte=count, is_active=False).update(
        is_active=True
    )
    busy = Match.objects.filter(
        tournament=tournament, status__in=LIVE, table__number__gt=count
    ).values_list("table_id", flat=True)
    Table.objects.filter(tournament=tournament, number__gt=count, is_active=True).exclude(
        pk__in=list(busy)
    ).update(is_active=False)
    audit_record(
        actor=actor,
        action="tables.ensure",
        tournament=tournament,
        data={"count": count, "created": [t.number for t in created]},
    )
    return list(Table.objects.filter(tournament=tournament).order_by("number"))


@transaction.atomic
def table_assign_next(*, tournament: Tournament, actor: Any) -> list[Match]:
    """Every free table in use gets the next ready match that is not held."""
    # Tables called show on the public pages. The tournament row before the table rows: the
    # order of a finishing match (match, tournament, table), so the two cannot deadlock.
    _bump_public_id(tournament.pk)
    tables = list(
        Table.objects.select_for_update()
        .filter(tournament=tournament, is_active=True)
        .order_by("number")
    )
    return _fill_tables(tournament_id=tournament.pk, tables=tables, actor=actor)


@transaction.atomic
def match_assign_table(*, match: Match, table: Table | int, actor: Any) -> Match:
    """Call a ready match (or one played without a table) to a free table."""
    locked = _lock(match.pk)
    if locked.status not in (Status.READY, Status.RUNNING, Status.PAUSED, Status.ON_TABLE):
        raise errors.match_not_callable(locked.status, locked.get_status_display())
    if locked.table_id is not None and locked.status in LIVE:
        return match_move(match=locked, table=table, actor=actor)
    _bump_public(locked)  # before the table lock, as in table_assign_next
    target = _lock_table(tournament_id=locked.tournament_id, table=table)
    if _table_busy(target):
        raise errors.table_busy(target.number)
    _call_to_table(locked, target, now=timezone.now(), actor=actor)
    return locked


@transaction.atomic
def match_move(*, match: Match, table: Table | int, actor: Any) -> Match:
    """Move a match that is on a table to another free table."""
    locked = _lock(match.pk)
    if locked.table_id is None or locked.status not in LIVE:
        raise errors.match_not_on_table()
    _bump_public(locked)  # before the table lock, as in table_assign_next
    target = _lock_table(tournament_id=locked.tournament_id, table=table)
    if target.pk == locked.table_id:
        return locked
    if _table_busy(target):
        raise errors.table_busy(target.number)
    before = locked.table.number if locked.table else None
    locked.table = target
    locked.save(update_fields=["table", "updated_at"])
    audit_record(
        actor=actor,
        action="match.table_moved",
        match=locked,
        data={"from": before, "to": target.number},
    )
    return locked


@transaction.atomic
def match_hold(*, match: Match, held: bool, actor: Any) -> Match:
    """Hold a match back from the table queue (or release it). Holding a match that waits at a
    table and has not started sends it back, freeing the table."""
    locked = _lock(match.pk)
    if locked.status in CLOSED:
        raise errors.match_closed(locked.status, locked.get_status_display())
    locked.held = held
    fields = ["held", "updated_at"]
    data: dict[str, Any] = {"held": held}
    if held and locked.status == Status.ON_TABLE:
        _bump_public(locked)  # the table it left is free on the public pages
        data["table_freed"] = locked.table.number if locked.table else None
        locked.status = Status.READY
        locked.table = None
        locked.called_at = None
        fields += ["status", "table", "called_at"]
    locked.save(update_fields=fields)
    audit_record(actor=actor, action="match.hold", match=locked, data=data)
    return locked


@transaction.atomic
def table_free(*, table: Table, actor: Any) -> Match:
    """Take the match waiting at a table back to the queue. A started match is not touched:
    it is moved or finished instead."""
    _bump_public_id(table.tournament_id)  # before the table lock, as in table_assign_next
    locked_table = _lock_table(tournament_id=table.tournament_id, table=table)
    match = (
        Match.objects.select_for_update(skip_locked=True, of=("self",))
        .select_related("tournament", "player_a", "player_b", "table")
        .filter(table=locked_table, status__in=LIVE)
        .first()
    )
    if match is None:
        if _table_busy(locked_table):  # locked by a write in progress: it is being played
            raise errors.match_in_progress(locked_table.number)
        raise errors.table_already_free(locked_table.number)
    if match.status != Status.ON_TABLE:
        raise errors.match_in_progress(locked_table.number)
    match.status = Status.READY
    match.table = None
    match.called_at = None
    match.save(update_fields=["status", "table", "called_at", "updated_at"])
    audit_record(
        actor=actor,
        action="table.freed",
        match=match,
        data={"table": locked_table.number},
    )
    return match


# --- housekeeping ---------------------------------------------------------------------------

# A client retries a write within seconds (a tablet that lost its answer); a day is ample.
IDEMPOTENCY_KEEP = timedelta(days=1)
_PRUNE_BATCH = 5000


def idempotency_records_prune(*, now: datetime | None = None) -> int:
    """Delete the stored answers of writes older than IDEMPOTENCY_KEEP; returns how many.
    In batches, each its own transaction, so that no scoring write waits behind one big
    delete. A key sent again after that is a new request: an event's expected version,
    stale by then, still keeps it from being applied twice (409)."""
    cutoff = (now or timezone.now()) - IDEMPOTENCY_KEEP
    deleted = 0
    while True:
        with transaction.atomic():
            batch = list(
                IdempotencyRecord.objects.filter(created_at__lt=cutoff)
                .order_by("pk")
                .values_list("pk", flat=True)[:_PRUNE_BATCH]
            )
            if not batch:
                return deleted
            deleted += IdempotencyRecord.objects.filter(pk__in=batch).delete()[0]
