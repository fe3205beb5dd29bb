"""Empty this installation's cache (after a database restore): its keys only, never the
Celery broker's queues or another installation's keys on the same Redis database."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Delete this installation's cache keys (LUZA_INSTANCE); broker queues are kept."

    def handle(self, *args: Any, **options: Any) -> None:
        cache.clear()
        self.stdout.write(f"Cache of the installation {settings.INSTANCE!r} cleared.")
