"""Fixtures of the rules engine's tests (no Django)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.rules.samples import made_up_registered


@pytest.fixture(scope="module")
def made_up() -> Iterator[None]:
    """For a module of registry-driven tests: the made-up disciplines of tests/rules
    registered while it runs (module-scoped, so that Hypothesis' tests may use it)."""
    with made_up_registered():
        yield
