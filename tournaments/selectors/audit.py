"""The audit log as its readers see it: the audit entries and the match log's entries merged
in one query (AuditLog), for a tournament or one match, and filtered by kind, match and person."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any, overload

from django.db.models import Case, CharField, F, IntegerField, JSONField, Q, QuerySet, Value, When

from audit.models import AuditEntry
from matches.models import Match, MatchEvent
from matches.services.base import SOURCE_CLOCK
from tournaments.models import Tournament

# The actions the match's event log stands for: a ball (or any engine event) and an undo write
# no audit entry, their log entry is their record (docs/architecture.md, "The audit log").
EVENT_ACTIONS = {MatchEvent.Kind.EVENT: "match.event", MatchEvent.Kind.UNDO: "match.undo"}
_COLUMNS = (
    "log_id",
    "log_tournament",
    "log_match",
    "log_actor",
    "log_actor_name",
    "log_player",
    "log_action",
    "log_data",
    "log_imported",
    "log_created",
    # A log entry's own columns (null for an audit entry): its data is made from them here,
    # not in SQL, where SQLite would take a JSON column for a string.
    "log_seq",
    "log_event",
    "log_undone_seq",
    "log_undone_event",
)


class AuditLog:
    """The audit log as its readers see it: the audit entries and the match log's entries
    (events and undos), newest first, as AuditEntry instances.

    One UNION ALL of the two, ordered and sliced by the database, so an offset page
    (Paginator, the API's limit/offset) is a page of the merged log and count() counts both.
    A log entry reads as the audit entry it used to write: action "match.event" or
    "match.undo", data {"seq", "event", "version"} (an undo's "event" is the entry it undid,
    with "undone_seq"), and a negative id (minus the log entry's), so ids stay unique. The
    clock's own time_expired is left out: its audit entry (match.clock_expired) says it.
    Each page loads its matches with their players in one query."""

    def __init__(self, entries: QuerySet[AuditEntry], events: QuerySet[MatchEvent] | None):
        self._entries = entries
        self._events = events

    def _union(self) -> QuerySet[Any]:
        entries = (
            self._entries.order_by()
            .annotate(
                log_id=F("id"),
                log_tournament=F("tournament_id"),
                log_match=F("match_id"),
                log_actor=F("actor_id"),
                log_actor_name=F("actor_name"),
                log_player=F("player_id"),
                log_action=F("action"),
                log_data=F("data"),
                log_imported=F("imported"),
                log_created=F("created_at"),
                log_seq=Value(None, output_field=IntegerField()),
                log_event=Value(None, output_field=JSONField()),
                log_undone_seq=Value(None, output_field=IntegerField()),
                log_undone_event=Value(None, output_field=JSONField()),
            )
            .values_list(*_COLUMNS)
        )
        if self._events is not None:
            undo = Q(kind=MatchEvent.Kind.UNDO)
            events = (
                self._events.order_by()
                .annotate(
                    log_id=F("id") * -1,
                    log_tournament=F("match__tournament_id"),
                    log_match=F("match_id"),
                    log_actor=F("actor_id"),
                    log_actor_name=Case(
                        When(actor_name="", then=Value("system")), default=F("actor_name")
                    ),
                    log_player=Value(None, output_field=IntegerField()),
                    log_action=Case(
                        When(undo, then=Value(EVENT_ACTIONS[MatchEvent.Kind.UNDO])),
                        default=Value(EVENT_ACTIONS[MatchEvent.Kind.EVENT]),
                        output_field=CharField(),
                    ),
                    log_data=Value(None, output_field=JSONField()),
                    log_imported=F("imported"),
                    log_created=F("created_at"),
                    log_seq=F("seq"),
                    log_event=F("payload"),
                    log_undone_seq=F("undoes__seq"),
                    log_undone_event=F("undoes__payload"),
                )
                .values_list(*_COLUMNS)
            )
            entries = entries.union(events, all=True)
        return entries.order_by("-log_created", "-log_id")

    def count(self) -> int:
        return self._union().count()

    def __len__(self) -> int:
        return self.count()

    def __iter__(self) -> Iterator[AuditEntry]:
        return iter(self[:])

    @overload
    def __getitem__(self, item: int) -> AuditEntry: ...
    @overload
    def __getitem__(self, item: slice) -> list[AuditEntry]: ...
    def __getitem__(self, item: int | slice) -> AuditEntry | list[AuditEntry]:
        if isinstance(item, int):
            found = self[item : item + 1]
            if not found:
                raise IndexError(item)
            return found[0]
        return self._build(list(self._union()[item]))

    def _build(self, rows: list[tuple[Any, ...]]) -> list[AuditEntry]:
        matches = Match.objects.select_related("player_a", "player_b").in_bulk(
            {row[2] for row in rows if row[2] is not None}
        )
        built = []
        for row in rows:
            values = dict(zip(_COLUMNS, row, strict=True))
            data = _json(values["log_data"])
            if values["log_id"] < 0:  # a log entry: the data its audit entry used to hold
                data = {"seq": values["log_seq"], "version": values["log_seq"]}
                if values["log_action"] == EVENT_ACTIONS[MatchEvent.Kind.UNDO]:
                    data["undone_seq"] = values["log_undone_seq"]
                    data["event"] = _json(values["log_undone_event"])
                else:
                    data["event"] = _json(values["log_event"])
            entry = AuditEntry(
                id=values["log_id"],
                tournament_id=values["log_tournament"],
                match_id=values["log_match"],
                actor_id=values["log_actor"],
                actor_name=values["log_actor_name"],
                player_id=values["log_player"],
                action=values["log_action"],
                data=data,
                imported=values["log_imported"],
                created_at=values["log_created"],
            )
            entry._state.adding, entry._state.db = False, self._entries.db
            if entry.match_id is not None:
                entry.match = matches.get(entry.match_id)
            built.append(entry)
        return built


def _json(value: Any) -> Any:
    """A union's JSON column comes back decoded on PostgreSQL, possibly as text elsewhere."""
    return json.loads(value) if isinstance(value, str) else value


def _audit_events(tournament: Tournament) -> QuerySet[MatchEvent]:
    return MatchEvent.objects.filter(match__tournament=tournament).exclude(source=SOURCE_CLOCK)


def tournament_audit(*, tournament: Tournament, match_id: int | None = None) -> AuditLog:
    """The tournament's audit log (or one match's), newest first: entries and balls merged."""
    entries = AuditEntry.objects.filter(tournament=tournament)
    events = _audit_events(tournament)
    if match_id is not None:
        entries, events = entries.filter(match_id=match_id), events.filter(match_id=match_id)
    return AuditLog(entries, events)


def tournament_audit_filtered(
    *,
    tournament: Tournament,
    actions: tuple[str, ...] | None = None,
    match_key: str = "",
    person: str = "",
) -> AuditLog:
    """The log filtered by kind (a set of actions), match number and person (who acted, or
    the player it is about, by a part of the name or login)."""
    entries = AuditEntry.objects.filter(tournament=tournament)
    events: QuerySet[MatchEvent] | None = _audit_events(tournament)
    if actions is not None:
        entries = entries.filter(action__in=actions)
        kinds = [kind for kind, action in EVENT_ACTIONS.items() if action in actions]
        events = events.filter(kind__in=kinds) if kinds and events is not None else None
    if match_key:
        entries = entries.filter(match__key__iexact=match_key)
        if events is not None:
            events = events.filter(match__key__iexact=match_key)
    if person:
        entries = entries.filter(
            Q(actor_name__icontains=person)
            | Q(actor__first_name__icontains=person)
            | Q(actor__last_name__icontains=person)
            | Q(player__name__icontains=person)
            | Q(match__player_a__name__icontains=person)
            | Q(match__player_b__name__icontains=person)
        )
        if events is not None:
            events = events.filter(
                Q(actor_name__icontains=person)
                | Q(actor__first_name__icontains=person)
                | Q(actor__last_name__icontains=person)
                | Q(match__player_a__name__icontains=person)
                | Q(match__player_b__name__icontains=person)
            )
    return AuditLog(entries, events)
