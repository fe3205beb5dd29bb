"""At the table with a keyboard and a screen reader: nothing ends a match in two taps (concede
asks, Cancel and Escape back out of every sheet), the end screen offers the result correction
to organisers only, a whole free-pyramid match is played with the keyboard alone with the focus
never on <body>, number buttons say what they do, and the organiser's table board keeps his
focus and says what changed through its live refreshes."""

from __future__ import annotations

import re

import pytest
from rest_framework.test import APIClient

from matches import services as match_services
from matches.models import Match, MatchEvent
from tests.browser import a11y
from tests.browser.conftest import LAPTOP, PHONE
from tests.factories import UserFactory
from tests.web.helpers import drawn_tournament, first_ready, submit

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WRITE = re.compile(r"/api/v1/matches/\d+/(events|clock|undo)/(\?referee=1)?$")
RACE = 5


@pytest.fixture
def tournament(organiser, referee):
    return drawn_tournament(
        organiser,
        4,
        referee=referee,
        format="single",
        handicap_scheme="none",
        ruleset={"discipline": "free_pyramid", "balls_to_win": RACE},
    )


def state(match: Match) -> dict:
    match.refresh_from_db()
    return match.state


def sheet_open(page) -> bool:
    return page.locator(".ref-action.sheet, [data-sheet=forfeit]").count() > 0


def test_nothing_ends_a_match_in_two_taps(open_page, live_server, tournament, referee, organiser):
    match = first_ready(tournament)
    page = open_page(PHONE, user=referee)
    a11y.with_axe(page.context)
    page.goto(f"{live_server.url}/m/{match.pk}/score/")
    page.wait_for_selector("[data-awaiting=break]")

    # Every sheet closes with Escape, and the focus goes back into the form.
    page.click("[data-action=break-illegal]")
    page.wait_for_selector("[data-sheet=illegal_break]")
    page.keyboard.press("Escape")
    assert not sheet_open(page) and a11y.active(page) is not None
    submit(
        Match.objects.get(pk=match.pk),
        {"type": "break", "player": "a", "legal": True, "pocketed": 1},
        referee,
    )
    page.reload()
    page.wait_for_selector("[data-awaiting=shot]")
    for opener, kind in (("open-foul", "foul"), ("open-foul-event", "foul_event")):
        page.click(f"[data-action={opener}]")
        page.wait_for_selector(f"[data-sheet={kind}]")
        page.keyboard.press("Escape")
        assert not sheet_open(page), kind
    page.click("[data-action=open-foul]")
    page.click("button[data-code=double_hit]")  # the second step of a sheet closes too
    page.wait_for_selector("[data-action=foul-n]")
    assert a11y.axe_violations(page) == []  # the sheets are checked as they are open
    assert page.get_attribute("[data-action=foul-n][data-n='2']", "aria-label") == (
        f"2 шара — {match.player_a.name}"
    )
    page.keyboard.press("Escape")
    assert not sheet_open(page)

    # Concede: who, then a question; Cancel and Escape leave the match as it was.
    page.click("[data-action=forfeit]")
    page.keyboard.press("Escape")
    assert not sheet_open(page)
    assert a11y.active(page)["action"] == "forfeit"
    page.click("[data-action=forfeit]")
    page.click("[data-action=concede-a]")
    question = page.inner_text("[data-sheet=forfeit] .ref-label")
    assert question == f"Матч закончится: {match.player_a.name} сдаёт матч. Подтвердить?"
    assert a11y.active(page)["action"] == "concede-confirm"
    assert a11y.axe_violations(page) == []
    page.click("[data-action=concede-cancel]")
    assert not sheet_open(page)
    page.click("[data-action=forfeit]")
    page.click("[data-action=concede-b]")
    page.keyboard.press("Escape")
    assert not sheet_open(page)
    match.refresh_from_db()
    assert match.status == Match.Status.RUNNING and not match.state.get("finished")
    assert not MatchEvent.objects.filter(match=match, payload__type="forfeit").exists()

    # Confirmed, it ends; a referee may not correct a result: no link to the correction.
    page.click("[data-action=forfeit]")
    page.click("[data-action=concede-a]")
    with page.expect_response(lambda r: bool(WRITE.search(r.url))):
        page.click("[data-action=concede-confirm]")
    page.wait_for_selector(".ref-finished")
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.result == Match.Result.FORFEIT
    assert page.locator("[data-action=correct]").count() == 0
    assert a11y.active(page) is not None
    assert a11y.axe_violations(page) == []

    # The organiser's end screen leads to the correction.
    boss = open_page(PHONE, user=organiser)
    boss.goto(f"{live_server.url}/m/{match.pk}/score/")
    boss.wait_for_selector(".ref-finished")
    link = boss.locator("[data-action=correct]")
    assert link.get_attribute("href") == f"/panel/m/{match.pk}/#correct"
    link.click()
    boss.wait_for_url(f"**/panel/m/{match.pk}/#correct")
    assert boss.locator("#correct form[action$='/correct/']").is_visible()
    assert not page.errors and not boss.errors, (page.errors, boss.errors)


def test_a_self_scoring_player_is_not_offered_the_correction(
    open_page, live_server, organiser, referee
):
    t = drawn_tournament(
        organiser,
        2,
        referee=referee,
        format="single",
        handicap_scheme="none",
        self_scoring=True,
        ruleset={"discipline": "free_pyramid", "balls_to_win": RACE},
    )
    match = first_ready(t)
    match.player_b.user = UserFactory()
    match.player_b.save(update_fields=["user"])
    api = APIClient()
    api.force_authenticate(organiser)
    answer = api.post(
        f"/api/v1/matches/{match.pk}/events/",
        {
            "event": {"type": "forfeit", "player": "a"},
            "expected_version": 0,
            "idempotency_key": "organiser-forfeit",
        },
        format="json",
    )
    assert answer.status_code == 201, answer.content
    page = open_page(PHONE, user=match.player_b.user)
    page.goto(f"{live_server.url}/m/{match.pk}/score/")
    page.wait_for_selector(".ref-finished")
    assert page.locator("[data-action=correct]").count() == 0


