"""Free pyramid scenarios, one or more per rule: G = general rules, R = the regulation."""

from __future__ import annotations

import pytest

import rules
from tests.rules.helpers import (
    TIME,
    brk,
    choice,
    foul,
    fp,
    play,
    pots,
    rejects,
    rerack,
    shot,
)

R = fp()  # the regulation's defaults


def test_initial_state_has_the_contract_fields() -> None:
    st = rules.initial_state(R)
    assert st["discipline"] == "free_pyramid"
    assert st["finished"] is False and st["winner"] is None
    assert (st["turn"], st["awaiting"], st["to_spot"]) == ("a", "break", 0)
    assert st["score"] == {"a": 0, "b": 0} and st["frames"] == {"a": 0, "b": 0}
    assert (st["frame"], st["rack"], st["balls_on_table"]) == (1, 1, 16)
    assert st["debt"] == {"a": 0, "b": 0} and st["golden_ball"] is False
    assert st["events"] == 0
    zero = {"pocketed": 0, "fouls": 0, "best_run": 0, "current_run": 0}
    assert st["stats"] == {"a": zero, "b": zero}


# --- the break: G12.1, G12.2, R strict break ---------------------------------------------


def test_r_strict_break_every_ball_pocketed_on_a_legal_break_counts() -> None:
    st = play(R, [brk("a", 3)])
    assert st["score"] == {"a": 3, "b": 0}
    assert st["balls_on_table"] == 13
    assert (st["turn"], st["awaiting"]) == ("a", "shot")
    assert st["stats"]["a"]["best_run"] == 3


def test_r_strict_break_legal_break_without_a_ball_passes_the_turn() -> None:
    st = play(R, [brk("a", 0)])
    assert (st["turn"], st["awaiting"]) == ("b", "shot")


def test_r_strict_break_off_uses_g12_1_with_the_same_effects() -> None:
    """strict_break only selects the referee's criteria (R or G12.1); both are fouls."""
    events = [brk("a", 2, legal=False), choice("b", "play"), shot("b", 1)]
    on = play(R, events)
    off = play(fp(strict_break=False), events)
    on.pop("ruleset")
    off.pop("ruleset")
    assert on == off


def test_r_direct_call_applies_after_the_break_so_a_break_has_no_fools() -> None:
    err = rejects(R, [{**brk("a", 1), "fools": 1}], "invalid_event")
    assert err.params == {"field": "fools", "reason": "unknown_key"}


def test_g12_1_illegal_break_is_a_foul_and_its_balls_are_spotted() -> None:
    st = play(R, [brk("a", 2, legal=False)])
    assert st["balls_on_table"] == 16
    assert st["score"] == {"a": 0, "b": 0}
    assert st["debt"] == {"a": 1, "b": 0}  # R penalty with an empty shelf
    assert st["to_spot"] == 2
    assert (st["turn"], st["awaiting"], st["offender"]) == ("b", "choice", "a")
    assert st["options"] == ["play", "hand_back", "rebreak_self", "rebreak_opponent"]
    assert st["stats"]["a"]["fouls"] == 1


@pytest.mark.parametrize(
    ("option", "turn", "awaiting"),
    [
        ("play", "b", "shot"),  # G12.2 (1)
        ("hand_back", "a", "shot"),  # G12.2 (2)
        ("rebreak_self", "b", "break"),  # G12.2 (3)
        ("rebreak_opponent", "a", "break"),  # G12.2 (4)
    ],
)
def test_g12_2_options_after_an_illegal_break(option: str, turn: str, awaiting: str) -> None:
    st = play(R, [brk("a", 1, legal=False), choice("b", option)])
    assert (st["turn"], st["awaiting"], st["rack"]) == (turn, awaiting, 1)
    assert st["debt"] == {"a": 1, "b": 0}  # scores and debts stay
    assert st["options"] == [] and st["offender"] is None


def test_g12_2_note_rebreak_racks_the_balls_left_after_the_penalty_ball() -> None:
    """With opponent_takes the penalty ball is off the table: the rebreak racks 15 balls."""
    st = play(fp(penalty="opponent_takes"), [brk("a", 1, legal=False), choice("b", "rebreak_self")])
    assert st["score"] == {"a": 0, "b": 1}
    assert st["balls_on_table"] == 15
    assert (st["turn"], st["awaiting"], st["rack"]) == ("b", "break", 1)


