"""Luza's rules engine for Russian billiards: pure Python, no Django, no I/O, no clock.

A match's state is a fold of its events: ``state = replay(ruleset, events)``;
``apply(state, event)`` returns a new state or raises RuleError. See docs/rules-engine.md.
"""

from __future__ import annotations

from rules.engine import apply, initial_state, replay
from rules.errors import ERROR_CODES, RuleError
from rules.fouls import FOUL_CODES, FOUL_EVENT_CODES, SHOT_FOUL_CODES
from rules.in_force import RulesInForce, rules_in_force
from rules.rulesets import rulesets, validate_ruleset

__all__ = [
    "ERROR_CODES",
    "FOUL_CODES",
    "FOUL_EVENT_CODES",
    "SHOT_FOUL_CODES",
    "RuleError",
    "RulesInForce",
    "apply",
    "initial_state",
    "replay",
    "rules_in_force",
    "rulesets",
    "validate_ruleset",
]
