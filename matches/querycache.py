"""Statements whose SQL is built once, for the few reads and writes made on every scored ball.

For a queryset that selects several related models (a match with its tournament, players and
table: about a hundred columns), building the SQL costs the ORM more than PostgreSQL takes to
answer it, on every request. A CompiledQuery builds the queryset's SQL and the loading of its
rows once per thread and database, then runs that statement with new parameters and loads the
rows as the ORM's own ModelIterable does: the same instances, related objects and field
conversions. It leans on the ORM's compiler (Django is pinned in requirements.txt);
tests/foundation/test_querycache.py holds its results equal to the plain queryset's.
CompiledInsert and CompiledUpdate do the same for save() of one row, written through a
WriteBatch (or insert_row for a single new row).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.db import DatabaseError, IntegrityError, connections
from django.db.models import Model, QuerySet
from django.db.models.query import get_related_populators
from django.db.models.sql import InsertQuery

M = TypeVar("M", bound=Model)

# Stand-ins for the parameters while the SQL is built: integers no row is given as a key.
_PLACEHOLDERS = tuple(-(2**52) - i for i in range(4))
BIGINT = range(-(2**63), 2**63)


def _thread_plan(
    plans: threading.local, using: str, build: Callable[[Any], Any], key: Any = None
) -> Any:
    """The plan kept under `key` (default: the database alias) for this thread, built by
    `build(connection)` on first use and again when the thread's connection is a new one."""
    connection = connections[using]
    key = using if key is None else key
    held = plans.__dict__.get(key)
    if held is None or held[0] is not connection:
        held = plans.__dict__[key] = (connection, build(connection))
    return held[1]


class CompiledQuery(Generic[M]):
    """`build(*ints)` returns a queryset of model instances (select_related and annotations
    allowed; no prefetches or values()); `fetch(*ints)` runs it with those integers."""

    def __init__(self, build: Callable[..., QuerySet[M]], *, arity: int = 1) -> None:
        if not 0 < arity <= len(_PLACEHOLDERS):
            raise ValueError("arity out of range")
        self._build = build
        self._arity = arity
        self._plans = threading.local()  # a compiler belongs to its thread's connection

    def fetch(self, *args: int, using: str = "default") -> list[M]:
        if len(args) != self._arity:
            raise TypeError(f"expected {self._arity} arguments, got {len(args)}")
        if not all(arg in BIGINT for arg in args):
            return []  # no key is that large; the database would refuse the parameter
        return self._plan(using).run(args)

    def sql(self, using: str = "default") -> str:
        """The statement run, with its parameters as placeholders."""
        return self._plan(using).sql

    def _plan(self, using: str) -> _Plan[M]:
        return _thread_plan(  # type: ignore[no-any-return]
            self._plans,
            using,
            lambda _: _Plan(self._build(*_PLACEHOLDERS[: self._arity]), using, self._arity),
        )


class _Plan(Generic[M]):
    def __init__(self, queryset: QuerySet[M], using: str, arity: int) -> None:
        if queryset._prefetch_related_lookups or queryset._known_related_objects:  # type: ignore[attr-defined]
            raise ValueError("prefetches and known related objects are not supported")
        compiler = queryset.query.get_compiler(using=using)
        sql, params = compiler.as_sql()
        # Each parameter: the index of the argument it stands for, or a constant of the query.
        self.slots: list[tuple[int | None, Any]] = [
            (_PLACEHOLDERS.index(p) if p in _PLACEHOLDERS[:arity] else None, p) for p in params
        ]
        if {slot for slot, _ in self.slots if slot is not None} != set(range(arity)):
            raise ValueError("every argument must reach the SQL as a parameter")
        self.sql: str = sql
        self.using = using
        self.compiler = compiler
        self.connection = compiler.connection
        select, klass_info = compiler.select, compiler.klass_info
        self.model: type[M] = klass_info["model"]
        fields = klass_info["select_fields"]
        self.start, self.end = fields[0], fields[-1] + 1
        self.init_list = [column[0].target.attname for column in select[self.start : self.end]]
        self.populators = get_related_populators(klass_info, select, using)
        self.annotations = list((compiler.annotation_col_map or {}).items())
        self.converters = compiler.get_converters([s[0] for s in select[: compiler.col_count]])

    def run(self, args: Sequence[int]) -> list[M]:
        params = [args[slot] if slot is not None else value for slot, value in self.slots]
        with self.connection.cursor() as cursor:
            cursor.execute(self.sql, params)
            rows: Any = cursor.fetchall()
        if self.converters:
            rows = self.compiler.apply_converters(rows, self.converters)
        found = []
        for row in rows:
            obj = self.model.from_db(self.using, self.init_list, row[self.start : self.end])
            for populator in self.populators:
                populator.populate(row, obj)
            for name, position in self.annotations:
                setattr(obj, name, row[position])
            found.append(obj)
        return found