def test_g12_2_a_rebroken_rack_may_be_illegal_again() -> None:
    st = play(
        R,
        [brk("a", 0, legal=False), choice("b", "rebreak_opponent"), brk("a", 0, legal=False)],
    )
    assert st["debt"]["a"] == 2
    assert "rebreak_self" in st["options"]


def test_g13_frames_are_broken_alternately() -> None:
    rs = fp(balls_to_win=2, frames_to_win=3, first_break="b")
    st = play(rs, [brk("b", 2)])
    assert (st["frame"], st["frames"], st["turn"], st["awaiting"]) == (
        2,
        {"a": 0, "b": 1},
        "a",
        "break",
    )
    st = play(rs, [brk("b", 2), brk("a", 2)])
    assert (st["frame"], st["breaker"], st["turn"]) == (3, "b", "b")
    st = play(rs, [brk("b", 2), brk("a", 2), brk("b", 0), shot("a", 2)])
    assert st["frames"] == {"a": 2, "b": 1} and st["breaker"] == "a"
    st = play(rs, [brk("b", 2), brk("a", 2), brk("b", 0), shot("a", 2), brk("a", 2)])
    assert st["finished"] and st["winner"] == "a" and st["end_reason"] == "frames"
    assert st["awaiting"] is None and st["turn"] is None


# --- fouls: G5.3, G14.2, G15-G20, G22.3, G24.3, G26, G28, G29 ----------------------------


def test_g5_3_no_contact_is_a_foul_and_a_ball_goes_from_the_shelf_to_the_table() -> None:
    st = play(R, [brk("a", 1), shot("a", foul="no_contact")])
    assert st["score"]["a"] == 0
    assert st["balls_on_table"] == 16
    assert st["to_spot"] == 1  # the penalty ball
    assert (st["turn"], st["awaiting"]) == ("b", "choice")


def test_g14_2_balls_moving_with_opponent_takes_penalty() -> None:
    st = play(fp(penalty="opponent_takes"), [brk("a", 1), shot("a", 1, foul="balls_moving")])
    assert st["score"] == {"a": 1, "b": 1}
    assert st["balls_on_table"] == 14  # the fouled ball spotted, one taken by b
    assert st["to_spot"] == 1


def test_g15_cue_tip_foul_with_an_empty_shelf_is_a_debt() -> None:
    st = play(R, [brk("a", 0), shot("b", foul="cue_tip")])
    assert st["debt"] == {"a": 0, "b": 1}
    assert st["score"] == {"a": 0, "b": 0}
    assert st["balls_on_table"] == 16 and st["to_spot"] == 0
    assert (st["turn"], st["awaiting"]) == ("a", "choice")


def test_g16_feet_off_floor_spots_the_pocketed_balls_and_the_penalty_ball() -> None:
    st = play(R, [brk("a", 2), shot("a", 2, foul="feet_off_floor")])
    assert st["score"]["a"] == 1
    assert st["balls_on_table"] == 15
    assert st["to_spot"] == 3


def test_g17_touching_a_ball_outside_a_shot_is_a_foul_event() -> None:
    st = play(R, [brk("a", 1), foul("a", "touched_ball")])
    assert st["score"]["a"] == 0 and st["balls_on_table"] == 16
    assert (st["turn"], st["awaiting"], st["after_choice"]) == ("b", "choice", "shot")
    st = play(R, [brk("a", 1), foul("a", "touched_ball"), choice("b", "play")])
    assert (st["turn"], st["awaiting"]) == ("b", "shot")


def test_g17_touching_a_ball_during_a_shot_is_a_shot_foul() -> None:
    st = play(R, [brk("a", 1), shot("a", 1, foul="touched_ball")])
    assert st["score"]["a"] == 0 and st["stats"]["a"]["fouls"] == 1


def test_g18_double_hit_then_the_opponent_hands_the_table_back() -> None:
    st = play(R, [brk("a", 1), shot("a", foul="double_hit"), choice("b", "hand_back")])
    assert (st["turn"], st["awaiting"]) == ("a", "shot")
    assert st["stats"]["a"]["fouls"] == 1


