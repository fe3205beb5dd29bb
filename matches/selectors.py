"""Match reads: one match, its log, the clock as the API shows it, and the table board."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone

from config.querycache import CompiledQuery
from matches import clock
from matches.models import Match, MatchEvent, Table
from tournaments.models import Tournament

LAST_EVENTS = 10
LIVE = (Match.Status.ON_TABLE, Match.Status.RUNNING, Match.Status.PAUSED)
CLOSED = (Match.Status.FINISHED, Match.Status.WALKOVER, Match.Status.VOID)
QUEUE_ORDER = ("schedule_round", "stage", "round", "order", "pk")


def match_queryset() -> QuerySet[Match]:
    """Matches with what their representation shows, in one query each."""
    return Match.objects.select_related("tournament", "player_a", "player_b", "table")


# Every read of a match (tablets, scoreboards, answers) loads it so: its SQL is built once.
_MATCH = CompiledQuery(lambda pk: match_queryset().filter(pk=pk).order_by()[:1])


def match_get(*, match_id: int) -> Match:
    """The match with its tournament, players and table; Match.DoesNotExist if none."""
    found = _MATCH.fetch(match_id)
    if not found:
        raise Match.DoesNotExist(f"no match {match_id}")
    return found[0]


def match_last_events(*, match: Match, limit: int = LAST_EVENTS) -> list[MatchEvent]:
    """The newest log entries (events and undos), oldest first."""
    entries = list(MatchEvent.objects.filter(match=match).order_by("-seq")[:limit])
    entries.reverse()
    return entries


def timestamp(value: datetime | None) -> str | None:
    """A date and time as the API writes it: what DRF's DateTimeField gives (ISO 8601 in the
    current time zone, "Z" for UTC), without building a field for every value of every
    answer. tests/matches/test_representation.py holds the two equal."""
    if value is None:
        return None
    text = timezone.localtime(value).isoformat()
    return text[:-6] + "Z" if text.endswith("+00:00") else text


def log_entry_data(entry: MatchEvent) -> dict[str, Any]:
    """One log entry as the API shows it (MatchEventSerializer declares the same fields)."""
    return {
        "seq": entry.seq,
        "kind": entry.kind,
        "event": entry.payload,
        "undone": entry.undone,
        "undoes": entry.payload.get("seq") if entry.kind == MatchEvent.Kind.UNDO else None,
        "source": entry.source,
        "created_at": timestamp(entry.created_at),
    }


def match_recent_log(*, match: Match) -> list[dict[str, Any]]:
    """The match's newest log entries as the API shows them, from its log: what
    Match.recent_log holds (used to rebuild it after an import)."""
    return [log_entry_data(entry) for entry in match_last_events(match=match)]


def match_events(*, match: Match, after_seq: int = 0) -> QuerySet[MatchEvent]:
    """The log from entry `after_seq + 1` on (the whole log by default)."""
    return MatchEvent.objects.filter(match=match, seq__gt=after_seq).order_by("seq")


def match_clock(*, match: Match, now: datetime | None = None) -> clock.ClockReading:
    return clock.read(
        limit_seconds=match.clock_limit_seconds,
        elapsed_ms=match.clock_elapsed_ms,
        running_since=match.clock_running_since,
        expired=match.clock_expired_at is not None,
        now=now or timezone.now(),
    )


def match_player_names(*, match: Match) -> dict[str, str]:
    """ "a"/"b" -> name, for messages; a pending slot is left out."""
    names = {}
    for slot, player in (("a", match.player_a), ("b", match.player_b)):
        if player is not None:
            names[slot] = player.name
    return names


def score_summary(state: dict[str, Any]) -> dict[str, Any]:
    """The figures a scoreboard shows, whatever the discipline."""
    if not state:
        return {"score": None, "frames": None}
    if state.get("discipline") == "duplex":
        return {"score": state.get("final") or state.get("plus"), "frames": None}
    return {"score": state.get("score"), "frames": state.get("frames")}


@dataclass
class BoardRow:
    table: Table
    match: Match | None


@dataclass
class TableBoard:
    tournament: Tournament
    tables: list[BoardRow]
    queue: list[Match]  # ready matches in the order they are called (held ones included)
    playing_elsewhere: list[Match] = field(default_factory=list)  # started without a table
    judge_calls: list[Match] = field(default_factory=list)
    now: datetime = field(default_factory=timezone.now)


def table_board(*, tournament: Tournament) -> TableBoard:
    """Every table with its match (score, clock), the queue of ready matches and the open
    judge calls, in three queries whatever the size of the tournament."""
    tables = list(Table.objects.filter(tournament=tournament).order_by("number"))
    live = list(
        match_queryset().filter(tournament=tournament, status__in=LIVE).order_by(*QUEUE_ORDER)
    )
    queue = list(
        match_queryset()
        .filter(tournament=tournament, status=Match.Status.READY)
        .order_by(*QUEUE_ORDER)
    )
    on_table = {m.table_id: m for m in live if m.table_id is not None}
    return TableBoard(
        tournament=tournament,
        tables=[BoardRow(table=t, match=on_table.get(t.pk)) for t in tables],
        queue=queue,
        playing_elsewhere=[m for m in live if m.table_id is None],
        judge_calls=sorted(
            (m for m in [*live, *queue] if m.judge_called_at is not None),
            key=lambda m: m.judge_called_at,
        ),
    )
