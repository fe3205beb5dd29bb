"""The Celery wiring for real: a worker process, an ETA task, its effect in the database."""

from __future__ import annotations

import time
import uuid

import pytest
from celery import Celery
from django.contrib.auth.models import Group

from config.celery import app
from tests.workers import celery_worker

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def _eta_task_lands(tmp_path, *, sender: Celery = app) -> None:
    name = f"probe-{uuid.uuid4().hex[:8]}"
    log = tmp_path / "worker.log"
    with celery_worker(include=("tests.celery_probe",), log=log, app=sender):
        sent = time.monotonic()
        sender.send_task("tests.probe_create_group", args=[name], countdown=2)
        while time.monotonic() - sent < 5:
            if Group.objects.filter(name=name).exists():
                break
            time.sleep(0.1)
        took = time.monotonic() - sent
    assert Group.objects.filter(name=name).exists(), log.read_text()[-3000:]
    assert took >= 1.9, f"the task ran before its ETA ({took:.2f} s)"


def test_eta_task_runs_on_a_real_worker(tmp_path, require_redis, settings) -> None:
    """Redis is the broker everywhere: production's server, or make run's private one on a
    Unix socket (tests/ops/test_run_supervision.py starts that one)."""
    assert settings.CELERY_BROKER_URL.startswith("redis")
    _eta_task_lands(tmp_path)
