"""Statements whose SQL is built once, for the few reads and writes made on every scored ball.

For a queryset that selects several related models (a match with its tournament, players and
table: about a hundred columns), building the SQL costs the ORM more than PostgreSQL takes to
answer it, on every request. A CompiledQuery builds the queryset's SQL and the loading of its
rows once per thread and database, then runs that statement with new parameters and loads the
rows as the ORM's own ModelIterable does: the same instances, related objects and field
conversions. It leans on the ORM's compiler (Django is pinned in requirements.txt);
tests/foundation/test_querycache.py holds its results equal to the plain queryset's.
CompiledInsert and CompiledUpdate do the same for save() of one row.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

from django.db import DatabaseError, connections
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
        plan: _Plan[M] = _thread_plan(
            self._plans,
            using,
            lambda _: _Plan(self._build(*_PLACEHOLDERS[: self._arity]), using, self._arity),
        )
        return plan.run(args)


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
        self.sql = sql
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
        self._model = model
        self._fields = [f for f in meta.concrete_fields if f is not meta.auto_field]
        self._plans = threading.local()

    def save_new(self, obj: M, *, using: str = "default") -> M:
        connection = connections[using]
        sql, returning = _thread_plan(self._plans, using, lambda _: self._build(using))
        params = [
            field.get_db_prep_save(field.pre_save(obj, True), connection) for field in self._fields
        ]
        meta = self._model._meta
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            if meta.auto_field is not None:
                if returning is None:
                    pk = connection.ops.last_insert_id(cursor, meta.db_table, meta.pk.column)
                else:
                    pk = connection.ops.fetch_returned_insert_columns(cursor, returning)[0]
                setattr(obj, meta.auto_field.attname, pk)
        obj._state.adding = False
        obj._state.db = using
        return obj

    def _build(self, using: str) -> tuple[str, Any]:
        query = InsertQuery(self._model)
        query.insert_values(self._fields, [self._model()])
        compiler = query.get_compiler(using=using)
        meta = self._model._meta
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
        self._model = model
        self._plans = threading.local()

    def save_fields(self, obj: M, fields: Sequence[str], *, using: str = "default") -> None:
        connection = connections[using]
        sql, targets = _thread_plan(
            self._plans, using, lambda conn: self._build(fields, conn), key=(using, tuple(fields))
        )
        params = [
            field.get_db_prep_save(field.pre_save(obj, False), connection) for field in targets
        ]
        params.append(obj.pk)
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            if cursor.rowcount != 1:
                raise DatabaseError("Save with update_fields did not affect any rows.")

    def _build(self, fields: Sequence[str], connection: Any) -> tuple[str, list[Any]]:
        meta = self._model._meta
        targets = [meta.get_field(name) for name in dict.fromkeys(fields)]
        if any(not field.concrete or field.primary_key for field in targets):
            raise ValueError("only concrete, non-key fields can be updated")
        qn = connection.ops.quote_name
        assignments = ", ".join(f"{qn(field.column)} = %s" for field in targets)
        table, key = qn(meta.db_table), qn(meta.pk.column)
        return f"UPDATE {table} SET {assignments} WHERE {key} = %s", targets  # noqa: S608
