"""The OpenAPI schema as an integrator reads it: JSON bodies only, an http bearer token, the
engine's events and states typed, unknown keys refused, closed sets as enums, English always."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.rules import samples

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def schema(django_db_setup: Any, django_db_blocker: Any) -> dict[str, Any]:
    with django_db_blocker.unblock():
        response = APIClient().get("/api/v1/schema/?format=json", HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 200
    return json.loads(response.content)


def test_the_schema_is_english_whatever_the_language_asked(schema: dict[str, Any]) -> None:
    assert not re.search("[А-Яа-яЁё]", json.dumps(schema, ensure_ascii=False))


def test_the_token_is_an_http_bearer_scheme(schema: dict[str, Any]) -> None:
    schemes = schema["components"]["securitySchemes"]
    assert schemes["bearerAuth"] == {**schemes["bearerAuth"], "type": "http", "scheme": "bearer"}
    assert not any(s.get("type") == "apiKey" and s.get("in") == "header" for s in schemes.values())


def test_request_bodies_are_json_only(schema: dict[str, Any]) -> None:
    for path, operations in schema["paths"].items():
        for operation in operations.values():
            if "requestBody" in operation:
                assert list(operation["requestBody"]["content"]) == ["application/json"], path


def test_request_bodies_refuse_unknown_keys(schema: dict[str, Any]) -> None:
    components = schema["components"]["schemas"]
    for path, operations in schema["paths"].items():
        for operation in operations.values():
            body = operation.get("requestBody", {}).get("content", {}).get("application/json")
            if body is None:
                continue
            name = body["schema"]["$ref"].rsplit("/", 1)[-1]
            assert components[name]["additionalProperties"] is False, (path, name)


def test_the_match_contract_is_typed_by_the_engine(schema: dict[str, Any]) -> None:
    components = schema["components"]["schemas"]
    event = components["MatchEventWriteRequest"]["properties"]["event"]
    # A plain $ref, not an allOf: generators read an allOf as inheritance and drop `type`.
    assert event["$ref"] == "#/components/schemas/EngineEvent" and "allOf" not in event
    union = components["EngineEvent"]
    assert union["discriminator"]["propertyName"] == "type"
    assert set(union["discriminator"]["mapping"]) >= {"break", "shot", "foul", "choice", "forfeit"}
    shot = components["ShotEvent"]
    assert shot["properties"]["type"]["enum"] == ["shot"]
    assert shot["additionalProperties"] is False and "player" in shot["required"]
    state = components["MatchDetail"]["properties"]["state"]["allOf"][0]["$ref"]
    assert state == "#/components/schemas/MatchState"
    free = components["FreePyramidState"]["properties"]
    # Nullable enums by reference to their one component (test_each_enum_is_one_named_component).
    awaiting = free["awaiting"]["oneOf"][0]["$ref"].rsplit("/", 1)[-1]
    assert components[awaiting]["enum"][:2] == ["break", "shot"]
    assert free["awaiting"]["oneOf"][1] == {"$ref": "#/components/schemas/NullEnum"}
    assert components["SlotEnum"]["enum"] == ["a", "b"]
    ruleset = components["FreePyramidRuleset"]["properties"]["balls_to_win"]
    assert (ruleset["minimum"], ruleset["maximum"]) == (1, 200)


def test_bounds_and_enums_are_the_servers(schema: dict[str, Any]) -> None:
    components = schema["components"]["schemas"]
    band = components["FeeBandRequest"]
    assert band["properties"]["fee"]["pattern"]  # money as a string
    shares = components["PatchedTournamentUpdateRequest"]["properties"]["place_shares"]
    assert shares["maxItems"] == 1024 and shares["minItems"] == 1
    tournament = components["Tournament"]["properties"]["status"]
    assert "$ref" in json.dumps(tournament) and "pattern" not in tournament
    assert components["TournamentStatusEnum"]["enum"] == [
        "draft",
        "registration",
        "drawn",
        "running",
        "finished",
    ]


def test_the_schema_validates_as_openapi_31(schema: dict[str, Any]) -> None:
    from drf_spectacular.validation import validate_schema

    assert schema["openapi"] == "3.1.0"
    validate_schema(schema)
    assert '"nullable"' not in json.dumps(schema)  # 3.1 has none: null is a type


def test_a_registered_discipline_is_in_the_schema_with_what_it_adds() -> None:
    """The schema is the registry's: the made-up disciplines of tests/rules, registered for the
    request, bring their states and rulesets, their own event type (the toss) and their
    field of the family's shot (the cue ball); the schema stays valid OpenAPI 3.1."""
    from drf_spectacular.validation import validate_schema

    with samples.made_up_registered():
        response = APIClient().get("/api/v1/schema/?format=json")
    assert response.status_code == 200
    schema = json.loads(response.content)
    components = schema["components"]["schemas"]
    assert {"ToyRaceState", "ToyScratchState", "ToyRaceRuleset", "CoinTossEvent"} <= set(components)
    assert components["ShotEvent"]["properties"]["scratch"]["type"] == "boolean"
    assert "coin_toss" in components["EngineEvent"]["discriminator"]["mapping"]
    assert "#/components/schemas/ToyScratchState" in json.dumps(components["MatchState"])
    validate_schema(schema)


