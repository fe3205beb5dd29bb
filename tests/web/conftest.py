"""Fixtures of the page tests: logged-in clients and tournaments made by the real services."""

from __future__ import annotations

import pytest

from tests.web.helpers import drawn_tournament, finish_tournament, make_tournament


@pytest.fixture
def organiser_client(client, organiser):
    client.force_login(organiser)
    return client


@pytest.fixture
def referee_client(referee):
    from django.test import Client

    client = Client()
    client.force_login(referee)
    return client


@pytest.fixture
def open_tournament(db, organiser, referee):
    return make_tournament(organiser, referee=referee, entry_fee="1000")


@pytest.fixture
def drawn(db, organiser, referee):
    """8 paid players, single elimination with a third-place match, drawn by rating."""
    return drawn_tournament(
        organiser,
        8,
        referee=referee,
        entry_fee="1000",
        format="single",
        third_place="match",
        chief_judge="Сергеев А. В.",
    )


@pytest.fixture
def finished(drawn, referee):
    finish_tournament(drawn, referee)
    drawn.refresh_from_db()
    return drawn


@pytest.fixture(autouse=True)
def _english(settings):
    """Assertions read the English source strings, whatever the Russian catalogue says."""
    settings.LANGUAGE_CODE = "en"
