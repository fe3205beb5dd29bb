"""rules.contract describes what the engine accepts and returns: the keys of every event kind
are the handler's own, and every state of random games fits its schema, for every discipline
of the registry (the made-up ones of tests/rules registered while this module runs: a type of
its own, a field added to the shot)."""

from __future__ import annotations

import random
from typing import Any

import jsonschema
import pytest

from rules import apply, contract, discipline, initial_state, rulesets
from rules.simulate import random_event
from tests.rules import samples

DISCIPLINES = tuple(samples.names())
pytestmark = pytest.mark.usefixtures("made_up")


def _json_schema(schema: Any) -> Any:
    """OpenAPI 3.0's `nullable` as JSON Schema (what strict validators read)."""
    if isinstance(schema, list):
        return [_json_schema(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: _json_schema(v) for k, v in schema.items() if k not in ("discriminator", "nullable")}
    if schema.get("nullable"):
        out = {**out, "type": [out["type"], "null"]} if "type" in out else out
    return out


with samples.made_up_registered():
    COMPONENTS = {
        "schemas": _json_schema(
            {**contract.event_schemas(), **contract.state_schemas(), **contract.ruleset_schemas()}
        )
    }
    STATE = {**_json_schema(contract.union("State")), "components": COMPONENTS}
    EVENT = {**_json_schema(contract.event_union()), "components": COMPONENTS}
    RULESET = {**_json_schema(contract.union("Ruleset")), "components": COMPONENTS}


def test_each_event_kind_has_exactly_the_keys_its_handlers_accept() -> None:
    """An event kind's schema has the keys its handlers accept, over every discipline (a
    shot's `fools` is free pyramid's only, its `scratch` the made-up scratch race's)."""
    accepted: dict[str, set[str]] = {}
    for name in DISCIPLINES:
        keys = contract.engine_event_keys()[name]
        assert set(keys) == set(discipline(name).handlers), name
        for event_type, allowed in keys.items():
            accepted.setdefault(event_type, set()).update(allowed)
    schemas = contract.event_schemas()
    assert set(schemas) == {contract.event_component_name(t) for t in accepted}
    for event_type, keys in accepted.items():
        schema = schemas[contract.event_component_name(event_type)]
        assert set(schema["properties"]) == keys, event_type


@pytest.mark.parametrize("discipline", DISCIPLINES)
def test_the_state_schema_names_every_field_of_the_state(discipline: str) -> None:
    state = initial_state(samples.ruleset_of(discipline))
    schema = contract.state_schemas()[contract._component("State", discipline)]
    assert set(schema["properties"]) == set(state)


@pytest.mark.parametrize("discipline", DISCIPLINES)
def test_the_ruleset_schema_follows_the_engines_specs(discipline: str) -> None:
    schema = contract.ruleset_schemas()[contract._component("Ruleset", discipline)]
    keys = {key["key"] for key in rulesets()[discipline]["keys"]}
    assert set(schema["properties"]) == keys | {"discipline"}
    jsonschema.validate(initial_state(samples.ruleset_of(discipline))["ruleset"], RULESET)


@pytest.mark.parametrize("discipline", DISCIPLINES)
@pytest.mark.parametrize("seed", range(12))
def test_every_state_and_event_of_random_games_fits_the_contract(
    discipline: str, seed: int
) -> None:
    rng = random.Random(seed)
    state = initial_state(samples.ruleset_of(discipline))
    jsonschema.validate(state, STATE)
    while not state["finished"] and state["events"] < 600:
        event = random_event(state, rng)
        jsonschema.validate(event, EVENT)
        state = apply(state, event)
        jsonschema.validate(state, STATE)


def test_an_event_the_engine_refuses_for_its_keys_is_outside_the_schema() -> None:
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"type": "shot", "player": "a", "spin": "left"}, EVENT)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"type": "jump", "player": "a"}, EVENT)
