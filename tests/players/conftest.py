"""Fixtures of the players' side tests."""

from __future__ import annotations

import pytest


@pytest.fixture
def org_api(organiser):
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_authenticate(organiser)
    return client
