"""Frames credited before the match (the ruleset's `frames_credit`, a lateness penalty): every
discipline of the registry that plays a race of frames starts with the credit as frames won,
ends its race counting it, and keeps it through an undo; a credit that would decide the match
is refused, and so is the key where a discipline has no race of frames."""

from __future__ import annotations

import random
from typing import Any

import pytest

import rules
from rules.simulate import random_game
from tests.rules import samples

pytestmark = pytest.mark.usefixtures("made_up")

RACE = 3


def _has_credit(d: rules.Discipline) -> bool:
    return any(spec["key"] == "frames_credit" for spec in d.ruleset_keys)


FRAMES = [d.name for d in samples.every_discipline() if _has_credit(d)]
WITHOUT = [d.name for d in samples.every_discipline() if not _has_credit(d)]


def _race(name: str, **extra: Any) -> dict[str, Any]:
    return {**samples.ruleset_of(name), "frames_to_win": RACE, **extra}


def _frame_ends(ruleset: dict[str, Any], events: list[dict[str, Any]]) -> list[int]:
    """The indexes of the events that ended a frame (the frames won grew)."""
    st = rules.initial_state(ruleset)
    out = []
    for i, ev in enumerate(events):
        before = dict(st["frames"])
        st = rules.apply(st, ev)
        if st["frames"] != before:
            out.append(i)
    return out


def _game(name: str, seed: int) -> list[dict[str, Any]]:
    # rare=0: no concession and no time limit, so the race of frames decides the game.
    events = random_game(_race(name), random.Random(seed), max_events=20_000, rare=0.0)
    assert rules.replay(_race(name), events)["end_reason"] == "frames"
    return events


def test_the_frames_disciplines_are_found() -> None:
    assert {"free_pyramid", "combined_pyramid", "dynamic_pyramid", "classic_pyramid"} <= set(FRAMES)
    assert "duplex" in WITHOUT


@pytest.mark.parametrize("name", FRAMES)
def test_the_match_starts_with_the_credit_as_frames_won(name: str) -> None:
    st = rules.initial_state(_race(name, frames_credit={"b": 2}))
    assert st["frames"] == {"a": 0, "b": 2}
    assert st["frame"] == 3  # the frame played first is the match's third
    assert rules.score_summary(st)["frames"] == {"a": 0, "b": 2}
    view = rules.state_view(st)
    facts = {f["key"]: f["value"] for f in view["players"]["b"]["facts"]}
    assert facts["frames"] == 2 and facts["frames_credit"] == 2
    assert "frames_credit" not in {f["key"] for f in view["players"]["a"]["facts"]}
    assert "2 frames credited" in [rules.render(f["text"]) for f in view["players"]["b"]["facts"]]


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("name", FRAMES)
def test_the_match_ends_one_frame_sooner(name: str, seed: int) -> None:
    """The same events: with the winner credited a frame, the match ends on the frame that
    brought him to RACE - 1 without it."""
    events = _game(name, seed)
    plain = _race(name)
    winner = rules.replay(plain, events)["winner"]
    credited = _race(name, frames_credit={winner: 1})
    ends = _frame_ends(plain, events)
    st = rules.initial_state(plain)
    for i, ev in enumerate(events):
        st = rules.apply(st, ev)
        if st["frames"][winner] == RACE - 1 and i in ends:
            break
    assert i < len(events) - 1  # sooner than without the credit
    done = rules.replay(credited, events[: i + 1])
    assert done["finished"] and done["winner"] == winner and done["end_reason"] == "frames"
    assert done["frames"][winner] == RACE
    assert done["frames"] == {**st["frames"], winner: RACE}
    d = rules.discipline(name)
    assert d.result_score(done) == (done["frames"]["a"], done["frames"]["b"])
    with pytest.raises(rules.RuleError) as err:
        rules.replay(credited, events[: i + 2])
    assert err.value.code == "finished"


@pytest.mark.parametrize("name", FRAMES)
def test_the_credit_helps_the_player_behind_on_the_table(name: str) -> None:
    """The loser of a game without credit wins it when credited enough: the credit decides."""
    plain = _race(name)
    # The first game (by seed) that went the distance: its loser won RACE - 1 frames.
    for seed in range(3, 60):
        events = _game(name, seed)
        st = rules.replay(plain, events)
        loser = "b" if st["winner"] == "a" else "a"
        if st["frames"][loser] == RACE - 1:
            break
    else:
        pytest.fail("no game of the seeds went the distance")
    credited = _race(name, frames_credit={loser: 1})
    ends = _frame_ends(plain, events)
    # Where the loser won his (RACE - 1)-th frame, credited he has won the match.
    st = rules.initial_state(credited)
    for i in ends:
        st = rules.replay(credited, events[: i + 1])
        if st["finished"]:
            break
    assert st["winner"] == loser and st["frames"][loser] == RACE


@pytest.mark.parametrize("name", FRAMES)
def test_an_undo_of_the_first_frame_keeps_the_credit(name: str) -> None:
    events = _game(name, 4)
    credited = _race(name, frames_credit={"a": 1, "b": 1})
    first = _frame_ends(_race(name), events)[0]
    after = rules.replay(credited, events[: first + 1])
    assert sum(after["frames"].values()) == 3
    # An undo is a replay of the log without its last event: the credit is in the ruleset.
    undone = rules.replay(credited, events[:first])
    assert undone["frames"] == {"a": 1, "b": 1}
    assert undone["frame"] == 3
    assert rules.replay(credited, [])["frames"] == {"a": 1, "b": 1}


@pytest.mark.parametrize("name", FRAMES)
def test_a_credit_that_decides_the_match_is_refused(name: str) -> None:
    with pytest.raises(rules.RuleError) as err:
        rules.validate_ruleset(_race(name, frames_credit={"a": RACE}))
    assert err.value.code == "invalid_ruleset"
    assert err.value.params["key"] == "frames_credit.a"
    assert err.value.params["max"] == RACE - 1
    assert "decide the match" in err.value.message
    ok = rules.validate_ruleset(_race(name, frames_credit={"a": RACE - 1}))
    assert ok["frames_credit"] == {"a": RACE - 1, "b": 0}


@pytest.mark.parametrize("name", FRAMES)
def test_a_single_frame_match_has_no_frames_to_credit(name: str) -> None:
    single = {**samples.ruleset_of(name), "frames_to_win": 1}
    assert rules.validate_ruleset(single)["frames_credit"] == {"a": 0, "b": 0}
    with pytest.raises(rules.RuleError) as err:
        rules.validate_ruleset({**single, "frames_credit": {"b": 1}})
    assert err.value.code == "invalid_ruleset"
    assert "one frame" in err.value.message


@pytest.mark.parametrize("name", FRAMES)
def test_a_credit_is_a_count(name: str) -> None:
    for bad in ({"a": -1}, {"a": True}, {"c": 1}, 1):
        with pytest.raises(rules.RuleError) as err:
            rules.validate_ruleset(_race(name, frames_credit=bad))
        assert err.value.code == "invalid_ruleset"


@pytest.mark.parametrize("name", WITHOUT)
def test_a_discipline_without_a_race_of_frames_refuses_the_key(name: str) -> None:
    with pytest.raises(rules.RuleError) as err:
        rules.validate_ruleset({**samples.ruleset_of(name), "frames_credit": {"a": 1}})
    assert err.value.code == "invalid_ruleset"
    assert err.value.params["key"] == "frames_credit"
