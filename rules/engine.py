"""replay / apply / initial_state: a match's state is a fold of its events."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from rules import duplex, free_pyramid
from rules.common import Handler, State, copy_state, state_error
from rules.errors import RuleError, finished, invalid_event
from rules.rulesets import validate_ruleset

_DISCIPLINES: dict[str, tuple[Callable[[dict[str, Any]], State], dict[str, Handler]]] = {
    "free_pyramid": (free_pyramid.initial_state, free_pyramid.HANDLERS),
    "duplex": (duplex.initial_state, duplex.HANDLERS),
}


def initial_state(ruleset: object) -> State:
    """The state before the first event; raises RuleError(code="invalid_ruleset")."""
    rs = validate_ruleset(ruleset)
    return _DISCIPLINES[rs["discipline"]][0](rs)


def _bad_type(ev: object) -> RuleError:
    if type(ev) is not dict:
        return invalid_event("", "not_object", value=ev)
    if "type" not in ev:
        return invalid_event("type", "missing")
    return invalid_event("type", "unknown_type", value=ev["type"])


def _step(st: State, handlers: dict[str, Handler], ev: object) -> None:
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
    handlers = _DISCIPLINES[st["discipline"]][1]
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
    discipline = state.get("discipline")
    entry = _DISCIPLINES.get(discipline) if type(discipline) is str else None
    if entry is None:
        raise state_error("discipline")
    st = cast(State, copy_state(state))
    try:
        _step(st, entry[1], event)
    except (KeyError, TypeError, AttributeError, IndexError) as exc:
        # Only a hand-made or corrupted state gets here; engine states are complete.
        raise state_error(str(exc)[:40]) from exc
    return st
