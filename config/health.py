"""GET /healthz: is the database up, is the broker up, how many Celery workers answered the
last ping and how old that ping is.

The ping itself (a broadcast that waits a second for answers) runs in the background: beat
sends `config.workers_ping` every LUZA_HEALTH_PING_SECONDS, a worker pings its installation's
workers and stores the answer in the cache. A probe costs one `SELECT 1` and two Redis round
trips and never holds a web thread for a second."""

from __future__ import annotations

import time
from functools import cache as memoize
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from config.celery import app as celery_app

PING_KEY = "health:workers-ping"
PING_TIMEOUT_SECONDS = 1.0


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 1)


def _database() -> dict[str, object]:
    started = time.perf_counter()
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any failure means "down"; the reason is reported
        return {"ok": False, "error": exc.__class__.__name__}
    return {"ok": True, "vendor": connection.vendor, "ms": _ms(started)}


@memoize
def _redis() -> Any:
    """One client (and its connection pool) per process, short timeouts: a probe must not hang."""
    import redis

    return redis.Redis.from_url(
        settings.REDIS_URL, socket_timeout=1, socket_connect_timeout=1, health_check_interval=30
    )


def broker_check() -> None:
    """Raises when the broker does not answer."""
    if settings.REDIS_URL:
        _redis().ping()
        return
    with celery_app.connection_for_write() as conn:  # the tests' in-memory broker, no Redis
        conn.ensure_connection(max_retries=1, timeout=2)


def _broker() -> dict[str, object]:
    started = time.perf_counter()
    try:
        broker_check()
    except Exception as exc:
        return {"ok": False, "error": exc.__class__.__name__}
    return {
        "ok": True,
        "transport": "redis" if settings.REDIS_URL else "memory",
        "ms": _ms(started),
    }


def workers_ping_store() -> int:
    """Ping this installation's workers (its control exchange only) and keep the answer."""
    replies = celery_app.control.ping(timeout=PING_TIMEOUT_SECONDS) or []
    names = sorted(name for reply in replies for name in reply)
    cache.set(PING_KEY, {"at": time.time(), "names": names}, timeout=None)
    return len(names)


@celery_app.task(name="config.workers_ping", ignore_result=True)
def workers_ping() -> int:
    """Beat, every LUZA_HEALTH_PING_SECONDS: ping this installation's workers and keep the
    answer for /healthz, which then never waits for a ping itself."""
    return workers_ping_store()


def _workers() -> dict[str, object]:
    """The last ping; workers count as 0 once it is older than three ping intervals (no
    worker has run the ping task since, or beat is down)."""
    try:
        last = cache.get(PING_KEY)
    except Exception as exc:
        return {"count": 0, "age_seconds": None, "error": exc.__class__.__name__}
    if not last:
        return {"count": 0, "age_seconds": None}
    age = max(0.0, time.time() - float(last["at"]))
    stale = age > 3 * settings.HEALTH_PING_SECONDS
    return {"count": 0 if stale else len(last["names"]), "age_seconds": round(age, 1)}


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    database = _database()
    broker = _broker()
    ping = _workers() if broker["ok"] else {"count": 0, "age_seconds": None}
    healthy = bool(database["ok"] and broker["ok"])
    return JsonResponse(
        {
            "status": "ok" if healthy else "unavailable",
            "instance": settings.INSTANCE,
            "database": database,
            "broker": broker,
            "workers": ping["count"],
            "workers_ping": ping,
        },
        status=200 if healthy else 503,
    )
