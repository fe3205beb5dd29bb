"""Match writes: the event log, undo, the net clock, finishing, tables and judge calls.

Every write to a match locks its row (select_for_update) inside one transaction, so two
devices scoring one match are serialised; the unique (match, seq) constraint is the backstop.
Lock order: a match row, then the tournament row (public version, progression), then a table
row. Whoever holds a table lock never waits for a match lock (locked matches are skipped), so
the orders cannot deadlock.

The writes live in one module per concern; this package's public names are `__all__`. A write
takes data (ids, the event, the actor, the `Answer` it renders) and returns a domain object
(`WriteResult`, a `Match`); it refuses with an `ApiError` child only (`MatchError`, its
`RuleRefusal` for the engine's refusal, `TournamentError` from the tournament's hooks). The
helpers a write shares stay in their modules (tests reach them there).
"""

from matches.services.base import (
    CLOSED,
    LIVE,
    NOT_STARTED,
    SOURCE_CLOCK,
    TIME_EXPIRED,
    Answer,
    WriteResult,
)
from matches.services.clock_control import (
    CLOCK_ACTIONS,
    match_clock,
    match_clock_expire,
    match_clock_sweep,
)
from matches.services.guards import player_slot
from matches.services.idempotency import IDEMPOTENCY_KEEP, idempotency_records_prune
from matches.services.judge import match_judge_call, match_judge_resolve, match_walkover
from matches.services.lifecycle import final_score, match_finish_from_state
from matches.services.scoring import match_submit_event, match_undo
from matches.services.tables import (
    match_assign_table,
    match_hold,
    match_move,
    table_assign_next,
    table_free,
    tables_ensure,
)

__all__ = [
    "CLOCK_ACTIONS",
    "CLOSED",
    "IDEMPOTENCY_KEEP",
    "LIVE",
    "NOT_STARTED",
    "SOURCE_CLOCK",
    "TIME_EXPIRED",
    "Answer",
    "WriteResult",
    "final_score",
    "idempotency_records_prune",
    "match_assign_table",
    "match_clock",
    "match_clock_expire",
    "match_clock_sweep",
    "match_finish_from_state",
    "match_hold",
    "match_judge_call",
    "match_judge_resolve",
    "match_move",
    "match_submit_event",
    "match_undo",
    "match_walkover",
    "player_slot",
    "table_assign_next",
    "table_free",
    "tables_ensure",
]