def test_g19_push_shot_then_the_opponent_plays() -> None:
    st = play(R, [brk("a", 1), shot("a", 1, foul="push_shot"), choice("b", "play")])
    assert (st["turn"], st["awaiting"]) == ("b", "shot")
    assert st["score"] == {"a": 0, "b": 0}


def test_g20_incomplete_shot_is_penalised() -> None:
    st = play(R, [brk("a", 2), shot("a", foul="incomplete_shot")])
    assert st["score"]["a"] == 1 and st["stats"]["a"]["fouls"] == 1


def test_g22_3_nothing_pocketed_on_a_foul_counts() -> None:
    st = play(R, [brk("a", 1), shot("a", 3, fools=1, foul="cue_tip")])
    assert st["score"]["a"] == 0
    assert st["balls_on_table"] == 16
    assert st["to_spot"] == 5  # 3 pocketed + 1 fool + the penalty ball
    assert st["stats"]["a"]["pocketed"] == 1


def test_g24_3_a_ball_off_the_table_is_a_foul_without_a_code() -> None:
    st = play(R, [brk("a", 1), shot("a", 1, off=1)])
    assert st["score"]["a"] == 0  # the pocketed ball does not count, the penalty takes one
    assert st["balls_on_table"] == 16
    assert st["to_spot"] == 3
    assert (st["turn"], st["awaiting"]) == ("b", "choice")


def test_g26_slow_play_before_the_break() -> None:
    st = play(R, [foul("a", "slow_play")])
    assert st["debt"]["a"] == 1
    assert (st["turn"], st["awaiting"], st["after_choice"]) == ("b", "choice", "break")
    assert st["options"] == ["play", "hand_back"]
    assert play(R, [foul("a", "slow_play"), choice("b", "play")])["awaiting"] == "break"
    st = play(R, [foul("a", "slow_play"), choice("b", "hand_back")])
    assert (st["turn"], st["awaiting"]) == ("a", "break")


def test_g28_interference_by_the_player_not_to_act() -> None:
    st = play(R, [brk("a", 1), foul("b", "interference")])
    assert st["debt"]["b"] == 1 and st["score"]["a"] == 1
    assert (st["turn"], st["awaiting"], st["offender"]) == ("a", "choice", "b")
    st = play(R, [brk("a", 1), foul("b", "interference"), choice("a", "play")])
    assert (st["turn"], st["awaiting"]) == ("a", "shot")


def test_g29_1_every_foul_code_names_its_rule() -> None:
    assert rules.FOUL_CODES == {
        "cue_tip": "G15",
        "double_hit": "G18",
        "balls_moving": "G14.2",
        "no_contact": "G5.3",
        "feet_off_floor": "G16",
        "touched_ball": "G17",
        "illegal_break": "G12.1",
        "slow_play": "G26",
        "incomplete_shot": "G20",
        "ball_off_table": "G24.3",
        "push_shot": "G19",
        "interference": "G28",
        # the coloured cue ball's (combined, dynamic and classic pyramid; never free pyramid's)
        "house_ball": "G21.2",
        "cue_ball_pocketed": "C5.5",
    }
    assert not {"house_ball", "cue_ball_pocketed"} & rules.SHOT_FOUL_CODES
    assert rules.SHOT_FOUL_CODES | rules.FOUL_EVENT_CODES | {"illegal_break"} >= set(
        rules.FOUL_CODES
    ) - {"illegal_break", "house_ball", "cue_ball_pocketed"}


@pytest.mark.parametrize("code", sorted(rules.SHOT_FOUL_CODES))
def test_g29_1_every_shot_foul_is_penalised(code: str) -> None:
    st = play(fp(penalty="opponent_takes"), [brk("a", 1), shot("a", 1, foul=code)])
    assert st["score"] == {"a": 1, "b": 1}
    assert st["stats"]["a"]["fouls"] == 1


def test_g29_1_fouls_outside_a_shot_must_be_reported_as_foul_events() -> None:
    err = rejects(R, [brk("a", 1), shot("a", foul="slow_play")], "invalid_event")
    assert err.params["field"] == "foul"
    rejects(R, [brk("a", 1), foul("a", "cue_tip")], "invalid_event")
    rejects(R, [brk("a", 1), shot("a", foul="illegal_break")], "invalid_event")


