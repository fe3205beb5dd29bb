"""A token the standard way: a password exchanged for a token, its expiry and revocation."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.test import override_settings
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from audit.models import AuditEntry
from tests.factories import OrganiserFactory, RefereeFactory, UserFactory

pytestmark = pytest.mark.django_db

URL = "/api/v1/auth/token/"
PASSWORD = "correct-horse-battery"  # the factories'


@pytest.fixture(autouse=True)
def _fresh_counts() -> None:
    cache.clear()  # the throttle's windows of earlier tests


def exchange(username: str, password: str = PASSWORD):
    return APIClient().post(URL, {"username": username, "password": password}, format="json")


def test_from_nothing_to_a_first_write_and_a_revocation() -> None:
    organiser = OrganiserFactory()
    issued = exchange(organiser.username)
    assert issued.status_code == 201, issued.json()
    body = issued.json()
    assert body["expires"].endswith("Z") and issued["Cache-Control"] == "no-store"
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {body['token']}")
    write = api.post("/api/v1/players/", {"name": "Лебедев Пётр"}, format="json")
    assert write.status_code == 201
    assert api.delete(URL).status_code == 204
    refused = api.post("/api/v1/players/", {"name": "Орлов Иван"}, format="json")
    assert refused.status_code == 401
    assert AuditEntry.objects.filter(action="api_token_issue").count() == 1


def test_referees_get_tokens_players_do_not() -> None:
    assert exchange(RefereeFactory().username).status_code == 201
    plain = exchange(UserFactory().username)
    assert plain.status_code == 403 and plain.json()["code"] == "no_api_role"


def test_a_wrong_password_is_a_400_with_a_code() -> None:
    organiser = OrganiserFactory()
    response = exchange(organiser.username, "wrong")
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_credentials"
    assert not Token.objects.exists()


@override_settings(LUZA_TOKEN_RATE="3/min")
def test_the_exchange_is_throttled_per_address() -> None:
    organiser = OrganiserFactory()
    answers = [exchange(organiser.username, "wrong").status_code for _ in range(4)]
    assert answers == [400, 400, 400, 429]


def test_an_expired_token_is_401_token_expired() -> None:
    organiser = OrganiserFactory()
    key = exchange(organiser.username).json()["token"]
    Token.objects.filter(key=key).update(created=Token.objects.get().created - timedelta(days=91))
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    response = api.get(URL)
    assert response.status_code == 401 and response.json()["code"] == "token_expired"
