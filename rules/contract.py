"""The engine's JSON contract as JSON Schema (OpenAPI 3.0 flavour): its events, its state and
its rulesets, per discipline. Built from the engine's own constants (the keys each handler
accepts, the options, the foul codes, the ruleset specs), so that the API's schema and the
engine cannot drift apart; tests replay random games and check every state against it.

Plain data, no Django: ``event_schemas()``, ``state_schemas()``, ``ruleset_schemas()``.
"""

from __future__ import annotations

from typing import Any

from rules import common, duplex, free_pyramid
from rules.common import FORFEIT_KEYS, MAX_COUNT, PLAYERS
from rules.fouls import FOUL_EVENT_CODES, SHOT_FOUL_CODES
from rules.rulesets import rulesets

Schema = dict[str, Any]

DISCIPLINES = ("free_pyramid", "duplex")
AWAITING = ("break", "shot", "choice", "rerack", "penalty_removal", "choose_breaker")
END_REASONS = ("frames", "time", "golden_ball", "forfeit", "game")
# A match's state as the API shows it: a walkover or a corrected result is recorded outside the
# engine and laid over its state with these reasons (the table's log stays what was played).
RESULT_END_REASONS = ("walkover", "corrected")
OPTIONS = tuple(dict.fromkeys((*common.BREAK_OPTIONS, *free_pyramid.RERACK_OPTIONS)))


def _nullable(schema: Schema) -> Schema:
    out = {**schema, "nullable": True}
    if "enum" in out:
        out["enum"] = [*out["enum"], None]
    return out


def _obj(properties: dict[str, Schema], required: list[str] | None = None) -> Schema:
    schema: Schema = {
        "type": "object",
        "properties": properties,
        "additionalProperties": False,
    }
    if required:
        schema["required"] = required
    return schema


SLOT: Schema = {"type": "string", "enum": list(PLAYERS), "description": "a player: a or b"}
COUNT: Schema = {"type": "integer", "minimum": 0, "maximum": MAX_COUNT}
PER_PLAYER: Schema = _obj({"a": {"type": "integer"}, "b": {"type": "integer"}}, ["a", "b"])
COLOURS: Schema = {
    **_obj({"a": COUNT, "b": COUNT}),
    "description": "Balls of each colour (Duplex); a missing colour is 0.",
}


def _enum(values: Any) -> Schema:
    return {"type": "string", "enum": sorted(values)}


# --- events ----------------------------------------------------------------------------------

# Each event kind: its fields (beside "type") and which are required; a field whose shape
# differs per discipline (a shot's "pocketed") is a oneOf. The keys are checked against the
# engine's own key sets below.
_EVENT_FIELDS: dict[str, tuple[dict[str, Schema], list[str], str]] = {
    "break": (
        {
            "player": SLOT,
            "legal": {"type": "boolean"},
            "pocketed": {
                "oneOf": [COUNT, COLOURS],
                "description": "Free pyramid: a count; Duplex: balls per colour. Missing: 0.",
            },
        },
        ["player", "legal"],
        "The break; an illegal break is a foul (G12.1).",
    ),
    "shot": (
        {
            "player": SLOT,
            "pocketed": {
                "oneOf": [COUNT, COLOURS],
                "description": "Balls pocketed legally. Free pyramid: a count; Duplex: balls "
                "per colour. Missing: 0.",
            },
            "fools": {**COUNT, "description": "Free pyramid only: balls that fell otherwise."},
            "off_table": {**COUNT, "description": "Balls that left the table."},
            "foul": _nullable(_enum(SHOT_FOUL_CODES)),
        },
        ["player"],
        "One shot.",
    ),
    "foul": (
        {"player": SLOT, "foul": _enum(FOUL_EVENT_CODES)},
        ["player", "foul"],
        "A foul outside a shot; `player` is the offender.",
    ),
    "choice": (
        {"player": SLOT, "option": _enum(common.BREAK_OPTIONS)},
        ["player", "option"],
        "The non-offender's choice after a foul or a fool (rebreak_* after an illegal break).",
    ),
    "rerack": (
        {"player": SLOT, "option": _enum(free_pyramid.RERACK_OPTIONS)},
        ["player", "option"],
        "Free pyramid with continuation: the choice when 2 balls are left.",
    ),
    "penalty_removal": (
        {"player": SLOT, "colour": SLOT},
        ["player", "colour"],
        "Duplex: the opponent of the offender takes a ball of this colour off the table.",
    ),
    "choose_breaker": (
        {"player": SLOT, "breaker": SLOT},
        ["player", "breaker"],
        "Duplex: the leader after two frames chooses who breaks the third.",
    ),
    "time_expired": (
        {},
        [],
        "The net time is up (sent by the match clock); Duplex refuses it (no time-limit rule).",
    ),
    "forfeit": ({"player": SLOT}, ["player"], "The player concedes or is disqualified."),
}

# The keys each discipline's handler accepts, per event type (the engine's sets).
ENGINE_EVENT_KEYS: dict[str, dict[str, frozenset[str]]] = {
    "free_pyramid": {
        "break": free_pyramid.BREAK_KEYS,
        "shot": free_pyramid.SHOT_KEYS,
        "foul": free_pyramid.FOUL_KEYS,
        "choice": free_pyramid.OPTION_KEYS,
        "rerack": free_pyramid.OPTION_KEYS,
        "time_expired": free_pyramid.TIME_KEYS,
        "forfeit": FORFEIT_KEYS,
    },
    "duplex": {
        "break": duplex.BREAK_KEYS,
        "shot": duplex.SHOT_KEYS,
        "foul": duplex.FOUL_KEYS,
        "penalty_removal": duplex.REMOVAL_KEYS,
        "choice": duplex.OPTION_KEYS,
        "choose_breaker": duplex.BREAKER_KEYS,
        # Handled only to be refused (unexpected_event): Duplex has no time-limit rule.
        "time_expired": duplex.TIME_KEYS,
        "forfeit": FORFEIT_KEYS,
    },
}