def test_g29_2_several_violations_in_one_shot_are_one_penalty() -> None:
    st = play(R, [brk("a", 2), shot("a", 1, off=1, foul="push_shot")])
    assert st["score"]["a"] == 1
    assert st["stats"]["a"]["fouls"] == 1
    assert st["to_spot"] == 3


def test_g6_after_a_foul_the_opponent_chooses_but_cannot_rebreak() -> None:
    st = play(R, [brk("a", 1), shot("a", foul="cue_tip")])
    assert st["options"] == ["play", "hand_back"]
    err = rejects(
        R, [brk("a", 1), shot("a", foul="cue_tip"), choice("b", "rebreak_self")], "invalid_event"
    )
    assert err.params["reason"] == "not_available"
    assert err.params["allowed"] == ["play", "hand_back"]
    rejects(R, [brk("a", 1), shot("a", foul="cue_tip"), choice("a", "play")], "out_of_turn")


# --- R penalty, debt and head start ------------------------------------------------------


def test_r_penalty_debt_is_repaid_by_the_next_legal_balls() -> None:
    events = [brk("a", 0), shot("b", foul="cue_tip"), choice("a", "hand_back"), shot("b", 2)]
    st = play(R, events)
    assert st["debt"]["b"] == 0
    assert st["score"]["b"] == 1
    assert st["balls_on_table"] == 15
    assert st["to_spot"] == 1  # the repaid ball is spotted back
    assert st["stats"]["b"]["pocketed"] == 2


def test_r_penalty_on_a_full_table_is_a_debt_even_with_points() -> None:
    st = play(fp(head_start={"a": 3}), [foul("a", "slow_play")])
    assert st["score"]["a"] == 3 and st["debt"]["a"] == 1
    assert st["balls_on_table"] == 16 and st["to_spot"] == 0


def test_r_head_start_is_a_credit_not_balls_a_foul_on_it_is_a_debt() -> None:
    """§2.1 corrected: R gives the head start as «начисление шаров», a credit on the
    scoreboard; no ball of it lies on a shelf, so a foul on it is a debt and the table keeps
    the balls it has."""
    rs = fp(head_start={"a": 3})
    st = play(rs, [brk("a", 0), shot("b", 1), shot("b", 0), shot("a", foul="cue_tip")])
    assert st["score"] == {"a": 3, "b": 1}
    assert st["debt"] == {"a": 1, "b": 0}
    assert st["balls_on_table"] == 15 and st["to_spot"] == 0
    assert st["shelf"] == {"a": 0, "b": 1}
    assert st["last_penalty"] == {"offender": "a", "effect": "debt"}


def test_r_head_start_of_6_and_nothing_pocketed_a_foul_spots_nothing() -> None:
    st = play(fp(head_start={"a": 6}), [brk("a", 0), shot("b", 0), shot("a", foul="cue_tip")])
    assert (st["score"]["a"], st["debt"]["a"], st["balls_on_table"]) == (6, 1, 16)
    assert st["to_spot"] == 0


def test_r_a_ball_of_his_own_goes_from_the_shelf_to_the_table() -> None:
    rs = fp(head_start={"a": 3})
    st = play(rs, [brk("a", 0), shot("b", 0), shot("a", 2), shot("a", foul="cue_tip")])
    assert st["score"]["a"] == 4 and st["debt"]["a"] == 0
    assert st["balls_on_table"] == 15 and st["to_spot"] == 1
    assert st["shelf"]["a"] == 1
    assert st["last_penalty"] == {"offender": "a", "effect": "shelf_to_table"}


def test_r_a_rerack_empties_the_shelves_so_a_foul_after_it_is_a_debt() -> None:
    """Reading: the pyramid is set again from the shelves' balls; points stay on the
    scoreboard, but no ball of them is on a shelf any more."""
    st = play(R, [*TWO_LEFT, rerack("a", "full"), brk("a", 0), shot("b", 1), shot("b", 0)])
    assert st["shelf"] == {"a": 0, "b": 1} and st["balls_on_table"] == 15
    st = play(
        R,
        [
            *TWO_LEFT,
            rerack("a", "full"),
            brk("a", 0),
            shot("b", 1),
            shot("b", 0),
            shot("a", foul="cue_tip"),
        ],
    )
    assert st["debt"]["a"] == 1 and st["score"]["a"] == 14
    assert st["balls_on_table"] == 15 and st["to_spot"] == 0


