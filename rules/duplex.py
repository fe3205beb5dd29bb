"""Duplex (D): free pyramid with two colours of 8 balls, 3 frames, plus and minus points."""

from __future__ import annotations

from typing import Any

from rules.common import (
    BREAK_OPTIONS,
    FIRST_BREAK_LABELS,
    OTHER,
    PLAYERS,
    Event,
    Handler,
    State,
    apply_break_choice,
    await_choice,
    check_count,
    check_keys,
    clear_choice,
    count_run,
    end_visits,
    expect,
    expect_turn,
    finish,
    forfeit,
    foul_outside_stroke,
    get_bool,
    get_choice,
    get_count,
    get_foul,
    get_player,
    new_stats,
    on_lag,
)
from rules.errors import invalid_event, short, too_many, unexpected
from rules.fouls import SHOT_FOUL_CODES
from rules.words import gettext_noop

PER_COLOUR = 8

BREAK_KEYS = frozenset({"type", "player", "legal", "pocketed"})
SHOT_KEYS = frozenset({"type", "player", "pocketed", "off_table", "foul"})
FOUL_KEYS = frozenset({"type", "player", "foul"})
REMOVAL_KEYS = frozenset({"type", "player", "colour"})
OPTION_KEYS = frozenset({"type", "player", "option"})
BREAKER_KEYS = frozenset({"type", "player", "breaker"})
TIME_KEYS = frozenset({"type"})

PLAY_OPTIONS = ("play", "hand_back")  # G6

RULESET_KEYS: tuple[dict[str, Any], ...] = (
    {
        "key": "first_break",
        "label": gettext_noop("First break"),
        "type": "choice",
        "default": "a",
        "choices": ["a", "b"],
        "choice_labels": FIRST_BREAK_LABELS,
        "help": "Who breaks frame 1 (with his colour's cue ball, D4.4); frame 2 alternates.",
    },
)


def initial_state(rs: dict[str, Any]) -> State:
    first = rs["first_break"]
    return {
        "discipline": "duplex",
        "ruleset": rs,
        "events": 0,
        "finished": False,
        "winner": None,
        "end_reason": None,
        "turn": first,
        "awaiting": "break",
        "to_spot": 0,
        "options": [],
        "frame": 1,
        "table": {"a": PER_COLOUR, "b": PER_COLOUR},
        "balls_on_table": 2 * PER_COLOUR,
        "frame_points": [],
        "plus": {"a": 0, "b": 0},
        "minus": {"a": 0, "b": 0},
        "final": None,
        "leader": None,
        "breaker": first,
        "first_breaker": first,
        "lag": None,
        "offender": None,
        "after_choice": None,
        "stats": new_stats(),
    }


def _colours(ev: Event) -> tuple[int, int]:
    """`pocketed` as {"a": x, "b": y}; a missing colour is 0."""
    value = ev.get("pocketed", None)
    if value is None:
        if "pocketed" in ev:
            raise invalid_event("pocketed", "wrong_type", value=value, expected="colours")
        return 0, 0
    if type(value) is not dict:
        raise invalid_event("pocketed", "wrong_type", value=value, expected="colours")
    for key in value:
        if key != "a" and key != "b":
            name = key[:20] if type(key) is str else short(key)
            raise invalid_event(f"pocketed.{name}", "unknown_key")
    return check_count("pocketed.a", value.get("a", 0)), check_count(
        "pocketed.b", value.get("b", 0)
    )


def _check_table(st: State, pa: int, pb: int, extra: int = 0) -> None:
    table = st["table"]
    if pa > table["a"]:
        raise too_many(pa, table["a"], "a")
    if pb > table["b"]:
        raise too_many(pb, table["b"], "b")
    if pa + pb + extra > st["balls_on_table"]:
        raise too_many(pa + pb + extra, st["balls_on_table"])


def _pot(st: State, p: str, pa: int, pb: int) -> None:
    """Legal pots leave the table, except the trailer's own colour while he has minus."""
    count_run(st, p, pa + pb)
    minus = st["minus"]
    owed = minus[p]
    if owed:
        # D7.9-7.12: his first own balls in frame 3 are spotted at once, minus shrinks.
        own = pa if p == "a" else pb
        k = own if own < owed else owed
        if k:
            minus[p] = owed - k
            st["to_spot"] += k
            if p == "a":
                pa -= k
            else:
                pb -= k
    table = st["table"]
    table["a"] -= pa
    table["b"] -= pb
    st["balls_on_table"] -= pa + pb


def _foul(st: State, offender: str, options: tuple[str, ...], after: str) -> None:
    """D5.2: the opponent removes a ball of his choice, then chooses (G6, G12.2)."""
    st["stats"][offender]["fouls"] += 1
    await_choice(st, offender, options, after, "penalty_removal")


