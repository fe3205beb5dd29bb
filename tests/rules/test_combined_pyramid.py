"""Combined pyramid worked by hand from its clauses (design/rules-engine.md §6.1, §6.5; K are
its rules, G the general rules); each case also through ``python -m rules replay``."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.rules.hand_cases import (
    TIME,
    Case,
    brk,
    check_cli,
    check_replay,
    choice,
    forfeit,
    foul,
    params,
    shot,
)

CP = {"discipline": "combined_pyramid"}
DIRECT = {**CP, "direct_call": True}
BREAK_OPTIONS = ["play", "hand_back", "rebreak_self", "rebreak_opponent"]

CASES = [
    Case(
        "K4 the break from hand from the house, 15 balls",
        CP,
        [],
        {
            "awaiting": "break",
            "turn": "a",
            "cue_ball": "in_hand_house",
            "balls_on_table": 15,
            "score": {"a": 0, "b": 0},
            "to_spot": 0,
        },
    ),
    Case(
        "K5.3 every ball of a legal break counts",
        CP,
        [brk("a", 2)],
        {
            "score": {"a": 2, "b": 0},
            "balls_on_table": 13,
            "turn": "a",
            "awaiting": "shot",
            "cue_ball": "on_table",
        },
    ),
    Case(
        "a legal break that scores nothing passes the turn",
        CP,
        [brk("a", 0)],
        {"turn": "b", "awaiting": "shot", "cue_ball": "on_table", "score": {"a": 0, "b": 0}},
    ),
    Case(
        "K5.2 a «свояк» on the break scores and gives a shot from the house",
        CP,
        [brk("a", 1, cue="pocketed")],
        {
            "score": {"a": 2, "b": 0},
            "balls_on_table": 13,
            "turn": "a",
            "awaiting": "shot",
            "cue_ball": "in_hand_house",
        },
    ),
    Case(
        "G12.2 an illegal break: spotted, the opponent takes a ball and chooses",
        CP,
        [brk("a", 1, legal=False)],
        {
            "to_spot": 1,
            "score": {"a": 0, "b": 1},
            "balls_on_table": 14,
            "awaiting": "choice",
            "turn": "b",
            "options": BREAK_OPTIONS,
            "offender": "a",
        },
    ),
    Case(
        "G12.2 (3) the balls in play are racked again and broken",
        CP,
        [brk("a", 1, legal=False), choice("b", "rebreak_self")],
        {
            "awaiting": "break",
            "turn": "b",
            "balls_on_table": 14,
            "cue_ball": "in_hand_house",
            "to_spot": 0,
            "score": {"a": 0, "b": 1},
        },
    ),
    Case(
        "K5.3 no call: any ball pocketed counts",
        CP,
        [brk("a", 0), shot("b", 3)],
        {"score": {"a": 0, "b": 3}, "balls_on_table": 12, "turn": "b"},
    ),
    Case(
        "K5.2 a «свояк» alone: a point, a ball off the table, a shot from the house",
        CP,
        [brk("a", 0), shot("b", 0, cue_ball="pocketed")],
        {
            "score": {"a": 0, "b": 1},
            "balls_on_table": 14,
            "turn": "b",
            "awaiting": "shot",
            "cue_ball": "in_hand_house",
        },
    ),
    Case(
        "K5.2 a «свояк» with two object balls",
        CP,
        [brk("a", 0), shot("b", 2, cue_ball="pocketed")],
        {"score": {"a": 0, "b": 3}, "balls_on_table": 12, "cue_ball": "in_hand_house"},
    ),
    Case(
        "K7 a foul: the balls are spotted, the opponent scores and takes a ball",
        CP,
        [brk("a", 0), shot("b", 2, foul="double_hit")],
        {
            "to_spot": 2,
            "score": {"a": 1, "b": 0},
            "balls_on_table": 14,
            "turn": "a",
            "awaiting": "choice",
            "options": ["play", "hand_back"],
            "offender": "b",
            "cue_ball": "on_table",
        },
    ),
    Case(
        "K7, G21 a foul with the cue ball pocketed: a penalty shot from the house",
        CP,
        [
            brk("a", 0),
            shot("b", 1, foul="incomplete_shot", cue_ball="pocketed"),
            choice("a", "play"),
        ],
        {
            "turn": "a",
            "awaiting": "shot",
            "cue_ball": "in_hand_house",
            "to_spot": 0,
            "score": {"a": 1, "b": 0},
            "balls_on_table": 14,
        },
    ),
    Case(
        "§6.5 (4) handed back, the offender plays from hand from the house",
        CP,
        [
            brk("a", 0),
            shot("b", 0, foul="incomplete_shot", cue_ball="pocketed"),
            choice("a", "hand_back"),
        ],
        {"turn": "b", "awaiting": "shot", "cue_ball": "in_hand_house"},
    ),
    Case(
        "G24.3 the cue ball off the table is a foul",
        CP,
        [brk("a", 0), shot("b", 1, cue_ball="off_table")],
        {
            "to_spot": 1,
            "score": {"a": 1, "b": 0},
            "balls_on_table": 14,
            "cue_ball": "in_hand_house",
            "awaiting": "choice",
            "turn": "a",
        },
    ),
    Case(
        "G24.3 an object ball off the table is a foul; it is spotted",
        CP,
        [brk("a", 0), shot("b", 1, off_table=1)],
        {"to_spot": 2, "score": {"a": 1, "b": 0}, "balls_on_table": 14, "cue_ball": "on_table"},
    ),
    Case(
        "G21.2 from hand, a ball in the house struck first is a foul",
        CP,
        [brk("a", 0), shot("b", 0, cue_ball="pocketed"), shot("b", 1, foul="house_ball")],
        {
            "to_spot": 1,
            "score": {"a": 1, "b": 1},
            "balls_on_table": 13,
            "awaiting": "choice",
            "turn": "a",
            "cue_ball": "on_table",
        },
    ),
    Case(
        "§6.5 (5) the house ball with the cue ball on the table is refused",
        CP,
        [brk("a", 0), shot("b", 0, foul="house_ball")],
        error="invalid_event",
    ),
    Case(
        "§6.5 (5) a pocketed cue ball is never a foul code of combined pyramid",
        CP,
        [brk("a", 0), shot("b", 0, foul="cue_ball_pocketed")],
        error="invalid_event",
    ),
    Case(
        "K5.3 no call, no fools: the field is refused",
        CP,
        [brk("a", 0), shot("b", 1, fools=1)],
        error="invalid_event",
    ),
    Case(
        "«прямой заказ»: a fool alone is spotted and the opponent chooses",
        DIRECT,
        [brk("a", 0), shot("b", 0, fools=1)],
        {
            "to_spot": 1,
            "turn": "a",
            "awaiting": "choice",
            "options": ["play", "hand_back"],
            "score": {"a": 0, "b": 0},
            "balls_on_table": 15,
        },
    ),
    Case(
        "«прямой заказ»: the direct ball counts beside the fool",
        DIRECT,
        [brk("a", 0), shot("b", 1, fools=1)],
        {"score": {"a": 0, "b": 1}, "to_spot": 1, "balls_on_table": 14, "turn": "b"},
    ),
    Case(
        "K1 the first to 8 points wins",
        CP,
        [brk("a", 2), shot("a", 3), shot("a", 2), shot("a", 1)],
        {
            "finished": True,
            "winner": "a",
            "end_reason": "frames",
            "awaiting": None,
            "score": {"a": 8, "b": 0},
        },
    ),
    Case(
        "G13 the next frame is broken by the player who did not break",
        {**CP, "frames_to_win": 2},
        [brk("a", 2), shot("a", 3), shot("a", 2), shot("a", 1)],
        {
            "finished": False,
            "frames": {"a": 1, "b": 0},
            "frame": 2,
            "turn": "b",
            "awaiting": "break",
            "score": {"a": 0, "b": 0},
            "balls_on_table": 15,
            "cue_ball": "in_hand_house",
        },
    ),
    Case(
        "a head start is score at the start of every frame",
        {**CP, "head_start": {"b": 2}},
        [],
        {"score": {"a": 0, "b": 2}, "balls_on_table": 15},
    ),
    Case(
        "more balls than the table holds",
        CP,
        [brk("a", 0), shot("b", 16)],
        error="too_many_balls",
    ),
    Case("out of turn", CP, [brk("a", 0), shot("a", 1)], error="out_of_turn"),
    Case(
        "R time limit: the leader wins at once",
        CP,
        [brk("a", 2), TIME],
        {"finished": True, "winner": "a", "end_reason": "time"},
    ),
    Case(
        "§6.5 (2) the golden ball: a «свояк» scores and decides",
        CP,
        [TIME, brk("a", 0), shot("b", 0, cue_ball="pocketed")],
        {"finished": True, "winner": "b", "end_reason": "golden_ball"},
    ),
    Case(
        "§6.5 (2) the golden ball: a penalty point decides",
        CP,
        [TIME, brk("a", 0), shot("b", 0, foul="double_hit")],
        {"finished": True, "winner": "a", "end_reason": "golden_ball"},
    ),
    Case(
        "G28 a foul outside a stroke: the opponent scores, takes a ball, chooses",
        CP,
        [brk("a", 0), foul("a", "slow_play")],
        {
            "score": {"a": 0, "b": 1},
            "balls_on_table": 14,
            "awaiting": "choice",
            "turn": "b",
            "offender": "a",
        },
    ),
    Case(
        "a forfeit ends the match",
        CP,
        [forfeit("a")],
        {"finished": True, "winner": "b", "end_reason": "forfeit"},
    ),
    Case("nothing after the end", CP, [forfeit("a"), brk("a", 0)], error="finished"),
    Case(
        "house rule: the opponent takes the ball after a «свояк», the point is the striker's",
        {**CP, "svoyak_taken_by": "opponent"},
        [brk("a", 0), shot("b", 0, cue_ball="pocketed")],
        {"score": {"a": 0, "b": 1}, "balls_on_table": 14, "cue_ball": "in_hand_house"},
    ),
    Case(
        "a head start must be below the race",
        {**CP, "balls_to_win": 5, "head_start": {"a": 5}},
        [],
        error="invalid_ruleset",
    ),
    Case(
        "the cue ball's outcome is stayed, pocketed or off_table",
        CP,
        [brk("a", 0, cue="jumped")],
        error="invalid_event",
    ),
]


@pytest.mark.parametrize("case", params(CASES))
def test_by_replay(case: Case) -> None:
    check_replay(case)


@pytest.mark.parametrize("case", params(CASES))
def test_by_the_command_line(case: Case, tmp_path: Path) -> None:
    check_cli(case, tmp_path)
