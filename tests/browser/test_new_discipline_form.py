"""A discipline the form has never heard of (tests/rules/toy_discipline.py, registered in the
live server's process for the test) is played through the form: the generic renderer draws it
from the match's `view` and `entry` alone, its winning ball asks to confirm."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import rules
from tests.browser import a11y
from tests.browser.conftest import PHONE
from tests.browser.referee_form import last_event, state, tap
from tests.matches.factories import MatchFactory
from tests.rules.toy_discipline import ToyRace

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TOY = {"discipline": "toy_race", "balls_to_win": 3}


@pytest.fixture
def toy() -> Iterator[rules.Discipline]:
    # The live server serves from a thread of this process: it sees the registry.
    with rules.registered(ToyRace()) as d:
        yield d


@pytest.fixture
def match(toy, tournament):
    return MatchFactory(tournament=tournament, ruleset=TOY, state=rules.initial_state(TOY))


def test_a_registered_discipline_is_played_through_the_generic_renderer(
    open_page, live_server, match, referee, screenshot
):
    a, b = match.player_a.name, match.player_b.name
    page = open_page(PHONE, user=referee)
    a11y.with_axe(page.context)
    page.goto(f"{live_server.url}/m/{match.pk}/score/")
    page.wait_for_selector("[data-renderer=generic] [data-awaiting=toss]")
    assert "3" in page.inner_text(".ref-info")  # the view's line: the race
    assert page.inner_text("[data-score=a]") == "0"
    assert a11y.axe_violations(page) == []

    # The toss: a choice of the two players, named.
    assert page.inner_text("[data-action=field-coin_toss-winner-b]") == b
    tap(page, "[data-action=field-coin_toss-winner-b]")
    assert last_event(match) == {"type": "coin_toss", "player": "a", "winner": "b"}
    assert (
        page.inner_text(".ref-events li") == f"#1\n{a}: Toss"
    )  # the log names it as the entry did

    # b at the table: a pad up to the balls on the table, each number said in full.
    assert page.locator("[data-action=field-shot-pocketed]").count() == 16  # 0..15
    screenshot(page, "referee-generic-shot", full_page=False)
    selector = "button[data-action=field-shot-pocketed][data-n='1']"
    assert page.get_attribute(selector, "aria-label") == f"1 шар — {b}"
    tap(page, selector)
    assert page.inner_text("[data-score=b]") == "1"
    assert page.evaluate("(s) => document.activeElement.matches(s)", selector)

    # A foul: its own sheet asks which foul and how many balls fell; Escape closes it.
    page.click("[data-action=kind-foul_shot]")
    page.wait_for_selector("[data-sheet=foul_shot]")
    page.keyboard.press("Escape")
    assert page.locator("[data-sheet=foul_shot]").count() == 0
    page.click("[data-action=kind-foul_shot]")
    page.click("[data-action=field-foul_shot-foul-double_hit]")
    page.click("button[data-action=field-foul_shot-pocketed][data-n='2']")
    tap(page, "[data-action=send-foul_shot]")
    assert last_event(match) == {"type": "shot", "player": "b", "foul": "double_hit", "pocketed": 2}
    assert page.locator("[data-to-spot='2']").is_visible()  # the view's spotting hint

    # a misses; b's two balls win the race: asked first, cancelled, then confirmed.
    tap(page, "button[data-action=field-shot-pocketed][data-n='0']")
    win = "button[data-action=field-shot-pocketed][data-n='2']"
    page.click(win)
    page.wait_for_selector("[data-sheet=confirm]")
    page.click("[data-action=cancel]")
    assert not state(match)["finished"]
    page.click(win)
    tap(page, "[data-action=confirm-end]")
    st = state(match)
    assert st["finished"] and st["winner"] == "b"
    page.wait_for_selector(".ref-finished")
    assert b in page.inner_text(".ref-finished h2") and a not in page.inner_text(".ref-finished h2")
    assert page.locator("[data-action=undo]").is_disabled()
    assert a11y.axe_violations(page) == []
    screenshot(page, "referee-generic-finished", full_page=False)
    assert not page.errors, page.errors
