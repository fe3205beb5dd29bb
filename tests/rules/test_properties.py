"""Property tests: random legal games driven by `awaiting` keep the contract's guarantees (§5),
for every discipline of the registry (tests/rules/samples.py); the real ones' own invariants
on top."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rules
from rules.engine import _step
from rules.simulate import random_event, random_game
from tests.rules import samples
from tests.rules.helpers import hypothesis_settings

# Every discipline's sample rulesets, the made-up ones of tests/rules included (registered
# while this module runs).
RULESETS = samples.sample_list()
pytestmark = pytest.mark.usefixtures("made_up")


def _check_common(new: dict[str, Any], old: dict[str, Any]) -> None:
    assert json.loads(json.dumps(new)) == new  # JSON in, JSON out
    assert new["finished"] == (new["winner"] is not None)
    assert (new["awaiting"] is None) == new["finished"] == (new["turn"] is None)
    d = rules.discipline(new["discipline"])
    assert new["awaiting"] in {*d.awaiting, None}
    assert new["events"] == old["events"] + 1
    assert new["ruleset"] == old["ruleset"]
    spot = new["to_spot"]
    if isinstance(spot, list):  # classic pyramid: the numbers, ascending, each once
        assert spot == sorted(set(spot)) and len(spot) <= d.max_balls
    else:
        assert 0 <= spot <= d.max_balls
    assert new["end_reason"] in {*d.end_reasons, None}
    assert set(new["options"]) <= set(d.options)
    if new["awaiting"] == "choice":
        assert set(new["options"]) <= {"play", "hand_back", "rebreak_self", "rebreak_opponent"}
        assert new["options"][:2] == ["play", "hand_back"]
        assert new["offender"] in ("a", "b")
    for p in ("a", "b"):
        s, t = new["stats"][p], old["stats"][p]
        assert 0 <= s["current_run"] <= s["best_run"] <= s["pocketed"]
        assert s["pocketed"] >= t["pocketed"] and s["fouls"] >= t["fouls"]
        assert s["best_run"] >= t["best_run"]


def _check_free(new: dict[str, Any], old: dict[str, Any]) -> None:
    rs = new["ruleset"]
    n = new["balls_on_table"]
    assert 0 <= n <= 16
    assert all(v >= 0 for v in new["score"].values())
    assert all(v >= 0 for v in new["debt"].values())
    if rs["penalty"] == "opponent_takes":
        assert new["debt"] == {"a": 0, "b": 0}
    if new["golden_ball"]:
        assert new["time_expired"]
    if new["awaiting"] == "rerack":
        assert n == 2 and rs["continuation"]
    if not new["finished"]:
        assert n >= 2  # 1 or 0 balls are re-racked at once (or end the frame)
        assert max(new["score"].values()) < rs["balls_to_win"]
        assert sum(new["frames"].values()) == new["frame"] - 1
    if new["frame"] == old["frame"] and new["rack"] == old["rack"]:
        # Ball conservation within a rack: a ball leaves the table only onto a shelf.
        delta_score = sum(new["score"].values()) - sum(old["score"].values())
        assert new["balls_on_table"] - old["balls_on_table"] + delta_score == 0


def _check_duplex(new: dict[str, Any], old: dict[str, Any]) -> None:
    table = new["table"]
    assert all(0 <= table[c] <= 8 for c in "ab")
    assert new["balls_on_table"] == table["a"] + table["b"]
    assert all(v >= 0 for v in new["minus"].values())
    assert min(new["minus"].values()) == 0
    assert 1 <= new["frame"] <= 3
    points = new["frame_points"]
    assert new["plus"] == {c: sum(p[c] for p in points[:2]) for c in "ab"}
    if not new["finished"]:
        assert table["a"] >= 1 and table["b"] >= 1
        assert len(points) == new["frame"] - 1
    if new["frame"] == old["frame"] and not new["finished"]:
        assert new["balls_on_table"] <= old["balls_on_table"]  # re-spots never add balls
        if new["frame"] == 3:
            for c in "ab":
                assert new["minus"][c] <= old["minus"][c]
    if new["finished"] and new["end_reason"] == "game":
        final = new["final"]
        assert len(points) == 3
        assert final[new["winner"]] >= final["b" if new["winner"] == "a" else "a"]


def _check_cue_ball(new: dict[str, Any], old: dict[str, Any]) -> None:
    """What combined, dynamic and classic pyramid share: the coloured cue ball (§6)."""
    assert new["cue_ball"] in ("on_table", "in_hand_house", "in_hand_anywhere")
    if new["awaiting"] == "break":
        assert new["cue_ball"] == "in_hand_house"  # §6.5 (1)
    if new["cue_ball"] == "in_hand_anywhere":
        assert new["discipline"] == "dynamic_pyramid"  # N5.2's premium shot only
    if new["golden_ball"]:
        assert new["time_expired"]
    if not new["finished"]:
        assert sum(new["frames"].values()) == new["frame"] - 1
        assert max(new["frames"].values()) < new["ruleset"]["frames_to_win"]


def _check_combined(new: dict[str, Any], old: dict[str, Any]) -> None:
    _check_cue_ball(new, old)
    rs = new["ruleset"]
    assert 0 <= new["balls_on_table"] <= 15
    if not new["finished"]:
        assert max(new["score"].values()) < rs["balls_to_win"]
        assert new["balls_on_table"] >= 1  # the frame ends before the table is empty
        for p in "ab":
            assert new["score"][p] >= rs["head_start"][p]
    if new["frame"] == old["frame"] and not new["finished"]:
        # Every point takes a ball off the table: a pot, a «свояк»'s ball, a penalty ball.
        delta_score = sum(new["score"].values()) - sum(old["score"].values())
        assert new["balls_on_table"] - old["balls_on_table"] + delta_score == 0


def _check_classic(new: dict[str, Any], old: dict[str, Any]) -> None:
    _check_cue_ball(new, old)
    on = new["on_table"]
    pocketed = new["pocketed"]
    # Each numbered ball in exactly one place: on the table or in one player's pockets.
    assert sorted(on + pocketed["a"] + pocketed["b"]) == list(range(1, 16))
    assert on == sorted(on) and new["balls_on_table"] == len(on)
    assert set(new["to_spot"]) <= set(on)
    if not new["finished"]:
        assert max(new["score"].values()) < new["ruleset"]["points_to_win"]
        assert on  # a cleared table ends the frame or is racked again


def _no_check(new: dict[str, Any], old: dict[str, Any]) -> None:
    return


# The real disciplines' own invariants, beside those every discipline keeps.
OWN_CHECKS = {
    "free_pyramid": _check_free,
    "duplex": _check_duplex,
    "combined_pyramid": _check_combined,
    "dynamic_pyramid": _check_combined,
    "classic_pyramid": _check_classic,
}


def _corrupt(ev: dict[str, Any], rng: random.Random) -> Any:
    """A variant of a legal event that is usually impossible."""
    bad = dict(ev)
    kind = rng.randrange(8)
    if kind == 0 and "player" in bad:
        bad["player"] = "b" if bad["player"] == "a" else "a"
    elif kind == 1:
        bad["pocketed"] = 17 if not isinstance(bad.get("pocketed"), dict) else {"a": 9}
    elif kind == 2:
        bad["pocketed"] = True
    elif kind == 3:
        bad["note"] = "x"
    elif kind == 4:
        bad.pop("player", None)
        bad.pop("type", None)
    elif kind == 5:
        bad["type"] = rng.choice(["break", "shot", "choice", "rerack", "penalty_removal"])
    elif kind == 6:
        bad["off_table"] = -1
    else:
        return [bad]
    return bad


@hypothesis_settings(examples=150)
@given(
    rs=st.sampled_from(RULESETS),
    seed=st.integers(0, 2**32),
    skill=st.floats(0.2, 0.8),
    rare=st.sampled_from([0.0, 0.3, 1.0, 5.0]),
)
def test_random_legal_games_keep_the_invariants(
    rs: dict[str, Any], seed: int, skill: float, rare: float
) -> None:
    # A seeded Random, not st.randoms(): Hypothesis' own randoms lean to 0.0, which would
    # make every rare event (forfeit, clock) happen at once.
    rng = random.Random(seed)
    state = rules.initial_state(rs)
    handlers = rules.discipline(state["discipline"]).handlers
    check = OWN_CHECKS.get(state["discipline"], _no_check)
    states = [state]
    events: list[dict[str, Any]] = []
    while not state["finished"] and len(events) < 600:
        if rng.random() < 0.2:
            # An invalid event leaves the state unchanged, even on the in-place path.
            bad = _corrupt(random_event(state, rng, skill, rare), rng)
            work = copy.deepcopy(state)
            try:
                _step(work, handlers, bad)
            except rules.RuleError as err:
                assert err.code in rules.ERROR_CODES
                assert work == state
        ev = random_event(state, rng, skill, rare)
        snapshot = copy.deepcopy(state)
        new = rules.apply(state, ev)
        assert state == snapshot  # apply never mutates its input
        _check_common(new, state)
        check(new, state)
        state = new
        states.append(state)
        events.append(ev)
    # replay(events[:k]) equals applying the first k events one by one.
    for k in {0, 1, len(events) // 2, len(events) - 1, len(events), rng.randrange(len(events) + 1)}:
        if 0 <= k <= len(events):
            assert rules.replay(rs, events[:k]) == states[k]
    if state["finished"]:
        for ev in ({"type": "time_expired"}, {"type": "forfeit", "player": "a"}, {"type": "shot"}):
            with pytest.raises(rules.RuleError) as info:
                rules.apply(state, ev)
            assert info.value.code == "finished"


@pytest.mark.parametrize("rs", samples.sample_rulesets())
def test_seeded_games_finish_with_a_winner(rs: dict[str, Any]) -> None:
    finished = 0
    for seed in range(15):
        events = random_game(rs, random.Random(seed), max_events=3000)
        state = rules.replay(rs, events)
        finished += state["finished"]
        assert state["finished"] == (state["winner"] is not None)
    assert finished == 15
