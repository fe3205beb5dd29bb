"""The Celery wiring for real: a worker process, an ETA task, its effect in the database."""

from __future__ import annotations

import os
import time
import uuid

import pytest
from celery import Celery
from django.contrib.auth.models import Group

from config.celery import app
from tests.workers import celery_worker

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def _eta_task_lands(tmp_path, *, sender: Celery = app, drop_env: tuple[str, ...] = ()) -> None:
    name = f"probe-{uuid.uuid4().hex[:8]}"
    log = tmp_path / "worker.log"
    with celery_worker(include=("tests.celery_probe",), log=log, app=sender, drop_env=drop_env):
        sent = time.monotonic()
        sender.send_task("tests.probe_create_group", args=[name], countdown=2)
        while time.monotonic() - sent < 5:
            if Group.objects.filter(name=name).exists():
                break
            time.sleep(0.1)
        took = time.monotonic() - sent
    assert Group.objects.filter(name=name).exists(), log.read_text()[-3000:]
    assert took >= 1.9, f"the task ran before its ETA ({took:.2f} s)"


def test_eta_task_runs_on_a_real_worker(tmp_path, settings) -> None:
    """With REDIS_URL set this is Redis; without it, the embedded filesystem broker."""
    expected = "redis" if os.environ.get("REDIS_URL") else "filesystem"
    assert settings.CELERY_BROKER_URL.startswith(expected)
    _eta_task_lands(tmp_path)


def test_eta_task_runs_on_the_embedded_broker(tmp_path, require_redis, settings) -> None:
    """The same proof on the embedded broker, even where Redis is configured: the worker is
    started without REDIS_URL, and a second app of this process talks to the same folders."""
    var_dir = os.environ["LUZA_VAR_DIR"]
    broker_dir = os.path.join(var_dir, "celery-broker")
    control_dir = os.path.join(var_dir, "celery-control")
    for folder in (broker_dir, control_dir):  # settings make them only in embedded mode
        os.makedirs(folder, exist_ok=True)
    embedded = Celery("embedded-probe", set_as_current=False)
    embedded.conf.broker_url = "filesystem://"
    embedded.conf.broker_transport_options = {
        "data_folder_in": broker_dir,
        "data_folder_out": broker_dir,
        "control_folder": control_dir,
        "store_processed": False,
    }
    # The installation's queue and control exchange, as the worker's settings name them.
    embedded.conf.task_default_queue = settings.CELERY_TASK_DEFAULT_QUEUE
    embedded.conf.task_default_exchange = settings.CELERY_TASK_DEFAULT_EXCHANGE
    embedded.conf.task_default_routing_key = settings.CELERY_TASK_DEFAULT_ROUTING_KEY
    embedded.conf.control_exchange = settings.CELERY_CONTROL_EXCHANGE
    try:
        _eta_task_lands(tmp_path, sender=embedded, drop_env=("REDIS_URL",))
    finally:
        embedded.close()
