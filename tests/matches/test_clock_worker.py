"""The match clock with a real Celery worker (and beat) on Redis: the deadline task, a pause,
and the sweep when the task was never scheduled."""

from __future__ import annotations

import datetime as dt
import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.utils import timezone

from matches import services, tasks
from matches.models import Match, MatchEvent
from tests.conftest import require_service
from tests.matches.factories import MatchFactory
from tests.workers import celery_beat, celery_worker, wait_for

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

LIMIT = 3
LATE = dt.timedelta(seconds=1)


@pytest.fixture(scope="module")
def worker(django_db_setup, tmp_path_factory) -> Iterator[Path]:
    """One worker for the module (its start-up is the slow part); yields its log file."""
    if not os.environ.get("REDIS_URL"):
        require_service("Redis (REDIS_URL)")
    log = tmp_path_factory.mktemp("clock") / "worker.log"
    with celery_worker(log=log, concurrency=2):
        yield log


@pytest.fixture
def clock_match(require_redis, tournament) -> Match:
    # 0 : 0 at the deadline: the golden ball, so the match goes on (no tournament progression).
    return MatchFactory(tournament=tournament, clock_limit_seconds=LIMIT)


def expired_at(match: Match) -> dt.datetime | None:
    return Match.objects.filter(pk=match.pk).values_list("clock_expired_at", flat=True).first()


def start(match: Match, actor) -> dt.datetime:
    services.match_clock(match_id=match.pk, action="start", actor=actor)
    match.refresh_from_db()
    return match.clock_deadline


def test_a_clock_expires_at_its_deadline(worker, clock_match, referee) -> None:
    deadline = start(clock_match, referee)
    assert deadline - timezone.now() > dt.timedelta(seconds=LIMIT - 1)

    done = wait_for(lambda: expired_at(clock_match), timeout=LIMIT + 3)

    assert done is not None, worker.read_text()[-3000:]
    assert deadline <= done < deadline + LATE
    entry = MatchEvent.objects.get(match=clock_match)
    assert entry.payload == {"type": "time_expired"} and entry.source == "clock"
    clock_match.refresh_from_db()
    assert clock_match.state["golden_ball"] is True and clock_match.version == 1


def test_a_pause_moves_the_expiry(worker, clock_match, referee) -> None:
    first_deadline = start(clock_match, referee)
    time.sleep(1)
    services.match_clock(match_id=clock_match.pk, action="pause", actor=referee)
    time.sleep(0.5)
    services.match_clock(match_id=clock_match.pk, action="resume", actor=referee)
    clock_match.refresh_from_db()
    deadline = clock_match.clock_deadline
    assert deadline - first_deadline >= dt.timedelta(seconds=0.5)

    # The first deadline's task is stale: nothing happens then.
    time.sleep(max(0.0, (first_deadline - timezone.now()).total_seconds()) + 0.3)
    assert expired_at(clock_match) is None

    done = wait_for(lambda: expired_at(clock_match), timeout=LIMIT + 2)
    assert done is not None, worker.read_text()[-3000:]
    assert deadline <= done < deadline + LATE
    assert MatchEvent.objects.filter(match=clock_match).count() == 1


def test_the_sweep_expires_a_clock_whose_task_was_lost(
    worker, clock_match, referee, monkeypatch, tmp_path
) -> None:
    # Nothing reaches the broker: only beat's sweep can expire this clock.
    monkeypatch.setattr(tasks.clock_expire, "apply_async", lambda *args, **kwargs: None)
    beat_log = tmp_path / "beat.log"
    with celery_beat(log=beat_log, env={"LUZA_CLOCK_SWEEP_SECONDS": "1"}):
        assert wait_for(lambda: "Sending due task" in beat_log.read_text(), timeout=15), (
            beat_log.read_text()[-2000:]
        )
        deadline = start(clock_match, referee)
        done = wait_for(lambda: expired_at(clock_match), timeout=LIMIT + 4)

    assert done is not None, worker.read_text()[-3000:]
    # One sweep interval plus the task's trip.
    assert deadline <= done < deadline + dt.timedelta(seconds=2)
    assert MatchEvent.objects.filter(match=clock_match, payload__type="time_expired").count() == 1
