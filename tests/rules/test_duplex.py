"""Duplex scenarios, named by the rule of the Duplex rules (D) or the general rules (G)."""

from __future__ import annotations

import rules
from tests.rules.helpers import (
    TIME,
    breaker,
    brk,
    choice,
    dx,
    foul,
    play,
    rejects,
    removal,
    shot,
)

D = dx()

# Frame 1: a clears his colour while b has 5 balls left: a scores 5.
F1_A5 = [brk("a", {"a": 1}), shot("a", {"a": 4, "b": 3}), shot("a", {"a": 3})]
# Frame 2: b clears his colour with all 8 of a's on the table: b scores 8 (b leads 8:5).
F2_B8 = [brk("b", {"b": 3}), shot("b", {"b": 5})]
# Frame 2: b clears his colour with 5 of a's left: 5:5 after two frames.
F2_B5 = [brk("b", {"b": 3}), shot("b", {"a": 3, "b": 5})]


def test_duplex_initial_state() -> None:
    st = rules.initial_state(D)
    assert (st["frame"], st["turn"], st["awaiting"]) == (1, "a", "break")
    assert st["table"] == {"a": 8, "b": 8} and st["balls_on_table"] == 16
    assert st["frame_points"] == [] and st["plus"] == {"a": 0, "b": 0}
    assert st["minus"] == {"a": 0, "b": 0} and st["final"] is None


def test_legal_pots_leave_the_table_and_the_shooter_continues() -> None:
    st = play(D, [brk("a", {"a": 1, "b": 1}), shot("a", {"b": 1})])
    assert st["table"] == {"a": 7, "b": 6}
    assert (st["turn"], st["awaiting"]) == ("a", "shot")
    assert st["stats"]["a"]["current_run"] == 3
    st = play(D, [brk("a", {"a": 1}), shot("a", {})])
    assert (st["turn"], st["awaiting"]) == ("b", "shot")


def test_d7_2_d7_3_d7_4_frame_ends_when_a_colour_is_cleared() -> None:
    st = play(D, F1_A5)
    assert st["frame"] == 2
    assert st["frame_points"] == [{"a": 5, "b": 0}]
    assert st["plus"] == {"a": 5, "b": 0}
    assert st["table"] == {"a": 8, "b": 8}


def test_d7_4_the_owner_of_the_cleared_colour_scores_whoever_pocketed_it() -> None:
    st = play(D, [brk("a", {"a": 1}), shot("a", {}), shot("b", {"a": 7})])
    assert st["frame_points"] == [{"a": 8, "b": 0}]


def test_g13_frame_2_is_broken_by_the_other_player() -> None:
    st = play(D, F1_A5)
    assert (st["breaker"], st["turn"], st["awaiting"]) == ("b", "b", "break")
    st = play(dx(first_break="b"), [brk("b", {"b": 8})])
    assert (st["frame"], st["turn"]) == (2, "a")


def test_d7_5_both_colours_cleared_gives_one_point_to_the_shooter() -> None:
    st = play(D, [brk("a", {"a": 7, "b": 7}), shot("a", {"a": 1, "b": 1})])
    assert st["frame_points"] == [{"a": 1, "b": 0}]
    st = play(D, [brk("a", {"a": 7, "b": 7}), shot("a", {}), shot("b", {"a": 1, "b": 1})])
    assert st["frame_points"] == [{"a": 0, "b": 1}]


def test_d7_6_d7_8_the_leader_chooses_the_breaker_and_the_trailer_gets_minus() -> None:
    st = play(D, [*F1_A5, *F2_B8])
    assert st["plus"] == {"a": 5, "b": 8}
    assert st["minus"] == {"a": 3, "b": 0}
    assert (st["frame"], st["leader"], st["turn"], st["awaiting"]) == (
        3,
        "b",
        "b",
        "choose_breaker",
    )
    rejects(D, [*F1_A5, *F2_B8, breaker("a", "a")], "out_of_turn")
    st = play(D, [*F1_A5, *F2_B8, breaker("b", "a")])
    assert (st["breaker"], st["turn"], st["awaiting"]) == ("a", "a", "break")


