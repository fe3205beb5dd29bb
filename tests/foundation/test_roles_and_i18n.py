from __future__ import annotations

import uuid

import pytest
from django.contrib.auth.models import Group

from tests.conftest import PASSWORD
from tests.factories import OrganiserFactory
from tournaments.roles import roles_ensure

pytestmark = pytest.mark.django_db


def test_roles_exist_with_their_permissions() -> None:
    # Made by the data migration; a transactional test's flush may have removed them, and
    # roles_ensure rebuilds them from the migration's own definitions.
    roles_ensure()
    organiser = set(
        Group.objects.get(name="organiser").permissions.values_list("codename", flat=True)
    )
    referee = set(Group.objects.get(name="referee").permissions.values_list("codename", flat=True))
    assert {
        "add_tournament",
        "change_registration",
        "add_matchevent",
        "view_auditentry",
    } <= organiser
    assert "delete_auditentry" not in organiser and "change_auditentry" not in organiser
    assert {"add_matchevent", "view_match"} <= referee
    assert "add_tournament" not in referee


def test_russian_is_the_default_language(client) -> None:
    response = client.get("/")
    assert response.status_code == 200
    assert '<html lang="ru">' in response.content.decode()
    assert "Турниры" in response.content.decode()


def test_english_from_the_switch(client) -> None:
    response = client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert response.status_code == 302
    page = client.get("/").content.decode()
    assert '<html lang="en">' in page
    assert "Tournaments" in page
    assert 'name="language" value="ru"' in page  # the switch back is on every page


def test_login_and_logout(client, organiser) -> None:
    response = client.post(
        "/accounts/login/", {"username": organiser.username, "password": PASSWORD}
    )
    assert response.status_code == 302
    assert client.get("/").wsgi_request.user.is_authenticated
    response = client.post("/accounts/logout/")
    assert response.status_code == 302
    assert not client.get("/").wsgi_request.user.is_authenticated


def test_login_is_rate_limited(client, settings) -> None:
    # More in tests/security/test_login_limit.py (django-axes, per address and username).
    user = OrganiserFactory(username=f"limited-{uuid.uuid4().hex[:8]}")
    address = "10.{}.{}.{}".format(*uuid.uuid4().bytes[:3])
    settings.AXES_FAILURE_LIMIT = 3
    for expected in (200, 200, 429):
        response = client.post(
            "/accounts/login/",
            {"username": user.username, "password": "wrong"},
            REMOTE_ADDR=address,
        )
        assert response.status_code == expected
    response = client.post(
        "/accounts/login/", {"username": user.username, "password": PASSWORD}, REMOTE_ADDR=address
    )
    assert response.status_code == 429
    assert "15" in response.content.decode()


def test_anonymous_cannot_reach_the_admin(client) -> None:
    response = client.get("/admin/")
    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]


def test_pages_stay_russian_for_an_english_browser_until_the_switch(client) -> None:
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9").content.decode()
    assert '<html lang="ru">' in page
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert '<html lang="en">' in client.get("/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()


def test_the_api_answers_in_the_language_the_client_asks_for(api) -> None:
    english = api.get("/api/v1/tournaments/999999/", HTTP_ACCEPT_LANGUAGE="en").json()
    russian = api.get("/api/v1/tournaments/999999/", HTTP_ACCEPT_LANGUAGE="ru").json()
    assert english != russian
