"""Stored answers of idempotent writes are kept a day, then pruned by a daily beat task."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from matches import services
from matches.models import IdempotencyRecord, MatchEvent
from tests.matches.conftest import post_event

pytestmark = pytest.mark.django_db

BREAK = {"type": "break", "player": "a", "legal": True, "pocketed": 0}


def test_answers_older_than_a_day_are_pruned_and_newer_ones_kept(scorer, match) -> None:
    assert post_event(scorer, match, BREAK, key="old").status_code == 201
    assert post_event(scorer, match, {"type": "shot", "player": "b"}, key="new").status_code == 201
    IdempotencyRecord.objects.filter(key="old").update(
        created_at=timezone.now() - timedelta(days=1, minutes=1)
    )
    assert services.idempotency_records_prune() == 1
    assert list(IdempotencyRecord.objects.values_list("key", flat=True)) == ["new"]
    assert services.idempotency_records_prune() == 0


def test_a_retry_after_pruning_is_still_not_applied_twice(scorer, match) -> None:
    """The key is forgotten, but the event's expected version is stale: 409, one entry."""
    assert post_event(scorer, match, BREAK, version=0, key="k1").status_code == 201
    services.idempotency_records_prune(now=timezone.now() + timedelta(days=2))
    again = post_event(scorer, match, BREAK, version=0, key="k1")
    assert again.status_code == 409
    assert MatchEvent.objects.filter(match=match).count() == 1


def test_beat_prunes_daily() -> None:
    entry = settings.CELERY_BEAT_SCHEDULE["prune-idempotency-records"]
    assert entry["task"] == "matches.tasks.idempotency_prune"
    assert entry["schedule"] == timedelta(days=1)
