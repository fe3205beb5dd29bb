"""A whole match of combined and of classic pyramid through the referee form on a 375-px phone:
the «свояк» tap and the cue ball in hand from the house, a foul with the cue ball pocketed and
the choice after it; classic's numbered balls, the call of a ball, the balls spotted."""

from __future__ import annotations

import pytest

import rules
from tests.browser.conftest import PHONE
from tests.browser.referee_form import last_event, state, tap
from tests.matches.factories import MatchFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

COMBINED = {"discipline": "combined_pyramid", "balls_to_win": 3}
CLASSIC = {"discipline": "classic_pyramid", "points_to_win": 20, "foul_deduct": 0, "foul_award": 3}


def test_a_combined_pyramid_match(open_page, live_server, tournament, referee):
    match = MatchFactory(
        tournament=tournament, ruleset=COMBINED, state=rules.initial_state(COMBINED)
    )
    b = match.player_b.name
    page = open_page(PHONE, user=referee)
    page.goto(f"{live_server.url}/m/{match.pk}/score/")
    page.wait_for_selector("[data-awaiting=break]")
    tap(page, "button[data-action=field-break-pocketed][data-n='1']")
    assert page.inner_text("[data-score=a]") == "1"
    # A foul with the cue ball pocketed: the opponent scores, takes a ball and chooses.
    page.click("[data-action=kind-foul_shot]")
    page.click("[data-action=field-foul_shot-foul-double_hit]")
    page.click("[data-action=field-foul_shot-cue_ball-pocketed]")
    tap(page, "[data-action=send-foul_shot]")
    assert last_event(match) == {
        "type": "shot",
        "player": "a",
        "foul": "double_hit",
        "pocketed": 0,
        "cue_ball": "pocketed",
    }
    assert page.inner_text("[data-score=b]") == "1"
    tap(page, "[data-action=field-choice-option-play]")
    assert state(match)["cue_ball"] == "in_hand_house"
    assert "с руки из дома" in page.inner_text(".ref-action")  # the penalty shot from the house
    # b pockets one, then a «свояк»: a point, a ball off, the cue ball in hand again.
    tap(page, "button[data-action=field-shot-pocketed][data-n='1']")
    page.click("[data-action=kind-svoyak]")
    page.wait_for_selector("[data-sheet=svoyak]")
    assert "снимает со стола любой шар" in page.inner_text("[data-sheet=svoyak]")
    page.click("button[data-action=field-svoyak-pocketed][data-n='0']")
    page.wait_for_selector("[data-sheet=confirm]")  # the «свояк» wins the race: asked first
    tap(page, "[data-action=confirm-end]")
    st = state(match)
    assert st["finished"] and st["winner"] == "b" and st["score"] == {"a": 1, "b": 3}
    page.wait_for_selector(".ref-finished")
    assert b in page.inner_text(".ref-finished h2")
    assert "свояк" in page.inner_text(".ref-events")
    assert not page.errors, page.errors


def test_a_classic_pyramid_match(open_page, live_server, tournament, referee):
    match = MatchFactory(tournament=tournament, ruleset=CLASSIC, state=rules.initial_state(CLASSIC))
    a = match.player_a.name
    page = open_page(PHONE, user=referee)
    page.goto(f"{live_server.url}/m/{match.pk}/score/")
    page.wait_for_selector("[data-awaiting=break]")
    # A legal break with ball 5: picked among the numbered balls, then recorded.
    page.click("[data-action=field-break-pocketed-5]")
    tap(page, "[data-action=send-break]")
    assert last_event(match) == {"type": "break", "player": "a", "legal": True, "pocketed": [5]}
    assert page.inner_text("[data-score=a]") == "5"
    assert "5" not in page.inner_text(".ref-info").split(":")[-1].split(", ")
    # Ball 7 falls not as called: spotted, and the board says which.
    page.click("[data-action=kind-not_made]")
    page.click("[data-action=field-not_made-pocketed-7]")
    tap(page, "[data-action=send-not_made]")
    assert state(match)["to_spot"] == [7]
    assert "7" in page.inner_text(".ref-spot")
    # b pockets the cue ball: a foul, 3 points to a, who takes the table from the house.
    page.click("[data-action=kind-cue_foul]")
    page.click("[data-action=field-cue_foul-cue_ball-pocketed]")
    tap(page, "[data-action=send-cue_foul]")
    assert page.inner_text("[data-score=a]") == "8"
    tap(page, "[data-action=field-choice-option-play]")
    # The call of ball 12, made: 8 + 12 = 20 wins the frame and the match.
    page.click("[data-action=field-made-call-12]")
    tap(page, "[data-action=send-made]")
    assert last_event(match) == {
        "type": "shot",
        "player": "a",
        "made": True,
        "call": 12,
        "pocketed": [12],
    }
    st = state(match)
    assert st["finished"] and st["winner"] == "a" and st["score"]["a"] == 20
    page.wait_for_selector(".ref-finished")
    assert a in page.inner_text(".ref-finished h2")
    assert not page.errors, page.errors