def _frame_end(st: State, ender: str) -> None:
    table = st["table"]
    frame = st["frame"]
    ta = table["a"]
    tb = table["b"]
    if not ta and not tb:
        # D7.5: frames 1-2 only; in frame 3 both cleared gives no plus points.
        pts = {"a": 0, "b": 0}
        if frame < 3:
            pts[ender] = 1
    elif not ta:
        pts = {"a": tb, "b": 0}  # D7.4: as many plus points as the opponent's balls left
    else:
        pts = {"a": 0, "b": ta}
    st["frame_points"].append(pts)
    for s in st["stats"].values():
        s["current_run"] = 0
    clear_choice(st)
    st["to_spot"] = 0
    if frame == 3:
        minus = st["minus"]
        final = {p: pts[p] - minus[p] for p in PLAYERS}  # D7.14, D7.15
        st["final"] = final
        winner = ender  # D7.16: equal final points
        if final["a"] != final["b"]:
            winner = "a" if final["a"] > final["b"] else "b"
        finish(st, winner, "game")
        return
    plus = st["plus"]
    plus["a"] += pts["a"]
    plus["b"] += pts["b"]
    st["frame"] = frame + 1
    st["table"] = {"a": PER_COLOUR, "b": PER_COLOUR}
    st["balls_on_table"] = 2 * PER_COLOUR
    first = st["first_breaker"]  # who really broke frame 1: the lag's or first_break
    if frame == 1:
        breaker = OTHER[first]  # G13
    elif plus["a"] == plus["b"]:
        breaker = first  # D7.7
    else:
        leader = "a" if plus["a"] > plus["b"] else "b"
        trailer = OTHER[leader]
        st["leader"] = leader
        st["minus"][trailer] = plus[leader] - plus[trailer]  # D7.8
        st["turn"] = leader
        st["awaiting"] = "choose_breaker"  # D7.6
        return
    st["breaker"] = breaker
    st["turn"] = breaker
    st["awaiting"] = "break"


def _settle(st: State, ender: str) -> None:
    table = st["table"]
    if not table["a"] or not table["b"]:
        _frame_end(st, ender)  # D7.2
    else:
        end_visits(st)


# --- events ------------------------------------------------------------------------------


def on_break(st: State, ev: Event) -> None:
    check_keys(ev, BREAK_KEYS)
    p = get_player(ev)
    legal = get_bool(ev, "legal")
    pa, pb = _colours(ev)
    expect(st, "break", "break")
    expect_turn(st, p)
    _check_table(st, pa, pb)
    st["to_spot"] = 0
    if legal:
        st["awaiting"] = "shot"
        if pa or pb:
            _pot(st, p, pa, pb)
        else:
            st["turn"] = OTHER[p]
    else:
        st["to_spot"] = pa + pb  # G22.3
        _foul(st, p, BREAK_OPTIONS, "shot")  # G12.1, G29.1 (7)
    _settle(st, p)


def on_shot(st: State, ev: Event) -> None:
    check_keys(ev, SHOT_KEYS)
    p = get_player(ev)
    pa, pb = _colours(ev)
    off = get_count(ev, "off_table")
    foul = get_foul(ev, SHOT_FOUL_CODES, required=False)
    expect(st, "shot", "shot")
    expect_turn(st, p)
    _check_table(st, pa, pb, off)
    if foul is None and off:
        foul = "ball_off_table"  # G24.3
    if foul is not None:
        st["to_spot"] = pa + pb + off  # G22.3, G24.4
        _foul(st, p, PLAY_OPTIONS, "shot")
    else:
        st["to_spot"] = 0
        if pa or pb:
            _pot(st, p, pa, pb)
        else:
            st["turn"] = OTHER[p]
    _settle(st, p)


FOUL_AWAITING = frozenset({"break", "shot", "choice"})


def on_foul(st: State, ev: Event) -> None:
    p, options, after = foul_outside_stroke(st, ev, FOUL_KEYS, FOUL_AWAITING, PLAY_OPTIONS)
    st["to_spot"] = 0
    _foul(st, p, options, after)


def on_penalty_removal(st: State, ev: Event) -> None:
    check_keys(ev, REMOVAL_KEYS)
    p = get_player(ev)
    c = get_choice(ev, "colour", PLAYERS)
    expect(st, "penalty_removal", "penalty_removal")
    expect_turn(st, p)
    table = st["table"]
    if table[c] < 1:
        raise too_many(1, table[c], c)
    st["to_spot"] = 0
    minus = st["minus"]
    if c == p and minus[p]:
        # Reading: a ball the trailer puts into a pocket himself counts as pocketed by him.
        minus[p] -= 1
        st["to_spot"] = 1
    else:
        table[c] -= 1
        st["balls_on_table"] -= 1
    st["awaiting"] = "choice"
    _settle(st, p)


def on_choice(st: State, ev: Event) -> None:
    # G12.2 with its note: on a new break the balls left after the removal are racked again.
    apply_break_choice(st, ev)
    end_visits(st)


def on_choose_breaker(st: State, ev: Event) -> None:
    check_keys(ev, BREAKER_KEYS)
    p = get_player(ev)
    breaker = get_player(ev, "breaker")
    expect(st, "choose_breaker", "choose_breaker")
    expect_turn(st, p)
    st["breaker"] = breaker
    st["turn"] = breaker
    st["awaiting"] = "break"
    st["to_spot"] = 0


def on_time_expired(st: State, ev: Event) -> None:
    # Duplex has no time-limit rule; the clock only shows the time.
    check_keys(ev, TIME_KEYS)
    raise unexpected("time_expired", st["awaiting"])


HANDLERS: dict[str, Handler] = {
    "break": on_break,
    "shot": on_shot,
    "foul": on_foul,
    "penalty_removal": on_penalty_removal,
    "choice": on_choice,
    "choose_breaker": on_choose_breaker,
    "time_expired": on_time_expired,
    "forfeit": forfeit,
    "lag": on_lag,
}
