"""The turn rules (Discipline.turn_rules) the referee form follows offline agree with the
engine: over random games of every real discipline, whenever an event leaves the frame and
rack as they were, the player the rules name is the engine's `turn`."""

from __future__ import annotations

import random
from typing import Any

import pytest

import rules
from rules import registry
from rules.simulate import random_event
from tests.rules import samples


def _total(value: Any) -> int:
    if isinstance(value, list):  # numbered balls (classic pyramid): how many
        return len(value)
    if isinstance(value, dict):
        return sum(v for v in value.values() if isinstance(v, int))
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def follow(turn_rules: list[dict[str, Any]], ev: dict[str, Any]) -> tuple[str, str] | None:
    """What the form does (static/js/referee/main.js, followTurn), in Python."""
    for rule in turn_rules:
        if rule["type"] != ev.get("type"):
            continue
        if any(ev.get(k) != v for k, v in rule.get("when", {}).items()):
            continue
        if "sum" in rule and sum(_total(ev.get(k)) for k in rule["sum"]) < rule["min"]:
            continue
        if any(ev.get(k) is None for k in rule.get("set", [])):
            continue
        nxt = rule["next"]
        player = ev.get("player")
        if nxt.startswith("field:"):
            return ev[nxt[6:]], rule["then"]
        return (player if nxt == "same" else {"a": "b", "b": "a"}[player]), rule["then"]
    return None


REAL = [rs for rs in samples.sample_list() if registry.find(rs["discipline"]) is not None]


@pytest.mark.parametrize("rs", REAL)
def test_the_turn_rules_name_the_player_the_engine_gives_the_table(rs: dict[str, Any]) -> None:
    d = rules.discipline(rs["discipline"])
    turn_rules = d.turn_rules(rules.validate_ruleset(rs))
    checked = 0
    for seed in range(12):
        rng = random.Random(seed)
        state = rules.initial_state(rs)
        while not state["finished"]:
            ev = random_event(state, rng, 0.4, 0.0)
            new = rules.apply(state, ev)
            same_place = new.get("frame") == state.get("frame") and new.get("rack", 0) == state.get(
                "rack", 0
            )
            if new["finished"] or not same_place or new["awaiting"] in ("rerack", "choose_breaker"):
                state = new
                continue
            predicted = follow(turn_rules, ev)
            assert predicted is not None, ev
            assert predicted[0] == new["turn"], (ev, state["awaiting"], new["awaiting"])
            if new["awaiting"] in ("shot", "choice", "penalty_removal") and ev["type"] != "foul":
                assert predicted[1] == new["awaiting"], (ev, state["awaiting"])
            checked += 1
            state = new
    assert checked > 100
