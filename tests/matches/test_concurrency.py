"""Two devices scoring one match at the same moment (real PostgreSQL, one connection per
thread): one write wins, the others get 409 and retry; nothing is lost or applied twice.

Each race is also run with the match row read without its lock (the negative control): then
it must fail, or the race would not prove the lock. Two races have a second guard, the log's
unique (match, seq): without the lock the second entry of a seq is refused there and the race
still passes, so their control drops that constraint too."""

from __future__ import annotations

import contextlib
import threading
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.db import connection, connections
from rest_framework.test import APIClient

from matches.models import Match, MatchEvent
from matches.querycache import CompiledQuery
from matches.services import locks

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
        except Exception as exc:  # an answer the race broke: kept for the assertions
            results[i] = exc
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


def one_write_wins(devices: list[APIClient], match: Match) -> None:
    answers = at_once(devices, lambda i, c: post(c, match, BREAK_A, 0))

    assert not [a for a in answers if isinstance(a, Exception)]
    codes = sorted(a.status_code for a in answers)
    assert codes == [201] + [409] * (DEVICES - 1)
    for answer in answers:
        if answer.status_code == 409:
            assert answer.json()["code"] == "stale_version"
            assert answer.json()["match"]["version"] == 1
    assert list(MatchEvent.objects.filter(match=match).values_list("seq", flat=True)) == [1]
    match.refresh_from_db()
    assert match.version == 1 and match.state["turn"] == "b"


def every_device_gets_in_by_retrying(devices: list[APIClient], match: Match) -> None:
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

    assert not [a for a in answers if isinstance(a, Exception)]
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


def one_key_applied_once(devices: list[APIClient], match: Match) -> None:
    answers = at_once(devices, lambda i, c: post(c, match, BREAK_A, 0, key="same-tap"))

    assert not [a for a in answers if isinstance(a, Exception)]
    assert [a.status_code for a in answers] == [201] * DEVICES
    assert all(a.json() == answers[0].json() for a in answers)
    assert MatchEvent.objects.filter(match=match).count() == 1


RACES = [one_write_wins, every_device_gets_in_by_retrying, one_key_applied_once]


@pytest.mark.parametrize("race", RACES)
def test_the_race_is_won_by_the_row_lock(race, devices, match) -> None:
    race(devices, match)


class _ReadWithoutLock:
    """A locked read of matches.services.locks without FOR UPDATE; each device then waits for
    the others (at most a second), so that every device reads before any writes."""

    def __init__(self, build: Callable[..., Any], arity: int, barrier: threading.Barrier) -> None:
        self.query = CompiledQuery(build, arity=arity)
        self.barrier = barrier

    def fetch(self, *args: int, using: str = "default") -> list[Match]:
        found = self.query.fetch(*args, using=using)
        if threading.current_thread() is not threading.main_thread():
            # Fewer devices left racing (retries) break the barrier: they go on.
            with contextlib.suppress(threading.BrokenBarrierError):
                self.barrier.wait()
        return found


@contextlib.contextmanager
def without_the_log_constraint() -> Iterator[None]:
    """The log's unique (match, seq) dropped for the block, put back after (the race's
    duplicate entries deleted first: the test's rows go at its end anyway)."""
    with connection.cursor() as cursor:
        cursor.execute("ALTER TABLE matches_matchevent DROP CONSTRAINT unique_event_seq")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("DELETE FROM matches_matchevent")
            cursor.execute(
                "ALTER TABLE matches_matchevent "
                "ADD CONSTRAINT unique_event_seq UNIQUE (match_id, seq)"
            )


# Each race, and whether the log's constraint guards it as well as the lock.
CONTROLS = [
    (one_write_wins, True),
    (every_device_gets_in_by_retrying, True),
    (one_key_applied_once, False),
]


@pytest.mark.parametrize(("race", "backstopped"), CONTROLS)
def test_without_the_row_lock_the_race_fails(
    race, backstopped, devices, match, monkeypatch
) -> None:
    """The negative control: the same race with the match row read unlocked is caught."""
    barrier = threading.Barrier(DEVICES, timeout=1)

    def unlocked(pk: int) -> Any:
        return locks.selectors.match_queryset().defer(*locks._UNUSED_BY_WRITES).filter(pk=pk)

    monkeypatch.setattr(
        locks, "_LOCKED_MATCH", _ReadWithoutLock(lambda pk: unlocked(pk)[:1], 1, barrier)
    )
    monkeypatch.setattr(
        locks,
        "_LOCKED_MATCH_AND_ROLE",
        _ReadWithoutLock(
            lambda pk, user_id: unlocked(pk).annotate(
                **locks.access.role_flag_annotations(user_id)
            )[:1],
            2,
            barrier,
        ),
    )
    guard = without_the_log_constraint() if backstopped else contextlib.nullcontext()
    with guard, pytest.raises(AssertionError):
        race(devices, match)
