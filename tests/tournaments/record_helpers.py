"""Helpers of the one-record tests: writes as a club's devices send them, and reads of the
bracket (the fixtures `bracket` and `scorer` are in conftest.py)."""

from __future__ import annotations

import uuid
from typing import Any

from rest_framework.test import APIClient

from matches.models import Match

# a 10 : b 1 in a race to 10: a breaks, b pockets one and misses, a runs out.
TEN_ONE = [
    {"type": "break", "player": "a", "legal": True, "pocketed": 0},
    {"type": "shot", "player": "b", "pocketed": 1},
    {"type": "shot", "player": "b", "pocketed": 0},
    {"type": "shot", "player": "a", "pocketed": 10},
]


def event(client: APIClient, m: Match, body: dict[str, Any], version: int | None = None):
    m.refresh_from_db()
    return client.post(
        f"/api/v1/matches/{m.pk}/events/",
        {
            "event": body,
            "expected_version": m.version if version is None else version,
            "idempotency_key": uuid.uuid4().hex,
        },
        format="json",
    )


def play(client: APIClient, m: Match, events: list[dict[str, Any]]) -> None:
    for body in events:
        response = event(client, m, body)
        assert response.status_code == 201, response.json()


def correct(client: APIClient, m: Match, winner: str, a: int, b: int, reason: str = ""):
    return client.post(
        f"/api/v1/tournaments/{m.tournament_id}/matches/{m.pk}/correct/",
        {"winner": winner, "score_a": a, "score_b": b, "reason": reason},
        format="json",
    )


def bracket_card(client: APIClient, m: Match) -> dict[str, Any]:
    body = client.get(f"/api/v1/tournaments/{m.tournament_id}/bracket/").json()
    return next(
        card
        for stage in body["stages"]
        for rnd in stage["rounds"]
        for card in rnd["matches"]
        if card["id"] == m.pk
    )
