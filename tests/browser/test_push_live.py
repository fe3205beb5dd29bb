"""Pushed, not polled: pages served by the production ASGI server (uvicorn, config.asgi) follow
a referee's taps from the match's and the tournament's streams, without a reload and without
polling (no fragment is asked for while nothing happens)."""

from __future__ import annotations

import re
import time

import pytest
from rest_framework.test import APIClient

from tests.browser.conftest import PHONE
from tests.browser.referee_form import EVENTS, refereed_match
from tests.stream_server import stream_server

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def server(require_redis, live_server):
    with stream_server() as url:
        yield url


def post_event(client: APIClient, match, event: dict, key: str) -> None:
    match.refresh_from_db()
    answer = client.post(
        f"/api/v1/matches/{match.pk}/events/",
        {"event": event, "expected_version": match.version, "idempotency_key": key},
        format="json",
    )
    assert answer.status_code == 201, answer.json()


def watch_fragments(page) -> list[float]:
    """When the page asked for a fresh fragment (a poll, or a fetch after a push)."""
    asked: list[float] = []
    page.on(
        "request",
        lambda request: "fragment=1" in request.url and asked.append(time.monotonic()),
    )
    return asked


def test_a_second_page_sees_a_tap_pushed_without_polling(
    server, open_page, organiser, referee, screenshot
):
    match = refereed_match(organiser, referee, {"discipline": "free_pyramid", "balls_to_win": 8})
    scorer = APIClient()
    scorer.force_login(referee)
    post_event(scorer, match, {"type": "break", "player": "a", "legal": True, "pocketed": 2}, "p1")

    page = open_page(PHONE)
    bracket = open_page(PHONE)
    with bracket.expect_response(lambda r: "fragment=1" in r.url):  # its catch-up on connecting
        bracket.goto(f"{server}/t/{match.tournament_id}/bracket/")
    cell = f"[data-live-match='{match.pk}'] [data-live-score=a]"
    assert bracket.inner_text(cell) == "2"
    bracket_asked = watch_fragments(bracket)
    asked = watch_fragments(page)
    with page.expect_response(lambda r: "fragment=1" in r.url):  # the catch-up once connected
        page.goto(f"{server}/m/{match.pk}/")
    assert page.inner_text("[data-score=a]") == "2"
    page.evaluate("window.__sameDocument = true")  # gone if the page reloads

    # Nothing happens for longer than the old polling period: nothing is asked for.
    page.wait_for_timeout(2600)
    idle = len(asked)
    assert idle == 1

    tapped = time.monotonic()
    post_event(scorer, match, {"type": "shot", "player": "a", "pocketed": 3}, "p2")
    page.wait_for_function(
        "() => document.querySelector('[data-score=a]').textContent.trim() === '5'", timeout=1500
    )
    followed = time.monotonic() - tapped
    assert followed < 1.5
    # The bracket's cell took the score from the pushed event itself: no fetch for a ball.
    bracket.wait_for_function(
        f"() => document.querySelector(\"{cell}\").textContent.trim() === '5'", timeout=1500
    )
    assert bracket_asked == []
    assert len(asked) == idle + 1  # one fetch, pushed by the event
    assert page.evaluate("window.__sameDocument") is True
    assert page.errors == []
    screenshot(page, "scoreboard-pushed")


def test_the_other_referee_phone_sees_a_tap_at_once(server, open_page, organiser, referee):
    match = refereed_match(organiser, referee, {"discipline": "free_pyramid", "balls_to_win": 8})
    first = open_page(PHONE, user=referee)
    second = open_page(PHONE, user=referee)
    for phone in (first, second):
        phone.goto(f"{server}/m/{match.pk}/score/")
        phone.wait_for_selector("[data-awaiting=break]")
    second.wait_for_timeout(500)  # its stream is connected
    polls = []
    second.on(
        "request",
        lambda r: re.search(r"/api/v1/matches/\d+/\?referee=1$", r.url) and polls.append(r.url),
    )

    with first.expect_response(lambda r: bool(EVENTS.search(r.url)) and r.request.method == "POST"):
        first.click("button[data-action=break][data-n='2']")
    tapped = time.monotonic()
    # The second phone leaves the break screen for the next shot without a reload or a poll
    # of its own: the tap was pushed to it.
    second.wait_for_selector("[data-awaiting=break]", state="detached", timeout=1500)
    assert time.monotonic() - tapped < 1.5
    assert len(polls) == 1  # the one fetch the push asked for
    assert first.errors == [] and second.errors == []
