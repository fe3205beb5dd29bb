"""Match writes: the event log, undo, the net clock, finishing, tables and judge calls.

Every write to a match locks its row (select_for_update) inside one transaction, so two
devices scoring one match are serialised; the unique (match, seq) constraint is the backstop.
Lock order: a match row, then the tournament row (public version, progression), then a table
row. Whoever holds a table lock never waits for a match lock (locked matches are skipped), so
the orders cannot deadlock.

The writes live in one module per concern; this package re-exports them.
"""

from matches.services.base import (  # noqa: F401
    _MS,
    CLOSED,
    LIVE,
    NOT_STARTED,
    SOURCE_CLOCK,
    SWEEP_BATCH,
    TIME_EXPIRED,
    Authorizer,
    Renderer,
    Status,
    WriteResult,
)
from matches.services.clock_control import (  # noqa: F401
    CLOCK_ACTIONS,
    _expire_locked,
    _mark_expired,
    match_clock,
    match_clock_expire,
    match_clock_sweep,
)
from matches.services.guards import (  # noqa: F401
    _answer,
    _append,
    _bump_public,
    _bump_public_id,
    _check_open,
    _check_playable,
    _check_player_may_act,
    _check_version,
    _idempotent_replay,
    _role,
    _ruleset,
    _state,
    player_slot,
)
from matches.services.idempotency import (  # noqa: F401
    _PRUNE_BATCH,
    IDEMPOTENCY_KEEP,
    idempotency_records_prune,
)
from matches.services.judge import (  # noqa: F401
    match_judge_call,
    match_judge_resolve,
    match_walkover,
)
from matches.services.lifecycle import (  # noqa: F401
    _after_close,
    _after_start,
    _answer_started,
    _clock_halt,
    _clock_run,
    _player,
    _schedule_expiry,
    _start_play,
    final_score,
    has_time_rule,
    match_finish_from_state,
)
from matches.services.locks import (  # noqa: F401
    _LOCKED_MATCH,
    _LOCKED_MATCH_AND_ROLE,
    _LOCKED_ROW,
    _NEW_ENTRY,
    _NEW_RECORD,
    _SAVE_ENTRY,
    _SAVE_MATCH,
    _UNUSED_BY_WRITES,
    _lock,
    _locked,
    _user,
)
from matches.services.scoring import (  # noqa: F401
    match_submit_event,
    match_undo,
)
from matches.services.tables import (  # noqa: F401
    _call_to_table,
    _fill_tables,
    _lock_table,
    _table_busy,
    match_assign_table,
    match_hold,
    match_move,
    table_assign_next,
    table_free,
    tables_ensure,
)
