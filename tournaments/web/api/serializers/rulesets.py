"""The rules engine's settings as the tournaments API shows and takes them: a tournament's
ruleset, a change to it, its per-stage overrides, a match's effective ruleset. The components
named here are added to the schema by config.schema from the engine's contract."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from config.serializers import component


@extend_schema_field(component("RulesetChange"))
class RulesetChangeField(serializers.JSONField):
    """Keys of the rules engine to set (validated by the engine with the other settings)."""


@extend_schema_field(component("Ruleset"))
class RulesetField(serializers.JSONField):
    pass


_STAGE_RULES: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "balls_to_win": {"type": "integer", "minimum": 1, "maximum": 200},
        "frames_to_win": {"type": "integer", "minimum": 1, "maximum": 25},
        "time_limit_minutes": {"type": ["integer", "null"], "minimum": 1, "maximum": 600},
        "pair_race": {
            "type": "object",
            "description": "The race by the pair's ratings: bands of their sum or difference, "
            "each up to a figure (inclusive; the last open), setting frames_to_win and/or "
            "balls_to_win.",
            "additionalProperties": False,
            "required": ["by", "bands"],
            "properties": {
                "by": {"type": "string", "enum": ["sum", "difference"]},
                "bands": {
                    "type": "array",
                    "minItems": 1,
                    "maxItems": 10,
                    "items": {
                        "type": "object",
                        "additionalProperties": False,
                        "properties": {
                            "up_to": {"type": ["integer", "null"], "minimum": 0, "maximum": 10000},
                            "frames_to_win": {"type": "integer", "minimum": 1, "maximum": 200},
                            "balls_to_win": {"type": "integer", "minimum": 1, "maximum": 200},
                        },
                    },
                },
            },
        },
    },
}


@extend_schema_field(component("MatchRuleset"))
class MatchRulesetField(serializers.JSONField):
    """A match's effective ruleset (empty while its players are not known)."""


@extend_schema_field(
    {
        "type": "object",
        "additionalProperties": False,
        "properties": dict.fromkeys(("upper", "lower", "playoff", "group"), _STAGE_RULES),
        "description": "Per stage: the race and the time limit that override the tournament's.",
    }
)
class StageRulesField(serializers.JSONField):
    pass
