"""A spectator's scoreboard follows the match without a reload."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.browser.conftest import LAPTOP, PHONE
from tests.web.helpers import drawn_tournament, first_ready

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def post_event(client: APIClient, match, event: dict, key: str) -> None:
    match.refresh_from_db()
    answer = client.post(
        f"/api/v1/matches/{match.pk}/events/",
        {"event": event, "expected_version": match.version, "idempotency_key": key},
        format="json",
    )
    assert answer.status_code == 201, answer.json()


def test_scoreboard_changes_without_a_reload(
    open_page, live_server, organiser, referee, screenshot
):
    tournament = drawn_tournament(organiser, 8, referee=referee, format="single")
    match = first_ready(tournament)
    head_b = match.ruleset["head_start"]["b"]
    scorer = APIClient()
    scorer.force_login(referee)
    post_event(scorer, match, {"type": "break", "player": "a", "legal": True, "pocketed": 2}, "k1")

    page = open_page(PHONE)
    page.goto(f"{live_server.url}/m/{match.pk}/")
    assert page.inner_text("[data-score=a]") == "2"
    page.evaluate("window.__sameDocument = true")  # gone if the page reloads

    post_event(scorer, match, {"type": "shot", "player": "a", "pocketed": 3}, "k2")
    post_event(scorer, match, {"type": "shot", "player": "a", "pocketed": 0}, "k3")
    page.wait_for_function(
        "() => document.querySelector('[data-score=a]').textContent.trim() === '5'", timeout=3500
    )
    assert page.evaluate("window.__sameDocument") is True
    assert "3" in page.inner_text(".events")  # the new events are listed
    assert page.inner_text("[data-score=b]") == str(head_b)
    screenshot(page, "scoreboard-phone")

    # The bracket and the tournament page are live too, and readable on a laptop.
    laptop = open_page(LAPTOP)
    laptop.goto(f"{live_server.url}/t/{tournament.pk}/")
    assert laptop.locator(".live-list li").count() == 1
    screenshot(laptop, "tournament-page")
    laptop.goto(f"{live_server.url}/t/{tournament.pk}/bracket/")
    screenshot(laptop, "bracket-laptop")
    phone = open_page(PHONE)
    phone.goto(f"{live_server.url}/t/{tournament.pk}/bracket/")
    phone.click(".round-tabs a:nth-child(2)")
    phone.wait_for_selector(".round-tabs a:nth-child(2).active")
    phone.wait_for_timeout(400)  # the smooth scroll settles
    screenshot(phone, "bracket-phone", full_page=False)
    assert page.errors == [] and laptop.errors == [] and phone.errors == []
