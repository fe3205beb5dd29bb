"""Pruning of the idempotency records."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from matches.models import ApiWriteRecord, IdempotencyRecord

# A client retries a write within seconds (a tablet that lost its answer); a day is ample.
IDEMPOTENCY_KEEP = timedelta(days=1)
_PRUNE_BATCH = 5000


def idempotency_records_prune(*, now: datetime | None = None) -> int:
    """Delete the stored answers of writes older than IDEMPOTENCY_KEEP; returns how many.
    In batches, each its own transaction, so that no scoring write waits behind one big
    delete. A key sent again after that is a new request: an event's expected version,
    stale by then, still keeps it from being applied twice (409)."""
    cutoff = (now or timezone.now()) - IDEMPOTENCY_KEEP
    deleted = 0
    for model in (IdempotencyRecord, ApiWriteRecord):  # the scoring writes' and the others'
        while True:
            with transaction.atomic():
                batch = list(
                    model.objects.filter(created_at__lt=cutoff)
                    .order_by("pk")
                    .values_list("pk", flat=True)[:_PRUNE_BATCH]
                )
                if not batch:
                    break
                deleted += model.objects.filter(pk__in=batch).delete()[0]
    return deleted
