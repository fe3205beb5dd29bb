"""replay / apply / initial_state: a match's state is a fold of its events."""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

from rules import registry
from rules.common import Handler, State, copy_state, state_error
from rules.errors import RuleError, finished, invalid_event
from rules.rulesets import validate_ruleset


def initial_state(ruleset: object) -> State:
    """The state before the first event; raises RuleError(code="invalid_ruleset")."""
    rs = validate_ruleset(ruleset)
    return registry.discipline(rs["discipline"]).initial_state(rs)


def _bad_type(ev: object) -> RuleError:
    if type(ev) is not dict:
        return invalid_event("", "not_object", value=ev)
    if "type" not in ev:
        return invalid_event("type", "missing")
    return invalid_event("type", "unknown_type", value=ev["type"])


def _step(st: State, handlers: Mapping[str, Handler], ev: object) -> None:
    if st["finished"]:
        raise finished(st["winner"])
    t = ev.get("type") if type(ev) is dict else None
    handler = handlers.get(t) if type(t) is str else None
    if handler is None:
        raise _bad_type(ev)
    assert type(ev) is dict
    handler(st, ev)
    st["events"] += 1


def replay(ruleset: object, events: object) -> State:
    """Fold the events over the ruleset's initial state.

    Raises RuleError for an invalid ruleset (index None) or the first impossible event
    (``.index`` is its position). One working state is mutated in place: handlers check an
    event completely before they change anything.
    """
    st = initial_state(ruleset)
    if type(events) is not list and type(events) is not tuple:
        raise invalid_event("events", "wrong_type", value=events, expected="list")
    handlers = registry.discipline(st["discipline"]).handlers
    for i, ev in enumerate(events):
        try:
            # _step inlined: this loop is the hot path.
            if st["finished"]:
                raise finished(st["winner"])
            t = ev.get("type") if type(ev) is dict else None
            handler = handlers.get(t) if type(t) is str else None
            if handler is None:
                raise _bad_type(ev)
            handler(st, ev)
            st["events"] += 1
        except RuleError as err:
            err.index = i
            raise
    return st


def apply(state: object, event: object) -> State:
    """Apply one event; returns a new state and never changes ``state``."""
    if type(state) is not dict:
        raise state_error("state")
    d = registry.find(state.get("discipline"))
    if d is None:
        raise state_error("discipline")
    st = cast(State, copy_state(state))
    try:
        _step(st, d.handlers, event)
    except (KeyError, TypeError, AttributeError, IndexError) as exc:
        # Only a hand-made or corrupted state gets here; engine states are complete.
        raise state_error(str(exc)[:40]) from exc
    return st