def _request_components(schema: dict[str, Any]) -> dict[str, tuple[Any, dict[str, Any]]]:
    """Every request body's serializer with its schema component (drf-spectacular names a
    request component after its serializer, "Request" added, "Patched" for a PATCH)."""
    from config.serializers import StrictSerializer

    classes: dict[str, Any] = {}
    pending = [StrictSerializer]
    while pending:
        for sub in pending.pop().__subclasses__():
            pending.append(sub)
            classes[sub.__name__.removesuffix("Serializer")] = sub
    components = schema["components"]["schemas"]
    found = {}
    for name, cls in classes.items():
        for component_name in (f"{name}Request", f"Patched{name}Request", name):
            if component_name in components and "properties" in components[component_name]:
                found[component_name] = (cls, components[component_name])
                break
    return found


def test_the_schema_says_what_the_serializers_validate(schema: dict[str, Any]) -> None:
    """Bounds, lengths, enums, booleans and required fields of every request body are the
    validators' own, so the two cannot drift apart."""
    from rest_framework import serializers

    checked = 0
    for component_name, (cls, component) in _request_components(schema).items():
        try:
            fields = cls().fields
        except TypeError:
            continue  # a serializer that needs its context: checked through its endpoint
        properties = component["properties"]
        required = set(component.get("required", []))
        for name, field in fields.items():
            if field.read_only or name not in properties:
                continue
            checked += 1
            prop = json.dumps(properties[name])
            where = f"{component_name}.{name}"
            if not component_name.startswith("Patched"):
                assert (name in required) == field.required, where
            if isinstance(field, serializers.BooleanField):
                assert '"boolean"' in prop, where
            if isinstance(field, serializers.CharField) and field.max_length:
                assert f'"maxLength": {field.max_length}' in prop, where
            if isinstance(field, serializers.IntegerField) and field.max_value is not None:
                assert f'"maximum": {field.max_value}' in prop, where
            if isinstance(field, serializers.IntegerField) and field.min_value is not None:
                assert f'"minimum": {field.min_value}' in prop, where
            if isinstance(field, serializers.ChoiceField) and not isinstance(
                field, serializers.MultipleChoiceField
            ):
                enum = properties[name]
                ref = enum.get("$ref") or next(
                    (
                        o.get("$ref")
                        for o in enum.get("oneOf", enum.get("allOf", []))
                        if "$ref" in o
                    ),
                    None,
                )
                values = (
                    schema["components"]["schemas"][ref.rsplit("/", 1)[1]]["enum"]
                    if ref
                    else enum.get("enum", [])
                )
                assert {v for v in values if v not in (None, "")} == {
                    str(c) for c in field.choices if c != ""
                }, where
    assert checked > 50


def test_discipline_and_handicap_scheme_are_enums_and_booleans_are_strict(
    schema: dict[str, Any],
) -> None:
    write = schema["components"]["schemas"]["TournamentWriteRequest"]["properties"]
    assert "$ref" in json.dumps(write["discipline"]) and "$ref" in json.dumps(
        write["handicap_scheme"]
    )
    logo = write["organiser_logo"]["maxLength"]
    from django.conf import settings

    assert logo < settings.DATA_UPLOAD_MAX_MEMORY_SIZE


def _enum_nodes(node: Any, path: str = "") -> Any:
    if isinstance(node, list):
        for index, item in enumerate(node):
            yield from _enum_nodes(item, f"{path}/{index}")
    elif isinstance(node, dict):
        if isinstance(node.get("enum"), list):
            yield path, node
        for key, value in node.items():
            yield from _enum_nodes(value, f"{path}/{key}")


def test_each_enum_is_one_named_component(schema: dict[str, Any]) -> None:
    # A generated client makes a class of every enum it meets: one per set of values.
    components = schema["components"]["schemas"]
    seen: dict[frozenset[Any], str] = {}
    for name, component in components.items():
        if "enum" in component:
            values = frozenset(component["enum"])
            assert values not in seen, (name, seen.get(values))
            seen[values] = name
    for path, node in _enum_nodes(components):
        if path.count("/") > 1:  # inside a component: only a tag (one value) stays inline
            assert len([v for v in node["enum"] if v is not None]) == 1, path
    turn = components["FreePyramidState"]["properties"]["turn"]
    assert turn["oneOf"] == [
        {"$ref": "#/components/schemas/SlotEnum"},
        {"$ref": "#/components/schemas/NullEnum"},
    ]
    awaiting = components["DuplexState"]["properties"]["awaiting"]["oneOf"][0]
    assert awaiting == {"$ref": "#/components/schemas/AwaitingEnum"}


def test_the_correction_names_the_winner_by_slot_both_ways(schema: dict[str, Any]) -> None:
    components = schema["components"]["schemas"]
    slot = {"$ref": "#/components/schemas/SlotEnum"}
    assert components["CorrectResultRequest"]["properties"]["winner"]["$ref"] == slot["$ref"]
    answer = components["MatchSummary"]["properties"]
    assert slot in answer["winner"]["oneOf"]
    assert answer["winner_id"]["type"] == ["integer", "null"]