def test_the_lag_sets_who_breaks_frame_1_and_frames_alternate_from_it() -> None:
    rs = fp(balls_to_win=5, frames_to_win=2, first_break="a")
    lag = {"type": "lag", "winner": "a", "breaker": "b"}  # a won the lag and gave the break
    st = play(rs, [lag])
    assert (st["turn"], st["breaker"], st["first_breaker"]) == ("b", "b", "b")
    assert st["lag"] == {"winner": "a", "breaker": "b"}
    st = play(rs, [lag, brk("b", 5)])
    assert (st["frame"], st["turn"], st["awaiting"]) == (2, "a", "break")  # G13


def test_a_lag_after_the_first_event_is_unexpected() -> None:
    rejects(R, [brk("a", 0), {"type": "lag", "winner": "a", "breaker": "a"}], "unexpected_event")
    rejects(R, [{"type": "lag", "winner": "a", "breaker": "c"}], "invalid_event")
    rejects(R, [{"type": "lag", "winner": "a"}], "invalid_event")


def test_r_head_start_is_the_score_at_the_start_of_every_frame() -> None:
    rs = fp(balls_to_win=5, frames_to_win=2, head_start={"a": 0, "b": 3})
    st = rules.initial_state(rs)
    assert st["score"] == {"a": 0, "b": 3}
    st = play(rs, [brk("a", 0), shot("b", 2)])  # 3 + 2 reaches 5
    assert st["frames"] == {"a": 0, "b": 1}
    assert st["score"] == {"a": 0, "b": 3} and st["debt"] == {"a": 0, "b": 0}


def test_r_head_start_must_be_less_than_balls_to_win() -> None:
    with pytest.raises(rules.RuleError) as info:
        rules.validate_ruleset(fp(balls_to_win=8, head_start={"b": 8}))
    assert info.value.code == "invalid_ruleset"
    assert info.value.params["key"] == "head_start.b"


def test_opponent_takes_penalty_can_win_the_frame() -> None:
    rs = fp(balls_to_win=3, penalty="opponent_takes")
    st = play(rs, [brk("a", 2), shot("a"), shot("b", foul="cue_tip")])
    assert st["finished"] and st["winner"] == "a"
    assert st["score"] == {"a": 3, "b": 0}


# --- R direct call, fools ----------------------------------------------------------------


def test_r_direct_call_a_fool_alone_is_spotted_and_passes_the_turn() -> None:
    st = play(R, [brk("a", 1), shot("a", fools=1)])
    assert st["score"]["a"] == 1 and st["balls_on_table"] == 15
    assert st["to_spot"] == 1
    assert (st["turn"], st["awaiting"], st["options"]) == ("b", "choice", ["play", "hand_back"])
    assert st["stats"]["a"]["fouls"] == 0  # a fool is no foul: no penalty
    st = play(R, [brk("a", 1), shot("a", fools=1), choice("b", "hand_back")])
    assert (st["turn"], st["awaiting"]) == ("a", "shot")


def test_r_direct_call_a_fool_beside_a_legal_ball_the_player_continues() -> None:
    st = play(R, [brk("a", 1), shot("a", 1, fools=1)])
    assert st["score"]["a"] == 2 and st["balls_on_table"] == 14
    assert st["to_spot"] == 1
    assert (st["turn"], st["awaiting"]) == ("a", "shot")
    assert st["stats"]["a"]["current_run"] == 2


def test_r_without_direct_call_fools_count_like_pocketed_balls() -> None:
    st = play(fp(direct_call=False), [brk("a", 1), shot("a", 1, fools=2)])
    assert st["score"]["a"] == 4 and st["balls_on_table"] == 12
    assert st["to_spot"] == 0
    st = play(fp(direct_call=False), [brk("a", 1), shot("a", fools=1)])
    assert (st["turn"], st["awaiting"], st["score"]["a"]) == ("a", "shot", 2)


# --- R continuation ----------------------------------------------------------------------

TWO_LEFT = [brk("a", 1), *pots("a", 13)]  # a has 14, two balls are left


def test_r_continuation_two_balls_left_the_player_to_act_chooses() -> None:
    st = play(R, TWO_LEFT)
    assert st["balls_on_table"] == 2
    assert (st["turn"], st["awaiting"]) == ("a", "rerack")
    assert st["options"] == ["full", "partial", "play_on"]


