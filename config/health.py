"""GET /healthz: is the database up, is the broker up, how many Celery workers answer."""

from __future__ import annotations

import time

from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from config.celery import app as celery_app


def _database() -> dict[str, object]:
    started = time.perf_counter()
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any failure means "down"; the reason is reported
        return {"ok": False, "error": exc.__class__.__name__}
    return {
        "ok": True,
        "vendor": connection.vendor,
        "ms": round((time.perf_counter() - started) * 1000, 1),
    }


def _broker() -> dict[str, object]:
    started = time.perf_counter()
    try:
        with celery_app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
            transport = conn.transport_cls
    except Exception as exc:
        return {"ok": False, "error": exc.__class__.__name__}
    return {
        "ok": True,
        "transport": str(transport),
        "ms": round((time.perf_counter() - started) * 1000, 1),
    }


def _workers() -> int:
    try:
        replies = celery_app.control.ping(timeout=1.0)
    except Exception:
        return 0
    return len(replies or [])


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    database = _database()
    broker = _broker()
    workers = _workers() if broker["ok"] else 0
    healthy = bool(database["ok"] and broker["ok"])
    return JsonResponse(
        {
            "status": "ok" if healthy else "unavailable",
            "database": database,
            "broker": broker,
            "workers": workers,
        },
        status=200 if healthy else 503,
    )
