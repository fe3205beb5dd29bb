"""A referee at the table with a phone (375×667): the clock, a break, shots, a foul with the
spotting hint, an undo, a double tap, a dropped connection, a stale screen, and the win."""

from __future__ import annotations

import re

import pytest
from rest_framework.test import APIClient

from matches.models import Match, MatchEvent
from tests.browser.conftest import PHONE
from tests.browser.referee_form import EVENTS, refereed_match, state

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MATCH_GET = re.compile(r"/api/v1/matches/\d+/(\?referee=1)?$")


@pytest.fixture
def match(organiser, referee):
    return refereed_match(organiser, referee, {"discipline": "free_pyramid", "balls_to_win": 8})


def tap(page, selector: str, url: re.Pattern[str] = EVENTS, *, ends: bool = False) -> None:
    """One tap that writes: wait for the answer and for the screen drawn from it. A tap that
    ends the match asks first: `ends` confirms it."""
    if ends:
        page.click(selector)
        page.wait_for_selector("[data-sheet=confirm]")
        selector = "[data-action=confirm-end]"
    with page.expect_response(lambda r: bool(url.search(r.url)) and r.request.method == "POST"):
        page.click(selector)
    page.wait_for_selector(".ref:not(.busy)")


def test_referee_plays_a_match_to_the_end(
    open_page, live_server, match, referee, organiser, screenshot
):
    page = open_page(PHONE, user=referee)
    page.goto(f"{live_server.url}/m/{match.pk}/score/")
    page.wait_for_selector("[data-awaiting=break]")
    screenshot(page, "referee-break", full_page=False)

    # Every control the referee taps is at least 56 px tall.
    heights = page.eval_on_selector_all(".ref-action .rbtn", "els => els.map(e => e.offsetHeight)")
    assert heights and min(heights) >= 56

    tap(page, "[data-action=clock-start]", re.compile(r"/clock/(\?referee=1)?$"))
    page.wait_for_selector(".ref-clock.running [data-running='1']")
    assert Match.objects.get(pk=match.pk).status == Match.Status.RUNNING

    tap(page, "button[data-action=break][data-n='2']")
    tap(page, "button[data-action=pot][data-n='1']")
    assert state(match)["score"]["a"] == 3

    # A double tap is one shot: the buttons are disabled while the first is in flight.
    before = MatchEvent.objects.filter(match=match).count()
    with page.expect_response(lambda r: bool(EVENTS.search(r.url))):
        page.dblclick("button[data-action=pot][data-n='1']")
    page.wait_for_selector(".ref:not(.busy)")
    page.wait_for_timeout(300)
    assert MatchEvent.objects.filter(match=match).count() == before + 1
    assert state(match)["score"]["a"] == 4

    # A foul with a ball pocketed: the picker quotes the rule, the hint says what to spot.
    page.click("[data-action=open-foul]")
    page.wait_for_selector("[data-sheet=foul]")
    # A short name and the clause on the button, the rule's exact text behind a tap.
    assert "Двойной удар" in page.inner_text("button[data-code=double_hit]")
    page.click("[data-quote=double_hit] summary")
    assert "наклейка кия может коснуться битка только один раз" in page.inner_text(
        "[data-quote=double_hit]"
    )
    screenshot(page, "referee-foul-picker", full_page=False)
    page.click("button[data-code=double_hit]")
    tap(page, "button[data-action=foul-n][data-n='1']")
    st = state(match)
    assert st["awaiting"] == "choice" and st["turn"] == "b" and st["to_spot"] == 2
    hint = page.locator("[data-to-spot='2']")
    assert hint.is_visible()
    screenshot(page, "referee-spotting-hint", full_page=False)
    tap(page, "[data-action=choice-play]")

    # Undo: the last shot is taken back.
    tap(page, "button[data-action=pot][data-n='3']")
    assert page.inner_text("[data-score=b]") == "3"
    tap(page, "[data-action=undo]", re.compile(r"/undo/(\?referee=1)?$"))
    assert page.inner_text("[data-score=b]") == "0"
    assert state(match)["score"]["b"] == 0

    # The connection drops after the server took the shot: the retry carries the same key,
    # and the shot counts once.
    keys: list[str] = []

    def drop_first_answer(route):
        keys.append(route.request.post_data_json["idempotency_key"])
        if len(keys) == 1:
            route.fetch()  # the server applies the event...
            route.abort()  # ...but the phone never hears back
        else:
            route.continue_()

    page.route(EVENTS, drop_first_answer)
    before = MatchEvent.objects.filter(match=match).count()
    page.click("button[data-action=pot][data-n='2']")
    page.wait_for_function("() => document.querySelector('[data-score=b]').textContent === '2'")
    page.unroute(EVENTS)
    assert len(keys) >= 2 and len(set(keys)) == 1
    assert MatchEvent.objects.filter(match=match).count() == before + 1

    # Another device enters a shot; this screen is stale: 409, then the current state.
    page.route(MATCH_GET, lambda route: route.abort())  # no background refresh meanwhile
    other = APIClient()
    other.force_login(organiser)
    match.refresh_from_db()
    answer = other.post(
        f"/api/v1/matches/{match.pk}/events/",
        {
            "event": {"type": "shot", "player": "b", "pocketed": 1},
            "expected_version": match.version,
            "idempotency_key": "other-device-1",
        },
        format="json",
    )
    assert answer.status_code == 201
    with page.expect_response(lambda r: bool(EVENTS.search(r.url)) and r.status == 409):
        page.click("button[data-action=pot][data-n='1']")
    page.wait_for_selector(".ref-notice.warn")
    assert page.inner_text("[data-score=b]") == "3"
    page.unroute(MATCH_GET)

    # Play on to the end: b runs out the race, a misses when he is at the table.
    for _ in range(30):
        st = state(match)
        if st["finished"]:
            break
        awaiting, turn = st["awaiting"], st["turn"]
        if awaiting == "choice":
            tap(page, "[data-action=choice-play]")
        elif awaiting == "rerack":
            tap(page, "[data-action=rerack-full]")
        elif turn == "a":
            action = "break" if awaiting == "break" else "pot"
            tap(page, f"button[data-action={action}][data-n='0']")
        else:
            n = min(st["balls_on_table"] - 1, 8 - st["score"]["b"])
            action = "break" if awaiting == "break" else "pot"
            tap(page, f"button[data-action={action}][data-n='{n}']", ends=n == 8 - st["score"]["b"])
    page.wait_for_selector(".ref-finished")
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.winner_id == match.player_b_id
    assert page.locator("[data-action=undo]").is_disabled()
    screenshot(page, "referee-finished", full_page=False)
    # The dropped answer and the 409 are logged by the browser as failed loads, nothing else.
    assert [e for e in page.errors if not e.startswith("Failed to load resource")] == []
