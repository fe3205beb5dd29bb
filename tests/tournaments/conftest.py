"""Fixtures of the tournaments tests: clients per role and drawn tournaments."""

from __future__ import annotations

import pytest

from tests.factories import OrganiserFactory, UserFactory
from tests.tournaments.factories import register
from tournaments import services


@pytest.fixture
def org_api(organiser):
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_authenticate(organiser)
    return client


@pytest.fixture
def other_organiser(db):
    return OrganiserFactory()


@pytest.fixture
def drawn(tournament, organiser):
    """A double-elimination tournament of 8 (single grand final), drawn by rating."""

    def make(count: int = 8, **settings):
        for field, value in settings.items():
            setattr(tournament, field, value)
        tournament.save()
        register(tournament, count)
        return services.tournament_draw(tournament=tournament, actor=organiser, method="seeded")

    return make


@pytest.fixture
def scorer(referee):
    """The API client of the tournament's referee."""
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_authenticate(referee)
    return client


@pytest.fixture
def bracket(drawn, tournament):
    """A double elimination of 8, race to 10 without head starts."""
    drawn(8, ruleset={"discipline": "free_pyramid", "balls_to_win": 10}, handicap_scheme="none")
    return tournament


@pytest.fixture
def superuser(db):
    return UserFactory(is_superuser=True, is_staff=True)


@pytest.fixture
def superuser_api(superuser):
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_authenticate(superuser)
    return client