def test_d7_7_on_a_tie_the_frame_1_breaker_breaks_frame_3_without_a_choice() -> None:
    st = play(D, [*F1_A5, *F2_B5])
    assert st["plus"] == {"a": 5, "b": 5} and st["minus"] == {"a": 0, "b": 0}
    assert (st["frame"], st["turn"], st["awaiting"], st["leader"]) == (3, "a", "break", None)
    rejects(D, [*F1_A5, *F2_B5, breaker("a", "b")], "unexpected_event")


FRAME3 = [*F1_A5, *F2_B8, breaker("b", "a")]  # a trails by 3 and breaks frame 3


def test_d7_9_to_d7_12_the_trailers_first_own_balls_are_spotted_and_minus_shrinks() -> None:
    st = play(D, [*FRAME3, brk("a", {"a": 2})])
    assert st["minus"] == {"a": 1, "b": 0}
    assert st["table"] == {"a": 8, "b": 8}
    assert st["to_spot"] == 2
    assert (st["turn"], st["awaiting"]) == ("a", "shot")  # a legal pot: he continues
    st = play(D, [*FRAME3, brk("a", {"a": 2}), shot("a", {"a": 2})])
    assert st["minus"] == {"a": 0, "b": 0}
    assert st["table"]["a"] == 7 and st["to_spot"] == 1


def test_d7_13_the_trailers_colour_pocketed_by_the_leader_is_not_spotted() -> None:
    st = play(D, [*FRAME3, brk("a", {}), shot("b", {"a": 2})])
    assert st["table"] == {"a": 6, "b": 8}
    assert st["minus"]["a"] == 3 and st["to_spot"] == 0


def test_d7_14_d7_15_final_points_and_winner() -> None:
    events = [
        *FRAME3,
        brk("a", {"a": 2}),
        shot("a", {"a": 2}),
        shot("a", {}),
        shot("b", {"a": 2}),
        shot("b", {"b": 8}),
    ]
    st = play(D, events)
    assert st["finished"] and st["end_reason"] == "game"
    assert st["frame_points"][2] == {"a": 0, "b": 5}
    assert st["final"] == {"a": 0, "b": 5}
    assert st["winner"] == "b"
    assert st["plus"] == {"a": 5, "b": 8}  # frames 1-2 only


def test_d7_15_the_trailer_can_catch_up_after_paying_off_his_minus() -> None:
    st = play(D, [*FRAME3, brk("a", {"a": 3}), shot("a", {"a": 8})])
    assert st["final"] == {"a": 8, "b": 0}
    assert st["winner"] == "a"


def test_d7_15_d7_16_remaining_minus_counts_and_a_tie_goes_to_the_player_who_ended_it() -> None:
    events = [*F1_A5, *F2_B8, breaker("b", "b"), brk("b", {"b": 5}), shot("b", {"a": 8})]
    st = play(D, events)
    # a's colour cleared by b: a scores b's 3 balls minus his remaining 3 minus points.
    assert st["final"] == {"a": 0, "b": 0}
    assert st["winner"] == "b"


def test_d7_5_does_not_apply_in_frame_3_and_d7_16_decides() -> None:
    events = [*F1_A5, *F2_B5, brk("a", {"a": 7, "b": 7}), shot("a", {"a": 1, "b": 1})]
    st = play(D, events)
    assert st["frame_points"][2] == {"a": 0, "b": 0}
    assert st["final"] == {"a": 0, "b": 0}
    assert st["winner"] == "a"


def test_d7_1_a_game_is_three_frames() -> None:
    st = play(D, [*F1_A5, *F2_B5, brk("a", {"a": 8})])
    assert st["finished"] and len(st["frame_points"]) == 3
    rejects(D, [*F1_A5, *F2_B5, brk("a", {"a": 8}), brk("b", {})], "finished")


# --- fouls: D5.2 penalty removal, G6, G12.2, G22.3 ---------------------------------------


