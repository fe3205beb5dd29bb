"""Undo: an appended log entry that cancels the last event in force."""

from __future__ import annotations

import pytest

from matches.models import MatchEvent
from matches.services import match_clock_expire
from tests.matches.conftest import b_pockets, play, post_event
from tests.matches.test_events_api import audit_of

pytestmark = pytest.mark.django_db


def undo(client, match, **body):
    return client.post(f"/api/v1/matches/{match.pk}/undo/", body, format="json")


def test_undo_cancels_the_last_event_and_the_version_still_grows(scorer, match, referee) -> None:
    play(scorer, match, b_pockets(3))

    response = undo(scorer, match)

    assert response.status_code == 201
    body = response.json()
    assert body["version"] == 3
    assert body["state"]["score"] == {"a": 0, "b": 2}
    assert body["state"]["turn"] == "b" and body["state"]["awaiting"] == "shot"
    shot = MatchEvent.objects.get(match=match, seq=2)
    assert shot.undone
    entry = MatchEvent.objects.get(match=match, seq=3)
    assert entry.kind == "undo" and entry.undoes == shot
    (audit,) = audit_of(match, "match.undo")  # the undo's log entry, as the audit log reads it
    assert audit.actor == referee and audit.data["undone_seq"] == 2


def test_undo_walks_back_through_the_log(scorer, match) -> None:
    play(scorer, match, b_pockets(3))
    assert undo(scorer, match).status_code == 201
    body = undo(scorer, match).json()
    assert body["version"] == 4
    assert body["state"]["awaiting"] == "break" and body["state"]["turn"] == "a"
    # Nothing left: a clear refusal, not a silent success.
    response = undo(scorer, match, expected_version=4)
    assert response.status_code == 422
    assert response.json()["code"] == "nothing_to_undo"
    assert response.json()["message"]


def test_undo_on_an_empty_log_is_refused(scorer, match) -> None:
    response = undo(scorer, match)
    assert response.status_code == 422
    assert response.json()["code"] == "nothing_to_undo"


def test_a_new_event_after_an_undo_continues_from_the_folded_state(scorer, match) -> None:
    play(scorer, match, b_pockets(3))
    undo(scorer, match)
    response = post_event(scorer, match, {"type": "shot", "player": "b", "pocketed": 2})
    assert response.status_code == 201
    assert response.json()["state"]["score"] == {"a": 0, "b": 4}
    assert response.json()["version"] == 4


def test_undo_with_a_stale_version_is_a_conflict(scorer, match) -> None:
    play(scorer, match, b_pockets(1))
    response = undo(scorer, match, expected_version=1)
    assert response.status_code == 409
    assert response.json()["match"]["version"] == 2
    assert not MatchEvent.objects.filter(match=match, undone=True).exists()


def test_undo_twice_with_one_key_undoes_once(scorer, match) -> None:
    play(scorer, match, b_pockets(3))
    first = undo(scorer, match, idempotency_key="u1")
    second = undo(scorer, match, idempotency_key="u1")
    assert second.status_code == 201 and second.json() == first.json()
    assert MatchEvent.objects.filter(match=match, undone=True).count() == 1


def _expire_now(match) -> None:
    match.refresh_from_db()
    match.clock_deadline = match.clock_running_since
    match.save(update_fields=["clock_deadline"])
    assert match_clock_expire(match_id=match.pk)


def test_the_end_of_time_is_undone_by_an_organiser_only(scorer, match, organiser_api) -> None:
    play(scorer, match, [{"type": "break", "player": "a", "legal": True, "pocketed": 2}])
    play(scorer, match, [{"type": "shot", "player": "a", "pocketed": 0}])  # 2 : 2
    _expire_now(match)
    match.refresh_from_db()
    assert match.state["golden_ball"] is True and match.clock_expired_at is not None

    assert undo(scorer, match).status_code == 403

    response = undo(organiser_api, match)
    assert response.status_code == 201
    body = response.json()
    assert body["state"]["golden_ball"] is False
    # The time is no longer up; the clock waits, paused, for the organiser to set it.
    assert body["clock"]["expired"] is False and body["status"] == "paused"


def test_a_finished_match_is_not_undone(scorer, match) -> None:
    play(scorer, match, b_pockets(6))
    response = undo(scorer, match)
    assert response.status_code == 409
    assert response.json()["code"] == "match_finished"
