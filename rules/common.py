"""Helpers shared by the disciplines: event field checks and state bookkeeping.

Event checks only read the event; they raise before a handler touches the state, which is
what keeps an invalid event from changing anything.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from rules.errors import RuleError, invalid_event, invalid_ruleset, out_of_turn, short, unexpected
from rules.fouls import FOUL_EVENT_CODES
from rules.words import gettext_noop

State = dict[str, Any]
Event = dict[Any, Any]
Handler = Callable[[State, Event], None]

OTHER = {"a": "b", "b": "a"}
PLAYERS = ("a", "b")
# A ruleset's choice of a player slot ("first_break") in words.
FIRST_BREAK_LABELS = {"a": gettext_noop("First player"), "b": gettext_noop("Second player")}


# Frames each player has already won when the match begins (a race of frames only): a
# lateness penalty credits the late player's opponent a frame («опоздание — минус партия»).
# It lives in the ruleset, not in the log, so an undo or a replay keeps it. Luza's extension of
# the shared contract (docs/rules-engine.md, "Frames credited before the match").
FRAMES_CREDIT_KEY: dict[str, Any] = {
    "key": "frames_credit",
    "label": gettext_noop("Frames credited before the match"),
    "type": "per_player_int",
    "default": {"a": 0, "b": 0},
    "min": 0,
    "max": 24,
    "help": "Frames each player has already won when the match begins (a lateness penalty "
    "credits the opponent); each must be less than frames_to_win. Luza's extension.",
}


def credited_frames(rs: dict[str, Any]) -> dict[str, int]:
    """The frames a match starts with (the ruleset's `frames_credit`; none without the key)."""
    credit = rs.get("frames_credit") or {}
    return {"a": credit.get("a", 0), "b": credit.get("b", 0)}


def check_frames_credit(rs: dict[str, Any]) -> None:
    """A credit below the race: a credited frame never decides the match before it is played,
    and a single-frame match has no frame to credit."""
    if "frames_credit" not in rs:
        return
    credit = rs["frames_credit"]
    race = rs.get("frames_to_win", 1)
    for p in PLAYERS:
        if credit[p] < race:
            continue
        if race == 1:
            message = (
                f"frames credit of {p} ({credit[p]}) is refused: a match of one frame has no "
                "frames to credit"
            )
        else:
            message = (
                f"frames credit of {p} ({credit[p]}) must be less than frames_to_win ({race}): "
                "a credit that reaches it would decide the match before it is played"
            )
        raise invalid_ruleset(f"frames_credit.{p}", "out_of_range", message, min=0, max=race - 1)


def check_keys(ev: Event, allowed: frozenset[str]) -> None:
    if not ev.keys() <= allowed:
        for key in ev:
            if key not in allowed:
                name = key[:40] if type(key) is str else short(key)
                raise invalid_event(name, "unknown_key")


def get_player(ev: Event, field: str = "player") -> str:
    if field not in ev:
        raise invalid_event(field, "missing")
    p = ev[field]
    if p != "a" and p != "b":
        raise invalid_event(field, "bad_value", value=p, allowed=list(PLAYERS))
    return "a" if p == "a" else "b"


# Larger counts are malformed rather than "too many balls": they cannot be shown in a message.
MAX_COUNT = 1_000_000


def check_count(field: str, n: object) -> int:
    """A non-negative count. bool is not a count."""
    if type(n) is not int:
        raise invalid_event(field, "wrong_type", value=n, expected="count")
    if n < 0:
        raise invalid_event(field, "negative", value=n)
    if n > MAX_COUNT:
        raise invalid_event(field, "too_large", value=n, maximum=MAX_COUNT)
    return n


def get_count(ev: Event, field: str) -> int:
    """An optional count; missing means 0."""
    return check_count(field, ev.get(field, 0))


def get_bool(ev: Event, field: str) -> bool:
    if field not in ev:
        raise invalid_event(field, "missing")
    v = ev[field]
    if type(v) is not bool:
        raise invalid_event(field, "wrong_type", value=v, expected="bool")
    return v


def get_choice(ev: Event, field: str, allowed: Collection[str]) -> str:
    """A required string from a fixed set (malformed otherwise)."""
    if field not in ev:
        raise invalid_event(field, "missing")
    v = ev[field]
    if type(v) is not str or v not in allowed:
        raise invalid_event(field, "bad_value", value=v, allowed=sorted(allowed))
    return v


def get_foul(ev: Event, allowed: frozenset[str], required: bool) -> str | None:
    code = ev.get("foul")
    if code is None:
        if required:
            raise invalid_event("foul", "missing")
        return None
    if type(code) is not str or code not in allowed:
        raise invalid_event("foul", "bad_value", value=code, allowed=sorted(allowed))
    return code


def expect(st: State, event_type: str, awaiting: str) -> None:
    if st["awaiting"] != awaiting:
        raise unexpected(event_type, st["awaiting"])


def expect_turn(st: State, player: str) -> None:
    if st["turn"] != player:
        raise out_of_turn(player, st["turn"])


def check_option(option: str, options: list[str]) -> None:
    if option not in options:
        raise invalid_event("option", "not_available", value=option, allowed=options)


def new_stats() -> dict[str, dict[str, int]]:
    return {p: {"pocketed": 0, "fouls": 0, "best_run": 0, "current_run": 0} for p in PLAYERS}


def count_run(st: State, player: str, n: int) -> None:
    s = st["stats"][player]
    s["pocketed"] += n
    run = s["current_run"] + n
    s["current_run"] = run
    if run > s["best_run"]:
        s["best_run"] = run


def end_visits(st: State) -> None:
    """A visit ends when the turn leaves the player: his current run starts again at 0."""
    turn = st["turn"]
    stats = st["stats"]
    for p in PLAYERS:
        if p != turn:
            stats[p]["current_run"] = 0


def clear_choice(st: State) -> None:
    st["options"] = []
    st["offender"] = None
    st["after_choice"] = None


def await_choice(
    st: State, offender: str, options: Collection[str], after: str, awaiting: str = "choice"
) -> None:
    """After a foul or a fool of ``offender`` the other player chooses among ``options`` (G6,
    G12.2; Duplex first removes a ball, ``awaiting`` "penalty_removal", D5.2); ``after`` is
    what the chosen play goes on with."""
    st["turn"] = OTHER[offender]
    st["awaiting"] = awaiting
    st["options"] = list(options)
    st["offender"] = offender
    st["after_choice"] = after


CHOICE_KEYS = frozenset({"type", "player", "option"})
BREAK_OPTIONS = ("play", "hand_back", "rebreak_self", "rebreak_opponent")  # G12.2


def apply_break_choice(st: State, ev: Event) -> None:
    """The non-offender's choice after a foul on the break (G12.2), common to the pyramids:
    play on, hand the table back, or rack again (the balls left) and break again. The caller
    then settles the visit its own way."""
    check_keys(ev, CHOICE_KEYS)
    p = get_player(ev)
    option = get_choice(ev, "option", BREAK_OPTIONS)
    expect(st, "choice", "choice")
    expect_turn(st, p)
    check_option(option, st["options"])
    offender = st["offender"]
    if option == "play":
        st["turn"] = p
        st["awaiting"] = st["after_choice"]
    elif option == "hand_back":
        st["turn"] = offender
        st["awaiting"] = st["after_choice"]
    else:
        st["turn"] = p if option == "rebreak_self" else offender
        st["awaiting"] = "break"
    clear_choice(st)
    st["to_spot"] = 0


def foul_outside_stroke(
    st: State,
    ev: Event,
    keys: frozenset[str],
    awaiting: frozenset[str],
    play_options: tuple[str, ...],
) -> tuple[str, tuple[str, ...], str]:
    """A foul event (G17, G26, G28) checked, before anything changes: its offender (who need
    not be the player to act, G28), the options the other player will choose from (a second
    foul of the same offender at the choice keeps the pending ones, a rebreak too) and what
    follows the choice (the break while the rack is unbroken). One penalty, whatever the foul;
    the caller pays it its own way."""
    check_keys(ev, keys)
    p = get_player(ev)
    get_foul(ev, FOUL_EVENT_CODES, required=True)
    now = st["awaiting"]
    if now not in awaiting:
        raise unexpected("foul", now)
    options = play_options
    if now == "choice" and st["offender"] == p:
        options = tuple(st["options"])
    if now == "break":
        after = "break"
    elif now == "choice":
        after = st["after_choice"]
    else:
        after = "shot"
    return p, options, after


def check_head_start(rs: dict[str, Any]) -> None:
    """A head start below the race (`balls_to_win`): a player must still have a ball to
    pocket."""
    head = rs["head_start"]
    for p in PLAYERS:
        if head[p] >= rs["balls_to_win"]:
            raise invalid_ruleset(
                f"head_start.{p}",
                "out_of_range",
                f"head start of {p} ({head[p]}) must be less than balls_to_win "
                f"({rs['balls_to_win']})",
                min=0,
                max=rs["balls_to_win"] - 1,
            )


LAG_KEYS = frozenset({"type", "winner", "breaker"})


def on_lag(st: State, ev: Event) -> None:
    """The lag (G7.1, G7.4; D4.1-4.2): who won it and who breaks frame 1 (the winner, or the
    other player if the winner gives the break). Only as the match's first event; it replaces
    the ruleset's `first_break` for every rule that asks who broke frame 1 (G13, D7.7)."""
    check_keys(ev, LAG_KEYS)
    winner = get_player(ev, "winner")
    breaker = get_player(ev, "breaker")
    if st["events"] != 0:
        raise unexpected("lag", st["awaiting"])
    st["lag"] = {"winner": winner, "breaker": breaker}
    st["first_breaker"] = breaker
    st["breaker"] = breaker
    st["turn"] = breaker


def finish(st: State, winner: str, reason: str) -> None:
    st["finished"] = True
    st["winner"] = winner
    st["end_reason"] = reason
    st["turn"] = None
    st["awaiting"] = None
    st["to_spot"] = 0
    clear_choice(st)


def forfeit(st: State, ev: Event) -> None:
    check_keys(ev, FORFEIT_KEYS)
    p = get_player(ev)
    finish(st, OTHER[p], "forfeit")


FORFEIT_KEYS = frozenset({"type", "player"})


def copy_state(obj: Any) -> Any:
    """Deep copy of a JSON-like value; much faster than copy.deepcopy."""
    if type(obj) is dict:
        # Scalars are most values: copy them without a call.
        return {
            k: copy_state(v) if type(v) is dict or type(v) is list else v for k, v in obj.items()
        }
    if type(obj) is list:
        return [copy_state(v) if type(v) is dict or type(v) is list else v for v in obj]
    return obj


def state_error(field: str) -> RuleError:
    return RuleError(
        "invalid_state",
        f"Not an engine state (bad or missing '{field}').",
        {"field": field},
    )
