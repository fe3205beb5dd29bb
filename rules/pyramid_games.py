"""What combined, dynamic and classic pyramid share (design/rules-engine.md §6): the coloured
ball is the only cue ball (G4.2), so a state says where it is, an event says what became of it,
and a penalty or premium shot is played from hand from the house (G21). The three engines
(rules/combined_pyramid.py, rules/dynamic_pyramid.py, rules/classic_pyramid.py) differ in how
a point is won and a foul is paid; the turn after a foul, the choice, the frames and the time
limit are the same and live here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.common import (
    BREAK_OPTIONS,
    FIRST_BREAK_LABELS,
    OTHER,
    PLAYERS,
    Event,
    State,
    apply_break_choice,
    await_choice,
    check_keys,
    clear_choice,
    credited_frames,
    end_visits,
    finish,
    foul_outside_stroke,
    get_choice,
    get_foul,
    new_stats,
)
from rules.errors import invalid_event, unexpected
from rules.fouls import CUE_BALL_FOUL_CODES, SHOT_FOUL_CODES
from rules.words import gettext_noop

# Where the cue ball is between strokes (the state's `cue_ball`).
ON_TABLE = "on_table"
IN_HAND_HOUSE = "in_hand_house"  # G21: a penalty or premium shot from hand from the house
IN_HAND_ANYWHERE = "in_hand_anywhere"  # N5.2: dynamic pyramid's premium shot
CUE_BALL_PLACES = (ON_TABLE, IN_HAND_HOUSE, IN_HAND_ANYWHERE)

# What became of the cue ball in a stroke (an event's `cue_ball`).
STAYED = "stayed"
POCKETED = "pocketed"
OFF_TABLE = "off_table"
CUE_BALL_OUTCOMES = (STAYED, POCKETED, OFF_TABLE)

# The cue ball's outcome as one field of the family's break and shot (the same schema in the
# three games, as register() requires of a field two disciplines add).
CUE_BALL_FIELD: dict[str, Any] = {
    "type": "string",
    "enum": list(CUE_BALL_OUTCOMES),
    "description": "Combined, dynamic and classic pyramid: what became of the coloured cue "
    "ball (stayed on the table, pocketed, or left the table). Missing: stayed.",
}

PLAY_OPTIONS = ("play", "hand_back")  # G6
FOUL_KEYS = frozenset({"type", "player", "foul"})
OPTION_KEYS = frozenset({"type", "player", "option"})
TIME_KEYS = frozenset({"type"})
FOUL_AWAITING = frozenset({"break", "shot", "choice"})

# The fouls a stroke may report in these games: the family's and the two of the cue ball.
SHOT_FOULS: frozenset[str] = SHOT_FOUL_CODES | CUE_BALL_FOUL_CODES

FRAMES_TO_WIN_KEY: dict[str, Any] = {
    "key": "frames_to_win",
    "label": gettext_noop("Frames to win the match"),
    "stage": True,
    "type": "int",
    "default": 1,
    "min": 1,
    "max": 25,
    "help": "Frames that win the match; frames are broken alternately (G13).",
}
FIRST_BREAK_KEY: dict[str, Any] = {
    "key": "first_break",
    "label": gettext_noop("First break"),
    "type": "choice",
    "default": "a",
    "choices": ["a", "b"],
    "choice_labels": FIRST_BREAK_LABELS,
    "help": "Who breaks frame 1; frames alternate (G13).",
}

# Penalty of one discipline: (state, offender) -> None, scores only.
Penalty = Callable[[State, str], None]


def get_cue_ball(ev: Event) -> str:
    """The event's cue ball outcome; missing means it stayed on the table."""
    if "cue_ball" not in ev:
        return STAYED
    return get_choice(ev, "cue_ball", CUE_BALL_OUTCOMES)


def get_shot_foul(ev: Event) -> str | None:
    return get_foul(ev, SHOT_FOULS, required=False)


def check_cue_foul(st: State, foul: str | None, *, cue_ball_foul_anywhere: bool) -> None:
    """§6.5 (5): `house_ball` only on a shot from hand in the house (G21.2); `cue_ball_pocketed`
    only where the discipline makes a pocketed cue ball a foul: classic always (C5.5), dynamic
    on its premium shot from hand anywhere (N5.2)."""
    if foul == "house_ball" and st["cue_ball"] != IN_HAND_HOUSE:
        raise invalid_event("foul", "not_available", value=foul, allowed=sorted(SHOT_FOUL_CODES))
    if foul == "cue_ball_pocketed" and not (
        cue_ball_foul_anywhere or st["cue_ball"] == IN_HAND_ANYWHERE
    ):
        raise invalid_event("foul", "not_available", value=foul, allowed=sorted(SHOT_FOUL_CODES))


