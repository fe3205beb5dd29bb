"""The table told what the rules make of it (issue: the table, right every time): the lag
recorded before the first break and shown after it, and a foul with no ball of the offender's
own on the shelf said as a debt, never as a ball to put on the table."""

from __future__ import annotations

import pytest

import rules
from tests.browser.conftest import PHONE
from tests.browser.referee_form import last_event, refereed_match, state, tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_lag_is_recorded_in_two_taps_and_the_loser_breaks_when_given_the_break(
    open_page, live_server, organiser, referee
):
    match = refereed_match(organiser, referee, {"discipline": "free_pyramid"})
    # A head start of 6 for a, as a handicap would give him.
    match.ruleset = {**match.ruleset, "head_start": {"a": 6, "b": 0}}
    match.state = rules.initial_state(match.ruleset)
    match.save(update_fields=["ruleset", "state"])
    page = open_page(PHONE, user=referee)
    page.goto(f"{live_server.url}/m/{match.pk}/score/")
    page.wait_for_selector("[data-lag] [data-action=lag-b]")
    assert "розыгрыш начального удара" in page.inner_text("[data-lag]")
    page.click("[data-action=lag-b]")
    page.wait_for_selector("[data-action=lag-gives]")
    tap(page, "[data-action=lag-gives]")
    assert last_event(match) == {"type": "lag", "winner": "b", "breaker": "a"}
    st = state(match)
    assert st["first_breaker"] == "a" and st["turn"] == "a"
    assert page.locator("[data-lag]").count() == 0
    assert "выигрывает розыгрыш начального удара" in page.inner_text(".ref-events")

    # a breaks and pockets nothing, b misses, a fouls: his 6 are a head start, no ball of his
    # lies on the shelf, so the table is told of a debt and asked to spot nothing.
    tap(page, "button[data-action=break][data-n='0']")
    tap(page, "button[data-action=pot][data-n='0']")
    page.click("[data-action=open-foul]")
    page.click("[data-action=foul-cue_tip]")
    tap(page, "button[data-action=foul-n][data-n='0']")
    penalty = page.inner_text("[data-penalty]")
    assert "Долг: 1 шар" in penalty
    assert page.locator(".ref-spot").count() == 0
    st = state(match)
    assert (st["balls_on_table"], st["debt"]["a"], st["score"]["a"]) == (16, 1, 6)
