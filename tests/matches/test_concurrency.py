"""Two devices scoring one match at the same moment (real PostgreSQL, one connection per
thread): one write wins, the others get 409 and retry; nothing is lost or applied twice."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connections
from rest_framework.test import APIClient

from matches.models import Match, MatchEvent

pytestmark = pytest.mark.django_db(transaction=True)

DEVICES = 6
BREAK_A = {"type": "break", "player": "a", "legal": True, "pocketed": 0}


def at_once(clients: list[APIClient], send: Callable[[int, APIClient], Any]) -> list[Any]:
    """Run `send` for every client in its own thread, released together."""
    barrier = threading.Barrier(len(clients))
    results: list[Any] = [None] * len(clients)

    def run(i: int) -> None:
        try:
            barrier.wait()
            results[i] = send(i, clients[i])
        finally:
            connections.close_all()  # this thread's own connection

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(clients))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return results


@pytest.fixture
def devices(require_postgres, referee) -> list[APIClient]:
    clients = []
    for _ in range(DEVICES):
        client = APIClient()
        client.force_login(referee)
        clients.append(client)
    return clients


def post(client: APIClient, match: Match, event: dict, version: int, key: str | None = None):
    return client.post(
        f"/api/v1/matches/{match.pk}/events/",
        {"event": event, "expected_version": version, "idempotency_key": key or uuid.uuid4().hex},
        format="json",
    )


def test_one_write_wins_the_others_get_409(devices, match) -> None:
    answers = at_once(devices, lambda i, c: post(c, match, BREAK_A, 0))

    codes = sorted(a.status_code for a in answers)
    assert codes == [201] + [409] * (DEVICES - 1)
    for answer in answers:
        if answer.status_code == 409:
            assert answer.json()["code"] == "stale_version"
            assert answer.json()["match"]["version"] == 1
    assert list(MatchEvent.objects.filter(match=match).values_list("seq", flat=True)) == [1]
    match.refresh_from_db()
    assert match.version == 1 and match.state["turn"] == "b"


def test_every_device_gets_its_event_in_by_retrying(devices, match) -> None:
    """Each device enters one miss for the player to act; on 409 it refreshes and retries."""
    post(devices[0], match, BREAK_A, 0)

    def enter_a_miss(i: int, client: APIClient):
        current = client.get(f"/api/v1/matches/{match.pk}/").json()
        for _ in range(DEVICES * 3):
            event = {"type": "shot", "player": current["state"]["turn"], "pocketed": 0}
            answer = post(client, match, event, current["version"])
            if answer.status_code != 409:
                return answer
            current = answer.json()["match"]
        return answer

    answers = at_once(devices, enter_a_miss)

    assert [a.status_code for a in answers] == [201] * DEVICES
    seqs = list(
        MatchEvent.objects.filter(match=match).order_by("seq").values_list("seq", flat=True)
    )
    assert seqs == list(range(1, DEVICES + 2))
    turns = [
        e["player"]
        for e in MatchEvent.objects.filter(match=match, seq__gt=1).values_list("payload", flat=True)
    ]
    assert turns == ["b", "a"] * (DEVICES // 2)  # every miss passed the turn exactly once


def test_one_key_sent_by_many_devices_is_applied_once(devices, match) -> None:
    answers = at_once(devices, lambda i, c: post(c, match, BREAK_A, 0, key="same-tap"))

    assert [a.status_code for a in answers] == [201] * DEVICES
    assert all(a.json() == answers[0].json() for a in answers)
    assert MatchEvent.objects.filter(match=match).count() == 1
