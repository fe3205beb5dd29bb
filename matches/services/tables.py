"""Tables: calling matches to tables, moving, holding, freeing."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone

from audit.services import audit_record
from config.changes import change_emit
from matches import errors
from matches.models import Match, Table, TournamentRow
from matches.services.base import CLOSED, LIVE, Status
from matches.services.guards import _bump_public, _bump_public_id
from matches.services.locks import _lock

if TYPE_CHECKING:
    from config.types import Actor


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


def _table_changed(match: Match, table: int | None) -> None:
    """The live pages' notice (config.changes): the match is now at `table` (None: off it)."""
    change_emit(
        kind="match.table",
        tournament_id=match.tournament_id,
        match_id=match.pk,
        data={"table": table},
    )


def _call_to_table(match: Match, table: Table, *, now: datetime, actor: Actor | None) -> None:
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
    _table_changed(match, table.number)


def _fill_tables(
    *, tournament_id: int, tables: Iterable[Table], actor: Actor | None
) -> list[Match]:
    """Send the next ready matches to the given (locked) tables that are free, in queue order
    (schedule round, stage, round, order); a player already at a table is not called twice."""
    live = list(
        Match.objects.filter(tournament_id=tournament_id, status__in=LIVE).values_list(
            "table_id", "player_a_id", "player_b_id"
        )
    )
    busy_tables = {t for t, _a, _b in live if t is not None}
    busy_players: set[int | None] = {p for _t, a, b in live for p in (a, b) if p is not None}
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
def tables_ensure(*, tournament: TournamentRow, count: int, actor: Actor | None) -> list[Table]:
    """Tables 1..count exist and are in use; free tables above `count` go out of use."""
    if count < 0:
        raise ValueError("count must not be negative")
    existing = {
        t.number: t
        for t in Table.objects.select_for_update()
        .filter(tournament=tournament.pk)
        .order_by("number")
    }
    created = [
        Table(tournament_id=tournament.pk, number=n)
        for n in range(1, count + 1)
        if n not in existing
    ]
    Table.objects.bulk_create(created)
    Table.objects.filter(tournament=tournament.pk, number__lte=count, is_active=False).update(
        is_active=True
    )
    busy = Match.objects.filter(
        tournament=tournament.pk, status__in=LIVE, table__number__gt=count
    ).values_list("table_id", flat=True)
    Table.objects.filter(tournament=tournament.pk, number__gt=count, is_active=True).exclude(
        pk__in=list(busy)
    ).update(is_active=False)
    audit_record(
        actor=actor,
        action="tables.ensure",
        tournament=tournament,
        data={"count": count, "created": [t.number for t in created]},
    )
    return list(Table.objects.filter(tournament=tournament.pk).order_by("number"))


@transaction.atomic
def table_assign_next(*, tournament: TournamentRow, actor: Actor | None) -> list[Match]:
    """Every free table in use gets the next ready match that is not held."""
    # Tables called show on the public pages. The tournament row before the table rows: the
    # order of a finishing match (match, tournament, table), so the two cannot deadlock.
    _bump_public_id(tournament.pk)
    tables = list(
        Table.objects.select_for_update()
        .filter(tournament=tournament.pk, is_active=True)
        .order_by("number")
    )
    return _fill_tables(tournament_id=tournament.pk, tables=tables, actor=actor)


@transaction.atomic
def match_assign_table(*, match: Match, table: Table | int, actor: Actor | None) -> Match:
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
def match_move(*, match: Match, table: Table | int, actor: Actor | None) -> Match:
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
    _table_changed(locked, target.number)
    return locked


@transaction.atomic
def match_hold(*, match: Match, held: bool, actor: Actor | None) -> Match:
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
    if "table_freed" in data:
        _table_changed(locked, None)
    return locked


@transaction.atomic
def table_free(*, table: Table, actor: Actor | None) -> Match:
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
    _table_changed(match, None)
    return match
