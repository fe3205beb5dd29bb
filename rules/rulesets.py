"""Ruleset keys per discipline: description, defaults and validation."""

from __future__ import annotations

import copy
from typing import Any

from rules.errors import invalid_ruleset, short

PLAYERS = ("a", "b")

_FREE_PYRAMID: list[dict[str, Any]] = [
    {
        "key": "balls_to_win",
        "type": "int",
        "default": 30,
        "min": 1,
        "max": 200,
        "help": "Points that win a frame (30 in the regulation R, 8 in a classic frame).",
    },
    {
        "key": "frames_to_win",
        "type": "int",
        "default": 1,
        "min": 1,
        "max": 25,
        "help": "Frames that win the match; frames are broken alternately (G13).",
    },
    {
        "key": "continuation",
        "type": "bool",
        "default": True,
        "help": "R 'with continuation': re-rack when 2 or fewer balls are left.",
    },
    {
        "key": "head_start",
        "type": "per_player_int",
        "default": {"a": 0, "b": 0},
        "min": 0,
        "max": 199,
        "help": "Handicap points each player has at the start of every frame (R); "
        "each must be less than balls_to_win.",
    },
    {
        "key": "penalty",
        "type": "choice",
        "default": "shelf_to_table",
        "choices": ["shelf_to_table", "opponent_takes"],
        "help": "shelf_to_table (R): a ball goes from the offender's shelf to the table, "
        "or becomes a debt; opponent_takes: the opponent takes a ball from the table (+1).",
    },
    {
        "key": "direct_call",
        "type": "bool",
        "default": True,
        "help": "R 'without fools': after the break only balls pocketed directly count.",
    },
    {
        "key": "strict_break",
        "type": "bool",
        "default": True,
        "help": "R strict break criteria (true) or G12.1 criteria (false) for a legal break; "
        "either way a failed break is a foul with the G12.2 options.",
    },
    {
        "key": "first_break",
        "type": "choice",
        "default": "a",
        "choices": ["a", "b"],
        "help": "Who breaks frame 1; frames alternate (G13).",
    },
]

_DUPLEX: list[dict[str, Any]] = [
    {
        "key": "first_break",
        "type": "choice",
        "default": "a",
        "choices": ["a", "b"],
        "help": "Who breaks frame 1 (with his colour's cue ball, D4.4); frame 2 alternates.",
    },
]

_SPECS: dict[str, list[dict[str, Any]]] = {"free_pyramid": _FREE_PYRAMID, "duplex": _DUPLEX}


def rulesets() -> dict[str, dict[str, Any]]:
    """Each discipline's ruleset keys with types, defaults and allowed values (JSON-able)."""
    return {name: {"keys": copy.deepcopy(keys)} for name, keys in _SPECS.items()}


def _check_int(key: str, value: object, lo: int, hi: int) -> int:
    # bool is an int in Python but never a count in a ruleset.
    if type(value) is not int:
        raise invalid_ruleset(
            key,
            "wrong_type",
            f"'{key}' must be an integer, got {short(value)}",
            expected="int",
        )
    if not lo <= value <= hi:
        raise invalid_ruleset(
            key,
            "out_of_range",
            f"'{key}' must be between {lo} and {hi}, got {short(value)}",
            min=lo,
            max=hi,
        )
    return value


def _check_value(spec: dict[str, Any], value: object) -> Any:
    key: str = spec["key"]
    kind = spec["type"]
    if kind == "int":
        return _check_int(key, value, spec["min"], spec["max"])
    if kind == "bool":
        if type(value) is not bool:
            raise invalid_ruleset(
                key,
                "wrong_type",
                f"'{key}' must be true or false, got {short(value)}",
                expected="bool",
            )
        return value
    if kind == "choice":
        choices: list[str] = spec["choices"]
        if type(value) is not str or value not in choices:
            raise invalid_ruleset(
                key,
                "bad_value",
                f"'{key}' must be one of {', '.join(choices)}, got {short(value)}",
                allowed=list(choices),
            )
        return value
    # per_player_int: {"a": n, "b": n}; a missing player gets 0.
    if type(value) is not dict:
        raise invalid_ruleset(
            key,
            "wrong_type",
            f'\'{key}\' must be an object like {{"a": 0, "b": 0}}, got {short(value)}',
            expected="object",
        )
    for k in value:
        if k not in PLAYERS:
            raise invalid_ruleset(
                f"{key}.{short(k)}" if type(k) is not str else f"{key}.{k}",
                "unknown_key",
                f"'{key}' has an unknown player {short(k)}",
                allowed=list(PLAYERS),
            )
    return {p: _check_int(f"{key}.{p}", value.get(p, 0), spec["min"], spec["max"]) for p in PLAYERS}


def validate_ruleset(ruleset: object) -> dict[str, Any]:
    """Return the complete normalised ruleset or raise RuleError(code="invalid_ruleset")."""
    if type(ruleset) is not dict:
        raise invalid_ruleset(
            "",
            "wrong_type",
            f"a ruleset must be an object, got {short(ruleset)}",
            expected="object",
        )
    if "discipline" not in ruleset:
        raise invalid_ruleset("discipline", "missing", "'discipline' is required")
    discipline = ruleset["discipline"]
    if type(discipline) is not str or discipline not in _SPECS:
        raise invalid_ruleset(
            "discipline",
            "bad_value",
            f"unknown discipline {short(discipline)}",
            allowed=list(_SPECS),
        )
    specs = _SPECS[discipline]
    known = {spec["key"] for spec in specs}
    for key in ruleset:
        if key != "discipline" and key not in known:
            name = key if type(key) is str else short(key)
            raise invalid_ruleset(
                name,
                "unknown_key",
                f"unknown key {short(key)} for {discipline}",
                allowed=sorted(known),
            )
    out: dict[str, Any] = {"discipline": discipline}
    for spec in specs:
        key = spec["key"]
        value = ruleset[key] if key in ruleset else copy.deepcopy(spec["default"])
        out[key] = _check_value(spec, value)
    head = out.get("head_start")
    if head is not None:
        for p in PLAYERS:
            if head[p] >= out["balls_to_win"]:
                raise invalid_ruleset(
                    f"head_start.{p}",
                    "out_of_range",
                    f"head start of {p} ({head[p]}) must be less than balls_to_win "
                    f"({out['balls_to_win']})",
                    min=0,
                    max=out["balls_to_win"] - 1,
                )
    return out
