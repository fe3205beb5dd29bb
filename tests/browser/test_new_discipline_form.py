"""Disciplines the form has never heard of (the made-up ones of tests/rules, registered in the
live server's process for the test) are played through the form: the generic renderer draws
them from the match's `view` and `entry` alone, the log reads the server's sentences (the
discipline's words: its toss, a shot that pocketed the cue ball), a winning ball asks to
confirm and the end is worded by the discipline."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import rules
from tests.browser import a11y
from tests.browser.conftest import PHONE
from tests.browser.referee_form import last_event, state, tap
from tests.matches.factories import MatchFactory
from tests.rules import samples

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TOY = {"discipline": "toy_race", "balls_to_win": 3}
SCRATCH = {"discipline": "toy_scratch", "balls_to_win": 2}


@pytest.fixture
def toy() -> Iterator[None]:
    # The live server serves from a thread of this process: it sees the registry.
    with samples.made_up_registered():
        yield


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
    page.wait_for_selector("[data-renderer=generic] [data-awaiting=coin_toss]")
    assert "3" in page.inner_text(".ref-info")  # the view's line: the race
    assert page.inner_text("[data-score=a]") == "0"
    assert a11y.axe_violations(page) == []

    # The toss: a choice of the two players, named.
    assert page.inner_text("[data-action=field-coin_toss-winner-b]") == b
    tap(page, "[data-action=field-coin_toss-winner-b]")
    assert last_event(match) == {"type": "coin_toss", "player": "a", "winner": "b"}
    # The log's sentence is the discipline's, sent by the server with the entry.
    assert page.inner_text(".ref-events li") == f"#1\n{b} выигрывает жребий и начинает"

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
    assert page.inner_text(".ref-finished .muted") == "Матч выигран"  # its end, in its words
    assert page.locator("[data-action=undo]").is_disabled()
    assert a11y.axe_violations(page) == []
    screenshot(page, "referee-generic-finished", full_page=False)
    assert not page.errors, page.errors


def test_a_field_of_its_own_on_the_shot_is_entered_and_worded(
    open_page, live_server, toy, tournament, referee
):
    """The scratch race's shot has a field of its own (the cue ball): its kind sends it, the
    log says «биток в лузе» (the family's words would say «ничего не забито»), and the point it gives
    the opponent wins the race, asked first."""
    match = MatchFactory(tournament=tournament, ruleset=SCRATCH, state=rules.initial_state(SCRATCH))
    a, b = match.player_a.name, match.player_b.name
    page = open_page(PHONE, user=referee)
    page.goto(f"{live_server.url}/m/{match.pk}/score/")
    page.wait_for_selector("[data-renderer=generic] [data-awaiting=shot]")
    tap(page, "button[data-action=field-shot-pocketed][data-n='1']")
    assert page.inner_text("[data-score=a]") == "1"
    assert page.inner_text(".ref-events li") == f"#1\n{a}: 1 шар"
    page.click("[data-action=kind-scratch]")
    page.wait_for_selector("[data-sheet=scratch]")
    tap(page, "button[data-action=field-scratch-pocketed][data-n='0']")
    assert last_event(match) == {"type": "shot", "player": "a", "scratch": True, "pocketed": 0}
    assert page.inner_text(".ref-events li") == f"#2\n{a}: биток в лузе"
    assert page.inner_text("[data-score=b]") == "1"
    # Offline, b's miss waits on the phone: no sentence of the server's yet, so it is named by
    # the entry's kind it was made with; once sent, the log has the server's sentence.
    page.context.set_offline(True)
    page.wait_for_selector(".ref.offline")
    page.click("button[data-action=field-shot-pocketed][data-n='0']")
    pending = page.inner_text(".ref-events li.pending")
    assert pending.startswith(f"…\n{b}: Записать удар")
    page.context.set_offline(False)
    page.wait_for_selector(".ref:not(.offline):not(.busy) [data-awaiting=shot]")
    page.wait_for_function("() => !document.querySelector('.ref-events li.pending')")
    assert page.inner_text(".ref-events li") == f"#3\n{b}: ничего не забито"
    # a scratches again: the opponent's point ends the race, so it asks first.
    page.click("[data-action=kind-scratch]")
    page.click("button[data-action=field-scratch-pocketed][data-n='0']")
    page.wait_for_selector("[data-sheet=confirm]")
    tap(page, "[data-action=confirm-end]")
    page.wait_for_selector(".ref-finished")
    assert state(match)["winner"] == "b"
    assert b in page.inner_text(".ref-finished h2")
    assert page.inner_text(".ref-finished .muted") == "Матч выигран"
    # What the browser logs offline is failed loads, nothing else.
    assert [e for e in page.errors if "Failed to load" not in e and "ERR_INTERNET" not in e] == []