def test_r_continuation_option_1_full_pyramid_and_a_break() -> None:
    st = play(R, [*TWO_LEFT, rerack("a", "full")])
    assert (st["balls_on_table"], st["rack"], st["turn"], st["awaiting"]) == (16, 2, "a", "break")
    assert st["score"]["a"] == 14  # scores carry on across racks


def test_r_continuation_option_2_incomplete_pyramid_and_play_on_from_the_position() -> None:
    st = play(R, [*TWO_LEFT, rerack("a", "partial")])
    assert (st["balls_on_table"], st["rack"], st["turn"], st["awaiting"]) == (16, 2, "a", "shot")


def test_r_continuation_option_3_pocket_the_last_ball_then_break() -> None:
    st = play(R, [*TWO_LEFT, rerack("a", "play_on")])
    assert (st["balls_on_table"], st["awaiting"], st["play_on"]) == (2, "shot", "a")
    st = play(R, [*TWO_LEFT, rerack("a", "play_on"), shot("a", 1)])
    assert (st["balls_on_table"], st["rack"], st["turn"], st["awaiting"]) == (16, 2, "a", "break")
    assert st["score"]["a"] == 15
    assert st["stats"]["a"]["current_run"] == 15  # the visit goes on with the break


def test_r_continuation_play_on_is_not_asked_again_while_table_and_turn_stay() -> None:
    events = [*TWO_LEFT, rerack("a", "play_on"), foul("b", "interference"), choice("a", "play")]
    st = play(R, events)
    assert st["balls_on_table"] == 2 and st["debt"]["b"] == 1
    assert (st["turn"], st["awaiting"]) == ("a", "shot")


def test_r_continuation_after_a_miss_the_other_player_is_asked() -> None:
    st = play(R, [*TWO_LEFT, rerack("a", "play_on"), shot("a")])
    assert (st["turn"], st["awaiting"], st["play_on"]) == ("b", "rerack", None)


def test_r_continuation_after_a_foul_the_choice_comes_first() -> None:
    events = [*TWO_LEFT, rerack("a", "play_on"), shot("a"), rerack("b", "play_on")]
    events.append(shot("b", foul="cue_tip"))  # b has no points: a debt, still two balls
    st = play(R, events)
    assert (st["balls_on_table"], st["turn"], st["awaiting"]) == (2, "a", "choice")
    st = play(R, [*events, choice("a", "play")])
    assert (st["turn"], st["awaiting"]) == ("a", "rerack")
    st = play(R, [*events, choice("a", "hand_back")])
    assert (st["turn"], st["awaiting"]) == ("b", "rerack")


def test_r_continuation_one_ball_left_is_racked_automatically_pocketer_breaks() -> None:
    st = play(R, [brk("a", 1), *pots("a", 12), shot("a", 2)])
    assert (st["balls_on_table"], st["rack"], st["turn"], st["awaiting"]) == (16, 2, "a", "break")
    assert st["score"]["a"] == 15


def test_r_continuation_rack_emptied_by_a_penalty_the_chooser_decides_who_breaks() -> None:
    rs = fp(penalty="opponent_takes")
    events = [*TWO_LEFT, rerack("a", "play_on"), shot("a", foul="cue_tip")]
    st = play(rs, events)
    assert (st["balls_on_table"], st["rack"], st["score"]) == (16, 2, {"a": 14, "b": 1})
    assert (st["turn"], st["awaiting"], st["after_choice"]) == ("b", "choice", "break")
    st = play(rs, [*events, choice("b", "play")])
    assert (st["turn"], st["awaiting"]) == ("b", "break")


def test_race_to_30_is_won_across_racks() -> None:
    events = [*TWO_LEFT, rerack("a", "full"), brk("a", 1), *pots("a", 13)]
    assert play(R, events)["awaiting"] == "rerack"
    st = play(R, [*events, rerack("a", "partial"), *pots("a", 2)])
    assert st["finished"] and st["winner"] == "a" and st["score"]["a"] == 30
    assert st["stats"]["a"]["best_run"] == 30


# --- frames without continuation (Reading) -----------------------------------------------


def test_without_continuation_higher_score_wins_when_balls_run_out() -> None:
    rs = fp(balls_to_win=10, continuation=False)
    events = [brk("a", 1), *pots("a", 8), shot("a"), *pots("b", 6)]
    st = play(rs, events)
    assert st["balls_on_table"] == 1
    assert st["finished"] and st["winner"] == "a"


