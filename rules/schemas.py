"""JSON Schema pieces (OpenAPI 3.0 flavour) and the pyramid family's event vocabulary.

Every event type any discipline of the family handles, with its fields. A discipline handles
some of them, accepting a subset of their keys (its ``event_keys``, checked when it is
registered). What a discipline adds is declared in its class, not here: a field of its own on
one of these types in ``Discipline.extra_event_fields``, an event type of its own with its
spec in ``Discipline.extra_events``. rules/contract.py builds the published schemas from this
and the registry.
"""

from __future__ import annotations

from typing import Any

from rules.common import BREAK_OPTIONS, MAX_COUNT, PLAYERS
from rules.fouls import CUE_BALL_FOUL_CODES, FOUL_EVENT_CODES, SHOT_FOUL_CODES
from rules.free_pyramid import RERACK_OPTIONS

Schema = dict[str, Any]


def nullable(schema: Schema) -> Schema:
    out = {**schema, "nullable": True}
    if "enum" in out:
        out["enum"] = [*out["enum"], None]
    return out


def obj(properties: dict[str, Schema], required: list[str] | None = None) -> Schema:
    schema: Schema = {
        "type": "object",
        "properties": properties,
        "additionalProperties": False,
    }
    if required:
        schema["required"] = required
    return schema


def enum(values: Any) -> Schema:
    return {"type": "string", "enum": sorted(values)}


SLOT: Schema = {"type": "string", "enum": list(PLAYERS), "description": "a player: a or b"}
COUNT: Schema = {"type": "integer", "minimum": 0, "maximum": MAX_COUNT}
PER_PLAYER: Schema = obj({"a": {"type": "integer"}, "b": {"type": "integer"}}, ["a", "b"])
# Classic pyramid's numbered balls (C2): a list of numbers 1-15, each at most once.
NUMBERS: Schema = {
    "type": "array",
    "items": {"type": "integer", "minimum": 1, "maximum": 15},
    "maxItems": 15,
    "description": "Classic pyramid: the numbers of the balls.",
}
COLOURS: Schema = {
    **obj({"a": COUNT, "b": COUNT}),
    "description": "Balls of each colour (Duplex); a missing colour is 0.",
}

# The state fields of the lag (rules.common.on_lag) every discipline with one keeps.
LAG_STATE_FIELDS: dict[str, Schema] = {
    "first_breaker": {**SLOT, "description": "Who breaks frame 1: the lag or first_break."},
    "lag": nullable(
        {
            **obj({"winner": SLOT, "breaker": SLOT}, ["winner", "breaker"]),
            "description": "The lag as recorded; null when the ruleset's first_break decided.",
        }
    ),
}

# Each event type: its fields (beside "type"), which are required, and a description; a field
# whose shape differs per discipline (a shot's "pocketed") is a oneOf.
EVENT_FIELDS: dict[str, tuple[dict[str, Schema], list[str], str]] = {
    "break": (
        {
            "player": SLOT,
            "legal": {"type": "boolean"},
            "pocketed": {
                "oneOf": [COUNT, COLOURS, NUMBERS],
                "description": "Free pyramid: a count; Duplex: balls per colour; classic "
                "pyramid: the balls' numbers. Missing: 0 (none).",
            },
        },
        ["player", "legal"],
        "The break; an illegal break is a foul (G12.1).",
    ),
    "shot": (
        {
            "player": SLOT,
            "pocketed": {
                "oneOf": [COUNT, COLOURS, NUMBERS],
                "description": "Balls pocketed legally. Free pyramid: a count; Duplex: balls "
                "per colour; classic pyramid: the balls' numbers. Missing: 0 (none).",
            },
            "fools": {**COUNT, "description": "Free pyramid only: balls that fell otherwise."},
            "off_table": {
                "oneOf": [COUNT, NUMBERS],
                "description": "Balls that left the table (classic pyramid: their numbers).",
            },
            "foul": nullable(enum(SHOT_FOUL_CODES | CUE_BALL_FOUL_CODES)),
        },
        ["player"],
        "One shot.",
    ),
    "foul": (
        {"player": SLOT, "foul": enum(FOUL_EVENT_CODES)},
        ["player", "foul"],
        "A foul outside a shot; `player` is the offender.",
    ),
    "choice": (
        {"player": SLOT, "option": enum(BREAK_OPTIONS)},
        ["player", "option"],
        "The non-offender's choice after a foul or a fool (rebreak_* after an illegal break).",
    ),
    "rerack": (
        {"player": SLOT, "option": enum(RERACK_OPTIONS)},
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
    "lag": (
        {"winner": SLOT, "breaker": SLOT},
        ["winner", "breaker"],
        "The lag (G7.1, G7.4): who won it and who breaks frame 1 (the winner or, if he gives "
        "the break, the other player). Only as the first event; without it the ruleset's "
        "first_break decides.",
    ),
    "time_expired": (
        {},
        [],
        "The net time is up (sent by the match clock); Duplex refuses it (no time-limit rule).",
    ),
    "forfeit": ({"player": SLOT}, ["player"], "The player concedes or is disqualified."),
}
