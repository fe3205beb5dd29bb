"""What several of the attacker's tests start from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.factories import OrganiserFactory
from tests.world import ensure_role_groups, make_tournament
from tournaments.models import Tournament


@dataclass
class Desk:
    """An organiser with a tournament open for registration, signed in to the API and the
    panel."""

    organiser: Any
    tournament: Tournament
    api: APIClient
    page: Client


@pytest.fixture
def desk(db) -> Desk:
    ensure_role_groups()
    organiser = OrganiserFactory()
    tournament = make_tournament(organiser, name="Турнир организатора")
    api = APIClient()
    api.force_authenticate(organiser)
    page = Client()
    page.force_login(organiser)
    return Desk(organiser=organiser, tournament=tournament, api=api, page=page)
