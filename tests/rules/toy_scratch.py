"""A second made-up discipline, registered only by tests: a race to N balls of one colour in
which a shot may put the cue ball in a pocket (a scratch): the shot's balls are spotted, the
opponent scores one and the turn passes.

It adds a field to the family's shot, `scratch` (``extra_event_fields``): the contract's shot
schema gains it while the discipline is registered, and its log says «биток в лузе» where the
family's sentence would say «промах». Written as a new discipline is (docs/architecture.md,
"Adding a discipline"): its engine and its class, here in one module (in the product
rules/<name>.py and rules/disciplines/<name>.py; what it shares with the first made-up race,
the race's key, words and table, it takes from there), and its words in the Russian
catalogue; the registry-driven tests play it from its sample rulesets (tests/rules/samples.py).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from rules import describe
from rules.common import (
    FORFEIT_KEYS,
    OTHER,
    PLAYERS,
    Event,
    State,
    check_keys,
    count_run,
    end_visits,
    expect,
    expect_turn,
    finish,
    forfeit,
    get_bool,
    get_count,
    get_player,
)
from rules.describe import Entry, count, kind
from rules.errors import too_many
from rules.words import Text, gettext_noop, player, text
from tests.rules import toy_discipline
from tests.rules.toy_discipline import MadeUpRace, race_key

NAME = "toy_scratch"
SHOT_KEYS = frozenset({"type", "player", "pocketed", "scratch"})
SCRATCH = gettext_noop("%(who)s: cue ball pocketed")


def initial_state(rs: dict[str, Any]) -> State:
    # The first made-up race's table and score, without its toss: a shoots first.
    return {**toy_discipline.initial_state(rs), "discipline": NAME, "awaiting": "shot"}


def _score(st: State, p: str, n: int) -> bool:
    """Add n to p's score; True when that wins the race."""
    st["score"][p] += n
    if st["score"][p] >= st["ruleset"]["balls_to_win"]:
        finish(st, p, "race")
        return True
    return False


def on_shot(st: State, ev: Event) -> None:
    check_keys(ev, SHOT_KEYS)
    p = get_player(ev)
    n = get_count(ev, "pocketed")
    scratch = get_bool(ev, "scratch") if "scratch" in ev else False
    expect(st, "shot", "shot")
    expect_turn(st, p)
    if n > st["balls_on_table"]:
        raise too_many(n, st["balls_on_table"])
    st["to_spot"] = 0
    if scratch:
        st["stats"][p]["fouls"] += 1
        st["to_spot"] = n
        if _score(st, OTHER[p], 1):
            return
        st["turn"] = OTHER[p]
    elif n:
        count_run(st, p, n)
        st["balls_on_table"] -= n
        if _score(st, p, n):
            return
    else:
        st["turn"] = OTHER[p]
    end_visits(st)


class ToyScratch(MadeUpRace):
    name = NAME
    label = gettext_noop("Toy scratch race")
    diploma_phrase = gettext_noop("in the toy scratch race")
    ruleset_keys = (race_key(6),)
    handlers = {"shot": on_shot, "forfeit": forfeit}
    event_keys = {"shot": SHOT_KEYS, "forfeit": FORFEIT_KEYS}
    extra_event_fields = {
        "shot": {
            "scratch": {
                "type": "boolean",
                "description": "Toy scratch race: the cue ball fell into a pocket.",
            }
        }
    }
    awaiting = ("shot",)
    in_force = {**MadeUpRace.in_force, "penalty": ("point_to_opponent", "toy")}

    def initial_state(self, ruleset: dict[str, Any]) -> State:
        return initial_state(ruleset)

    def sample_rulesets(self) -> dict[str, dict[str, Any]]:
        return {
            "defaults": {"discipline": self.name},
            "race-to-2": {"discipline": self.name, "balls_to_win": 2},
        }

    def describe_event(self, event: Mapping[str, Any], ruleset: Mapping[str, Any]) -> Text:
        if event.get("type") == "shot" and event.get("scratch"):
            return text(SCRATCH, who=player(str(event.get("player"))))
        return super().describe_event(event, ruleset)

    def entry(self, state: dict[str, Any]) -> Entry:
        if state.get("finished"):
            return {"awaiting": None, "player": None, "prompt": None, "kinds": []}
        p = state.get("turn")
        n = state["balls_on_table"]
        kinds = [
            kind(
                "shot",
                "shot",
                text(gettext_noop("Record the shot")),
                player_slot=p,
                fields=[count("pocketed", n)],
            ),
            kind(
                "scratch",
                "shot",
                text(gettext_noop("Cue ball pocketed")),
                player_slot=p,
                fixed={"scratch": True},
                fields=[count("pocketed", n)],
            ),
            describe.forfeit_kind(),
        ]
        return {"awaiting": "shot", "player": p, "prompt": None, "kinds": kinds}

    def random_event(
        self, state: State, rng: random.Random, skill: float, rare: float
    ) -> dict[str, Any]:
        p = state["turn"]
        if rng.random() < 0.002 * rare:
            return {"type": "forfeit", "player": rng.choice(PLAYERS)}
        n = state["balls_on_table"]
        pocketed = min(n, 1 + (rng.random() < 0.2)) if rng.random() < skill else 0
        if rng.random() < 0.1:
            return {"type": "shot", "player": p, "pocketed": pocketed, "scratch": True}
        return {"type": "shot", "player": p, "pocketed": pocketed}
