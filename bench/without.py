"""BENCH_WITHOUT=query,batch,insert,update: the event path without those pieces of
matches.querycache, each replaced by what the ORM does, so that a benchmark run says what each
piece pays for (docs/performance.md, "What querycache keeps").

- query: CompiledQuery runs its plain queryset (the ORM builds the SQL on every call);
- batch: a WriteBatch sends its rows one statement each, on PostgreSQL too;
- insert: a queued new row is saved at once with save() (its INSERT built by the ORM);
- update: a queued update is saved at once with save(update_fields=...).

Applied by bench/urls.py in the web server of the load benchmarks; no effect when unset.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from django.db import IntegrityError

from matches import querycache

PIECES = ("query", "batch", "insert", "update")


def pieces() -> set[str]:
    """The pieces BENCH_WITHOUT names (refusing an unknown one: a typo would measure nothing)."""
    named = {p.strip() for p in os.environ.get("BENCH_WITHOUT", "").split(",") if p.strip()}
    unknown = named - set(PIECES)
    if unknown:
        raise ValueError(f"BENCH_WITHOUT: unknown pieces {sorted(unknown)}; known: {PIECES}")
    return named


def apply() -> set[str]:
    without = pieces()
    batch = querycache.WriteBatch
    if "query" in without:

        def fetch(self: Any, *args: int, using: str = "default") -> list[Any]:
            if len(args) != self._arity:
                raise TypeError(f"expected {self._arity} arguments, got {len(args)}")
            if not all(arg in querycache.BIGINT for arg in args):
                return []
            return list(self._build(*args).using(using))

        querycache.CompiledQuery.fetch = fetch  # type: ignore[method-assign]
    if "batch" in without:

        def send(self: Any) -> None:
            writes, self._queued = self._queued, []
            self._updated, self._inserted = set(), set()
            for write in writes:
                self._send_one(write)

        batch.send = send  # type: ignore[method-assign]
    if "insert" in without:

        def insert(self: Any, compiled: Any, obj: Any, *, refused: Any = None) -> Any:
            try:  # no savepoint: as in WriteBatch, a refusal ends the write's transaction
                obj.save(force_insert=True, using=self.using)
            except IntegrityError as exc:
                if refused is None:
                    raise
                raise refused() from exc
            return obj

        batch.insert = insert  # type: ignore[method-assign]
    if "update" in without:

        def update(
            self: Any, compiled: Any, obj: Any, fields: Sequence[str], *, refused: Any = None
        ) -> None:
            obj.save(update_fields=list(dict.fromkeys(fields)), using=self.using)

        batch.update = update  # type: ignore[method-assign]
    return without