def test_without_continuation_two_balls_left_are_played_without_a_question() -> None:
    rs = fp(balls_to_win=20, continuation=False)
    st = play(rs, [brk("a", 1), *pots("a", 13)])
    assert (st["balls_on_table"], st["awaiting"]) == (2, "shot")


def test_without_continuation_equal_scores_rerack_and_the_frame_goes_on() -> None:
    rs = fp(balls_to_win=10, continuation=False, head_start={"b": 1})
    events = [brk("a", 1), *pots("a", 7), shot("a"), *pots("b", 7)]
    st = play(rs, events)
    assert st["score"] == {"a": 8, "b": 8}
    assert (st["balls_on_table"], st["rack"], st["turn"], st["awaiting"]) == (16, 2, "b", "break")
    assert not st["finished"]


# --- R time limit and golden ball --------------------------------------------------------


def test_r_time_limit_the_leader_wins() -> None:
    st = play(R, [brk("a", 2), TIME])
    assert st["finished"] and st["winner"] == "a" and st["end_reason"] == "time"


def test_r_time_limit_frames_are_compared_first() -> None:
    rs = fp(balls_to_win=2, frames_to_win=2)
    st = play(rs, [brk("a", 2), brk("b", 1), TIME])
    assert st["score"]["b"] == 1
    assert st["winner"] == "a"


def test_r_time_limit_head_start_counts() -> None:
    st = play(fp(head_start={"b": 2}), [brk("a", 1), TIME])
    assert st["winner"] == "b"


def test_r_time_limit_debt_counts_against_the_debtor() -> None:
    """Reading: the balls a player has are score - debt."""
    st = play(R, [brk("a", 0), shot("b", foul="cue_tip"), TIME])
    assert st["winner"] == "a"


def test_r_golden_ball_equal_scores_the_next_legal_ball_wins() -> None:
    st = play(R, [brk("a", 0), TIME])
    assert st["golden_ball"] and not st["finished"]
    assert (st["turn"], st["awaiting"]) == ("b", "shot")
    st = play(R, [brk("a", 0), TIME, shot("b"), shot("a", 1)])
    assert st["finished"] and st["winner"] == "a" and st["end_reason"] == "golden_ball"


def test_r_golden_ball_on_a_break() -> None:
    st = play(R, [TIME, brk("a", 1)])
    assert st["winner"] == "a" and st["end_reason"] == "golden_ball"


def test_r_golden_ball_a_penalty_breaks_the_tie() -> None:
    """Reading: the penalty changes the ball count, so the non-offender is ahead."""
    st = play(R, [TIME, brk("a", 1, legal=False)])
    assert st["winner"] == "b"
    st = play(fp(penalty="opponent_takes"), [brk("a", 0), TIME, foul("a", "interference")])
    assert st["winner"] == "b"


def test_r_golden_ball_a_fool_does_not_decide() -> None:
    st = play(R, [brk("a", 0), TIME, shot("b", fools=1)])
    assert not st["finished"] and st["awaiting"] == "choice"


def test_r_time_expires_once() -> None:
    err = rejects(R, [brk("a", 0), TIME, TIME], "unexpected_event")
    assert err.params == {"type": "time_expired", "awaiting": "shot"}


def test_time_expired_keeps_the_spotting_hint() -> None:
    st = play(R, [brk("a", 0), shot("b", fools=1), TIME])
    assert st["golden_ball"] is True and st["to_spot"] == 1


# --- end of match, forfeit, errors -------------------------------------------------------


def test_forfeit_the_other_player_wins_and_nothing_follows() -> None:
    st = play(R, [brk("a", 3), {"type": "forfeit", "player": "a"}])
    assert st["finished"] and st["winner"] == "b" and st["end_reason"] == "forfeit"
    err = rejects(R, [brk("a", 3), {"type": "forfeit", "player": "a"}, TIME], "finished")
    assert err.params == {"winner": "b"}


def test_events_after_the_match_are_refused() -> None:
    rs = fp(balls_to_win=2)
    rejects(rs, [brk("a", 2), brk("b", 1)], "finished")


