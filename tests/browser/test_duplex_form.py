"""A whole Duplex match through the referee form on a phone (375×667): every screen shows
the plus and minus points the server's view says, the deciding frame's provisional final,
each frame's summary and the points of each frame; the pickers name each colour's player; a
foul and an illegal break ask their own balls (nothing picked before is carried in); concede
and the winning shot can be cancelled; Escape closes a sheet; the focus stays put."""

from __future__ import annotations

import pytest

from tests.browser import a11y
from tests.browser.conftest import PHONE
from tests.browser.referee_form import last_event, refereed_match, state, tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def match(organiser, referee):
    return refereed_match(
        organiser, referee, {"discipline": "duplex", "first_break": "a"}, discipline="duplex"
    )


def pick(page, colour: str, n: int) -> None:
    page.click(f"button[data-action=colour-{colour}][data-n='{n}']")
    selector = f"button[data-action=colour-{colour}][data-n='{n}']"
    assert page.get_attribute(selector, "aria-pressed") == "true"
    # The focus stays on the number just picked: the next pick is one tap away.
    assert page.evaluate("(s) => document.activeElement.matches(s)", selector)


def score(page, slot: str) -> str:
    return page.inner_text(f"[data-score={slot}]")


def facts(page, slot: str) -> str:
    return page.inner_text(f"[data-side={slot}] .ref-sub")