def event_component_name(event_type: str) -> str:
    return "".join(part.title() for part in event_type.split("_")) + "Event"


def event_schemas() -> dict[str, Schema]:
    """One schema per event type (component name -> schema), each with its `type` as a
    one-value enum: together a union discriminated on `type`."""
    out: dict[str, Schema] = {}
    for event_type, (fields, required, description) in _EVENT_FIELDS.items():
        schema = _obj(
            {"type": {"type": "string", "enum": [event_type]}, **fields}, ["type", *required]
        )
        disciplines = [d for d in DISCIPLINES if event_type in ENGINE_EVENT_KEYS[d]]
        schema["description"] = f"{description} Disciplines: {', '.join(disciplines)}."
        out[event_component_name(event_type)] = schema
    return out


def event_union(ref_prefix: str = "#/components/schemas/") -> Schema:
    names = {t: event_component_name(t) for t in _EVENT_FIELDS}
    return {
        "oneOf": [{"$ref": ref_prefix + n} for n in names.values()],
        "discriminator": {
            "propertyName": "type",
            "mapping": {t: ref_prefix + n for t, n in names.items()},
        },
    }


# --- state -----------------------------------------------------------------------------------

STATS: Schema = _obj(
    {
        p: _obj(
            dict.fromkeys(("pocketed", "fouls", "best_run", "current_run"), COUNT),
            ["pocketed", "fouls", "best_run", "current_run"],
        )
        for p in PLAYERS
    },
    list(PLAYERS),
)

_COMMON_STATE: dict[str, Schema] = {
    "events": {**COUNT, "description": "Events applied."},
    "finished": {"type": "boolean"},
    "winner": _nullable(SLOT),
    "end_reason": _nullable(_enum((*END_REASONS, *RESULT_END_REASONS))),
    "turn": _nullable(SLOT),
    "awaiting": {
        **_nullable({"type": "string", "enum": list(AWAITING)}),
        "description": "What the engine waits for; null once finished.",
    },
    "to_spot": COUNT,
    "options": {"type": "array", "items": {"type": "string", "enum": list(OPTIONS)}},
    "breaker": SLOT,
    "offender": _nullable(SLOT),
    "after_choice": _nullable({"type": "string", "enum": ["break", "shot"]}),
    "stats": STATS,
}

_STATE_FIELDS: dict[str, dict[str, Schema]] = {
    "free_pyramid": {
        "score": {**PER_PLAYER, "description": "Points in the current frame, head start in."},
        "frames": {**PER_PLAYER, "description": "Frames won."},
        "frame": {"type": "integer", "minimum": 1},
        "rack": {"type": "integer", "minimum": 1},
        "balls_on_table": {"type": "integer", "minimum": 0, "maximum": free_pyramid.FULL_TABLE},
        "debt": PER_PLAYER,
        "golden_ball": {"type": "boolean"},
        "time_expired": {"type": "boolean"},
        "play_on": _nullable(SLOT),
    },
    "duplex": {
        "frame": {"type": "integer", "minimum": 1, "maximum": 3},
        "table": {**PER_PLAYER, "description": "Balls of each colour on the table."},
        "balls_on_table": {"type": "integer", "minimum": 0, "maximum": 2 * duplex.PER_COLOUR},
        "frame_points": {"type": "array", "items": PER_PLAYER},
        "plus": PER_PLAYER,
        "minus": PER_PLAYER,
        "final": _nullable(PER_PLAYER),
        "leader": _nullable(SLOT),
    },
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
                schema = _obj(dict.fromkeys(PLAYERS, bound))
            properties[key["key"]] = {**schema, "description": key["help"]}
        out[_component("Ruleset", discipline)] = _obj(properties, ["discipline"])
    return out


def state_schemas() -> dict[str, Schema]:
    """One schema per discipline: the state after any sequence of events."""
    rulesets_by = ruleset_schemas()
    out: dict[str, Schema] = {}
    for discipline in DISCIPLINES:
        properties = {
            "discipline": {"type": "string", "enum": [discipline]},
            "ruleset": rulesets_by[_component("Ruleset", discipline)],
            **_COMMON_STATE,
            **_STATE_FIELDS[discipline],
        }
        out[_component("State", discipline)] = _obj(properties, list(properties))
    return out


def union(kind: str, ref_prefix: str = "#/components/schemas/") -> Schema:
    """``kind`` "State" or "Ruleset": a union of the disciplines' schemas on `discipline`."""
    names = {d: _component(kind, d) for d in DISCIPLINES}
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
    properties: dict[str, Schema] = {"discipline": {"type": "string", "enum": list(DISCIPLINES)}}
    for schema in ruleset_schemas().values():
        for key, value in schema["properties"].items():
            if key != "discipline":
                properties.setdefault(key, value)
    return {
        **_obj(properties),
        "description": "Ruleset keys to set; the rest come from the discipline's defaults "
        "or the current ruleset.",
    }
