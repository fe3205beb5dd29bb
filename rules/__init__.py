"""Luza's rules engine for Russian billiards: pure Python, no Django, no I/O, no clock.

A match's state is a fold of its events: ``state = replay(ruleset, events)``;
``apply(state, event)`` returns a new state or raises RuleError. Each discipline is an object
in a registry (``discipline(name)``, ``disciplines()``, ``register``) that the product asks
instead of testing its name: its state view, its result score, what the referee enters, its
words. See docs/rules-engine.md.
"""

from __future__ import annotations

from typing import Any

from rules import disciplines as _builtin  # noqa: F401 (registers free pyramid and Duplex)
from rules.describe import Entry, EventKind, ScoreSummary, StateView, build_event
from rules.engine import apply, initial_state, replay
from rules.errors import ERROR_CODES, RuleError
from rules.finishing import finishing_values
from rules.fouls import FOUL_CODES, FOUL_EVENT_CODES, SHOT_FOUL_CODES
from rules.in_force import RulesInForce, rules_in_force
from rules.registry import (
    Discipline,
    UnknownDiscipline,
    default,
    discipline,
    disciplines,
    of_state,
    register,
    registered,
    unregister,
)
from rules.rulesets import rulesets, validate_ruleset
from rules.words import Text, render, render_all


def state_view(state: dict[str, Any]) -> StateView:
    """What a page shows of any state (its discipline's view); an empty state is the default
    discipline's empty view."""
    return of_state(state).state_view(state)


def score_summary(state: dict[str, Any]) -> ScoreSummary:
    """The figures a scoreboard shows, whatever the discipline: {"score", "frames"}."""
    return of_state(state).score_summary(state)


def entry(state: dict[str, Any]) -> Entry:
    """What the referee may enter now in this state."""
    return of_state(state).entry(state)


__all__ = [
    "ERROR_CODES",
    "FOUL_CODES",
    "FOUL_EVENT_CODES",
    "SHOT_FOUL_CODES",
    "Discipline",
    "Entry",
    "EventKind",
    "RuleError",
    "RulesInForce",
    "ScoreSummary",
    "StateView",
    "Text",
    "UnknownDiscipline",
    "apply",
    "build_event",
    "default",
    "discipline",
    "disciplines",
    "entry",
    "finishing_values",
    "initial_state",
    "of_state",
    "register",
    "registered",
    "render",
    "render_all",
    "replay",
    "rules_in_force",
    "rulesets",
    "score_summary",
    "state_view",
    "unregister",
    "validate_ruleset",
]
