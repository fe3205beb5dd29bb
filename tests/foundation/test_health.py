from __future__ import annotations

import time
from unittest import mock

import pytest
from django.core.cache import cache
from django.db.utils import OperationalError

from config import health

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_stored_ping():
    cache.delete(health.PING_KEY)
    yield
    cache.delete(health.PING_KEY)


def test_healthz_reports_database_broker_and_workers(client, settings) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["instance"] == settings.INSTANCE
    assert body["database"]["ok"] is True
    assert body["broker"]["ok"] is True
    assert body["workers"] == 0
    assert body["workers_ping"] == {"count": 0, "age_seconds": None}


def test_healthz_answers_from_the_last_ping_without_pinging(client) -> None:
    cache.set(health.PING_KEY, {"at": time.time() - 4, "names": ["a@x", "b@x"]}, None)
    with mock.patch.object(health.celery_app.control, "ping") as ping:
        body = client.get("/healthz").json()
    ping.assert_not_called()
    assert body["workers"] == 2
    assert 4 <= body["workers_ping"]["age_seconds"] < 60


def test_an_old_ping_counts_no_workers_and_says_how_old(client, settings) -> None:
    old = 3 * settings.HEALTH_PING_SECONDS + 5
    cache.set(health.PING_KEY, {"at": time.time() - old, "names": ["a@x"]}, None)
    body = client.get("/healthz").json()
    assert body["workers"] == 0
    assert body["workers_ping"]["age_seconds"] >= old


def test_the_ping_task_stores_the_answer_for_healthz(client) -> None:
    replies = [{"luza-1@m": {"ok": "pong"}}, {"luza-2@m": {"ok": "pong"}}]
    with mock.patch.object(health.celery_app.control, "ping", return_value=replies) as ping:
        assert health.workers_ping_store() == 2
    assert ping.call_args.kwargs["timeout"] == health.PING_TIMEOUT_SECONDS
    assert client.get("/healthz").json()["workers"] == 2


def test_healthz_is_503_when_the_database_is_down(client) -> None:
    with mock.patch("config.health.connection.cursor", side_effect=OperationalError("down")):
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["database"] == {"ok": False, "error": "OperationalError"}


def test_healthz_is_503_when_the_broker_is_down(client) -> None:
    with mock.patch("config.health.broker_check", side_effect=ConnectionError("no broker")):
        response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["broker"] == {"ok": False, "error": "ConnectionError"}
    assert body["workers"] == 0


def test_head_is_answered_on_the_home_page_and_healthz(client) -> None:
    """A load balancer probes with HEAD (`curl -I`): the status of a GET, no body."""
    for path in ("/", "/healthz"):
        response = client.head(path)
        assert response.status_code == 200, path
        assert response.content == b""
    assert client.post("/healthz").status_code == 405
