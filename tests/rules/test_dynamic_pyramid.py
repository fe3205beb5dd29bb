"""Dynamic pyramid worked by hand from its clauses (design/rules-engine.md §6.2, §6.5; N5.2
is where it differs from combined pyramid); each case also through ``python -m rules replay``."""

from __future__ import annotations

from tests.rules.hand_cases import (
    BREAK_OPTIONS,
    TIME,
    Case,
    brk,
    choice,
    replay_tests,
    shot,
)

DP = {"discipline": "dynamic_pyramid"}
SVOYAK = shot("b", 0, cue_ball="pocketed")

CASES = [
    Case(
        "§6.5 (1) the break from hand from the house",
        DP,
        [],
        {"awaiting": "break", "cue_ball": "in_hand_house", "balls_on_table": 15, "turn": "a"},
    ),
    Case(
        "N5.2 a «свояк»: a point, a ball off, the cue ball in hand anywhere",
        DP,
        [brk("a", 0), shot("b", 1, cue_ball="pocketed")],
        {
            "score": {"a": 0, "b": 2},
            "balls_on_table": 13,
            "cue_ball": "in_hand_anywhere",
            "turn": "b",
            "awaiting": "shot",
        },
    ),
    Case(
        "N5.2 the premium shot pockets an object ball",
        DP,
        [brk("a", 0), shot("b", 1, cue_ball="pocketed"), shot("b", 1)],
        {"score": {"a": 0, "b": 3}, "balls_on_table": 12, "cue_ball": "on_table", "turn": "b"},
    ),
    Case(
        "N5.2 a cue ball pocketed on the premium shot is a foul: nothing counts",
        DP,
        [brk("a", 0), SVOYAK, shot("b", 2, cue_ball="pocketed")],
        {
            "to_spot": 2,
            "score": {"a": 1, "b": 1},
            "balls_on_table": 13,
            "cue_ball": "in_hand_house",
            "awaiting": "choice",
            "turn": "a",
            "offender": "b",
        },
    ),
    Case(
        "N5.2 the foul cue_ball_pocketed named on the premium shot",
        DP,
        [brk("a", 0), SVOYAK, shot("b", 0, foul="cue_ball_pocketed", cue_ball="pocketed")],
        {
            "to_spot": 0,
            "score": {"a": 1, "b": 1},
            "balls_on_table": 13,
            "cue_ball": "in_hand_house",
        },
    ),
    Case(
        "§6.5 (5) no house on the premium shot: house_ball is refused",
        DP,
        [brk("a", 0), SVOYAK, shot("b", 0, foul="house_ball")],
        error="invalid_event",
    ),
    Case(
        "§6.5 (5) cue_ball_pocketed only on the premium shot",
        DP,
        [brk("a", 0), shot("b", 0, foul="cue_ball_pocketed")],
        error="invalid_event",
    ),
    Case(
        "§6.5 (3) a «свояк» on the break: in hand anywhere",
        DP,
        [brk("a", 2, cue="pocketed")],
        {
            "score": {"a": 3, "b": 0},
            "balls_on_table": 12,
            "cue_ball": "in_hand_anywhere",
            "turn": "a",
        },
    ),
    Case(
        "the premium shot missed: the turn passes, the cue ball stays on the table",
        DP,
        [brk("a", 0), SVOYAK, shot("b", 0)],
        {"turn": "a", "cue_ball": "on_table", "score": {"a": 0, "b": 1}, "awaiting": "shot"},
    ),
    Case(
        "K7 as in combined: a foul with the cue ball pocketed gives the house",
        DP,
        [brk("a", 0), shot("b", 0, foul="double_hit", cue_ball="pocketed")],
        {
            "cue_ball": "in_hand_house",
            "score": {"a": 1, "b": 0},
            "balls_on_table": 14,
            "awaiting": "choice",
            "turn": "a",
        },
    ),
    Case(
        "G21.2 the house ball on a penalty shot from the house",
        DP,
        [
            brk("a", 0),
            shot("b", 0, foul="double_hit", cue_ball="pocketed"),
            choice("a", "play"),
            shot("a", 0, foul="house_ball"),
        ],
        {"score": {"a": 1, "b": 1}, "balls_on_table": 13, "turn": "b", "awaiting": "choice"},
    ),
    Case(
        "G24.3 the cue ball off the table on the premium shot",
        DP,
        [brk("a", 0), SVOYAK, shot("b", 0, cue_ball="off_table")],
        {
            "score": {"a": 1, "b": 1},
            "balls_on_table": 13,
            "cue_ball": "in_hand_house",
            "awaiting": "choice",
        },
    ),
    Case(
        "G12.2 an illegal break",
        DP,
        [brk("a", 0, legal=False)],
        {"score": {"a": 0, "b": 1}, "balls_on_table": 14, "options": BREAK_OPTIONS},
    ),
    Case(
        "G12.2 (4) the offender breaks again, from the house",
        DP,
        [brk("a", 0, legal=False), choice("b", "rebreak_opponent")],
        {"turn": "a", "awaiting": "break", "cue_ball": "in_hand_house", "balls_on_table": 14},
    ),
    Case(
        "first to 8 with a «свояк» and its premium shot",
        DP,
        [brk("a", 3), shot("a", 0, cue_ball="pocketed"), shot("a", 4)],
        {"finished": True, "winner": "a", "score": {"a": 8, "b": 0}, "end_reason": "frames"},
    ),
    Case(
        "«прямой заказ» in dynamic pyramid: fools are spotted",
        {**DP, "direct_call": True},
        [brk("a", 0), shot("b", 0, fools=2)],
        {"to_spot": 2, "awaiting": "choice", "turn": "a", "balls_on_table": 15},
    ),
    Case(
        "R time limit on equal scores: the golden ball",
        DP,
        [brk("a", 0), TIME],
        {"golden_ball": True, "finished": False, "time_expired": True},
    ),
    Case(
        "the golden ball goes to the next pocketed ball",
        DP,
        [brk("a", 0), TIME, shot("b", 1)],
        {"finished": True, "winner": "b", "end_reason": "golden_ball"},
    ),
    Case("a second time_expired", DP, [TIME, TIME], error="unexpected_event"),
    Case("too many balls on the break", DP, [brk("a", 16)], error="too_many_balls"),
    Case(
        "G13 frames alternate from the first breaker",
        {**DP, "frames_to_win": 2, "first_break": "b"},
        [brk("b", 8)],
        {"frame": 2, "frames": {"a": 0, "b": 1}, "turn": "a", "awaiting": "break"},
    ),
    Case(
        "a choice nobody awaits", DP, [brk("a", 0), choice("b", "play")], error="unexpected_event"
    ),
    Case(
        "the cue ball's outcome is a word",
        DP,
        [brk("a", 0, cue=True)],  # type: ignore[arg-type]
        error="invalid_event",
    ),
]


test_by_replay, test_by_the_command_line = replay_tests(CASES)