def press_until(page, selector: str, limit: int = 80) -> int:
    """Tab (and on past the end, round again) until `selector` has the focus; the presses."""
    for presses in range(limit):
        if page.evaluate("(s) => document.activeElement.matches(s)", selector):
            return presses
        page.keyboard.press("Tab")
        assert a11y.active(page) is not None or presses == 0, "focus fell to <body>"
    raise AssertionError(f"{selector} never got the focus in {limit} Tab presses")


def test_a_whole_match_with_the_keyboard_alone(
    open_page, live_server, tournament, referee, screenshot
):
    match = first_ready(tournament)
    page = open_page(LAPTOP, user=referee)
    page.goto(f"{live_server.url}/m/{match.pk}/score/")
    page.wait_for_selector("[data-awaiting=break]")
    tabs = 0
    actions = 0
    names = {"a": match.player_a.name, "b": match.player_b.name}

    def act(selector: str) -> None:
        nonlocal tabs, actions
        tabs += press_until(page, selector)
        with page.expect_response(lambda r: bool(WRITE.search(r.url))):
            page.keyboard.press("Enter")
        page.wait_for_selector(".ref:not(.busy)")
        page.wait_for_function(
            "() => document.activeElement && document.activeElement !== document.body"
        )
        actions += 1
        got = a11y.active(page)
        assert got is not None, f"focus fell to <body> after {selector}"

    act("[data-action=clock-start]")
    for _ in range(60):
        st = state(match)
        if st["finished"]:
            break
        awaiting, turn = st["awaiting"], st["turn"]
        if awaiting == "choice":
            act("[data-action=choice-play]")
            continue
        if awaiting == "rerack":
            act("[data-action=rerack-full]")
            continue
        action = "break" if awaiting == "break" else "pot"
        # a wins: one ball a visit; b misses.
        n = 1 if turn == "a" else 0
        selector = f"button[data-action={action}][data-n='{n}']"
        if n:
            label = page.get_attribute(selector, "aria-label")
            assert label == f"1 шар — {names[turn]}", label
        if n and st["score"][turn] + n >= RACE:
            # The winning ball asks first; the focus is on its Confirm button.
            tabs += press_until(page, selector)
            page.keyboard.press("Enter")
            page.wait_for_selector("[data-sheet=confirm]")
            selector = "[data-action=confirm-end]"
        act(selector)
        # The number pad keeps the focus: the next ball is one key away.
        after = state(match)
        if action == "pot" and after["awaiting"] == "shot" and not after["finished"]:
            assert page.evaluate("(s) => document.activeElement.matches(s)", selector)
        status = page.inner_text("#ref-status")
        assert status, "the status region says nothing"
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.winner_id == match.player_a_id
    page.wait_for_selector(".ref-finished")
    assert a11y.active(page) is not None
    screenshot(page, "referee-keyboard-finished", full_page=False)
    # Focus kept on the pad: a whole match is a few Tab presses, not hundreds.
    assert tabs <= 3 * actions, (tabs, actions)
    # The live region is the status line alone, not the whole form.
    assert page.locator("[aria-live]").count() == 1
    assert page.locator("#ref-app[aria-live], #referee[aria-live]").count() == 0
    assert not page.errors, page.errors


def test_the_table_board_keeps_focus_and_says_what_changed(
    open_page, live_server, tournament, organiser, referee
):
    match_services.tables_ensure(tournament=tournament, count=2, actor=organiser)
    match_services.table_assign_next(tournament=tournament, actor=organiser)
    at_one = Match.objects.get(tournament=tournament, table__number=1)
    page = open_page(LAPTOP, user=organiser)
    page.goto(f"{live_server.url}/panel/t/{tournament.pk}/tables/")
    score = "[data-table='1'] a.btn[href$='/score/']"
    page.wait_for_selector(score)
    page.focus(score)
    page.evaluate("() => { document.activeElement.luzaMark = 'kept'; }")

    # A shot at table 1: the board refreshes within a poll or two, the focus stays put.
    match_services.match_clock(match_id=at_one.pk, action="start", actor=referee)
    submit(
        Match.objects.get(pk=at_one.pk),
        {"type": "break", "player": "a", "legal": True, "pocketed": 2},
        referee,
    )
    page.wait_for_function(
        "() => document.querySelector(\"[data-table='1'] .players .sc\").textContent.trim() === '2'",
        timeout=8000,
    )
    assert page.evaluate("() => document.activeElement.luzaMark") == "kept"
    status = page.inner_text("[data-live-status]")
    assert status.startswith("Стол 1:") and at_one.player_a.name in status

    # The control in focus goes away (table 2's «Free» once its match starts): the focus
    # stays on that table's card, not on <body>.
    at_two = Match.objects.get(tournament=tournament, table__number=2)
    free = "[data-table='2'] form[action$='/free/'] button"
    page.focus(free)
    match_services.match_clock(match_id=at_two.pk, action="start", actor=referee)
    page.wait_for_selector(free, state="detached", timeout=8000)
    got = page.evaluate("() => document.activeElement.closest(\"[data-table='2']\") !== null")
    assert got and a11y.active(page) is not None
    assert not page.errors, page.errors
