"""Celery tasks of the match clock: thin, by primary key, idempotent."""

from __future__ import annotations

from django.db import InterfaceError, OperationalError

from config.celery import app
from matches import services

# Bound to the project's app, not to whichever app is "current" (shared_task): a clock's
# deadline must reach the project's broker even if some other Celery app was created.


@app.task(
    name="matches.tasks.clock_expire",
    ignore_result=True,
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=1,
    max_retries=5,
)
def clock_expire(match_id: int, generation: int) -> bool:
    """At a clock's deadline: append time_expired, unless the clock was paused or changed since
    (`generation` is stale) or has already expired."""
    return services.match_clock_expire(match_id=match_id, generation=generation)


@app.task(name="matches.tasks.clock_sweep", ignore_result=True)
def clock_sweep() -> int:
    """Beat, every LUZA_CLOCK_SWEEP_SECONDS: expire running clocks past their deadline whose
    task was lost (worker restart, broker flush)."""
    return services.match_clock_sweep()


@app.task(name="matches.tasks.idempotency_prune", ignore_result=True)
def idempotency_prune() -> int:
    """Beat, daily: drop the stored answers of writes older than a day."""
    return services.idempotency_records_prune()
