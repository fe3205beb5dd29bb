"""A discipline is a plug-in: a made-up one registered at test time is replayed, its rulesets
validated, the contract describes it and the views show it, and once it is removed the real
disciplines are exactly as before."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import jsonschema
import pytest

import rules
from rules import contract, describe
from rules.registry import Discipline
from rules.simulate import random_game
from tests.rules.test_contract import _json_schema
from tests.rules.toy_discipline import ToyRace
from tests.rules.toy_scratch import ToyScratch

RULESET = {"discipline": "toy_race", "balls_to_win": 3}


def _contract() -> str:
    return json.dumps(
        {
            "events": contract.event_schemas(),
            "event_union": contract.event_union(),
            "states": contract.state_schemas(),
            "rulesets": contract.ruleset_schemas(),
            "state_union": contract.union("State"),
            "change": contract.ruleset_change_schema(),
            "specs": rules.rulesets(),
        }
    )


REAL_CONTRACT = _contract()
REAL = [d.name for d in rules.disciplines()]


@pytest.fixture
def toy() -> Iterator[Discipline]:
    with rules.registered(ToyRace()) as d:
        yield d


def _schemas() -> tuple[dict[str, object], dict[str, object]]:
    components = {
        "schemas": _json_schema(
            {**contract.event_schemas(), **contract.state_schemas(), **contract.ruleset_schemas()}
        )
    }
    state = {**_json_schema(contract.union("State")), "components": components}
    event = {**_json_schema(contract.event_union()), "components": components}
    return state, event


def test_a_registered_discipline_is_replayed_like_the_real_ones(toy: Discipline) -> None:
    assert rules.discipline("toy_race") is toy
    assert [d.name for d in rules.disciplines()] == [*REAL, "toy_race"]
    events = [
        {"type": "coin_toss", "player": "a", "winner": "b"},
        {"type": "shot", "player": "b", "pocketed": 2},
        {"type": "shot", "player": "b", "pocketed": 1, "foul": "double_hit"},
        {"type": "shot", "player": "a", "pocketed": 3},
    ]
    state = rules.replay(RULESET, events)
    assert state["finished"] and state["winner"] == "a" and state["end_reason"] == "race"
    assert state["score"] == {"a": 3, "b": 2} and state["balls_on_table"] == 10
    # apply, one event at a time, agrees with replay; a refused event says why.
    step = rules.initial_state(RULESET)
    for ev in events:
        step = rules.apply(step, ev)
    assert step == state
    with pytest.raises(rules.RuleError) as info:
        rules.apply(rules.replay(RULESET, events[:1]), {"type": "shot", "player": "a"})
    assert info.value.code == "out_of_turn"
    with pytest.raises(rules.RuleError) as info:
        rules.apply(rules.initial_state(RULESET), {"type": "rerack", "player": "a"})
    assert info.value.code == "invalid_event"  # not a toy event type


def test_its_rulesets_are_validated_from_its_own_keys(toy: Discipline) -> None:
    assert rules.validate_ruleset({"discipline": "toy_race"}) == {
        "discipline": "toy_race",
        "balls_to_win": 5,
    }
    for bad, key, reason in (
        ({"balls_to_win": 9}, "balls_to_win", "out_of_range"),
        ({"balls_to_win": True}, "balls_to_win", "wrong_type"),
        ({"continuation": True}, "continuation", "unknown_key"),
    ):
        with pytest.raises(rules.RuleError) as info:
            rules.validate_ruleset({"discipline": "toy_race", **bad})
        assert info.value.params["key"] == key and info.value.params["reason"] == reason
    assert rules.rulesets()["toy_race"]["keys"][0]["key"] == "balls_to_win"


def test_the_contract_describes_it_and_its_random_games_fit(toy: Discipline) -> None:
    states = contract.state_schemas()
    assert set(states["ToyRaceState"]["properties"]) == set(rules.initial_state(RULESET))
    events = contract.event_schemas()
    assert "toy_race" in events["ShotEvent"]["description"]
    assert "toy_race" not in events["BreakEvent"]["description"]
    assert set(events["CoinTossEvent"]["properties"]) == {"type", "player", "winner"}
    assert "coin_toss" in contract.awaiting_values() and "race" in contract.end_reasons()
    assert "toy_race" in contract.ruleset_change_schema()["properties"]["discipline"]["enum"]
    state_schema, event_schema = _schemas()
    for seed in range(20):
        rng = random.Random(seed)
        state = rules.initial_state(RULESET)
        jsonschema.validate(state, state_schema)
        while not state["finished"]:
            event = rules.discipline("toy_race").random_event(state, rng, 0.5, 1.0)
            jsonschema.validate(event, event_schema)
            state = rules.apply(state, event)
            jsonschema.validate(state, state_schema)


def test_its_view_and_entry_have_the_shape_of_every_discipline(toy: Discipline) -> None:
    real = rules.state_view(rules.initial_state({"discipline": "duplex"}))
    events = random_game(RULESET, random.Random(3))
    for k in range(len(events) + 1):
        state = rules.replay(RULESET, events[:k])
        view = rules.state_view(state)
        assert set(view) == set(real)
        assert json.loads(json.dumps(view)) == view
        assert view["discipline"] == "toy_race" and view["renderer"] == "toy_race"
        assert view["score"] == state["score"]
        assert view["table"]["balls"] == state["balls_on_table"]
        assert view["features"] == {"time_limit": False, "head_start": False, "colours": False}
        entry = rules.entry(state)
        if state["finished"]:
            assert entry["kinds"] == []
            continue
        assert state["awaiting"] in {kind["type"] for kind in entry["kinds"]}
        for kind in entry["kinds"]:
            rules.apply(state, describe.build_event(kind))  # the defaults are legal
    assert rules.rules_in_force(RULESET)["penalty"] == "turn_passes"


def test_once_removed_the_real_disciplines_are_as_before() -> None:
    with rules.registered(ToyRace()):
        assert _contract() != REAL_CONTRACT
        with pytest.raises(ValueError, match="already registered"):
            rules.register(ToyRace())
        toy_state = rules.initial_state(RULESET)
    assert _contract() == REAL_CONTRACT
    assert [d.name for d in rules.disciplines()] == REAL
    with pytest.raises(rules.RuleError) as info:
        rules.initial_state(RULESET)
    assert info.value.code == "invalid_ruleset" and info.value.params["key"] == "discipline"
    with pytest.raises(rules.RuleError) as info:
        rules.apply(toy_state, {"type": "coin_toss", "player": "a", "winner": "a"})
    assert info.value.code == "invalid_state"
    with pytest.raises(rules.UnknownDiscipline):
        rules.discipline("toy_race")


def test_a_discipline_the_contract_cannot_describe_is_refused() -> None:
    class NoSpec(ToyRace):
        name = "no_spec"
        extra_events = {}

    class WrongKeys(ToyRace):
        name = "wrong_keys"
        event_keys = {**ToyRace.event_keys, "shot": frozenset({"type", "player", "spin"})}

    class NoForfeit(ToyRace):
        name = "no_forfeit"
        handlers = {k: v for k, v in ToyRace.handlers.items() if k != "forfeit"}
        event_keys = {k: v for k, v in ToyRace.event_keys.items() if k != "forfeit"}

    class BadName(ToyRace):
        name = "Toy Race"

    for cls, words in (
        (NoSpec, "extra_events"),
        (WrongKeys, "outside its schema"),
        (NoForfeit, "forfeit"),
        (BadName, "lower_snake_case"),
    ):
        with pytest.raises(ValueError, match=words):
            rules.register(cls())
    assert [d.name for d in rules.disciplines()] == REAL


def test_a_field_added_to_the_shot_reaches_the_contract_and_the_log() -> None:
    """The made-up scratch race adds `scratch` to the family's shot (extra_event_fields): the
    shot's schema has it while the discipline is registered, an event with it fits, and the
    log words it; once removed, the contract is the real disciplines' again."""
    with rules.registered(ToyScratch()) as d:
        shot = contract.event_schemas()["ShotEvent"]
        assert shot["properties"]["scratch"] == {
            "type": "boolean",
            "description": "Toy scratch race: the cue ball fell into a pocket.",
        }
        assert "toy_scratch" in shot["description"]
        _state_schema, event_schema = _schemas()
        event = {"type": "shot", "player": "a", "pocketed": 2, "scratch": True}
        jsonschema.validate(event, event_schema)
        state = rules.apply(rules.initial_state({"discipline": "toy_scratch"}), event)
        assert state["score"] == {"a": 0, "b": 1} and state["to_spot"] == 2
        assert state["turn"] == "b"
        words = d.describe_event(event, state["ruleset"])
        assert rules.render(words, names={"a": "Ivanova"}) == "Ivanova: cue ball pocketed"
        assert rules.render(d.end_label("race")) == "Race won"
        with pytest.raises(rules.RuleError) as info:
            rules.apply(rules.initial_state(RULESET | {"discipline": "free_pyramid"}), event)
        assert info.value.params["field"] == "scratch"  # not free pyramid's field
    assert _contract() == REAL_CONTRACT


