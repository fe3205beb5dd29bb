"""The table told what the rules make of it (issue: the table, right every time): the lag
recorded before the first break and shown after it, and a foul with no ball of the offender's
own on the shelf said as a debt, never as a ball to put on the table."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

import rules
from matches.models import Match
from tests.browser.a11y import axe_violations, with_axe
from tests.browser.conftest import PHONE, UNBROKEN_NAMES
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


def test_the_break_criteria_a_fool_without_an_offender_and_balls_off_the_table_with_pots(
    open_page, live_server, organiser, referee
):
    match = refereed_match(organiser, referee, {"discipline": "free_pyramid"})
    page = open_page(PHONE, user=referee)
    page.goto(f"{live_server.url}/m/{match.pk}/score/")
    page.wait_for_selector("[data-awaiting=break]")
    # The illegal break's criteria under the rules in force, behind its button.
    page.click("[data-action=break-illegal]")
    assert "Правильный, если" in page.inner_text("[data-criteria]")
    page.click("[data-action=cancel]")
    tap(page, "button[data-action=break][data-n='1']")
    # A fool alone: the opponent accepts the position or asks the other to continue.
    page.click("[data-action=open-fool]")
    tap(page, "button[data-action=fools][data-n='1']")
    assert "Дурак: принять позицию или попросить соперника продолжить?" in page.inner_text(
        "[data-fool]"
    )
    action = page.inner_text(".ref-action")
    assert "нарушител" not in action.lower()
    assert "Попросить соперника продолжить" in action
    tap(page, "[data-action=choice-play]")
    # A ball off the table with a ball pocketed on the same shot: both asked, both recorded.
    page.click("[data-action=open-foul]")
    page.click("[data-action=foul-ball_off_table]")
    assert "Забито тем же ударом" in page.inner_text("[data-sheet]")
    page.click("button[data-action=off-pocketed][data-n='1']")
    tap(page, "button[data-action=foul-n][data-n='1']")
    assert last_event(match) == {
        "type": "shot",
        "player": "b",
        "foul": "ball_off_table",
        "off_table": 1,
        "pocketed": 1,
    }
    assert state(match)["to_spot"] == 2


def test_a_tap_refused_because_the_other_phone_wrote_says_what_and_is_entered_on_top(
    open_page, live_server, organiser, referee
):
    match = refereed_match(organiser, referee, {"discipline": "free_pyramid"})
    page = open_page(PHONE, user=referee)
    page.goto(f"{live_server.url}/m/{match.pk}/score/")
    page.wait_for_selector("[data-awaiting=break]")
    tap(page, "button[data-action=break][data-n='1']")
    other = APIClient()
    other.force_login(organiser)
    answer = other.post(
        f"/api/v1/matches/{match.pk}/events/",
        {
            "event": {"type": "shot", "player": "a", "pocketed": 3},
            "expected_version": Match.objects.get(pk=match.pk).version,
            "idempotency_key": "other-phone-1",
        },
        format="json",
    )
    assert answer.status_code == 201
    tap(page, "button[data-action=pot][data-n='2']")  # this phone had not seen the 3
    notice = page.inner_text(".ref-notice[role=alert]")
    assert "Тем временем записано" in notice and "3 шара" in notice
    tap(page, "[data-action=reenter]")
    assert last_event(match) == {"type": "shot", "player": "a", "pocketed": 2}
    assert state(match)["score"]["a"] == 6
    assert page.locator(".ref-notice[role=alert]").count() == 0


WIDTHS = (320, 375, 1366)


def test_offline_and_refused_states_are_readable_at_every_width(
    open_page, live_server, organiser, referee
):
    """The offline shooter switch shows which player is picked in solid colours, the way out
    of a stopped queue is whole at 320 px, the concede buttons say what they do, and axe-core
    finds nothing serious in the offline and refused states at 320, 375 and 1366 px."""
    match = refereed_match(organiser, referee, {"discipline": "free_pyramid"})
    page = open_page({"width": 320, "height": 640}, user=referee)
    with_axe(page.context)
    page.goto(f"{live_server.url}/m/{match.pk}/score/")
    page.wait_for_selector("[data-awaiting=break]")
    tap(page, "button[data-action=break][data-n='1']")
    page.click("[data-action=forfeit]")
    names = page.eval_on_selector_all(
        "[data-sheet=forfeit] [data-action^=concede-]:not([data-action=concede-cancel])",
        "els => els.map(e => e.textContent)",
    )
    assert len(names) == 2 and all("сдаёт матч" in n for n in names)
    page.click("[data-action=concede-cancel]")
    assert (
        page.eval_on_selector_all(
            "[role=group]",
            "els => els.filter(e => !e.getAttribute('aria-label') && "
            "!e.getAttribute('aria-labelledby')).length",
        )
        == 0
    )

    page.context.set_offline(True)
    page.wait_for_selector(".ref.offline")
    page.click("button[data-action=pot][data-n='1']")
    page.click("button[data-action=pot][data-n='2']")
    page.wait_for_selector("[data-queue='2']")
    picked = page.eval_on_selector(
        "[data-action=shooter-a][aria-pressed=true]", "e => getComputedStyle(e).backgroundColor"
    )
    assert picked == "rgb(31, 107, 69)"  # solid green, white text: not a tint on white
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 700})
        assert axe_violations(page) == [], width

    # Meanwhile another phone records a shot: the first queued tap is refused.
    other = APIClient()
    other.force_login(organiser)
    answer = other.post(
        f"/api/v1/matches/{match.pk}/events/",
        {
            "event": {"type": "shot", "player": "a", "pocketed": 3},
            "expected_version": Match.objects.get(pk=match.pk).version,
            "idempotency_key": "other-phone-2",
        },
        format="json",
    )
    assert answer.status_code == 201
    page.context.set_offline(False)
    page.wait_for_selector("[data-action=discard-queue]", timeout=15_000)
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 700})
        box = page.locator("[data-action=discard-queue]").bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, width
        clipped = page.eval_on_selector(
            "[data-action=discard-queue]", "e => e.scrollWidth > e.clientWidth + 1"
        )
        assert not clipped, width
        assert axe_violations(page) == [], width


def test_the_duplex_board_says_the_frame_once(open_page, live_server, organiser, referee):
    match = refereed_match(
        organiser, referee, {"discipline": "duplex", "first_break": "a"}, discipline="duplex"
    )
    page = open_page(PHONE, user=referee)
    page.goto(f"{live_server.url}/m/{match.pk}/score/")
    page.wait_for_selector("[data-awaiting=break]")
    board = page.inner_text(".ref-board")
    assert board.count("партия 1 из 3") == 1
    assert "Дуплекс" in page.inner_text(".ref-info")


def sideways(page) -> int:
    """How far the page scrolls sideways: what a referee at 320 px would have to drag."""
    return int(page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth"))


def test_long_names_fit_a_320_px_phone_in_every_state_of_the_form(
    open_page, live_server, organiser, referee
):
    """The lag's two questions, the board after the break, the concede sheet and the offline
    shooter switch each name the players inside their buttons: a long name wraps there."""
    match = refereed_match(organiser, referee, {"discipline": "free_pyramid"})
    for player, name in zip((match.player_a, match.player_b), UNBROKEN_NAMES, strict=True):
        player.name = name
        player.save()
    page = open_page({"width": 320, "height": 640}, user=referee)
    page.goto(f"{live_server.url}/m/{match.pk}/score/")
    page.wait_for_selector("[data-lag] [data-action=lag-a]")
    assert "Константинопольский" in page.inner_text("[data-lag]")
    assert sideways(page) == 0, "who won the lag"
    page.click("[data-action=lag-a]")
    page.wait_for_selector("[data-action=lag-gives]")
    assert sideways(page) == 0, "breaks or gives the break"
    tap(page, "[data-action=lag-breaks]")
    tap(page, "button[data-action=break][data-n='1']")
    assert sideways(page) == 0, "the board after the break"
    page.click("[data-action=forfeit]")
    page.wait_for_selector("[data-sheet=forfeit]")
    assert sideways(page) == 0, "the concede sheet"
    page.click("[data-action=concede-cancel]")
    page.context.set_offline(True)
    page.wait_for_selector(".ref.offline")
    page.click("button[data-action=pot][data-n='1']")
    page.wait_for_selector("[data-queue='1']")
    assert sideways(page) == 0, "the offline shooter switch"
    page.context.set_offline(False)
    page.wait_for_selector(".ref:not(.offline):not(.busy)", timeout=15_000)
