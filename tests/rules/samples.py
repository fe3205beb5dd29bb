"""What the registry-driven tests play: every registered discipline and the made-up ones of
tests/rules (registered around the test), each with its sample rulesets
(Discipline.sample_rulesets). A new discipline gets the property, fuzz, finishing, view,
contract and words tests by being registered; nothing here names one."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

import rules
from rules import registry
from tests.rules.toy_discipline import ToyRace
from tests.rules.toy_scratch import ToyScratch

# Made up by the tests: a toss of its own (an extra event type) and a field added to the shot.
MADE_UP: tuple[rules.Discipline, ...] = (ToyRace(), ToyScratch())


def every_discipline() -> tuple[rules.Discipline, ...]:
    """The registered disciplines, then the made-up ones (not registered at import)."""
    registered = rules.disciplines()
    names = {d.name for d in registered}
    return (*registered, *(d for d in MADE_UP if d.name not in names))


def sample_rulesets() -> list[Any]:
    """Every discipline's sample rulesets as pytest params, with ids "<discipline>-<name>"."""
    return [
        pytest.param(ruleset, id=f"{d.name}-{name}")
        for d in every_discipline()
        for name, ruleset in d.sample_rulesets().items()
    ]


def sample_list() -> list[dict[str, Any]]:
    """The same rulesets as plain values (for Hypothesis' sampled_from)."""
    return [ruleset for d in every_discipline() for ruleset in d.sample_rulesets().values()]


def ruleset_of(name: str) -> dict[str, Any]:
    """A discipline's first sample ruleset: a valid one even where a key has no default
    (classic pyramid's penalty, which the regulation must state)."""
    d = next(d for d in every_discipline() if d.name == name)
    return dict(next(iter(d.sample_rulesets().values())))


def names() -> list[str]:
    return [d.name for d in every_discipline()]


@contextmanager
def made_up_registered() -> Iterator[None]:
    """The made-up disciplines registered for the block (those not registered already)."""
    added = [d for d in MADE_UP if registry.find(d.name) is None]
    for d in added:
        rules.register(d)
    try:
        yield
    finally:
        for d in added:
            rules.unregister(d.name)
