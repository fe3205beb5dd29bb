"""The engine's one error type and its stable codes.

The Django layer translates an error by ``code`` and ``params``, so both are part of the
contract: add params if needed, never rename or remove them.
"""

from __future__ import annotations

import json
from typing import Any

ERROR_CODES: dict[str, dict[str, Any]] = {
    "finished": {
        "help": "An event after the end of the match.",
        "params": ["winner"],
    },
    "unexpected_event": {
        "help": "The event does not fit what the engine awaits now.",
        "params": ["type", "awaiting"],
    },
    "out_of_turn": {
        "help": "The event's player is not the player to act.",
        "params": ["player", "turn"],
    },
    "too_many_balls": {
        "help": "More balls pocketed, fooled, off the table or removed than the table holds "
        "(in Duplex: of one colour, then 'colour' is set).",
        "params": ["pocketed", "on_table", "colour"],
    },
    "invalid_event": {
        "help": "A malformed event: not an object, unknown type or key, wrong type, "
        "negative count, bad or unavailable option.",
        "params": ["field", "reason", "expected", "allowed", "max"],
    },
    "invalid_ruleset": {
        "help": "A ruleset with a missing, unknown, mistyped or out-of-range key.",
        "params": ["key", "reason", "expected", "min", "max", "allowed"],
    },
    "invalid_state": {
        "help": "apply() was given something that is not an engine state.",
        "params": ["field"],
    },
}


class RuleError(ValueError):
    """An impossible event, ruleset or state, said in words (English) and by code."""

    def __init__(
        self,
        code: str,
        message: str,
        params: dict[str, Any] | None = None,
        index: int | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params: dict[str, Any] = params if params is not None else {}
        # Position of the offending event in replay(); None for apply() and rulesets.
        self.index = index

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "code": self.code,
            "message": self.message,
            "params": self.params,
        }

    def __repr__(self) -> str:
        return f"RuleError({self.code!r}, {self.message!r}, {self.params!r})"


def short(value: object) -> str:
    """A bounded rendering of any input value for messages (JSON where possible)."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        try:
            text = repr(value)
        except (ValueError, RecursionError):  # e.g. an int beyond the str conversion limit
            text = f"<{type(value).__name__}>"
    return text if len(text) <= 40 else text[:37] + "..."


_EVENT_REASONS = {
    "not_object": "an event must be a JSON object",
    "missing": "field '{field}' is required",
    "unknown_key": "unknown field '{field}'",
    "unknown_type": "unknown event type {value}",
    "wrong_type": "field '{field}' must be {expected}",
    "negative": "field '{field}' must not be negative",
    "too_large": "field '{field}' must be at most {maximum}",
    "bad_value": "field '{field}' must be one of: {allowed}",
    "not_available": "{value} is not available now; allowed: {allowed}",
}


# The `expected` param is a token; these are its English words.
_EXPECTED = {
    "count": "a non-negative integer",
    "bool": "true or false",
    "colours": 'an object like {"a": 1, "b": 0}',
    "list": "a list of events",
}


def invalid_event(
    field: str,
    reason: str,
    *,
    value: object = None,
    expected: str | None = None,
    allowed: list[str] | None = None,
    maximum: int | None = None,
) -> RuleError:
    params: dict[str, Any] = {"field": field, "reason": reason}
    if expected is not None:
        params["expected"] = expected
    if allowed is not None:
        params["allowed"] = list(allowed)
    if maximum is not None:
        params["max"] = maximum
    text = _EVENT_REASONS[reason].format(
        field=field,
        value=short(value),
        expected=_EXPECTED.get(expected or "", expected),
        allowed=", ".join(allowed or []),
        maximum=maximum,
    )
    return RuleError("invalid_event", "Invalid event: " + text + ".", params)


def unexpected(event_type: str, awaiting: str | None) -> RuleError:
    return RuleError(
        "unexpected_event",
        f"A '{event_type}' event is not expected now: the engine awaits '{awaiting}'.",
        {"type": event_type, "awaiting": awaiting},
    )


def out_of_turn(player: str, turn: str | None) -> RuleError:
    return RuleError(
        "out_of_turn",
        f"Player {player} cannot act now: it is {turn}'s turn.",
        {"player": player, "turn": turn},
    )


def too_many(pocketed: int, on_table: int, colour: str | None = None) -> RuleError:
    params: dict[str, Any] = {"pocketed": pocketed, "on_table": on_table}
    if colour is None:
        where = f"{on_table} are on the table"
    else:
        params["colour"] = colour
        where = f"{on_table} of colour {colour} are on the table"
    return RuleError(
        "too_many_balls",
        f"{pocketed} balls pocketed, removed or off the table, but only {where}.",
        params,
    )


def finished(winner: str | None) -> RuleError:
    return RuleError(
        "finished",
        f"The match is finished (winner: {winner}); no more events are accepted.",
        {"winner": winner},
    )


def invalid_ruleset(
    key: str,
    reason: str,
    message: str,
    **extra: Any,
) -> RuleError:
    params: dict[str, Any] = {"key": key, "reason": reason}
    params.update(extra)
    return RuleError("invalid_ruleset", f"Invalid ruleset: {message}.", params)