def test_a_whole_duplex_match_through_the_form(open_page, live_server, match, referee, screenshot):
    a, b = match.player_a.name, match.player_b.name
    page = open_page(PHONE, user=referee)
    a11y.with_axe(page.context)
    page.goto(f"{live_server.url}/m/{match.pk}/score/")
    page.wait_for_selector("[data-renderer=duplex] [data-awaiting=break]")

    # Frame 1: the board says which frame, the balls of each colour; each picker names the
    # player whose colour it counts.
    assert page.inner_text("[data-frame]") == "партия 1 из 3"
    assert "на столе: 8" in facts(page, "a") and "на столе: 8" in facts(page, "b")
    assert score(page, "a") == "0" and score(page, "b") == "0"
    labels = page.locator(".ref-colours .ref-label").all_inner_texts()
    assert a in labels[0] and b in labels[1]
    assert page.get_attribute("button[data-action=colour-b][data-n='3']", "aria-label") == (
        f"3 шара — {b}"
    )
    assert a11y.axe_violations(page) == []

    # Concede asks, and Cancel and Escape back out of it.
    page.click("[data-action=forfeit]")
    page.click("[data-action=concede-b]")
    question = page.inner_text("[data-sheet=forfeit] .ref-label")
    assert b in question and "Подтвердить" in question
    page.click("[data-action=concede-cancel]")
    page.click("[data-action=forfeit]")
    page.click("[data-action=concede-a]")
    page.keyboard.press("Escape")
    assert page.locator("[data-sheet=forfeit]").count() == 0
    assert not state(match)["finished"]

    pick(page, "a", 2)
    tap(page, "[data-action=break-legal]")
    assert last_event(match)["pocketed"] == {"a": 2, "b": 0}
    assert "на столе: 6" in facts(page, "a")
    pick(page, "a", 6)
    tap(page, "[data-action=shot]")

    # Frame 1 is over: plus points 8:0, its summary and the frame table.
    st = state(match)
    assert st["frame"] == 2 and st["plus"] == {"a": 8, "b": 0}
    assert page.inner_text("[data-frame]") == "партия 2 из 3"
    assert score(page, "a") == "8" and score(page, "b") == "0"
    assert "Партия 1 окончена" in page.inner_text("[data-frame-summary='1']")
    assert page.inner_text("[data-frame-row='1']").split() == ["1", "8", "0"]
    screenshot(page, "referee-duplex-frame-summary", full_page=False)

    # Frame 2, b breaks illegally. Balls picked on the main screen are not carried into the
    # sheet: it asks its own, per colour.
    assert st["turn"] == "b" and st["awaiting"] == "break"
    pick(page, "b", 2)
    page.click("[data-action=break-illegal]")
    page.wait_for_selector("[data-sheet=illegal_break]")
    assert page.get_attribute("button[data-action=colour-b][data-n='0']", "aria-pressed") == "true"
    page.keyboard.press("Escape")  # Escape closes the sheet
    assert page.locator("[data-sheet=illegal_break]").count() == 0
    assert a11y.active(page) is not None
    page.click("[data-action=break-illegal]")
    page.click("button[data-action=colour-a][data-n='1']")
    tap(page, "[data-action=sheet-send]")
    assert last_event(match) == {
        "type": "break",
        "player": "b",
        "legal": False,
        "pocketed": {"a": 1, "b": 0},
    }
    # The spotting hint, then a removes a penalty ball and plays on.
    assert page.locator("[data-to-spot='1']").is_visible()
    assert "заднему борту" in page.inner_text("[data-to-spot='1']")
    tap(page, "[data-action=removal-b]")
    assert "на столе: 7" in facts(page, "b")
    tap(page, "[data-action=choice-play]")

    # a fouls: the sheet asks the foul, then its balls per colour.
    page.click("[data-action=open-foul]")
    page.wait_for_selector("[data-sheet=foul]")
    page.click("button[data-code=double_hit]")
    page.click("button[data-action=colour-b][data-n='1']")
    tap(page, "[data-action=sheet-send]")
    assert last_event(match) == {
        "type": "shot",
        "player": "a",
        "foul": "double_hit",
        "pocketed": {"a": 0, "b": 1},
    }
    assert page.locator("[data-to-spot='1']").is_visible()
    tap(page, "[data-action=removal-a]")
    tap(page, "[data-action=choice-play]")

    # b clears his colour: frame 2 to him, 7:8 plus points, he starts frame 3 with minus 1.
    pick(page, "b", 7)
    tap(page, "[data-action=shot]")
    st = state(match)
    assert st["frame"] == 3 and st["plus"] == {"a": 8, "b": 7} and st["minus"]["b"] == 1
    assert page.inner_text("[data-frame]") == "партия 3 из 3"
    assert page.inner_text("[data-frame-row='2']").split() == ["2", "0", "7"]
    summary = page.inner_text("[data-frame-summary='2']")
    assert f"{b} начинает решающую партию с минусом 1" in summary
    # The provisional final of the deciding frame: 0 - 0 and 0 - 1.
    assert score(page, "a") == "0" and score(page, "b") == "-1"
    assert "плюс 8" in facts(page, "a") and "плюс 7" in facts(page, "b")
    assert "минус 1" in facts(page, "b")
    assert page.locator("[data-provisional]").is_visible()
    screenshot(page, "referee-duplex-frame-3", full_page=False)
    assert a11y.axe_violations(page) == []

    # The leader chooses who breaks the deciding frame.
    tap(page, "[data-action=breaker-a]")
    tap(page, "[data-action=break-legal]")  # nothing falls: b to shoot
    # b's own ball pays his minus off: it is spotted, minus 0, provisional 0:0.
    pick(page, "b", 1)
    tap(page, "[data-action=shot]")
    assert state(match)["minus"]["b"] == 0
    assert score(page, "b") == "0" and "минус" not in facts(page, "b")
    assert page.locator("[data-to-spot='1']").is_visible()

    # The shot that clears his colour ends the match: it asks, and can be cancelled.
    pick(page, "b", 8)
    page.click("[data-action=shot]")
    page.wait_for_selector("[data-sheet=confirm]")
    # It says the result the shot leaves (the server's engine played it).
    assert page.inner_text("#confirm-q") == f"Завершить матч? {a} — {b} 0:8, победитель {b}"
    assert page.evaluate("() => document.activeElement.dataset.action") == "confirm-end"
    page.keyboard.press("Escape")
    assert page.locator("[data-sheet=confirm]").count() == 0
    assert not state(match)["finished"]
    pick(page, "b", 8)
    page.click("[data-action=shot]")
    page.click("[data-action=cancel]")
    assert not state(match)["finished"]
    pick(page, "b", 8)
    page.click("[data-action=shot]")
    tap(page, "[data-action=confirm-end]")

    st = state(match)
    assert st["finished"] and st["winner"] == "b" and st["final"] == {"a": 0, "b": 8}
    page.wait_for_selector(".ref-finished")
    assert b in page.inner_text(".ref-finished h2")
    assert score(page, "a") == "0" and score(page, "b") == "8"
    assert page.inner_text("[data-frame-row='3']").split() == ["3", "0", "8"]
    assert "Итоговые очки: 0:8" in page.inner_text("[data-frame-summary='3']")
    assert page.locator("[data-action=undo]").is_disabled()  # a finished match never reopens
    assert page.locator("[data-action=forfeit]").count() == 0
    assert a11y.active(page) is not None
    assert a11y.axe_violations(page) == []
    screenshot(page, "referee-duplex-finished", full_page=False)
    assert not page.errors, page.errors


def test_a_phone_in_english_keeps_the_form_in_the_pages_language(
    open_page, live_server, match, referee
):
    """The page is Russian until someone presses EN; the board drawn from an answer of the API
    (which follows Accept-Language) must be too, not switch to the phone's English."""
    page = open_page(PHONE, user=referee, locale="en-US")
    page.goto(f"{live_server.url}/m/{match.pk}/score/")
    page.wait_for_selector(".ref")
    assert "плюсовые очки" in page.inner_text(".ref")
    pick(page, "a", 2)
    tap(page, "[data-action=break-legal]")
    board = page.inner_text(".ref")
    assert "плюсовые очки" in board and "на столе: 6" in board
    assert "plus points" not in board
