"""Classic pyramid worked by hand from its clauses (design/rules-engine.md §6.3, §6.5; C are
its rules); each case also through ``python -m rules replay``."""

from __future__ import annotations

from tests.rules.hand_cases import (
    BREAK_OPTIONS,
    TIME,
    Case,
    brk,
    choice,
    foul,
    replay_tests,
    shot,
)

CL = {"discipline": "classic_pyramid", "foul_deduct": 0, "foul_award": 3}
ALL = list(range(1, 16))


def called(p: str, call: int, pocketed: list[int], **more: object) -> dict[str, object]:
    return shot(p, pocketed, call=call, made=True, **more)


def without(*numbers: int) -> list[int]:
    return [n for n in ALL if n not in numbers]


CASES = [
    Case(
        "the penalty is the regulation's: foul_deduct is required",
        {"discipline": "classic_pyramid", "foul_award": 3},
        [],
        error="invalid_ruleset",
    ),
    Case(
        "the penalty is the regulation's: foul_award is required",
        {"discipline": "classic_pyramid", "foul_deduct": 0},
        [],
        error="invalid_ruleset",
    ),
    Case(
        "C2 fifteen numbered balls, the break from the house",
        CL,
        [],
        {
            "on_table": ALL,
            "balls_on_table": 15,
            "to_spot": [],
            "cue_ball": "in_hand_house",
            "awaiting": "break",
            "score": {"a": 0, "b": 0},
        },
    ),
    Case(
        "C5.1 a legal break: every ball counts at its number",
        CL,
        [brk("a", [5, 9])],
        {
            "score": {"a": 14, "b": 0},
            "on_table": without(5, 9),
            "balls_on_table": 13,
            "turn": "a",
            "awaiting": "shot",
            "pocketed": {"a": [5, 9], "b": []},
        },
    ),
    Case("C5.1 the ace is worth 11", CL, [brk("a", [1])], {"score": {"a": 11, "b": 0}}),
    Case(
        "a legal break that pockets nothing passes the turn",
        CL,
        [brk("a", [])],
        {"turn": "b", "awaiting": "shot", "cue_ball": "on_table"},
    ),
    Case(
        "C5.5, §6.5 (3) a pocketed cue ball on the break is a foul",
        CL,
        [brk("a", [5], cue="pocketed")],
        {
            "to_spot": [5],
            "on_table": ALL,
            "score": {"a": 0, "b": 3},
            "cue_ball": "in_hand_house",
            "awaiting": "choice",
            "options": ["play", "hand_back"],
        },
    ),
    Case(
        "G12.2 an illegal break: spotted, the penalty, the options of G12.2",
        CL,
        [brk("a", [3], legal=False)],
        {
            "to_spot": [3],
            "score": {"a": 0, "b": 3},
            "options": BREAK_OPTIONS,
            "cue_ball": "on_table",
            "turn": "b",
        },
    ),
    Case(
        "G12.2 (3) the balls racked again, the break from the house",
        CL,
        [brk("a", [3], legal=False), choice("b", "rebreak_self")],
        {
            "awaiting": "break",
            "turn": "b",
            "cue_ball": "in_hand_house",
            "to_spot": [],
            "on_table": ALL,
        },
    ),
    Case(
        "C5.3 the called ball in the called pocket counts; the striker goes on",
        CL,
        [brk("a", []), called("b", 7, [7])],
        {"score": {"a": 0, "b": 7}, "turn": "b", "on_table": without(7)},
    ),
    Case(
        "C5.3 with the call made every ball pocketed counts",
        CL,
        [brk("a", []), called("b", 7, [7, 2])],
        {"score": {"a": 0, "b": 9}, "on_table": without(2, 7), "pocketed": {"a": [], "b": [2, 7]}},
    ),
    Case(
        "C5.4 balls pocketed not as called are spotted; the turn passes",
        CL,
        [brk("a", []), shot("b", [7], call=3, made=False)],
        {"to_spot": [7], "score": {"a": 0, "b": 0}, "turn": "a", "on_table": ALL},
    ),
    Case(
        "a miss passes the turn",
        CL,
        [brk("a", []), shot("b", [], call=3)],
        {"turn": "a", "to_spot": [], "score": {"a": 0, "b": 0}},
    ),
    Case(
        "§6.5 (8) made without a call",
        CL,
        [brk("a", []), shot("b", [7], made=True)],
        error="invalid_event",
    ),
    Case(
        "§6.3 made, but the called ball is not among the pocketed",
        CL,
        [brk("a", []), called("b", 3, [7])],
        error="invalid_event",
    ),
    Case(
        "§6.5 (8) a call of a ball no longer on the table",
        CL,
        [brk("a", [7]), shot("a", [], call=7)],
        error="invalid_event",
    ),
    Case(
        "§6.5 (8) a call outside 1-15",
        CL,
        [brk("a", []), shot("b", [], call=16)],
        error="invalid_event",
    ),
    Case(
        "§6.5 (8) a ball listed twice",
        CL,
        [brk("a", []), called("b", 7, [7, 7])],
        error="too_many_balls",
    ),
    Case(
        "§6.5 (8) a ball that is not on the table",
        CL,
        [brk("a", [7]), called("a", 3, [3, 7])],
        error="too_many_balls",
    ),
    Case(
        "C5.5 a pocketed cue ball: nothing counts, the opponent plays from the house",
        CL,
        [brk("a", []), called("b", 7, [7], cue_ball="pocketed")],
        {
            "to_spot": [7],
            "score": {"a": 3, "b": 0},
            "cue_ball": "in_hand_house",
            "awaiting": "choice",
            "turn": "a",
            "offender": "b",
            "on_table": ALL,
        },
    ),
    Case(
        "C5.5 a jumped cue ball is a foul",
        CL,
        [brk("a", []), shot("b", [], cue_ball="off_table")],
        {"score": {"a": 3, "b": 0}, "cue_ball": "in_hand_house"},
    ),
    Case(
        "G24.3 an object ball off the table: spotted, a foul",
        CL,
        [brk("a", []), shot("b", [], off_table=[4])],
        {"to_spot": [4], "score": {"a": 3, "b": 0}, "cue_ball": "on_table"},
    ),
    Case(
        "§6.5 (7) foul_deduct may take a score below 0",
        {**CL, "foul_deduct": 5, "foul_award": 0},
        [brk("a", []), shot("b", [], foul="double_hit")],
        {"score": {"a": 0, "b": -5}},
    ),
    Case(
        "G21.2 from hand from the house, a ball in the house struck first",
        CL,
        [
            brk("a", []),
            shot("b", [], cue_ball="pocketed"),
            choice("a", "play"),
            shot("a", [], foul="house_ball"),
        ],
        {"score": {"a": 3, "b": 3}, "turn": "b", "awaiting": "choice"},
    ),
    Case(
        "§6.5 (5) the house ball with the cue ball on the table",
        CL,
        [brk("a", []), shot("b", [], foul="house_ball")],
        error="invalid_event",
    ),
    Case(
        "C5.1 the last ball scores 10 more; a cleared table goes to the higher score",
        {**CL, "points_to_win": 200},
        [brk("a", list(range(1, 15))), called("a", 15, [15])],
        {"finished": True, "winner": "a", "end_reason": "frames", "score": {"a": 140, "b": 0}},
    ),
    Case(
        "Reading: 70:70 on a cleared table re-racks, broken by the other player",
        CL,
        [
            brk("a", [1, 15, 14, 13, 12, 5]),
            shot("a", [], call=2),
            called("b", 2, [2, 3, 4, 6, 7, 8, 9, 10, 11]),
        ],
        {
            "score": {"a": 70, "b": 70},
            "on_table": ALL,
            "awaiting": "break",
            "turn": "b",
            "pocketed": {"a": [], "b": []},
            "frame": 1,
            "finished": False,
        },
    ),
    Case(
        "C1 the re-racked frame is won at 71",
        CL,
        [
            brk("a", [1, 15, 14, 13, 12, 5]),
            shot("a", [], call=2),
            called("b", 2, [2, 3, 4, 6, 7, 8, 9, 10, 11]),
            brk("b", [3]),
        ],
        {"finished": True, "winner": "b", "score": {"a": 70, "b": 73}},
    ),
    Case(
        "§6.5 (7) the penalty's award may win the frame",
        {**CL, "points_to_win": 3},
        [brk("a", [], legal=False)],
        {"finished": True, "winner": "b", "score": {"a": 0, "b": 3}},
    ),
    Case(
        "R time limit, equal: the next ball pocketed wins",
        CL,
        [brk("a", []), TIME, called("b", 7, [7])],
        {"finished": True, "winner": "b", "end_reason": "golden_ball"},
    ),
    Case(
        "G17 a foul outside a stroke",
        CL,
        [brk("a", []), foul("b", "touched_ball")],
        {"score": {"a": 3, "b": 0}, "turn": "a", "awaiting": "choice"},
    ),
    Case(
        "§6.5 (4) handed back after a pocketed cue ball: from the house",
        CL,
        [brk("a", []), shot("b", [], cue_ball="pocketed"), choice("a", "hand_back")],
        {"turn": "b", "cue_ball": "in_hand_house", "awaiting": "shot"},
    ),
    Case("balls are numbers, not a count", CL, [brk("a", 2)], error="invalid_event"),
]


test_by_replay, test_by_the_command_line = replay_tests(CASES)
