"""The engine's JSON contract as JSON Schema (OpenAPI 3.0 flavour): its events, its state and
its rulesets, per registered discipline. Built from the disciplines' own constants (the keys
each handler accepts, the state fields, the options, the ruleset specs) and the family's event
vocabulary (rules/schemas.py), so that the API's schema and the engine cannot drift apart;
tests replay random games and check every state against it.

Plain data, no Django: ``event_schemas()``, ``state_schemas()``, ``ruleset_schemas()``.
"""

from __future__ import annotations

from rules import registry
from rules.common import PLAYERS
from rules.rulesets import rulesets
from rules.schemas import (
    COLOURS,
    COUNT,
    EVENT_FIELDS,
    PER_PLAYER,
    SLOT,
    Schema,
    enum,
    nullable,
    obj,
)

__all__ = [
    "COLOURS",
    "COUNT",
    "EVENT_FIELDS",
    "PER_PLAYER",
    "RESULT_END_REASONS",
    "SLOT",
    "awaiting_values",
    "end_reasons",
    "engine_event_keys",
    "event_schemas",
    "event_union",
    "option_values",
    "ruleset_change_schema",
    "ruleset_schemas",
    "state_schemas",
    "union",
]

# A match's state as the API shows it: a walkover or a corrected result is recorded outside the
# engine and laid over its state with these reasons (the table's log stays what was played).
RESULT_END_REASONS = ("walkover", "corrected")


def _union_of(attribute: str) -> list[str]:
    """The values of a per-discipline tuple over every discipline, in registration order."""
    values: dict[str, None] = {}
    for d in registry.disciplines():
        values.update(dict.fromkeys(getattr(d, attribute)))
    return list(values)


def awaiting_values() -> list[str]:
    return _union_of("awaiting")


def option_values() -> list[str]:
    return _union_of("options")


def end_reasons() -> list[str]:
    return _union_of("end_reasons")


# --- events ----------------------------------------------------------------------------------


def engine_event_keys() -> dict[str, dict[str, frozenset[str]]]:
    """The keys each discipline's handler accepts, per event type (the engine's sets)."""
    return {d.name: dict(d.event_keys) for d in registry.disciplines()}


def _event_specs() -> dict[str, tuple[dict[str, Schema], list[str], str]]:
    """The family's vocabulary with the fields disciplines add to its types
    (``extra_event_fields``), then the event types they add of their own (``extra_events``);
    register() has checked that none shadows another."""
    specs = {
        t: (dict(fields), required, text) for t, (fields, required, text) in EVENT_FIELDS.items()
    }
    for d in registry.disciplines():
        for event_type, added in d.extra_event_fields.items():
            specs[event_type][0].update(added)
        for event_type, spec in d.extra_events.items():
            specs.setdefault(event_type, (spec["fields"], spec["required"], spec["description"]))
    return specs


def event_component_name(event_type: str) -> str:
    return "".join(part.title() for part in event_type.split("_")) + "Event"


def event_schemas() -> dict[str, Schema]:
    """One schema per event type (component name -> schema), each with its `type` as a
    one-value enum: together a union discriminated on `type`."""
    out: dict[str, Schema] = {}
    for event_type, (fields, required, description) in _event_specs().items():
        schema = obj(
            {"type": {"type": "string", "enum": [event_type]}, **fields}, ["type", *required]
        )
        handled = [d.name for d in registry.disciplines() if event_type in d.event_keys]
        schema["description"] = f"{description} Disciplines: {', '.join(handled)}."
        out[event_component_name(event_type)] = schema
    return out


def event_union(ref_prefix: str = "#/components/schemas/") -> Schema:
    names = {t: event_component_name(t) for t in _event_specs()}
    return {
        "oneOf": [{"$ref": ref_prefix + n} for n in names.values()],
        "discriminator": {
            "propertyName": "type",
            "mapping": {t: ref_prefix + n for t, n in names.items()},
        },
    }


# --- state -----------------------------------------------------------------------------------

STATS: Schema = obj(
    {
        p: obj(
            dict.fromkeys(("pocketed", "fouls", "best_run", "current_run"), COUNT),
            ["pocketed", "fouls", "best_run", "current_run"],
        )
        for p in PLAYERS
    },
    list(PLAYERS),
)


def _common_state() -> dict[str, Schema]:
    return {
        "events": {**COUNT, "description": "Events applied."},
        "finished": {"type": "boolean"},
        "winner": nullable(SLOT),
        "end_reason": nullable(enum((*end_reasons(), *RESULT_END_REASONS))),
        "turn": nullable(SLOT),
        "awaiting": {
            **nullable({"type": "string", "enum": awaiting_values()}),
            "description": "What the engine waits for; null once finished.",
        },
        "to_spot": COUNT,
        "options": {"type": "array", "items": {"type": "string", "enum": option_values()}},
        "breaker": SLOT,
        "offender": nullable(SLOT),
        "after_choice": nullable({"type": "string", "enum": ["break", "shot"]}),
        "stats": STATS,
    }


def _component(prefix: str, discipline: str) -> str:
    return "".join(part.title() for part in discipline.split("_")) + prefix


def ruleset_schemas() -> dict[str, Schema]:
    """One schema per discipline from the engine's ruleset specs (rules.rulesets())."""
    out: dict[str, Schema] = {}
    for discipline, spec in rulesets().items():
        properties: dict[str, Schema] = {
            "discipline": {"type": "string", "enum": [discipline]},
        }
        for key in spec["keys"]:
            kind = key["type"]
            schema: Schema
            if kind == "int":
                schema = {"type": "integer", "minimum": key["min"], "maximum": key["max"]}
            elif kind == "bool":
                schema = {"type": "boolean"}
            elif kind == "choice":
                schema = {"type": "string", "enum": list(key["choices"])}
            else:  # per_player_int
                bound = {"type": "integer", "minimum": key["min"], "maximum": key["max"]}
                schema = obj(dict.fromkeys(PLAYERS, bound))
            properties[key["key"]] = {**schema, "description": key["help"]}
        out[_component("Ruleset", discipline)] = obj(properties, ["discipline"])
    return out


def state_schemas() -> dict[str, Schema]:
    """One schema per discipline: the state after any sequence of events."""
    rulesets_by = ruleset_schemas()
    common = _common_state()
    out: dict[str, Schema] = {}
    for d in registry.disciplines():
        properties = {
            "discipline": {"type": "string", "enum": [d.name]},
            "ruleset": rulesets_by[_component("Ruleset", d.name)],
            **common,
            **d.state_fields,
        }
        out[_component("State", d.name)] = obj(properties, list(properties))
    return out


def union(kind: str, ref_prefix: str = "#/components/schemas/") -> Schema:
    """``kind`` "State" or "Ruleset": a union of the disciplines' schemas on `discipline`."""
    names = {d: _component(kind, d) for d in registry.names()}
    return {
        "oneOf": [{"$ref": ref_prefix + n} for n in names.values()],
        "discriminator": {
            "propertyName": "discipline",
            "mapping": {d: ref_prefix + n for d, n in names.items()},
        },
    }


def ruleset_change_schema() -> Schema:
    """What a settings change may name: any key of any discipline, none required (a partial
    update names only the keys it changes; the engine judges the whole)."""
    properties: dict[str, Schema] = {
        "discipline": {"type": "string", "enum": list(registry.names())}
    }
    for schema in ruleset_schemas().values():
        for key, value in schema["properties"].items():
            if key != "discipline":
                properties.setdefault(key, value)
    return {
        **obj(properties),
        "description": "Ruleset keys to set; the rest come from the discipline's defaults "
        "or the current ruleset.",
    }
