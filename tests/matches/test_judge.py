"""Self-scoring: the players score their own match and either may call the judge."""

from __future__ import annotations

import pytest

from audit.models import AuditEntry
from matches import services
from tests.factories import UserFactory
from tests.matches.conftest import b_pockets, play

pytestmark = pytest.mark.django_db


@pytest.fixture
def players_api(match, login):
    """The two players of a self-scored match, each on his own phone."""
    match.tournament.self_scoring = True
    match.tournament.save(update_fields=["self_scoring"])
    clients = []
    for player in (match.player_a, match.player_b):
        player.user = UserFactory()
        player.save(update_fields=["user"])
        clients.append(login(player.user))
    return clients


def judge(client, match, action: str, note: str = ""):
    return client.post(
        f"/api/v1/matches/{match.pk}/judge/", {"action": action, "note": note}, format="json"
    )


def test_both_players_see_every_event_at_once(players_api, match) -> None:
    phone_a, phone_b = players_api
    play(phone_a, match, b_pockets(0)[:1])
    play(phone_b, match, [{"type": "shot", "player": "b", "pocketed": 2}])

    seen_by_a = phone_a.get(f"/api/v1/matches/{match.pk}/").json()
    assert seen_by_a["version"] == 2 and seen_by_a["state"]["score"]["b"] == 4
    assert [e["source"] for e in seen_by_a["last_events"]] == ["player", "player"]


def test_a_player_calls_the_judge_and_the_clock_stops(players_api, match, tournament) -> None:
    phone_a, phone_b = players_api
    play(phone_a, match, b_pockets(1))

    response = judge(phone_b, match, "call", "he touched a ball")

    assert response.status_code == 200
    body = response.json()
    assert body["judge"]["called"] is True and body["judge"]["note"] == "he touched a ball"
    assert body["status"] == "paused" and body["clock"]["running"] is False
    board = phone_a.get(f"/api/v1/tournaments/{tournament.pk}/tables/").json()
    assert [m["id"] for m in board["judge_calls"]] == [match.pk]
    # A second press changes nothing.
    again = judge(phone_a, match, "call", "no he did not")
    assert again.json()["judge"]["note"] == "he touched a ball"
    assert AuditEntry.objects.filter(match=match, action="match.judge_called").count() == 1


def test_the_judge_resolves_and_resumes_the_clock_himself(
    players_api, match, scorer, referee
) -> None:
    phone_a, _ = players_api
    play(phone_a, match, b_pockets(1))
    judge(phone_a, match, "call", "dispute")

    assert judge(phone_a, match, "resolve").status_code == 403

    response = judge(scorer, match, "resolve", "replayed the shot")
    assert response.status_code == 200
    body = response.json()
    assert body["judge"]["called"] is False
    assert body["status"] == "paused"  # the clock waits for the judge
    entry = AuditEntry.objects.get(match=match, action="match.judge_resolved")
    assert entry.actor == referee
    assert entry.data["note"] == "replayed the shot" and entry.data["call_note"] == "dispute"

    # A correction is an ordinary, audited undo; then the judge resumes play.
    assert scorer.post(f"/api/v1/matches/{match.pk}/undo/", {}, format="json").status_code == 201
    resumed = scorer.post(f"/api/v1/matches/{match.pk}/clock/", {"action": "resume"}, format="json")
    assert resumed.json()["status"] == "running"


def test_resolving_without_a_call_is_a_conflict(scorer, match) -> None:
    response = judge(scorer, match, "resolve")
    assert response.status_code == 409 and response.json()["code"] == "judge_not_called"


def test_a_call_before_play_flags_the_match_without_a_clock(players_api, match, organiser):
    phone_a, _ = players_api
    body = judge(phone_a, match, "call", "wrong head start").json()
    assert body["judge"]["called"] and body["status"] == "ready"
    result = services.match_judge_resolve(match_id=match.pk, actor=organiser, note="fixed")
    assert result.match.judge_called_at is None
