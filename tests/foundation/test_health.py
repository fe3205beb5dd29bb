from __future__ import annotations

from unittest import mock

import pytest
from django.db.utils import OperationalError

pytestmark = pytest.mark.django_db


def test_healthz_reports_database_broker_and_workers(client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["database"]["ok"] is True
    assert body["broker"]["ok"] is True
    assert isinstance(body["workers"], int)


def test_healthz_is_503_when_the_database_is_down(client) -> None:
    with mock.patch("config.health.connection.cursor", side_effect=OperationalError("down")):
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["database"] == {"ok": False, "error": "OperationalError"}


def test_healthz_is_503_when_the_broker_is_down(client) -> None:
    with mock.patch(
        "config.health.celery_app.connection_for_write", side_effect=ConnectionError("no broker")
    ):
        response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["broker"]["ok"] is False
    assert body["workers"] == 0
