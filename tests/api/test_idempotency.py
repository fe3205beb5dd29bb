"""One idempotency mechanism for every write of the API (config.idempotency)."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from matches.models import ApiWriteRecord
from tests.factories import OrganiserFactory
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

URL = "/api/v1/tournaments/"
BODY = {"name": "Кубок «Лузы»", "date": "2026-12-05", "preset": "free_pyramid_30"}


def client_of(user: Any) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {Token.objects.create(user=user).key}")
    return client


@pytest.fixture
def org() -> APIClient:
    return client_of(OrganiserFactory())


def test_a_create_sent_twice_with_a_key_makes_one_tournament(org: APIClient) -> None:
    first = org.post(URL, BODY, format="json", HTTP_IDEMPOTENCY_KEY="create-1")
    second = org.post(URL, BODY, format="json", HTTP_IDEMPOTENCY_KEY="create-1")
    assert first.status_code == second.status_code == 201
    assert second.json() == first.json()
    assert second["Idempotent-Replayed"] == "true"
    assert Tournament.objects.count() == 1
    # Without a key (or with another), a second create is a second tournament.
    assert org.post(URL, BODY, format="json", HTTP_IDEMPOTENCY_KEY="create-2").status_code == 201
    assert Tournament.objects.count() == 2


def test_the_same_key_with_another_request_is_refused(org: APIClient) -> None:
    assert org.post(URL, BODY, format="json", HTTP_IDEMPOTENCY_KEY="k").status_code == 201
    other = org.post(URL, {**BODY, "name": "Другой"}, format="json", HTTP_IDEMPOTENCY_KEY="k")
    assert other.status_code == 422
    assert other.json()["code"] == "idempotency_key_reused"
    assert set(other.json()) >= {"code", "message", "params"}
    tournament = Tournament.objects.get()
    patch = org.patch(
        f"{URL}{tournament.pk}/", {"max_players": 32}, format="json", HTTP_IDEMPOTENCY_KEY="k"
    )
    assert patch.status_code == 422
    assert Tournament.objects.count() == 1


def test_a_refused_write_keeps_nothing_and_frees_its_key(org: APIClient) -> None:
    bad = org.post(URL, {**BODY, "date": "1900-01-01"}, format="json", HTTP_IDEMPOTENCY_KEY="x")
    assert bad.status_code == 400
    assert not ApiWriteRecord.objects.exists()
    fixed = org.post(URL, BODY, format="json", HTTP_IDEMPOTENCY_KEY="x")
    assert fixed.status_code == 201


def test_keys_belong_to_their_login(org: APIClient) -> None:
    other = client_of(OrganiserFactory())
    assert org.post(URL, BODY, format="json", HTTP_IDEMPOTENCY_KEY="same").status_code == 201
    assert other.post(URL, BODY, format="json", HTTP_IDEMPOTENCY_KEY="same").status_code == 201
    assert Tournament.objects.count() == 2


def test_a_malformed_key_is_a_400_naming_the_header(org: APIClient) -> None:
    response = org.post(URL, BODY, format="json", HTTP_IDEMPOTENCY_KEY="x" * 101)
    assert response.status_code == 400
    assert response.json()["params"] == {"field": "Idempotency-Key"}
    assert not Tournament.objects.exists()


def test_booleans_are_strict(org: APIClient) -> None:
    response = org.post(URL, {**BODY, "is_public": 0}, format="json")
    assert response.status_code == 400
    assert response.json()["params"]["field"] == "is_public"
    assert org.post(URL, {**BODY, "discipline": "snooker"}, format="json").status_code == 400
