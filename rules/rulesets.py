"""Ruleset keys per discipline (each discipline's ``ruleset_keys``): description, defaults and
validation."""

from __future__ import annotations

import copy
from typing import Any

from rules import registry
from rules.common import PLAYERS, check_frames_credit
from rules.errors import invalid_ruleset, short


def rulesets() -> dict[str, dict[str, Any]]:
    """Each discipline's ruleset keys with types, defaults and allowed values (JSON-able)."""
    return {d.name: {"keys": copy.deepcopy(list(d.ruleset_keys))} for d in registry.disciplines()}


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
    d = registry.find(discipline) if type(discipline) is str else None
    if d is None:
        raise invalid_ruleset(
            "discipline",
            "bad_value",
            f"unknown discipline {short(discipline)}",
            allowed=list(registry.names()),
        )
    specs = d.ruleset_keys
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
        if key not in ruleset and spec.get("required"):
            # A key no rule text fixes (classic pyramid's penalty): the regulation must say it.
            raise invalid_ruleset(
                key, "missing", f"'{key}' is required for {discipline}: the regulation sets it"
            )
        value = ruleset[key] if key in ruleset else copy.deepcopy(spec["default"])
        out[key] = _check_value(spec, value)
    # Shared by every discipline that declares the key (a race of frames).
    check_frames_credit(out)
    d.check_ruleset(out)
    return out
