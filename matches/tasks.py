"""Celery tasks of the match clock: thin, by primary key, idempotent."""

from __future__ import annotations

import logging

from celery.signals import after_setup_logger
from django.db import InterfaceError, OperationalError

from config.celery import app
from matches import services

# Periodic housekeeping: the worker logs it only when it did something (a clock expired, old
# answers pruned), or at DEBUG; otherwise its log would be two lines every sweep (5 s).
QUIET_TASKS = ("matches.tasks.clock_sweep", "matches.tasks.idempotency_prune")


class QuietHousekeeping(logging.Filter):
    """Lowers to DEBUG the worker's "received" and "succeeded: 0" lines of QUIET_TASKS."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        name = args.get("name") if isinstance(args, dict) else None
        if name is None and isinstance(args, tuple) and args:
            name = args[0]
        if name not in QUIET_TASKS:
            return True
        if isinstance(args, dict) and str(args.get("return_value", "0")) not in ("0", "None"):
            return True  # the sweep expired a clock: real work, said at INFO
        return logging.getLogger(record.name).isEnabledFor(logging.DEBUG)


def quiet_housekeeping(**_kwargs: object) -> None:
    """Put the filter on the worker's two loggers (once): when the tasks are imported, and
    again whenever Celery sets its logging up."""
    for name in ("celery.app.trace", "celery.worker.strategy"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, QuietHousekeeping) for f in logger.filters):
            logger.addFilter(QuietHousekeeping())


quiet_housekeeping()
after_setup_logger.connect(quiet_housekeeping, weak=False)

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
