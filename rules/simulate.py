"""Random legal games driven by ``awaiting``: for the benchmark and the property tests.

Not used by the engine itself. ``rng`` is any ``random.Random`` (Hypothesis' ``randoms()``
too), so a game is reproducible from its seed.
"""

from __future__ import annotations

import random
from typing import Any

from rules import registry
from rules.common import OTHER, PLAYERS, State
from rules.engine import _step, initial_state
from rules.fouls import FOUL_EVENT_CODES, SHOT_FOUL_CODES

_SHOT_FOULS = sorted(SHOT_FOUL_CODES)
_EVENT_FOULS = sorted(FOUL_EVENT_CODES)
_RERACK = ["full", "partial", "play_on"]


def _small(rng: random.Random, limit: int, weights: tuple[float, ...]) -> int:
    """A count from 0 with the given weights, capped at limit."""
    n = rng.choices(range(len(weights)), weights)[0]
    return n if n < limit else limit


def common_event(
    state: State, rng: random.Random, foul_awaiting: tuple[str, ...], rare: float
) -> Any:
    """Events any time: a foul outside a shot; rarely a forfeit or the clock (where the
    discipline has a time-limit rule). None: none of them this time."""
    r = rng.random()
    if r < 0.002 * rare:
        return {"type": "forfeit", "player": rng.choice(PLAYERS)}
    if (
        r < 0.005 * rare
        and registry.discipline(state["discipline"]).has_time_limit
        and not state.get("time_expired")
    ):
        return {"type": "time_expired"}
    if r > 0.975 and state["awaiting"] in foul_awaiting:
        return {"type": "foul", "player": rng.choice(PLAYERS), "foul": rng.choice(_EVENT_FOULS)}
    return None


def free_pyramid_event(
    state: State, rng: random.Random, skill: float, rare: float
) -> dict[str, Any]:
    ev = common_event(state, rng, ("break", "shot", "choice", "rerack"), rare)
    if ev is not None:
        return dict(ev)
    awaiting = state["awaiting"]
    p = state["turn"]
    n = state["balls_on_table"]
    if awaiting == "break":
        legal = rng.random() < 0.85
        return {
            "type": "break",
            "player": p,
            "legal": legal,
            "pocketed": _small(rng, n, (5, 3, 2, 1)),
        }
    if awaiting == "choice":
        return {"type": "choice", "player": p, "option": rng.choice(state["options"])}
    if awaiting == "rerack":
        return {"type": "rerack", "player": p, "option": rng.choice(_RERACK)}
    x = rng.random()
    if x < skill:
        pocketed = 1 + _small(rng, n - 1, (10, 1))
        shot: dict[str, Any] = {"type": "shot", "player": p, "pocketed": pocketed}
        if rng.random() < 0.08 and n > pocketed:
            shot["fools"] = 1
        return shot
    if x < skill + 0.06:
        return {"type": "shot", "player": p, "pocketed": 0, "fools": 1}
    if x < skill + 0.12:
        return {
            "type": "shot",
            "player": p,
            "pocketed": _small(rng, n, (3, 1)),
            "foul": rng.choice(_SHOT_FOULS),
        }
    if x < skill + 0.14:
        return {"type": "shot", "player": p, "pocketed": 0, "off_table": 1}
    return {"type": "shot", "player": p, "pocketed": 0, "fools": 0, "off_table": 0, "foul": None}


def _colours(rng: random.Random, table: dict[str, int], own: str, count: int) -> dict[str, int]:
    out = {"a": 0, "b": 0}
    for _ in range(count):
        c = own if rng.random() < 0.75 else OTHER[own]
        if table[c] - out[c] <= 0:
            c = OTHER[c]
        if table[c] - out[c] > 0:
            out[c] += 1
    return out


def duplex_event(state: State, rng: random.Random, skill: float, rare: float) -> dict[str, Any]:
    ev = common_event(state, rng, ("break", "shot", "choice"), rare)
    if ev is not None:
        return dict(ev)
    awaiting = state["awaiting"]
    p = state["turn"]
    table = state["table"]
    if awaiting == "break":
        return {
            "type": "break",
            "player": p,
            "legal": rng.random() < 0.85,
            "pocketed": _colours(rng, table, p, _small(rng, 3, (5, 3, 2))),
        }
    if awaiting == "choice":
        return {"type": "choice", "player": p, "option": rng.choice(state["options"])}
    if awaiting == "penalty_removal":
        colours = [c for c in PLAYERS if table[c] > 0]
        return {"type": "penalty_removal", "player": p, "colour": rng.choice(colours)}
    if awaiting == "choose_breaker":
        return {"type": "choose_breaker", "player": p, "breaker": rng.choice(PLAYERS)}
    x = rng.random()
    if x < skill:
        count = 1 + (1 if rng.random() < 0.1 else 0)
        return {"type": "shot", "player": p, "pocketed": _colours(rng, table, p, count)}
    if x < skill + 0.06:
        return {
            "type": "shot",
            "player": p,
            "pocketed": _colours(rng, table, p, _small(rng, 2, (3, 1))),
            "foul": rng.choice(_SHOT_FOULS),
        }
    if x < skill + 0.08:
        return {"type": "shot", "player": p, "pocketed": {}, "off_table": 1}
    return {"type": "shot", "player": p, "pocketed": {"a": 0, "b": 0}}


def random_event(
    state: State, rng: random.Random, skill: float = 0.35, rare: float = 1.0
) -> dict[str, Any]:
    """A plausible legal event for ``state`` (which must not be finished).

    ``skill`` is the chance that a shot pockets a ball; ``rare`` scales the chance of a
    forfeit or the clock running out (0 for none).
    """
    return registry.discipline(state["discipline"]).random_event(state, rng, skill, rare)


def random_game(
    ruleset: dict[str, Any],
    rng: random.Random,
    max_events: int = 5000,
    skill: float = 0.35,
    rare: float = 1.0,
) -> list[dict[str, Any]]:
    """Events of one random legal game, until it finishes or ``max_events``."""
    st = initial_state(ruleset)
    handlers = registry.discipline(st["discipline"]).handlers
    events: list[dict[str, Any]] = []
    while not st["finished"] and len(events) < max_events:
        ev = random_event(st, rng, skill, rare)
        _step(st, handlers, ev)
        events.append(ev)
    return events
