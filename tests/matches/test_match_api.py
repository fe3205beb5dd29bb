"""Reading a match: what a scoreboard and a scoring device get from GET matches/{id}/."""

from __future__ import annotations

import pytest

from tests.factories import UserFactory
from tests.matches.conftest import play
from tests.matches.factories import MatchFactory, TableFactory

pytestmark = pytest.mark.django_db


def test_anyone_reads_a_public_match(api, match) -> None:
    table = TableFactory(tournament=match.tournament, number=7)
    match.table = table
    match.save(update_fields=["table"])

    body = api.get(f"/api/v1/matches/{match.pk}/").json()

    assert body["players"]["a"]["name"] == match.player_a.name
    assert body["players"]["b"]["rating"] == match.player_b.rating
    assert body["head_start"] == {"a": 0, "b": 2}
    assert body["table"]["number"] == 7
    assert body["state"]["awaiting"] == "break"
    assert body["version"] == 0 and body["status"] == "ready"
    assert body["clock"] == {
        **body["clock"],
        "limit_seconds": 4800,
        "remaining_seconds": 4800,
        "running": False,
        "paused": False,
        "expired": False,
        "warning": False,
        "ends_match": True,
    }
    assert body["last_events"] == []
    assert body["judge"] == {"called": False, "called_at": None, "note": ""}


def test_a_pending_slot_is_null(api, tournament) -> None:
    pending = MatchFactory(tournament=tournament, player_b=None, status="scheduled")
    body = api.get(f"/api/v1/matches/{pending.pk}/").json()
    assert body["players"]["b"] is None and body["players"]["a"] is not None


def test_a_private_tournaments_match_is_hidden_from_strangers(match, scorer, login) -> None:
    from rest_framework.test import APIClient

    match.tournament.is_public = False
    match.tournament.save(update_fields=["is_public"])
    # As an unknown id, for reads and writes: guessing ids confirms nothing.
    assert APIClient().get(f"/api/v1/matches/{match.pk}/").status_code == 404
    stranger = login(UserFactory())
    assert stranger.post(f"/api/v1/matches/{match.pk}/undo/", {}, format="json").status_code == 404
    assert scorer.get(f"/api/v1/matches/{match.pk}/").status_code == 200


def test_the_last_events_are_the_newest_oldest_first(scorer, match, api) -> None:
    misses = [{"type": "shot", "player": p, "pocketed": 0} for p in "baba" * 3]
    play(scorer, match, [{"type": "break", "player": "a", "legal": True, "pocketed": 0}])
    play(scorer, match, misses[:9])

    events = api.get(f"/api/v1/matches/{match.pk}/").json()["last_events"]
    assert [e["seq"] for e in events] == list(range(1, 11))

    play(scorer, match, misses[9:10])
    events = api.get(f"/api/v1/matches/{match.pk}/").json()["last_events"]
    assert [e["seq"] for e in events] == list(range(2, 12))
    assert events[-1]["event"] == {"type": "shot", "player": "a", "pocketed": 0}


def test_reading_a_match_takes_one_query(api, match, django_assert_max_num_queries) -> None:
    # The match with players, table and tournament; its last events are on its row.
    with django_assert_max_num_queries(1):
        response = api.get(f"/api/v1/matches/{match.pk}/")
    assert response.status_code == 200


def test_an_unknown_match_is_404(api, db) -> None:
    assert api.get("/api/v1/matches/999999/").status_code == 404
