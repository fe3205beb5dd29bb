"""Combined pyramid («Комбинированная», Московская; design/rules-engine.md §6.1), and the rules
dynamic pyramid shares with it (§6.2; rules/dynamic_pyramid.py passes its premium shot).

15 white object balls and the coloured cue ball (K2), first to 8 (K1). Every ball pocketed on a
legal stroke counts (K5.3) unless the house plays «прямой заказ» (`direct_call`: fools are
spotted as in free pyramid). A pocketed cue ball is a «свояк» (K5.1-5.2): one more point, an
object ball of the striker's choice off the table, and a premium shot from hand. A foul gives
the opponent a point and a ball of his choice (K6-K7), and a penalty shot from hand from the
house if the cue ball fell or left the table.
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
    await_choice,
    check_head_start,
    check_keys,
    count_run,
    expect,
    expect_turn,
    finish,
    forfeit,
    get_bool,
    get_count,
    get_player,
    on_lag,
)
from rules.errors import invalid_event, too_many
from rules.pyramid_games import (
    FIRST_BREAK_KEY,
    FRAMES_TO_WIN_KEY,
    IN_HAND_ANYWHERE,
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

FULL_TABLE = 15  # K2

BREAK_KEYS = frozenset({"type", "player", "legal", "pocketed", "cue_ball"})
SHOT_KEYS = frozenset({"type", "player", "pocketed", "fools", "off_table", "foul", "cue_ball"})


def ruleset_keys(balls_help: str) -> tuple[dict[str, Any], ...]:
    """The keys of combined pyramid (and dynamic pyramid, which has the same ones)."""
    return (
        {
            "key": "balls_to_win",
            "label": gettext_noop("Points to win a frame"),
            "stage": True,
            "type": "int",
            "default": 8,
            "min": 1,
            # 15 balls: a player reaches 8 before the table is empty, never more.
            "max": 8,
            "help": balls_help,
        },
        FRAMES_TO_WIN_KEY,
        {
            "key": "head_start",
            "label": gettext_noop("Head start"),
            "type": "per_player_int",
            "default": {"a": 0, "b": 0},
            "min": 0,
            "max": 7,
            "help": "Handicap points each player has at the start of every frame; each must be "
            "less than balls_to_win.",
        },
        FIRST_BREAK_KEY,
        {
            "key": "direct_call",
            "label": gettext_noop("Direct call (house rule): fools do not count"),
            "type": "bool",
            "default": False,
            "help": "The house rule of direct call (pryamoy zakaz): only balls pocketed directly count; a ball "
            "that falls otherwise is a fool, spotted as in free pyramid. Official: false (K5.3).",
        },
        {
            "key": "svoyak_taken_by",
            "label": gettext_noop("Who takes a ball off after a «svoyak»"),
            "type": "choice",
            "default": "striker",
            "choices": ["striker", "opponent"],
            "choice_labels": {
                "striker": gettext_noop("The striker (official)"),
                "opponent": gettext_noop("The opponent (house rule)"),
            },
            "help": "K5.2: the striker takes an object ball of his choice off the table; the "
            "house rule lets the opponent pick it. The point is the striker's either way.",
        },
        FRAMES_CREDIT_KEY,
    )


RULESET_KEYS = ruleset_keys("Points that win a frame (8, K1).")


def check_ruleset(rs: dict[str, Any]) -> None:
    """A head start below the race: a player must still have a ball to pocket."""
    check_head_start(rs)


def initial_state(name: str, rs: dict[str, Any]) -> State:
    head = rs["head_start"]
    st = common_state(name, rs, {"a": head["a"], "b": head["b"]})
    st["balls_on_table"] = FULL_TABLE
    return st


# --- effects -----------------------------------------------------------------------------


def _penalty(st: State, offender: str) -> None:
    """K6-K7: the opponent scores 1 and takes a ball of his choice off the table (after the
    spotting, which the count already holds)."""
    st["score"][OTHER[offender]] += 1
    if st["balls_on_table"]:
        st["balls_on_table"] -= 1


def _reset(st: State) -> None:
    head = st["ruleset"]["head_start"]
    st["score"] = {"a": head["a"], "b": head["b"]}
    st["balls_on_table"] = FULL_TABLE
    st["to_spot"] = 0


def _rerack(st: State) -> None:
    st["balls_on_table"] = FULL_TABLE


def _settle(st: State) -> None:
    """After a ball-moving event: the frame at `balls_to_win` (a table emptied with nobody
    there is impossible with the race at most 8)."""
    settle_frame(st, "balls_to_win", _reset, _rerack)


def _score(st: State, p: str, balls: int, svoyak: bool, premium: str) -> None:
    """Legal balls score 1 each and leave the table (K6); a «свояк» scores 1 more and an object
    ball of the striker's choice leaves the table (K5.2; §6.5 (6): the point even with none
    left), and the striker plays on from hand. Anything scored: he continues (§6.1 step 3)."""
    points = balls + (1 if svoyak else 0)
    taken = points if points <= st["balls_on_table"] else st["balls_on_table"]
    st["cue_ball"] = premium if svoyak else ON_TABLE
    if not points:
        st["turn"] = OTHER[p]
        return
    st["balls_on_table"] -= taken
    st["score"][p] += points
    count_run(st, p, points)
    if st["golden_ball"]:
        finish(st, p, "golden_ball")  # R: after time, the first point on equal scores wins


def _foul(st: State, p: str, spotted: int, cue_left: bool, options: tuple[str, ...]) -> None:
    """§6.1 step 1: nothing counts, the balls are spotted, the opponent takes a ball and plays
    from hand from the house if the cue ball fell or left the table (K7, G21)."""
    st["to_spot"] = spotted
    st["cue_ball"] = IN_HAND_HOUSE if cue_left else ON_TABLE
    open_choice(st, _penalty, p, options, "shot")


def _unnamed_foul(st: State, off: int, cue: str) -> str | None:
    """The foul a shot is though the referee named none."""
    if off or cue == OFF_TABLE:
        return "ball_off_table"  # G24.3
    if cue == POCKETED and st["cue_ball"] == IN_HAND_ANYWHERE:
        return "cue_ball_pocketed"  # N5.2: only object balls on the premium shot
    return None


def _fool_alone(st: State, p: str) -> None:
    """A fool alone passes the turn; the opponent takes the table or hands it back."""
    st["cue_ball"] = ON_TABLE
    await_choice(st, p, PLAY_OPTIONS, "shot")


def make_handlers(premium: str) -> dict[str, Handler]:
    """The handlers of a game whose premium shot after a «свояк» is played from ``premium``:
    the house in combined pyramid (K5.2), anywhere in dynamic pyramid (N5.2)."""

    def on_break(st: State, ev: Event) -> None:
        check_keys(ev, BREAK_KEYS)
        p = get_player(ev)
        legal = get_bool(ev, "legal")
        n = get_count(ev, "pocketed")
        cue = get_cue_ball(ev)
        expect(st, "break", "break")
        expect_turn(st, p)
        if n > st["balls_on_table"]:
            raise too_many(n, st["balls_on_table"])
        if not legal:
            _foul(st, p, n, cue != STAYED, BREAK_OPTIONS)  # G12.1, G12.2
        elif cue == OFF_TABLE:
            _foul(st, p, n, True, PLAY_OPTIONS)  # G24.3, §6.5 (3)
        else:
            st["to_spot"] = 0
            st["awaiting"] = "shot"
            _score(st, p, n, cue == POCKETED, premium)  # every ball counts on a legal break
        _settle(st)

    def on_shot(st: State, ev: Event) -> None:
        check_keys(ev, SHOT_KEYS)
        p = get_player(ev)
        pocketed = get_count(ev, "pocketed")
        fools = get_count(ev, "fools")
        off = get_count(ev, "off_table")
        foul = get_shot_foul(ev)
        cue = get_cue_ball(ev)
        direct = st["ruleset"]["direct_call"]
        if "fools" in ev and not direct:
            raise invalid_event("fools", "unknown_key")  # K5.3: no call, no fools
        expect(st, "shot", "shot")
        expect_turn(st, p)
        total = pocketed + fools + off
        if total > st["balls_on_table"]:
            raise too_many(total, st["balls_on_table"])
        check_cue_foul(st, foul, cue_ball_foul_anywhere=False)
        if foul is None:
            foul = _unnamed_foul(st, off, cue)
        if foul is not None:
            cue_left = cue != STAYED or foul == "cue_ball_pocketed"
            _foul(st, p, total, cue_left, PLAY_OPTIONS)
        else:
            st["to_spot"] = fools  # «прямой заказ»: a fool is spotted
            svoyak = cue == POCKETED
            if pocketed or svoyak or not fools:
                _score(st, p, pocketed, svoyak, premium)
            else:
                _fool_alone(st, p)
        _settle(st)

    def reset_spot(st: State) -> None:
        st["to_spot"] = 0

    foul_handler = make_foul_handler(_penalty, reset_spot)

    def on_foul(st: State, ev: Event) -> None:
        foul_handler(st, ev)
        _settle(st)

    def on_time(st: State, ev: Event) -> None:
        time_expired(st, ev, lambda s, p: s["score"][p])

    return {
        "break": on_break,
        "shot": on_shot,
        "foul": on_foul,
        "choice": on_choice,
        "time_expired": on_time,
        "forfeit": forfeit,
        "lag": on_lag,
    }


HANDLERS = make_handlers(IN_HAND_HOUSE)

__all__ = ["HANDLERS", "RULESET_KEYS", "initial_state"]