class CompiledInsert(Generic[M]):
    """save() of a new instance of a model, its INSERT built once per thread and database.

    Every concrete field but the automatic key is written, each through its pre_save (so
    auto_now_add stamps) and get_db_prep_save, as save() does; the new key is set on the
    instance. What save() does besides is not: no signals (the models it serves have no
    receivers), no inherited parents, no update of an existing row."""

    def __init__(self, model: type[M]) -> None:
        meta = model._meta
        if meta.parents:
            raise ValueError("multi-table inheritance is not supported")
        self.model = model
        self._fields = [f for f in meta.concrete_fields if f is not meta.auto_field]
        self._plans = threading.local()

    def execute(self, params: list[Any], using: str) -> Any:
        """Run the INSERT with those values; the new key (None without an automatic key)."""
        connection = connections[using]
        sql, returning = self.statement(using)
        meta = self.model._meta
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            if meta.auto_field is None:
                return None
            if returning is None:
                return connection.ops.last_insert_id(cursor, meta.db_table, meta.pk.column)  # type: ignore[arg-type]
            # Django 5.2's name (the stubs follow Django 6.0, where it is fetch_returned_rows).
            return connection.ops.fetch_returned_insert_columns(cursor, returning)[0]  # type: ignore[attr-defined]

    def statement(self, using: str) -> tuple[str, Any]:
        """The INSERT (returning the new key where the database can) and what reads it back."""
        return _thread_plan(self._plans, using, lambda _: self._build(using))  # type: ignore[no-any-return]

    def params(self, obj: M, connection: Any) -> list[Any]:
        """The values of the row, stamped as save() stamps them (auto_now_add)."""
        return [
            field.get_db_prep_save(field.pre_save(obj, True), connection) for field in self._fields
        ]

    def saved(self, obj: M, pk: Any, using: str) -> M:
        meta = self.model._meta
        if meta.auto_field is not None:
            setattr(obj, meta.auto_field.attname, pk)
        obj._state.adding = False
        obj._state.db = using
        return obj

    def _build(self, using: str) -> tuple[str, Any]:
        query = InsertQuery(self.model)
        query.insert_values(self._fields, [self.model()])
        compiler = query.get_compiler(using=using)
        meta = self.model._meta
        can_return = compiler.connection.features.can_return_columns_from_insert
        if can_return and meta.auto_field is not None:
            compiler.returning_fields = [meta.auto_field]
        ((sql, _),) = compiler.as_sql()
        return sql, compiler.returning_params if compiler.returning_fields else None


class CompiledUpdate(Generic[M]):
    """save(update_fields=...) of an instance of a model, its UPDATE built once per thread,
    database and set of fields. Each value goes through its field's pre_save (auto_now
    stamps) and get_db_prep_save, as save() does; no signals. Like save(), it raises
    DatabaseError if no row was updated."""

    def __init__(self, model: type[M]) -> None:
        self.model = model
        self._plans = threading.local()

    def statement(self, fields: Sequence[str], using: str) -> tuple[str, list[Any]]:
        """The UPDATE of those fields by key, and the fields it sets, in order."""
        return _thread_plan(  # type: ignore[no-any-return]
            self._plans, using, lambda conn: self._build(fields, conn), key=(using, tuple(fields))
        )

    def params(self, obj: M, targets: Sequence[Any], connection: Any) -> list[Any]:
        """The values set, stamped as save() stamps them (auto_now), then the key."""
        params = [
            field.get_db_prep_save(field.pre_save(obj, False), connection) for field in targets
        ]
        params.append(obj.pk)
        return params

    def _build(self, fields: Sequence[str], connection: Any) -> tuple[str, list[Any]]:
        meta = self.model._meta
        targets = [meta.get_field(name) for name in dict.fromkeys(fields)]
        if any(not field.concrete or field.primary_key for field in targets):
            raise ValueError("only concrete, non-key fields can be updated")
        qn = connection.ops.quote_name
        # Concrete (checked above): fields, none the other side of a relation.
        assignments = ", ".join(f"{qn(field.column)} = %s" for field in targets)  # type: ignore[union-attr]
        table, key = qn(meta.db_table), qn(meta.pk.column)
        return f"UPDATE {table} SET {assignments} WHERE {key} = %s", targets  # noqa: S608


def _update_one(sql: str, params: list[Any], using: str) -> None:
    with connections[using].cursor() as cursor:
        cursor.execute(sql, params)
        if cursor.rowcount != 1:
            raise DatabaseError(NOT_UPDATED)  # as save(update_fields=...) says


NOT_UPDATED = "Save with update_fields did not affect any rows."
# The Django minor version whose private ORM internals (get_related_populators, klass_info,
# returning_params, the compilers' setup) these compiled paths were checked against; a test
# fails on any other version until they are checked again and this is moved.
VERIFIED_DJANGO = (5, 2)
_COMBINED = threading.local()  # WriteBatch's statements, by the statements each combines
Refusal = Callable[[], Exception]


class QueuedTwice(ValueError):
    """One row queued twice in a WriteBatch: a programming error, refused when queued."""


@dataclass
class _Write:
    sql: str
    params: list[Any]
    table: str
    refused: Refusal | None
    insert: CompiledInsert[Any] | None = None  # None: an update
    obj: Any = None
    returning: Any = None


