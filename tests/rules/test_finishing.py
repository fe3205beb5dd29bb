"""Which values end the match: what the engine says, remembered per state."""

from __future__ import annotations

import random

import pytest

import rules
from rules import finishing as finishing_module
from rules import simulate
from tests.rules import samples

pytestmark = pytest.mark.usefixtures("made_up")


def _states(discipline: str | dict, seed: int) -> list[dict]:
    ruleset = discipline if isinstance(discipline, dict) else {"discipline": discipline}
    state = rules.initial_state(ruleset)
    out = []
    for event in simulate.random_game(ruleset, random.Random(seed), rare=0):
        out.append(state)
        state = rules.apply(state, event)
    return out


def _by_engine(state: dict, kind: rules.EventKind) -> list[dict[str, int]]:
    return finishing_module._tried(
        state, kind, [range(f["min"] or 0, (f["max"] or 0) + 1) for f in kind["fields"]]
    )


@pytest.mark.parametrize("ruleset", samples.sample_rulesets())
def test_the_values_are_those_the_engine_finishes_the_match_with(ruleset: dict) -> None:
    """Every discipline's sample rulesets: what finishing_values says (the discipline's
    may_finish bound included) is what the engine does, value by value."""
    seen_finishing = 0
    tried_any = False  # a kind of numbered balls (classic pyramid) is not tried, as a choice
    for seed in range(2):
        for state in _states(ruleset, seed):
            for kind in rules.entry(state)["kinds"]:
                values = rules.finishing_values(state, [kind])[0]
                tried_any = tried_any or finishing_module._ranges(kind) is not None
                for v in values:
                    assert rules.apply(state, rules.build_event(kind, v))["finished"]
                if values or all(f["kind"] == "count" for f in kind["fields"]):
                    tried = 1
                    for f in kind["fields"]:
                        tried *= (f["max"] or 0) - (f["min"] or 0) + 1
                    if tried <= finishing_module.MOST_TRIED:
                        assert values == _by_engine(state, kind)
                seen_finishing += bool(values)
    assert seen_finishing > 0 or not tried_any  # the last ball of each game was among them


def test_states_that_differ_only_in_their_records_share_one_answer() -> None:
    state = next(s for s in _states("free_pyramid", 1) if s["awaiting"] == "shot")
    kind = next(k for k in rules.entry(state)["kinds"] if k["key"] == "shot")
    first = rules.finishing_values(state, [kind])[0]
    other = {
        **state,
        "events": state["events"] + 7,
        "stats": rules.initial_state(state["ruleset"])["stats"],
    }
    assert rules.finishing_values(other, [kind])[0] == first
    first.append({"pocketed": 99})  # the answer is the caller's to change
    assert {"pocketed": 99} not in rules.finishing_values(state, [kind])[0]


def test_a_state_that_differs_in_what_a_rule_reads_is_worked_out_anew() -> None:
    state = next(s for s in _states("free_pyramid", 2) if s["awaiting"] == "shot")
    target = state["ruleset"]["balls_to_win"]
    kind = next(k for k in rules.entry(state)["kinds"] if k["key"] == "shot")
    p = state["turn"]
    near = {
        **state,
        "score": {**state["score"], p: target - 1},
        "debt": {**state["debt"], p: 0},
    }
    assert (
        rules.finishing_values(near, [kind])[0] != rules.finishing_values(state, [kind])[0]
        or state["score"][state["turn"]] == target - 1
    )
    assert {"pocketed": 1} in rules.finishing_values(near, [kind])[0]
