"""Classic pyramid («Классическая пирамида»; design/rules-engine.md §6.3).

Balls numbered 1-15 and the coloured cue ball (C2), a frame won at 71 points (C1). A ball is
worth its number, the 1 («туз») 11, and the last object ball on the table 10 more (C5.1). The
striker calls a ball and a pocket (C5.2); when the called ball falls in the called pocket on a
legal stroke every ball pocketed counts (C5.3), otherwise they are spotted (C5.4). A pocketed or
jumped cue ball is a foul, and the opponent plays from hand from the house (C5.5). The penalty's
size is the regulation's: `foul_deduct` and `foul_award` have no default.

The state keeps each numbered ball in exactly one place: `on_table` (sorted; `to_spot` lists
those of them the referee must put back) or `pocketed` (the balls each player scored this
rack).
"""

from __future__ import annotations

from typing import Any

from rules.common import (
    BREAK_OPTIONS,
    FRAMES_CREDIT_KEY,
    OTHER,
    Event,
    Handler,
    State,
    check_keys,
    count_run,
    expect,
    expect_turn,
    finish,
    forfeit,
    get_bool,
    get_player,
    on_lag,
)
from rules.errors import invalid_event, too_many
from rules.pyramid_games import (
    FIRST_BREAK_KEY,
    FRAMES_TO_WIN_KEY,
    IN_HAND_HOUSE,
    OFF_TABLE,
    ON_TABLE,
    PLAY_OPTIONS,
    POCKETED,
    STAYED,
    check_cue_foul,
    common_state,
    get_cue_ball,
    get_shot_foul,
    make_foul_handler,
    on_choice,
    open_choice,
    settle_frame,
    time_expired,
)
from rules.words import gettext_noop

BALLS = tuple(range(1, 16))  # C2
# C3: the rack from the apex to the base.
RACK = ((4,), (5, 6), (7, 15, 8), (9, 14, 13, 10), (2, 1, 12, 11, 3))
ACE = 1
ACE_VALUE = 11  # C5.1: the «туз»
LAST_BALL_BONUS = 10  # C5.1: the last object ball on the table

BREAK_KEYS = frozenset({"type", "player", "legal", "pocketed", "cue_ball"})
SHOT_KEYS = frozenset(
    {"type", "player", "call", "made", "pocketed", "off_table", "cue_ball", "foul"}
)

RULESET_KEYS: tuple[dict[str, Any], ...] = (
    {
        "key": "points_to_win",
        "label": gettext_noop("Points to win a frame"),
        "stage": True,
        "type": "int",
        "default": 71,
        "min": 1,
        "max": 200,
        "help": "Points that win a frame (71 or more, C1).",
    },
    FRAMES_TO_WIN_KEY,
    FIRST_BREAK_KEY,
    {
        "key": "foul_deduct",
        "label": gettext_noop("Points the offender loses for a foul"),
        "type": "int",
        "required": True,
        "default": None,
        "min": 0,
        "max": 100,
        "help": "Points the offender loses for a foul. No rule text fixes them: the "
        "regulation states them (required, no default).",
    },
    {
        "key": "foul_award",
        "label": gettext_noop("Points the opponent gains for a foul"),
        "type": "int",
        "required": True,
        "default": None,
        "min": 0,
        "max": 100,
        "help": "Points the opponent gains for a foul. No rule text fixes them: the "
        "regulation states them (required, no default).",
    },
    FRAMES_CREDIT_KEY,
)


def ball_value(n: int) -> int:
    return ACE_VALUE if n == ACE else n


def initial_state(name: str, rs: dict[str, Any]) -> State:
    st = common_state(name, rs, {"a": 0, "b": 0})
    st["to_spot"] = []
    st["on_table"] = list(BALLS)
    st["balls_on_table"] = len(BALLS)
    st["pocketed"] = {"a": [], "b": []}
    return st


# --- event fields ---------------------------------------------------------------------------


def _numbers(ev: Event, field: str) -> list[int]:
    """A list of ball numbers 1-15 (malformed otherwise); missing means none."""
    value = ev.get(field, [])
    if type(value) is not list:
        raise invalid_event(field, "wrong_type", value=value, expected="numbers")
    for n in value:
        if type(n) is not int or not 1 <= n <= len(BALLS):
            raise invalid_event(field, "bad_value", value=n, allowed=[str(b) for b in BALLS])
    return value


def _check_on_table(st: State, balls: list[int]) -> None:
    """§6.5 (8): a ball not on the table, or listed twice, is too_many_balls."""
    on = st["on_table"]
    if len(set(balls)) != len(balls) or any(n not in on for n in balls):
        raise too_many(len(balls), len(on))


def _call(ev: Event, st: State) -> int | None:
    if "call" not in ev or ev["call"] is None:
        return None
    call = ev["call"]
    if type(call) is not int or call not in st["on_table"]:
        raise invalid_event(
            "call", "not_available", value=call, allowed=[str(n) for n in st["on_table"]]
        )
    return int(call)


# --- effects --------------------------------------------------------------------------------


def _penalty(st: State, offender: str) -> None:
    """The regulation's penalty (§6.3): the offender loses `foul_deduct` (even below 0) and the
    opponent gains `foul_award` (which may win the frame, §6.5 (7))."""
    rs = st["ruleset"]
    st["score"][offender] -= rs["foul_deduct"]
    st["score"][OTHER[offender]] += rs["foul_award"]