def test_out_of_turn_and_unexpected_event() -> None:
    err = rejects(R, [brk("b", 1)], "out_of_turn")
    assert err.params == {"player": "b", "turn": "a"}
    err = rejects(R, [shot("a", 1)], "unexpected_event")
    assert err.params == {"type": "shot", "awaiting": "break"}
    rejects(R, [brk("a", 1), rerack("a", "full")], "unexpected_event")
    rejects(R, [brk("a", 1), choice("a", "play")], "unexpected_event")
    rejects(R, [{"type": "penalty_removal", "player": "a", "colour": "a"}], "invalid_event")


def test_too_many_balls() -> None:
    err = rejects(R, [brk("a", 17)], "too_many_balls")
    assert err.params == {"pocketed": 17, "on_table": 16}
    err = rejects(R, [brk("a", 13), shot("a", 1, fools=1, off=2)], "too_many_balls")
    assert err.params == {"pocketed": 4, "on_table": 3}


@pytest.mark.parametrize(
    ("event", "field", "reason"),
    [
        ("shot", "", "not_object"),
        ({}, "type", "missing"),
        ({"type": "jump"}, "type", "unknown_type"),
        ({"type": "break", "legal": True}, "player", "missing"),
        ({"type": "break", "player": "c", "legal": True}, "player", "bad_value"),
        ({"type": "break", "player": "a", "legal": 1}, "legal", "wrong_type"),
        ({"type": "break", "player": "a"}, "legal", "missing"),
        (
            {"type": "break", "player": "a", "legal": True, "pocketed": True},
            "pocketed",
            "wrong_type",
        ),
        ({"type": "break", "player": "a", "legal": True, "pocketed": -1}, "pocketed", "negative"),
        (
            {"type": "break", "player": "a", "legal": True, "pocketed": 1.0},
            "pocketed",
            "wrong_type",
        ),
        (
            {"type": "break", "player": "a", "legal": True, "pocketed": 10**9},
            "pocketed",
            "too_large",
        ),
        ({"type": "break", "player": "a", "legal": True, "extra": 0}, "extra", "unknown_key"),
        ({"type": "foul", "player": "a"}, "foul", "missing"),
        ({"type": "foul", "player": "a", "foul": "spitting"}, "foul", "bad_value"),
        ({"type": "forfeit"}, "player", "missing"),
        ({"type": "time_expired", "player": "a"}, "player", "unknown_key"),
        ({"type": "choice", "player": "b"}, "option", "missing"),
        ({"type": "choice", "player": "b", "option": "pass"}, "option", "bad_value"),
    ],
)
def test_invalid_events_name_the_field(event: object, field: str, reason: str) -> None:
    with pytest.raises(rules.RuleError) as info:
        rules.replay(R, [event])
    err = info.value
    assert err.code == "invalid_event" and err.index == 0
    assert err.params["field"] == field and err.params["reason"] == reason
    assert isinstance(err, ValueError) and err.message


def test_events_counts_applied_events() -> None:
    assert play(R, [brk("a", 1), shot("a"), shot("b", 1)])["events"] == 3


def test_stats_runs_and_fouls() -> None:
    events = [brk("a", 2), *pots("a", 3), shot("a"), shot("b", 1), shot("b", foul="cue_tip")]
    st = play(R, events)
    assert st["stats"]["a"] == {"pocketed": 5, "fouls": 0, "best_run": 5, "current_run": 0}
    assert st["stats"]["b"] == {"pocketed": 1, "fouls": 1, "best_run": 1, "current_run": 0}
    st = play(R, [*events, choice("a", "play"), shot("a", 1)])
    assert st["stats"]["a"]["current_run"] == 1 and st["stats"]["a"]["best_run"] == 5


def test_g12_2_a_second_foul_by_the_offender_keeps_the_rebreak_options() -> None:
    events = [brk("a", 0, legal=False), foul("a", "interference")]
    st = play(R, events)
    assert st["debt"]["a"] == 2 and st["stats"]["a"]["fouls"] == 2
    assert (st["turn"], st["awaiting"]) == ("b", "choice")
    assert "rebreak_self" in st["options"]
    # A foul by the chooser turns the choice over to the first offender, without rebreaks.
    st = play(R, [brk("a", 0, legal=False), foul("b", "touched_ball")])
    assert (st["turn"], st["options"]) == ("a", ["play", "hand_back"])
