"""Event builders and shared settings for the rules engine tests (no Django, no database)."""

from __future__ import annotations

import os
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

import rules

Event = dict[str, Any]

# Derandomized by default so CI is stable; RULES_HYPOTHESIS_EXPLORE=1 explores more and at random.
EXPLORE = os.environ.get("RULES_HYPOTHESIS_EXPLORE") == "1"


def hypothesis_settings(examples: int) -> settings:
    return settings(
        max_examples=examples * 10 if EXPLORE else examples,
        deadline=None,
        derandomize=not EXPLORE,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


def fp(**keys: Any) -> dict[str, Any]:
    """A free pyramid ruleset: the regulation R's defaults plus the given keys."""
    return {"discipline": "free_pyramid", **keys}


def dx(**keys: Any) -> dict[str, Any]:
    return {"discipline": "duplex", **keys}


def brk(p: str, pocketed: Any = 0, legal: bool = True) -> Event:
    return {"type": "break", "player": p, "legal": legal, "pocketed": pocketed}


def shot(p: str, pocketed: Any = 0, fools: int = 0, off: int = 0, foul: str | None = None) -> Event:
    ev: Event = {"type": "shot", "player": p, "pocketed": pocketed}
    if fools:
        ev["fools"] = fools
    if off:
        ev["off_table"] = off
    if foul:
        ev["foul"] = foul
    return ev


def pots(p: str, k: int) -> list[Event]:
    """k shots by p that each pocket one ball."""
    return [shot(p, 1) for _ in range(k)]


def choice(p: str, option: str) -> Event:
    return {"type": "choice", "player": p, "option": option}


def rerack(p: str, option: str) -> Event:
    return {"type": "rerack", "player": p, "option": option}


def foul(p: str, code: str) -> Event:
    return {"type": "foul", "player": p, "foul": code}


def removal(p: str, colour: str) -> Event:
    return {"type": "penalty_removal", "player": p, "colour": colour}


def breaker(p: str, who: str) -> Event:
    return {"type": "choose_breaker", "player": p, "breaker": who}


TIME: Event = {"type": "time_expired"}


def play(ruleset: dict[str, Any], events: list[Event]) -> dict[str, Any]:
    return rules.replay(ruleset, events)


def rejects(ruleset: dict[str, Any], events: list[Event], code: str) -> rules.RuleError:
    """The last event must be refused with `code`, and leave the previous state unchanged."""
    before = rules.replay(ruleset, events[:-1])
    with pytest.raises(rules.RuleError) as info:
        rules.apply(before, events[-1])
    assert info.value.code == code, info.value
    assert rules.replay(ruleset, events[:-1]) == before
    with pytest.raises(rules.RuleError) as again:
        rules.replay(ruleset, events)
    assert again.value.code == code
    assert again.value.index == len(events) - 1
    return info.value