def test_what_a_discipline_adds_may_not_shadow_what_there_is() -> None:
    """An event type the family has cannot be declared again, a field the type has cannot be
    added again, another discipline's type or field cannot be declared otherwise; every end
    reason and ruleset key has its words."""

    class ShadowsShot(ToyRace):
        name = "shadows_shot"
        extra_events = {
            **ToyRace.extra_events,
            "shot": {"fields": {"player": {"type": "string"}}, "required": [], "description": ""},
        }

    class AddsAFieldTheShotHas(ToyScratch):
        name = "adds_pocketed"
        extra_event_fields = {"shot": {"pocketed": {"type": "integer"}}}

    class AddsToAnUnknownType(ToyScratch):
        name = "adds_to_jump"
        extra_event_fields = {"jump": {"height": {"type": "integer"}}}

    class TossOtherwise(ToyRace):
        name = "toss_otherwise"
        extra_events = {
            "coin_toss": {
                "fields": {"player": {"type": "string"}},
                "required": [],
                "description": "",
            }
        }

    class CueBallOtherwise(ToyScratch):
        name = "scratch_otherwise"
        extra_event_fields = {"shot": {"scratch": {"type": "integer"}}}

    class Unworded(ToyRace):
        name = "unworded"
        end_reasons = ("race", "forfeit", "knockout")

    class Unlabelled(ToyRace):
        name = "unlabelled"
        ruleset_keys = ({**ToyRace.ruleset_keys[0], "label": ""},)

    for cls, words in (
        (ShadowsShot, "may not redeclare the family's 'shot'"),
        (AddsAFieldTheShotHas, r"has \['pocketed'\] already"),
        (AddsToAnUnknownType, "not 'jump'"),
        (Unworded, "'knockout' has no words"),
        (Unlabelled, "needs its label"),
    ):
        with pytest.raises(ValueError, match=words):
            rules.register(cls())
    with rules.registered(ToyRace()), rules.registered(ToyScratch()):
        with pytest.raises(ValueError, match="declared otherwise by toy_race"):
            rules.register(TossOtherwise())
        with pytest.raises(ValueError, match="declared otherwise by toy_scratch"):
            rules.register(CueBallOtherwise())
    assert [d.name for d in rules.disciplines()] == REAL
