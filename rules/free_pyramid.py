"""Free pyramid: the general rules (G) with the tournament regulation (R).

Handlers validate the whole event first, then mutate the state in place; replay() runs them
on one working state, apply() on a copy.
"""

from __future__ import annotations

from typing import Any

from rules.common import (
    BREAK_OPTIONS,
    FIRST_BREAK_LABELS,
    FRAMES_CREDIT_KEY,
    OTHER,
    Event,
    Handler,
    State,
    apply_break_choice,
    await_choice,
    check_head_start,
    check_keys,
    clear_choice,
    count_run,
    credited_frames,
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
from rules.errors import too_many, unexpected
from rules.fouls import SHOT_FOUL_CODES
from rules.words import gettext_noop

FULL_TABLE = 16

BREAK_KEYS = frozenset({"type", "player", "legal", "pocketed"})
SHOT_KEYS = frozenset({"type", "player", "pocketed", "fools", "off_table", "foul"})
FOUL_KEYS = frozenset({"type", "player", "foul"})
OPTION_KEYS = frozenset({"type", "player", "option"})
TIME_KEYS = frozenset({"type"})

PLAY_OPTIONS = ("play", "hand_back")  # G6, R (fools)
RERACK_OPTIONS = ("full", "partial", "play_on")  # R continuation options 1-3

# The ruleset keys (defaults = the tournament regulation R); rules/rulesets.py validates them.
RULESET_KEYS: tuple[dict[str, Any], ...] = (
    {
        "key": "balls_to_win",
        "label": gettext_noop("Balls to win a frame"),
        "stage": True,
        "type": "int",
        "default": 30,
        "min": 1,
        "max": 200,
        "help": "Points that win a frame (30 in the regulation R, 8 in a classic frame).",
    },
    {
        "key": "frames_to_win",
        "label": gettext_noop("Frames to win the match"),
        "stage": True,
        "type": "int",
        "default": 1,
        "min": 1,
        "max": 25,
        "help": "Frames that win the match; frames are broken alternately (G13).",
    },
    {
        "key": "continuation",
        "label": gettext_noop("With continuation"),
        "type": "bool",
        "default": True,
        "help": "R 'with continuation': re-rack when 2 or fewer balls are left.",
    },
    {
        "key": "head_start",
        "label": gettext_noop("Head start"),
        "type": "per_player_int",
        "default": {"a": 0, "b": 0},
        "min": 0,
        "max": 199,
        "help": "Handicap points each player has at the start of every frame (R); "
        "each must be less than balls_to_win.",
    },
    {
        "key": "penalty",
        "label": gettext_noop("Penalty for a foul"),
        "type": "choice",
        "default": "shelf_to_table",
        "choices": ["shelf_to_table", "opponent_takes"],
        "choice_labels": {
            "shelf_to_table": gettext_noop("A ball from the shelf to the table"),
            "opponent_takes": gettext_noop("The opponent takes a ball"),
        },
        "help": "shelf_to_table (R): a ball goes from the offender's shelf to the table, "
        "or becomes a debt; opponent_takes: the opponent takes a ball from the table (+1).",
    },
    {
        "key": "direct_call",
        "label": gettext_noop("Only balls pocketed directly count"),
        "type": "bool",
        "default": True,
        "help": "R 'without fools': after the break only balls pocketed directly count.",
    },
    {
        "key": "strict_break",
        "label": gettext_noop("Strict break (regulation)"),
        "type": "bool",
        "default": True,
        "help": "R strict break criteria (true) or G12.1 criteria (false) for a legal break; "
        "either way a failed break is a foul with the G12.2 options.",
    },
    {
        "key": "first_break",
        "label": gettext_noop("First break"),
        "type": "choice",
        "default": "a",
        "choices": ["a", "b"],
        "choice_labels": FIRST_BREAK_LABELS,
        "help": "Who breaks frame 1; frames alternate (G13).",
    },
    FRAMES_CREDIT_KEY,
)


def check_ruleset(rs: dict[str, Any]) -> None:
    """A head start is below the race: a player must still have a ball to pocket."""
    check_head_start(rs)


def initial_state(rs: dict[str, Any]) -> State:
    first = rs["first_break"]
    head = rs["head_start"]
    frames = credited_frames(rs)
    return {
        "discipline": "free_pyramid",
        "ruleset": rs,
        "events": 0,
        "finished": False,
        "winner": None,
        "end_reason": None,
        "turn": first,
        "awaiting": "break",
        "to_spot": 0,
        "options": [],
        "score": {"a": head["a"], "b": head["b"]},
        "frames": frames,  # a credited frame counts as won (the ruleset's frames_credit)
        "frame": 1 + frames["a"] + frames["b"],
        "rack": 1,
        "balls_on_table": FULL_TABLE,
        "debt": {"a": 0, "b": 0},
        "shelf": {"a": 0, "b": 0},
        "last_penalty": None,
        "golden_ball": False,
        "time_expired": False,
        "breaker": first,
        "first_breaker": first,
        "lag": None,
        "offender": None,
        "after_choice": None,
        "play_on": None,
        "stats": new_stats(),
    }


# --- effects -----------------------------------------------------------------------------


def _pot(st: State, p: str, n: int) -> None:
    """n balls legally pocketed by p (n > 0): debt first (spotted back), then points."""
    debt = st["debt"]
    owed = debt[p]
    repaid = owed if owed < n else n
    if repaid:
        debt[p] = owed - repaid
        st["to_spot"] += repaid
    st["balls_on_table"] -= n - repaid
    st["shelf"][p] += n - repaid
    st["score"][p] += n - repaid
    count_run(st, p, n)
    if st["golden_ball"]:
        # R: after time, on equal scores the first pocketed ball decides (a break too).
        finish(st, p, "golden_ball")


def _penalty(st: State, offender: str, options: tuple[str, ...], after: str) -> None:
    """One penalty (G29.2) for one foul, then the non-offender's choice (G6, G12.2)."""
    st["stats"][offender]["fouls"] += 1
    q = OTHER[offender]
    shelf = st["shelf"]
    if st["ruleset"]["penalty"] == "shelf_to_table":
        # Only a ball he pocketed in this rack is on his shelf: a head start is a credit on
        # the scoreboard (R «начисление шаров»), and a re-rack took the shelves' balls.
        if shelf[offender] >= 1 and st["balls_on_table"] < FULL_TABLE:
            shelf[offender] -= 1
            st["score"][offender] -= 1
            st["balls_on_table"] += 1
            st["to_spot"] += 1
            st["last_penalty"] = {"offender": offender, "effect": "shelf_to_table"}
        else:
            # No ball of his on the shelf: the ball is owed (written, not spotted).
            st["debt"][offender] += 1
            st["last_penalty"] = {"offender": offender, "effect": "debt"}
    else:
        st["score"][q] += 1
        if st["balls_on_table"]:
            st["balls_on_table"] -= 1
            shelf[q] += 1
        st["last_penalty"] = {"offender": offender, "effect": "opponent_takes"}
    if st["golden_ball"]:
        # The penalty breaks the tie: the non-offender now has more balls (R time limit).
        finish(st, q, "golden_ball")
        return
    await_choice(st, offender, options, after)


def _new_rack(st: State) -> None:
    """1 or 0 balls left: the pyramid is set again; the player to act breaks (R option 3)."""
    st["balls_on_table"] = FULL_TABLE
    st["shelf"] = {"a": 0, "b": 0}  # the pyramid is set from the shelves' balls
    st["rack"] += 1
    st["to_spot"] = 0
    st["play_on"] = None
    if st["awaiting"] == "choice":
        # The choice decides who breaks the new rack; a rebreak would be the same thing.
        st["after_choice"] = "break"
        st["options"] = list(PLAY_OPTIONS)
    else:
        st["awaiting"] = "break"


def _frame_won(st: State, w: str) -> None:
    rs = st["ruleset"]
    frames = st["frames"]
    frames[w] += 1
    if frames[w] >= rs["frames_to_win"]:
        finish(st, w, "frames")
        return
    breaker = OTHER[st["breaker"]]  # G13: frames are broken alternately
    head = rs["head_start"]
    st["frame"] += 1
    st["rack"] = 1
    st["balls_on_table"] = FULL_TABLE
    st["shelf"] = {"a": 0, "b": 0}
    st["score"] = {"a": head["a"], "b": head["b"]}
    st["debt"] = {"a": 0, "b": 0}
    st["breaker"] = breaker
    st["turn"] = breaker
    st["awaiting"] = "break"
    st["to_spot"] = 0
    st["play_on"] = None
    clear_choice(st)
    for s in st["stats"].values():
        s["current_run"] = 0


def _settle(st: State) -> None:
    """After a ball-moving event: frame end, new rack, the continuation question."""
    if st["finished"]:
        return
    rs = st["ruleset"]
    score = st["score"]
    target = rs["balls_to_win"]
    if score["a"] >= target:
        _frame_won(st, "a")
        return
    if score["b"] >= target:
        _frame_won(st, "b")
        return
    n = st["balls_on_table"]
    if n <= 1:
        if not rs["continuation"]:
            debt = st["debt"]
            ea = score["a"] - debt["a"]
            eb = score["b"] - debt["b"]
            if ea != eb:
                _frame_won(st, "a" if ea > eb else "b")
                return
        _new_rack(st)
        n = FULL_TABLE
    turn = st["turn"]
    play_on = st["play_on"]
    if n == 2 and rs["continuation"] and st["awaiting"] == "shot" and play_on != turn:
        st["awaiting"] = "rerack"
        st["options"] = list(RERACK_OPTIONS)
    if play_on is not None and (play_on != turn or n != 2):
        st["play_on"] = None
    end_visits(st)


# --- events ------------------------------------------------------------------------------


def on_break(st: State, ev: Event) -> None:
    check_keys(ev, BREAK_KEYS)
    p = get_player(ev)
    legal = get_bool(ev, "legal")
    n = get_count(ev, "pocketed")
    expect(st, "break", "break")
    expect_turn(st, p)
    if n > st["balls_on_table"]:
        raise too_many(n, st["balls_on_table"])
    st["last_penalty"] = None
    if legal:
        # R strict break: after contact with the pyramid every pocketed ball counts.
        st["to_spot"] = 0
        st["awaiting"] = "shot"
        if n:
            _pot(st, p, n)
        else:
            st["turn"] = OTHER[p]
    else:
        st["to_spot"] = n  # G22.3: balls pocketed on a foul are spotted
        _penalty(st, p, BREAK_OPTIONS, "shot")  # G12.1, G29.1 (7)
    _settle(st)


def on_shot(st: State, ev: Event) -> None:
    check_keys(ev, SHOT_KEYS)
    p = get_player(ev)
    pocketed = get_count(ev, "pocketed")
    fools = get_count(ev, "fools")
    off = get_count(ev, "off_table")
    foul = get_foul(ev, SHOT_FOUL_CODES, required=False)
    expect(st, "shot", "shot")
    expect_turn(st, p)
    total = pocketed + fools + off
    if total > st["balls_on_table"]:
        raise too_many(total, st["balls_on_table"])
    st["last_penalty"] = None
    if foul is None and off:
        foul = "ball_off_table"  # G24.3
    if foul is not None:
        st["to_spot"] = total  # G22.3, G24.4: nothing counts, everything is spotted
        _penalty(st, p, PLAY_OPTIONS, "shot")
    else:
        if st["ruleset"]["direct_call"]:
            st["to_spot"] = fools  # R: a fool is spotted, a legal ball beside it counts
            legal = pocketed
        else:
            st["to_spot"] = 0
            legal = pocketed + fools
        if legal:
            _pot(st, p, legal)
        elif fools:
            # R: a fool alone passes the turn; the opponent takes the table or hands it back.
            await_choice(st, p, PLAY_OPTIONS, "shot")
        else:
            st["turn"] = OTHER[p]
    _settle(st)


FOUL_AWAITING = frozenset({"break", "shot", "choice", "rerack"})


def on_foul(st: State, ev: Event) -> None:
    p, options, after = foul_outside_stroke(st, ev, FOUL_KEYS, FOUL_AWAITING, PLAY_OPTIONS)
    st["to_spot"] = 0
    st["last_penalty"] = None
    _penalty(st, p, options, after)
    _settle(st)


def on_choice(st: State, ev: Event) -> None:
    # G12.2 (3), (4): on a new break the balls on the table are racked again (an incomplete
    # pyramid if a penalty ball was taken, G12.2 note); same rack, same scores.
    apply_break_choice(st, ev)
    st["last_penalty"] = None
    _settle(st)


def on_rerack(st: State, ev: Event) -> None:
    check_keys(ev, OPTION_KEYS)
    p = get_player(ev)
    option = get_choice(ev, "option", RERACK_OPTIONS)
    expect(st, "rerack", "rerack")
    expect_turn(st, p)
    st["options"] = []
    st["to_spot"] = 0
    st["last_penalty"] = None
    if option == "play_on":
        st["play_on"] = p
        st["awaiting"] = "shot"
    else:
        st["balls_on_table"] = FULL_TABLE
        st["shelf"] = {"a": 0, "b": 0}  # the pyramid, full or not, is set from the shelves
        st["rack"] += 1
        st["awaiting"] = "break" if option == "full" else "shot"
    _settle(st)


def on_time_expired(st: State, ev: Event) -> None:
    check_keys(ev, TIME_KEYS)
    if st["time_expired"]:
        raise unexpected("time_expired", st["awaiting"])
    st["time_expired"] = True
    st["last_penalty"] = None
    frames = st["frames"]
    if frames["a"] != frames["b"]:
        finish(st, "a" if frames["a"] > frames["b"] else "b", "time")
        return
    # Debt is a penalty not yet paid: the balls a player really has are score - debt.
    score = st["score"]
    debt = st["debt"]
    ea = score["a"] - debt["a"]
    eb = score["b"] - debt["b"]
    if ea != eb:
        finish(st, "a" if ea > eb else "b", "time")
    else:
        st["golden_ball"] = True


HANDLERS: dict[str, Handler] = {
    "break": on_break,
    "shot": on_shot,
    "foul": on_foul,
    "choice": on_choice,
    "rerack": on_rerack,
    "time_expired": on_time_expired,
    "forfeit": forfeit,
    "lag": on_lag,
}
