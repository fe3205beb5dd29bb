"""The referee form's page: who may open it, and what it gives referee.js to work with."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from matches import wording
from tests.factories import UserFactory
from tests.web.helpers import drawn_tournament, first_ready

pytestmark = pytest.mark.django_db


def embedded(page: str, element_id: str):
    found = re.search(
        rf'<script id="{element_id}" type="application/json">(.*?)</script>', page, re.S
    )
    assert found, element_id
    return json.loads(found.group(1))


def test_anonymous_is_sent_to_the_login(client, drawn):
    match = first_ready(drawn)
    response = client.get(f"/m/{match.pk}/score/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_a_stranger_may_not_score(client, drawn, user):
    client.force_login(user)
    response = client.get(f"/m/{first_ready(drawn).pk}/score/")
    assert response.status_code == 403
    assert "/m/" in response.content.decode()  # the way to the scoreboard


def test_a_private_tournament_s_match_does_not_exist_for_strangers(client, organiser, user):
    tournament = drawn_tournament(organiser, 2, is_public=False)
    client.force_login(user)
    assert client.get(f"/m/{first_ready(tournament).pk}/score/").status_code == 404


def test_the_referee_gets_the_match_the_api_and_the_rule_wording(referee_client, drawn):
    match = first_ready(drawn)
    response = referee_client.get(f"/m/{match.pk}/score/")
    assert response.status_code == 200
    assert "csrftoken" in response.cookies
    page = response.content.decode()
    assert f'data-api="/api/v1/matches/{match.pk}/"' in page
    data = embedded(page, "match-data")
    assert data["id"] == match.pk and data["version"] == 0
    assert data["state"]["awaiting"] == "break"
    ui = embedded(page, "referee-ui")
    fouls = {f["code"]: f for f in ui["shot_fouls"]}
    assert fouls["double_hit"]["rule"] == "rule 18"  # the page is in English here
    assert "наклейка кия может коснуться битка только один раз" in fouls["double_hit"]["quote"]
    assert {f["code"] for f in ui["event_fouls"]} == {"touched_ball", "slow_play", "interference"}
    assert ui["spot"]["1"] == "Put 1 ball on the rear spot."
    assert "spotting line" in ui["spot"]["2"]
    assert '<script type="module" src="/static/js/referee/main.js">' in page
    assert "<script>" not in page  # no inline script (CSP)


def test_a_self_scoring_player_may_score_his_own_match(organiser):
    tournament = drawn_tournament(organiser, 4, self_scoring=True)
    match = first_ready(tournament)
    player_user = UserFactory()
    match.player_a.user = player_user
    match.player_a.save(update_fields=["user"])
    client = Client()
    client.force_login(player_user)
    assert client.get(f"/m/{match.pk}/score/").status_code == 200


def test_rule_numbers_read_as_a_russian_referee_reads_them() -> None:
    from django.utils import translation

    with translation.override("ru"):
        assert wording.rule_label("G12.1") == "п. 12.1 Общих правил"
        assert wording.rule_label("D5.2") == "п. 5.2 правил Дуплекса"
        assert wording.foul_title("double_hit").endswith("(п. 18 Общих правил)")
        assert wording.option_hint("rebreak_self") == "п. 12.2 (3) Общих правил"
        assert wording.option_hint("play") == "Бьёт тот, кто выбирает"
    assert wording.rule_label("not a rule") == "not a rule"