def _reset(st: State) -> None:
    st["score"] = {"a": 0, "b": 0}
    st["pocketed"] = {"a": [], "b": []}
    st["on_table"] = list(BALLS)
    st["balls_on_table"] = len(BALLS)
    st["to_spot"] = []


def _spot(st: State, balls: list[int]) -> None:
    """Balls spotted (G25.2, C5.4): back on the table, listed in ascending order (§6.5 (8))."""
    st["to_spot"] = sorted(balls)


def _take(st: State, p: str, balls: list[int]) -> None:
    """Balls that count (C5.1, C5.3): each its value, the last on the table 10 more."""
    if not balls:
        st["turn"] = OTHER[p]
        return
    on = [n for n in st["on_table"] if n not in balls]
    points = sum(ball_value(n) for n in balls)
    if not on:
        points += LAST_BALL_BONUS
    st["on_table"] = on
    st["balls_on_table"] = len(on)
    st["pocketed"][p] = sorted(st["pocketed"][p] + balls)
    st["score"][p] += points
    count_run(st, p, len(balls))
    if st["golden_ball"]:
        finish(st, p, "golden_ball")  # R: after time, the first ball pocketed wins


def _foul(st: State, p: str, balls: list[int], cue: str, options: tuple[str, ...]) -> None:
    """C5.5, G22.3: everything pocketed or off the table is spotted, the regulation's penalty,
    the turn passes, with the cue ball in hand in the house if it fell or jumped."""
    _spot(st, balls)
    st["cue_ball"] = IN_HAND_HOUSE if cue != STAYED else ON_TABLE
    open_choice(st, _penalty, p, options, "shot")


def _rerack(st: State) -> None:
    st["on_table"] = list(BALLS)
    st["balls_on_table"] = len(BALLS)
    st["pocketed"] = {"a": [], "b": []}


def _settle(st: State) -> None:
    """The frame at `points_to_win` (`balls_on_table` counts `on_table`)."""
    settle_frame(st, "points_to_win", _reset, _rerack)


# --- events ---------------------------------------------------------------------------------


def on_break(st: State, ev: Event) -> None:
    check_keys(ev, BREAK_KEYS)
    p = get_player(ev)
    legal = get_bool(ev, "legal")
    pocketed = _numbers(ev, "pocketed")
    cue = get_cue_ball(ev)
    expect(st, "break", "break")
    expect_turn(st, p)
    _check_on_table(st, pocketed)
    if not legal:
        _foul(st, p, pocketed, cue, BREAK_OPTIONS)  # G12.1, G12.2
    elif cue != STAYED:
        _foul(st, p, pocketed, cue, PLAY_OPTIONS)  # C5.5 on the break too (§6.5 (3))
    else:
        st["to_spot"] = []
        st["awaiting"] = "shot"
        st["cue_ball"] = ON_TABLE
        _take(st, p, pocketed)  # a legal break: every pocketed ball counts
    _settle(st)


def on_shot(st: State, ev: Event) -> None:
    check_keys(ev, SHOT_KEYS)
    p = get_player(ev)
    pocketed = _numbers(ev, "pocketed")
    off = _numbers(ev, "off_table")
    made = get_bool(ev, "made") if "made" in ev else False
    foul = get_shot_foul(ev)
    cue = get_cue_ball(ev)
    expect(st, "shot", "shot")
    expect_turn(st, p)
    call = _call(ev, st)
    if made and call is None:
        raise invalid_event("call", "missing")  # §6.5 (8): made without a call
    if made and call not in pocketed:
        raise invalid_event("made", "bad_value", value=made, allowed=["false"])
    _check_on_table(st, pocketed + off)
    check_cue_foul(st, foul, cue_ball_foul_anywhere=True)
    if foul is None:
        if cue == POCKETED:
            foul = "cue_ball_pocketed"  # C5.5
        elif cue == OFF_TABLE or off:
            foul = "ball_off_table"  # C5.5, G24.3
    if foul is not None:
        _foul(st, p, pocketed + off, cue, PLAY_OPTIONS)
    elif made:
        st["to_spot"] = []
        st["cue_ball"] = ON_TABLE
        _take(st, p, pocketed)  # C5.3
    else:
        _spot(st, pocketed)  # C5.4
        st["cue_ball"] = ON_TABLE
        st["turn"] = OTHER[p]
    _settle(st)


def _clear_spot(st: State) -> None:
    st["to_spot"] = []


_foul_event = make_foul_handler(_penalty, _clear_spot)


def on_foul(st: State, ev: Event) -> None:
    _foul_event(st, ev)
    _settle(st)


def on_time(st: State, ev: Event) -> None:
    time_expired(st, ev, lambda s, p: s["score"][p])


def _spot_list(handler: Handler) -> Handler:
    """Classic's `to_spot` is a list of numbers (§6.5 (8)); the shared steps that end a match
    or settle a choice say "nothing to spot" as 0."""

    def run(st: State, ev: Event) -> None:
        handler(st, ev)
        if type(st["to_spot"]) is int:
            st["to_spot"] = []

    return run


HANDLERS: dict[str, Handler] = {
    "break": _spot_list(on_break),
    "shot": _spot_list(on_shot),
    "foul": _spot_list(on_foul),
    "choice": _spot_list(on_choice),
    "time_expired": _spot_list(on_time),
    "forfeit": _spot_list(forfeit),
    "lag": _spot_list(on_lag),
}