class WriteBatch:
    """Rows written by one transaction, queued as they are made and sent together.

    On PostgreSQL they go as one statement, each write a data-modifying WITH clause: one
    round trip, and one statement for the server to parse and run, instead of one per row on
    every scored ball. Elsewhere each is sent on its own, in the order queued. Each row's
    values are taken (and stamped: auto_now, auto_now_add) when it is queued, so what the
    caller renders before send() shows them; nothing may read those rows before send().

    A write that breaks a constraint of its table raises what its `refused` returns (else the
    database's IntegrityError); an update that finds no row raises DatabaseError, as save()."""

    def __init__(self, using: str = "default") -> None:
        self.using = using
        self._queued: list[_Write] = []
        self._updated: set[tuple[str, Any]] = set()
        self._inserted: set[int] = set()  # id() of the instances queued for insertion

    def insert(self, compiled: CompiledInsert[M], obj: M, *, refused: Refusal | None = None) -> M:
        if id(obj) in self._inserted:
            raise QueuedTwice(f"this {type(obj).__name__} is already queued in this WriteBatch")
        self._inserted.add(id(obj))
        sql, returning = compiled.statement(self.using)
        params = compiled.params(obj, connections[self.using])
        table = compiled.model._meta.db_table
        self._queued.append(_Write(sql, params, table, refused, compiled, obj, returning))
        return obj

    def update(
        self,
        compiled: CompiledUpdate[M],
        obj: M,
        fields: Sequence[str],
        *,
        refused: Refusal | None = None,
    ) -> None:
        # PostgreSQL runs the whole WITH on one snapshot: a second update of the same row
        # would report 0 rows there and 1 elsewhere, and an update of a row the batch inserts
        # would find no row there (its key is not even known yet). Refused on every backend.
        if id(obj) in self._inserted:
            raise QueuedTwice(
                f"this {type(obj).__name__} is queued for insertion in this WriteBatch: "
                "set its fields before queueing it"
            )
        row = (compiled.model._meta.db_table, obj.pk)
        if row in self._updated:
            raise QueuedTwice(f"{row[0]} row {row[1]} is already queued in this WriteBatch")
        self._updated.add(row)
        sql, targets = compiled.statement(fields, self.using)
        params = compiled.params(obj, targets, connections[self.using])
        self._queued.append(_Write(sql, params, compiled.model._meta.db_table, refused))

    def send(self) -> None:
        """Write what was queued since the last send (nothing queued: no statement)."""
        writes, self._queued = self._queued, []
        self._updated, self._inserted = set(), set()
        if not writes:
            return
        connection = connections[self.using]
        if connection.vendor == "postgresql" and len(writes) > 1:
            self._send_together(writes, connection)
        else:
            for write in writes:
                self._send_one(write)

    def _send_one(self, write: _Write) -> None:
        try:
            if write.insert is None:
                _update_one(write.sql, write.params, self.using)
            else:
                pk = write.insert.execute(write.params, self.using)
        except IntegrityError as exc:
            if write.refused is None:
                raise
            raise write.refused() from exc
        if write.insert is not None:
            write.insert.saved(write.obj, pk, self.using)

    def _send_together(self, writes: list[_Write], connection: Any) -> None:
        sql = _thread_plan(
            _COMBINED, self.using, lambda _: _together(writes), key=tuple(w.sql for w in writes)
        )
        params = [param for write in writes for param in write.params]
        try:
            with connection.cursor() as cursor:
                cursor.execute(sql, params)
                row = cursor.fetchone()
        except IntegrityError as exc:
            table = getattr(getattr(exc.__cause__, "diag", None), "table_name", None)
            for write in writes:
                if write.table == table and write.refused is not None:
                    raise write.refused() from exc
            raise
        for write, value in zip(writes, row, strict=True):
            if write.insert is None:
                if value != 1:
                    raise DatabaseError(NOT_UPDATED)
            else:
                write.insert.saved(write.obj, value, self.using)


def insert_row(
    compiled: CompiledInsert[M],
    obj: M,
    *,
    batch: WriteBatch | None = None,
    refused: Refusal | None = None,
) -> M:
    """Queue the row in `batch` (its caller sends it), or insert it now when there is none;
    a constraint it breaks raises what `refused` returns, either way."""
    if batch is not None:
        return batch.insert(compiled, obj, refused=refused)
    now = WriteBatch()
    now.insert(compiled, obj, refused=refused)
    now.send()
    return obj


def _together(writes: Sequence[_Write]) -> str:
    """One statement running every write: each INSERT returns its new key (or 1), each UPDATE
    a row per row it changed; the result is one row with a column per write, in order."""
    clauses, columns = [], []
    for i, write in enumerate(writes):
        sql = write.sql
        if write.insert is None:
            sql, column = f"{sql} RETURNING 1", f"(SELECT count(*) FROM w{i})"  # noqa: S608
        else:
            if write.returning is None:
                sql += " RETURNING 1"
            column = f"(SELECT * FROM w{i})"  # noqa: S608
        clauses.append(f"w{i} AS ({sql})")
        columns.append(column)
    return f"WITH {', '.join(clauses)} SELECT {', '.join(columns)}"