def common_state(name: str, rs: dict[str, Any], score: dict[str, int]) -> State:
    first = rs["first_break"]
    frames = credited_frames(rs)
    return {
        "discipline": name,
        "ruleset": rs,
        "events": 0,
        "finished": False,
        "winner": None,
        "end_reason": None,
        "turn": first,
        "awaiting": "break",
        "to_spot": 0,
        "options": [],
        "score": score,
        "frames": frames,  # a credited frame counts as won (the ruleset's frames_credit)
        "frame": 1 + frames["a"] + frames["b"],
        "cue_ball": IN_HAND_HOUSE,  # §6.5 (1): the break is played from hand from the house
        "golden_ball": False,
        "time_expired": False,
        "breaker": first,
        "first_breaker": first,
        "lag": None,
        "offender": None,
        "after_choice": None,
        "stats": new_stats(),
    }


def open_choice(
    st: State, penalty: Penalty, offender: str, options: tuple[str, ...], after: str
) -> None:
    """One penalty (G29.2), then the non-offender chooses (G6, G12.2). After time, on equal
    scores, a penalty that moves the score decides the golden ball (§6.5 (2))."""
    st["stats"][offender]["fouls"] += 1
    q = OTHER[offender]
    before = dict(st["score"])
    penalty(st, offender)
    if st["golden_ball"] and st["score"] != before:
        finish(st, q, "golden_ball")
        return
    await_choice(st, offender, options, after)


def frame_won(st: State, w: str, reset: Callable[[State], None]) -> None:
    """A frame to ``w``: the match at `frames_to_win`, else the next frame, broken by the
    player who did not break this one (G13). ``reset`` sets the table and scores again."""
    frames = st["frames"]
    frames[w] += 1
    if frames[w] >= st["ruleset"]["frames_to_win"]:
        finish(st, w, "frames")
        return
    breaker = OTHER[st["breaker"]]
    st["frame"] += 1
    reset(st)
    st["breaker"] = breaker
    st["turn"] = breaker
    st["awaiting"] = "break"
    st["cue_ball"] = IN_HAND_HOUSE
    clear_choice(st)
    for s in st["stats"].values():
        s["current_run"] = 0


def settle_frame(
    st: State, race_key: str, reset: Callable[[State], None], rerack: Callable[[State], None]
) -> None:
    """After a ball-moving event: the frame to the first at the ruleset's ``race_key``
    (``frame_won`` with ``reset``). **Reading**: a table cleared with nobody there goes to the
    higher score; equal scores re-rack (``rerack`` sets the balls again) and the frame goes
    on, broken from the house by the player who did not break it."""
    if st["finished"]:
        return
    score = st["score"]
    target = st["ruleset"][race_key]
    for p in PLAYERS:
        if score[p] >= target:
            frame_won(st, p, reset)
            return
    if st["balls_on_table"] == 0:
        if score["a"] != score["b"]:
            frame_won(st, "a" if score["a"] > score["b"] else "b", reset)
            return
        rerack(st)
        st["turn"] = OTHER[st["breaker"]]
        st["awaiting"] = "break"
        st["cue_ball"] = IN_HAND_HOUSE
    end_visits(st)


def on_choice(st: State, ev: Event) -> None:
    """G6 / G12.2; a rebreak puts the cue ball in hand in the house (§6.5 (1)); handing the
    table back leaves the cue ball where the foul left it (§6.5 (4))."""
    apply_break_choice(st, ev)
    if st["awaiting"] == "break":
        st["cue_ball"] = IN_HAND_HOUSE
    end_visits(st)


def make_foul_handler(
    penalty: Penalty, reset_spot: Callable[[State], None]
) -> Callable[[State, Event], None]:
    """A foul outside a stroke (G17, G26, G28): P is the offender, who need not be the player to
    act (G28); the cue ball stays where it is."""

    def on_foul(st: State, ev: Event) -> None:
        p, options, after = foul_outside_stroke(st, ev, FOUL_KEYS, FOUL_AWAITING, PLAY_OPTIONS)
        reset_spot(st)
        open_choice(st, penalty, p, options, after)

    return on_foul


def time_expired(st: State, ev: Event, points: Callable[[State, str], int]) -> None:
    """R (§2.4): frames won, then the frame's points; equal: the golden ball."""
    check_keys(ev, TIME_KEYS)
    if st["time_expired"]:
        raise unexpected("time_expired", st["awaiting"])
    st["time_expired"] = True
    frames = st["frames"]
    if frames["a"] != frames["b"]:
        finish(st, "a" if frames["a"] > frames["b"] else "b", "time")
        return
    a, b = points(st, "a"), points(st, "b")
    if a != b:
        finish(st, "a" if a > b else "b", "time")
    else:
        st["golden_ball"] = True


__all__ = ["BREAK_OPTIONS"]
