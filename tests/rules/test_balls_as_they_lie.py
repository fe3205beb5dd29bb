"""Balls as they lie (rules-engine §2.1 corrected): a head start is a credit on the scoreboard,
never balls on a shelf. For random free-pyramid games with head starts, every penalty mode and
with or without a lag, after every event: the balls on the table and on both shelves are the
16 of the rack; a penalty that finds no ball of the offender's on his shelf is a debt written,
never a ball; and nothing the table is told names a ball that does not exist."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

import rules
from rules.simulate import random_event
from tests.rules.helpers import hypothesis_settings

RACK = 16


def _fell(ev: dict[str, Any]) -> int:
    """Balls that fell or left the table on this event: the only balls it may spot, with the
    penalty ball from the offender's shelf."""
    total = 0
    for key in ("pocketed", "fools", "off_table"):
        value = ev.get(key, 0)
        total += value if isinstance(value, int) else 0
    return total


def _check(old: dict[str, Any], new: dict[str, Any], ev: dict[str, Any]) -> None:
    shelf, old_shelf = new["shelf"], old["shelf"]
    assert new["balls_on_table"] + shelf["a"] + shelf["b"] == RACK, (ev, new)
    assert min(shelf.values()) >= 0
    for p in ("a", "b"):
        # The head start is score, never a ball: a player's balls are at most his points.
        assert shelf[p] <= new["score"][p] - new["ruleset"]["head_start"][p]
    last = new["last_penalty"]
    penalty_ball = 0
    if last is not None:
        off = last["offender"]
        same_rack = new["rack"] == old["rack"] and new["frame"] == old["frame"]
        if last["effect"] == "shelf_to_table":
            penalty_ball = 1
            assert old_shelf[off] >= 1, "a ball from an empty shelf"
            if same_rack:
                assert new["debt"][off] == old["debt"][off]
        elif last["effect"] == "debt":
            # Written, never a ball: the offender had none of his own on the shelf.
            assert old_shelf[off] == 0 or old["balls_on_table"] == RACK
            if same_rack and not new["finished"]:
                assert new["debt"][off] == old["debt"][off] + 1
                assert new["score"][off] == old["score"][off]
                assert shelf[off] == old_shelf[off]
    else:
        if new["rack"] == old["rack"] and new["frame"] == old["frame"]:
            for p in ("a", "b"):
                assert new["debt"][p] <= old["debt"][p]
    # What the table is told: only balls that fell on this event, and the offender's own
    # penalty ball when there is one, are to be spotted.
    assert new["to_spot"] <= _fell(ev) + penalty_ball
    view = rules.state_view(new)
    assert (view["spotting"] is None) == (new["to_spot"] == 0)
    line = view["penalty"]
    if last is None:
        assert line is None
    else:
        assert line is not None
        msgid = line["msgid"]
        assert ("shelf of" in msgid) == (last["effect"] == "shelf_to_table")
        assert ("Debt" in msgid) == (last["effect"] == "debt")


@hypothesis_settings(examples=120)
@given(
    head_a=st.integers(0, 29),
    head_b=st.integers(0, 29),
    penalty=st.sampled_from(["shelf_to_table", "opponent_takes"]),
    continuation=st.booleans(),
    direct_call=st.booleans(),
    frames=st.integers(1, 2),
    lag=st.sampled_from([None, ("a", "a"), ("a", "b"), ("b", "b"), ("b", "a")]),
    seed=st.integers(0, 2**32),
    skill=st.floats(0.2, 0.7),
)
def test_table_and_shelves_hold_the_rack_and_debts_are_written_not_balls(
    head_a: int,
    head_b: int,
    penalty: str,
    continuation: bool,
    direct_call: bool,
    frames: int,
    lag: tuple[str, str] | None,
    seed: int,
    skill: float,
) -> None:
    rs = {
        "discipline": "free_pyramid",
        "balls_to_win": 30,
        "frames_to_win": frames,
        "continuation": continuation,
        "head_start": {"a": head_a, "b": head_b},
        "penalty": penalty,
        "direct_call": direct_call,
    }
    rng = random.Random(seed)
    state = rules.initial_state(rs)
    assert state["balls_on_table"] == RACK and state["shelf"] == {"a": 0, "b": 0}
    events: list[dict[str, Any]] = []
    if lag is not None:
        ev = {"type": "lag", "winner": lag[0], "breaker": lag[1]}
        state = rules.apply(state, ev)
        events.append(ev)
        assert state["turn"] == lag[1] == state["first_breaker"]
    while not state["finished"] and len(events) < 400:
        ev = random_event(state, rng, skill, 0.0)
        new = rules.apply(state, ev)
        _check(state, new, ev)
        state = new
        events.append(ev)
    assert rules.replay(rs, events) == state
