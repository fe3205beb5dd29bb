"""Fixtures of the match tests: a ready free-pyramid match, scorers, and a spy on the
tournament's "match finished" hook."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from matches import hooks
from tests.conftest import PASSWORD
from tests.matches.factories import MatchFactory


@pytest.fixture
def ruleset() -> dict[str, Any]:
    """Free pyramid, a classic 8-ball frame so that a match is won in a few events."""
    return {"discipline": "free_pyramid", "balls_to_win": 8, "head_start": {"a": 0, "b": 2}}


@pytest.fixture
def match(db, tournament, ruleset):
    return MatchFactory(tournament=tournament, ruleset=ruleset)


@pytest.fixture
def scorer(api, referee):
    """The API client of the tournament's referee (session login, as the referee form)."""
    api.force_login(referee)
    return api


@pytest.fixture
def organiser_api(organiser):
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_login(organiser)
    return client


@pytest.fixture
def login():
    """A fresh API client logged in as `user`."""
    from rest_framework.test import APIClient

    def make(user) -> APIClient:
        client = APIClient()
        assert client.login(username=user.username, password=PASSWORD)
        return client

    return make


@pytest.fixture
def finished_calls(monkeypatch) -> list[int]:
    """Ids of the matches the tournament was told about, in order (the real hook still runs)."""
    listener = hooks.listener()
    calls: list[int] = []
    real = listener.match_finished

    def spy(*, match) -> None:
        calls.append(match.pk)
        real(match=match)

    monkeypatch.setattr(listener, "match_finished", spy)
    return calls


def post_event(
    client, match, event: dict[str, Any], *, version: int | None = None, key=None, query: str = ""
):
    """POST one event with the match's current version (or `version`); ``query``:
    "?referee=1" asks for the entry in the answer, as the referee form does."""
    if version is None:
        match.refresh_from_db(fields=["version"])
        version = match.version
    body: dict[str, Any] = {"event": event, "expected_version": version}
    body["idempotency_key"] = key or uuid.uuid4().hex
    return client.post(f"/api/v1/matches/{match.pk}/events/{query}", body, format="json")


def play(client, match, events: list[dict[str, Any]]) -> None:
    for event in events:
        response = post_event(client, match, event)
        assert response.status_code == 201, response.json()


# Player a breaks legally with nothing pocketed; b then pockets `n` balls in one visit.
def b_pockets(n: int) -> list[dict[str, Any]]:
    return [
        {"type": "break", "player": "a", "legal": True, "pocketed": 0},
        {"type": "shot", "player": "b", "pocketed": n},
    ]
