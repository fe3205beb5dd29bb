"""Self-scoring is fair: a player concedes only for himself, and while a judge call is open
only a referee or an organiser acts on the match; the match control page resolves the call."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from tests.factories import UserFactory
from tests.matches.conftest import b_pockets, play, post_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def phones(match, login):
    """The two players of a self-scored match, each on their own phone: (a, b)."""
    match.tournament.self_scoring = True
    match.tournament.save(update_fields=["self_scoring"])
    clients = []
    for player in (match.player_a, match.player_b):
        player.user = UserFactory()
        player.save(update_fields=["user"])
        clients.append(login(player.user))
    return clients


def judge(client, match, action: str):
    return client.post(f"/api/v1/matches/{match.pk}/judge/", {"action": action}, format="json")


def test_a_player_cannot_concede_for_the_opponent(phones, match) -> None:
    phone_a, phone_b = phones
    play(phone_a, match, b_pockets(1))

    response = post_event(phone_b, match, {"type": "forfeit", "player": "a"})

    assert response.status_code == 403
    assert response.json()["code"] == "concede_only_yourself"
    match.refresh_from_db()
    assert match.status == "running" and match.version == 2 and match.winner_id is None


def test_a_player_concedes_for_himself(phones, match) -> None:
    phone_a, phone_b = phones
    play(phone_a, match, b_pockets(1))

    response = post_event(phone_b, match, {"type": "forfeit", "player": "b"})

    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["winner"] == "a" and body["result"] == "forfeit" and body["status"] == "finished"


def test_the_referee_still_records_a_forfeit_for_either_player(phones, match, scorer) -> None:
    play(scorer, match, b_pockets(1))
    response = post_event(scorer, match, {"type": "forfeit", "player": "a"})
    assert response.status_code == 201 and response.json()["winner"] == "b"


def test_during_a_judge_call_only_the_judge_acts(phones, match, scorer) -> None:
    phone_a, phone_b = phones
    play(phone_a, match, b_pockets(1))
    assert judge(phone_b, match, "call").json()["status"] == "paused"
    match.refresh_from_db()
    version = match.version

    refused = {
        "event": post_event(phone_a, match, {"type": "shot", "player": "b", "pocketed": 1}),
        "resume": phone_a.post(
            f"/api/v1/matches/{match.pk}/clock/", {"action": "resume"}, format="json"
        ),
        "undo": phone_b.post(f"/api/v1/matches/{match.pk}/undo/", {}, format="json"),
        "forfeit": post_event(phone_b, match, {"type": "forfeit", "player": "b"}),
    }
    for route, response in refused.items():
        assert response.status_code == 403, route
        assert response.json()["code"] == "judge_called", route
    match.refresh_from_db()
    assert match.version == version and match.status == "paused"
    assert match.judge_called_at is not None

    # The referee acts on the match while the call is open.
    response = scorer.post(f"/api/v1/matches/{match.pk}/undo/", {}, format="json")
    assert response.status_code == 201 and response.json()["judge"]["called"] is True

    # Once resolved, the players play on.
    assert judge(scorer, match, "resolve").status_code == 200
    response = phone_a.post(
        f"/api/v1/matches/{match.pk}/clock/", {"action": "resume"}, format="json"
    )
    assert response.status_code == 200, response.json()


def test_the_players_form_shows_that_the_judge_is_coming(phones, match) -> None:
    client = Client()
    client.force_login(match.player_a.user)
    page = client.get(f"/m/{match.pk}/score/").content.decode()
    me = json.loads(re.search(r'id="referee-me"[^>]*>(.*?)</script>', page).group(1))
    assert me == {"role": "player", "slot": "a"}
    ui = json.loads(re.search(r'id="referee-ui"[^>]*>(.*?)</script>', page).group(1))
    assert ui["text"]["judge_coming"].startswith("Судья идёт к столу")


def test_the_match_control_page_resolves_a_judge_call(phones, match, organiser) -> None:
    _phone_a, phone_b = phones
    play(phone_b, match, b_pockets(1))
    judge(phone_b, match, "call")
    client = Client()
    client.force_login(organiser)

    page = client.get(f"/panel/m/{match.pk}/").content.decode()
    assert f'action="/panel/m/{match.pk}/judge/resolve/"' in page

    client.post(f"/panel/m/{match.pk}/judge/resolve/", {"note": "всё по правилам"})
    match.refresh_from_db()
    assert match.judge_called_at is None
    page = client.get(f"/panel/m/{match.pk}/").content.decode()
    assert "data-judge-call" not in page
