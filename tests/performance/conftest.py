"""Fixtures of the HTTP caching tests: a drawn tournament and its first match, made by the real
services (tests.web.helpers); English so that assertions read the source strings."""

from __future__ import annotations

import pytest

from tests.web.helpers import drawn_tournament, first_ready


@pytest.fixture(autouse=True)
def _english(settings):
    settings.LANGUAGE_CODE = "en"


@pytest.fixture
def drawn(db, organiser, referee):
    """8 paid players, double elimination, drawn by rating."""
    return drawn_tournament(organiser, 8, referee=referee, format="double")


@pytest.fixture
def first_match(drawn):
    return first_ready(drawn)
