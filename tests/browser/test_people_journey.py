"""The organiser makes a referee's login in the panel and hands over the slip; the referee logs
in with it on his phone and starts his match."""

from __future__ import annotations

import re

import pytest

from audit.models import AuditEntry
from matches.models import Match
from tests.browser.conftest import LAPTOP, PHONE
from tests.web.helpers import drawn_tournament, first_ready

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_referee_login_made_in_the_panel_scores_a_match(
    open_page, live_server, organiser, screenshot
):
    tournament = drawn_tournament(
        organiser,
        2,
        format="single",
        handicap_scheme="none",
        ruleset={"discipline": "free_pyramid", "balls_to_win": 8},
    )
    match = first_ready(tournament)

    desk = open_page(LAPTOP, user=organiser)
    desk.goto(f"{live_server.url}/panel/t/{tournament.pk}/people/")
    desk.fill("input[name=name]", "Сидоров Иван")
    desk.fill("input[name=username]", "sidorov")
    desk.click("text=Создать логин и распечатать карточку")
    desk.wait_for_selector(".slip svg")
    screenshot(desk, "people-referee-slip")
    password = desk.inner_text("[data-secret]").strip()
    assert re.fullmatch(r"[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4}", password)
    desk.goto(f"{live_server.url}/panel/t/{tournament.pk}/people/")
    screenshot(desk, "people-page")
    assert "sidorov" in desk.content() and password not in desk.content()

    phone = open_page(PHONE)
    phone.goto(f"{live_server.url}/m/{match.pk}/score/")
    phone.fill("input[name=username]", "sidorov")
    phone.fill("input[name=password]", password)
    phone.click("main button[type=submit]")
    phone.wait_for_selector("[data-awaiting=break]")
    with phone.expect_response(
        lambda r: r.url.split("?")[0].endswith("/clock/") and r.request.method == "POST"
    ):
        phone.click("[data-action=clock-start]")
    phone.wait_for_selector(".ref-clock.running [data-running='1']")
    assert not phone.errors and not desk.errors
    assert Match.objects.get(pk=match.pk).clock_running_since is not None
    assert AuditEntry.objects.filter(match=match, actor__username="sidorov").exists()
