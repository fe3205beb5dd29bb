"""The Celery app: configured from Django settings (CELERY_*), tasks found in every app, and
config.health's ping of the workers."""

import os
from typing import Any

from celery import Celery
from celery.signals import setup_logging

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

# The health check's ping task is config.health's (it reads the answer for /healthz).
app = Celery("luza", include=["config.health"])
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@setup_logging.connect
def _django_logging(**kwargs: Any) -> None:
    """Worker and beat log through settings.LOGGING (UTC, one format, LUZA_LOG_LEVEL), which
    Django has applied already: a receiver here stops Celery from installing its own."""
