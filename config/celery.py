"""The Celery app: configured from Django settings (CELERY_*), tasks found in every app."""

import os
from typing import Any

from celery import Celery
from celery.signals import setup_logging

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("luza")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@setup_logging.connect
def _django_logging(**kwargs: Any) -> None:
    """Worker and beat log through settings.LOGGING (UTC, one format, LUZA_LOG_LEVEL), which
    Django has applied already: a receiver here stops Celery from installing its own."""


@app.task(name="config.workers_ping", ignore_result=True)
def workers_ping() -> int:
    """Beat, every LUZA_HEALTH_PING_SECONDS: ping this installation's workers and keep the
    answer for /healthz, which then never waits for a ping itself."""
    from config.health import workers_ping_store

    return workers_ping_store()
