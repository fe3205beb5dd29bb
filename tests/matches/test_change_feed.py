"""The change feed (config.changes): a match's log entries, its start and its end are told to
the subscribers, inside the write's transaction or after its commit, never for a refused write."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from config import changes
from config.changes import Change
from tests.matches.conftest import post_event


@pytest.fixture
def heard() -> Iterator[dict[str, list[Change]]]:
    got: dict[str, list[Change]] = {"transaction": [], "commit": []}

    def in_transaction(change: Change) -> None:
        got["transaction"].append(change)

    def after_commit(change: Change) -> None:
        got["commit"].append(change)

    changes.change_subscribe(in_transaction, when="transaction")
    changes.change_subscribe(after_commit)
    yield got
    changes.change_unsubscribe(in_transaction)
    changes.change_unsubscribe(after_commit)


def test_a_ball_a_refusal_and_the_end_reach_the_subscribers(
    scorer, match, heard, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        response = post_event(
            scorer, match, {"type": "break", "player": "a", "legal": True, "pocketed": 1}
        )
    assert response.status_code == 201
    kinds = [c.kind for c in heard["commit"]]
    assert kinds == ["match.event", "match.started"]
    assert heard["commit"][0].match_id == match.pk
    assert heard["commit"][0].tournament_id == match.tournament_id
    assert heard["commit"][0].data["seq"] == 1

    # A refused event (out of turn) changes nothing and tells nobody.
    before = len(heard["transaction"]), len(heard["commit"])
    with django_capture_on_commit_callbacks(execute=True):
        refused = post_event(scorer, match, {"type": "shot", "player": "b", "pocketed": 1})
    assert refused.status_code == 422
    assert (len(heard["transaction"]), len(heard["commit"])) == before

    with django_capture_on_commit_callbacks(execute=True):
        assert post_event(scorer, match, {"type": "forfeit", "player": "b"}).status_code == 201
    assert [c.kind for c in heard["commit"]][-2:] == ["match.event", "match.finished"]
    # The winner as the REST answers give it: the slot, and the player in winner_id.
    assert heard["commit"][-1].data["winner"] == "a"
    assert heard["commit"][-1].data["winner_id"] == match.player_a_id


def test_a_failing_subscriber_after_commit_does_not_undo_the_write(
    scorer, match, django_capture_on_commit_callbacks, caplog
) -> None:
    def broken(change: Change) -> None:
        raise RuntimeError("subscriber down")

    changes.change_subscribe(broken)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            response = post_event(
                scorer, match, {"type": "break", "player": "a", "legal": True, "pocketed": 0}
            )
    finally:
        changes.change_unsubscribe(broken)
    assert response.status_code == 201
    match.refresh_from_db()
    assert match.version == 1
    assert "change subscriber" in caplog.text
