"""Foul codes (G29.1) and where each may be reported."""

from __future__ import annotations

# code -> rule number of the general pyramid rules (G).
FOUL_CODES: dict[str, str] = {
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
    # The coloured cue ball's fouls (design/rules-engine.md §6): a shot from hand in the house
    # that first strikes a ball inside the house (G21.2), and a pocketed cue ball where it is a
    # foul (classic C5.5; dynamic N5.2 on the premium shot).
    "house_ball": "G21.2",
    "cue_ball_pocketed": "C5.5",
}

# Fouls of the coloured cue ball only: combined, dynamic and classic pyramid report them.
CUE_BALL_FOUL_CODES: frozenset[str] = frozenset({"house_ball", "cue_ball_pocketed"})

# Fouls committed while striking: the `foul` of a shot event. `illegal_break` is reported by
# a break with `legal: false`; slow play and interference happen outside a shot.
SHOT_FOUL_CODES: frozenset[str] = frozenset(FOUL_CODES) - {
    "illegal_break",
    "slow_play",
    "interference",
    *CUE_BALL_FOUL_CODES,
}

# Fouls outside a shot: the `foul` of a foul event (G17, G26, G28).
FOUL_EVENT_CODES: frozenset[str] = frozenset({"touched_ball", "slow_play", "interference"})