def test_d5_2_after_a_foul_the_opponent_removes_a_ball_of_his_choice() -> None:
    events = [brk("a", {"a": 1}), shot("a", {"a": 1}, foul="cue_tip")]
    st = play(D, events)
    assert st["table"] == {"a": 7, "b": 8}  # G22.3: the fouled ball is spotted
    assert st["to_spot"] == 1
    assert (st["turn"], st["awaiting"]) == ("b", "penalty_removal")
    assert st["stats"]["a"]["fouls"] == 1
    st = play(D, [*events, removal("b", "a")])
    assert st["table"] == {"a": 6, "b": 8} and st["balls_on_table"] == 14
    assert (st["turn"], st["awaiting"], st["options"]) == ("b", "choice", ["play", "hand_back"])
    st = play(D, [*events, removal("b", "a"), choice("b", "hand_back")])
    assert (st["turn"], st["awaiting"]) == ("a", "shot")
    rejects(D, [*events, removal("a", "a")], "out_of_turn")
    rejects(D, [*events, choice("b", "play")], "unexpected_event")
    rejects(D, [*events, foul("a", "touched_ball")], "unexpected_event")


def test_g22_3_the_offenders_last_ball_pocketed_on_a_foul_is_spotted() -> None:
    events = [brk("a", {"a": 7}), shot("a", {"a": 1}, foul="push_shot")]
    st = play(D, events)
    assert st["table"]["a"] == 1 and st["frame"] == 1
    # D5.2: the removal is the opponent's free choice, even the offender's last ball (D7.4).
    st = play(D, [*events, removal("b", "a")])
    assert st["frame_points"] == [{"a": 8, "b": 0}]


def test_d5_2_a_removal_that_clears_the_removers_colour_ends_the_frame() -> None:
    events = [brk("a", {"b": 7}), shot("a", {}, foul="no_contact"), removal("b", "b")]
    st = play(D, events)
    assert st["frame_points"] == [{"a": 0, "b": 8}]
    assert (st["frame"], st["turn"], st["awaiting"]) == (2, "b", "break")


def test_g12_2_duplex_illegal_break_removal_then_rebreak_of_the_remaining_balls() -> None:
    events = [brk("a", {"a": 2}, legal=False), removal("b", "b")]
    st = play(D, events)
    assert st["options"] == ["play", "hand_back", "rebreak_self", "rebreak_opponent"]
    st = play(D, [*events, choice("b", "rebreak_self")])
    assert st["table"] == {"a": 8, "b": 7}
    assert (st["turn"], st["awaiting"]) == ("b", "break")


def test_g24_3_duplex_ball_off_the_table_is_a_foul() -> None:
    st = play(D, [brk("a", {"a": 1}), shot("a", {"a": 1}, off=1)])
    assert st["table"]["a"] == 7 and st["to_spot"] == 2
    assert st["awaiting"] == "penalty_removal"


def test_g28_duplex_foul_event_by_the_player_not_to_act() -> None:
    st = play(D, [brk("a", {"a": 1}), foul("b", "interference")])
    assert (st["turn"], st["awaiting"], st["offender"]) == ("a", "penalty_removal", "b")


def test_d7_9_reading_the_trailers_penalty_removal_of_his_own_colour_is_spotted() -> None:
    events = [*FRAME3, brk("a", {}), shot("b", {}, foul="cue_tip"), removal("a", "a")]
    st = play(D, events)
    assert st["minus"]["a"] == 2 and st["table"]["a"] == 8 and st["to_spot"] == 1
    st = play(D, [*FRAME3, brk("a", {}), shot("b", {}, foul="cue_tip"), removal("a", "b")])
    assert st["minus"]["a"] == 3 and st["table"]["b"] == 7


def test_g22_3_a_trailers_own_balls_pocketed_on_a_foul_do_not_pay_his_minus() -> None:
    st = play(D, [*FRAME3, brk("a", {"a": 2}, legal=False)])
    assert st["minus"]["a"] == 3 and st["table"]["a"] == 8 and st["to_spot"] == 2


