"""Checks, idempotent replays, the event append and the public version bump shared by the match writes."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext_lazy as _

import rules
from config.changes import change_emit
from matches import access, errors, hooks, selectors
from matches.models import IdempotencyRecord, Match, MatchEvent
from matches.querycache import (
    WriteBatch,
    insert_row,
)
from matches.representation import match_data
from matches.services.base import Answer, Status, WriteResult
from matches.services.locks import _NEW_ENTRY, _NEW_RECORD, _user

if TYPE_CHECKING:
    from config.types import Actor


def _ruleset(match: Match) -> dict[str, Any]:
    return match.ruleset or match.tournament.ruleset


def _state(match: Match) -> dict[str, Any]:
    # A match made ready without its cached state starts from the ruleset's initial state.
    return match.state or rules.initial_state(_ruleset(match))


def _role(actor: Actor | None, match: Match) -> str:
    """Who the actor is for a write to the match. A match of a private tournament is seen by
    those who score it only: to the others it does not exist (404, as an unknown id, so that
    guessing ids confirms nothing); a match one sees but may not score is a 403."""
    role = access.match_scoring_role(actor, match) if _user(actor) else None
    if role is None:
        if not match.tournament.is_public:
            raise errors.match_not_found()
        raise errors.forbidden(_("You may not score this match."))
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


def player_slot(match: Match, actor: Actor | None) -> str | None:
    """The slot of the acting user in the match (self-scoring), from the players loaded."""
    user = _user(actor)
    for slot, player in (("a", match.player_a), ("b", match.player_b)):
        if user is not None and player is not None and player.user_id == user.pk:
            return slot
    return None


def _check_player_may_act(match: Match, role: str, actor: Actor | None, event: Any = None) -> None:
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
    match: Match,
    key: str | None,
    endpoint: str,
    *,
    expected_version: int | None = None,
    request_hash: str = "",
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
    if record.endpoint != endpoint or (
        request_hash and record.request_hash and record.request_hash != request_hash
    ):
        # Another request under the key (config.idempotency): whatever the version.
        raise errors.idempotency_key_reused()
    return WriteResult(match, record.status_code, record.response, replayed=True)


def _answer(
    match: Match,
    *,
    status_code: int,
    answer: Answer,
    key: str | None,
    endpoint: str,
    batch: WriteBatch | None = None,
    request_hash: str = "",
) -> WriteResult:
    """Render the answer inside the write's transaction and keep it for the idempotency key
    (queued in `batch` when given, which the caller sends)."""
    body = (
        None if answer is Answer.NONE else match_data(match, entry=answer is Answer.MATCH_AND_ENTRY)
    )
    if key:
        record = IdempotencyRecord(
            match=match,
            key=key,
            endpoint=endpoint,
            request_hash=request_hash,
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
    actor: Actor | None,
    kind: str = MatchEvent.Kind.EVENT,
    undoes: MatchEvent | None = None,
    batch: WriteBatch | None = None,
) -> MatchEvent:
    """Append an entry to the match's log (queued in `batch` when given) and bump the
    version; Match.recent_log follows, the caller saves the match."""
    seq, expected = match.version + 1, match.version
    user = _user(actor)
    # The entry is the audit of the ball (who, when, what): no audit entry is written for it.
    entry = MatchEvent(
        match=match,
        seq=seq,
        kind=kind,
        payload=payload,
        undoes=undoes,
        source=source,
        actor=user,
        actor_name=user.get_username() if user is not None else "",
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
    match.recent_log = [*recent, selectors.log_entry_kept(entry, match)]
    change_emit(
        kind="match.event",
        tournament_id=match.tournament_id,
        match_id=match.pk,
        data={"seq": seq, "version": seq, "kind": kind, "undoes": undoes.seq if undoes else None},
        # Read at commit, from this locked row as the write leaves it (its state, its status
        # if the ball ended the match): the push reads nothing more.
        figures=lambda: selectors.live_figures_of(match),
    )
    return entry


def _bump_public(match: Match) -> None:
    _bump_public_id(match.tournament_id)


def _bump_public_id(tournament_id: int) -> None:
    """The public pages change: their ETags and the cached bracket follow the tournament's
    public version, which the tournament side bumps (matches.hooks)."""
    hooks.listener().public_changed(tournament_id=tournament_id)