# --- errors ------------------------------------------------------------------------------


def test_duplex_has_no_time_limit() -> None:
    err = rejects(D, [brk("a", {}), TIME], "unexpected_event")
    assert err.params == {"type": "time_expired", "awaiting": "shot"}


def test_duplex_too_many_balls_of_a_colour() -> None:
    err = rejects(D, [brk("a", {"b": 9})], "too_many_balls")
    assert err.params == {"colour": "b", "pocketed": 9, "on_table": 8}
    err = rejects(D, [brk("a", {"a": 7, "b": 7}), shot("a", {"a": 1}, off=2)], "too_many_balls")
    assert err.params == {"pocketed": 3, "on_table": 2}


def test_duplex_malformed_events() -> None:
    rejects(D, [{"type": "rerack", "player": "a", "option": "full"}], "invalid_event")
    rejects(D, [{**shot("a"), "fools": 1}], "invalid_event")
    err = rejects(D, [brk("a", {"c": 1})], "invalid_event")
    assert err.params["field"] == "pocketed.c"
    err = rejects(D, [brk("a", {"a": True})], "invalid_event")
    assert err.params == {
        "field": "pocketed.a",
        "reason": "wrong_type",
        "expected": "count",
    }
    rejects(D, [brk("a", 3)], "invalid_event")
    rejects(D, [brk("a", None)], "invalid_event")
    rejects(D, [brk("a", {}), shot("b", {}, foul="cue_tip"), removal("a", "c")], "invalid_event")


def test_duplex_forfeit() -> None:
    st = play(D, [*F1_A5, {"type": "forfeit", "player": "b"}])
    assert st["finished"] and st["winner"] == "a" and st["end_reason"] == "forfeit"
    assert st["final"] is None


def test_d5_2_each_foul_gives_one_removal() -> None:
    events = [brk("a", {"a": 1}, legal=False), removal("b", "a"), foul("a", "slow_play")]
    st = play(D, events)
    assert (st["turn"], st["awaiting"]) == ("b", "penalty_removal")
    assert st["stats"]["a"]["fouls"] == 2
    st = play(D, [*events, removal("b", "a")])
    assert st["table"] == {"a": 6, "b": 8}
    assert "rebreak_opponent" in st["options"]  # still the illegal break's choice


def test_d7_7_the_lag_decides_who_broke_frame_1_and_breaks_frame_3_on_a_tie() -> None:
    """D4.1-4.2, D7.7: b won the lag and broke frame 1 though the ruleset names a; on equal
    plus points after two frames, b breaks frame 3."""
    lag = {"type": "lag", "winner": "b", "breaker": "b"}
    st = rules.replay(dx(first_break="a"), [lag])
    assert (st["turn"], st["first_breaker"]) == ("b", "b")
    assert st["lag"] == {"winner": "b", "breaker": "b"}
    frame1 = [brk("b", {"b": 1}), shot("b", {"b": 4, "a": 3}), shot("b", {"b": 3})]  # b 5
    frame2 = [brk("a", {"a": 3}), shot("a", {"a": 5, "b": 3})]  # a 5: 5:5
    st = play(dx(first_break="a"), [lag, *frame1, *frame2])
    assert st["plus"] == {"a": 5, "b": 5}
    assert (st["frame"], st["turn"], st["awaiting"]) == (3, "b", "break")


def test_the_log_says_whose_colour_each_pocketed_ball_was() -> None:
    d = rules.discipline("duplex")
    words = d.describe_event({"type": "shot", "player": "a", "pocketed": {"a": 2, "b": 1}}, {})
    said = rules.render(words, names={"a": "Иванов", "b": "Петров"})
    assert said == "Иванов: 2 balls of Иванов, 1 ball of Петров"
    foul = d.describe_event({"type": "shot", "player": "a", "foul": "cue_tip"}, {})
    assert "of" not in rules.render(foul, names={"a": "Иванов", "b": "Петров"})
