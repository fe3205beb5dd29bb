"""One folding of logins (config.login_names): NFKC, case-folded, trimmed, before every
uniqueness check. The probe made "ORGB" beside "orgb" through the claim sign-up, and `ｏｒｇｂ`
was a 500 on /claim/ and on the panel's new referee login, and a 503 through the API."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db import IntegrityError
from django.test import Client
from rest_framework.test import APIClient

from tests.factories import OrganiserFactory, PlayerFactory, UserFactory
from tests.world import ensure_role_groups, make_tournament
from tournaments import services

pytestmark = pytest.mark.django_db

LOOKALIKES = ("ＯＲＧＢ", "ｏｒｇｂ", "ORGB", " orgb ", "Orgb")
PASSWORD = "Пирамида-Луза-2026"


@pytest.fixture
def taken(db):
    ensure_role_groups()
    return UserFactory(username="orgb")


def logins() -> int:
    return get_user_model().objects.count()


def _claim_code(organiser, tournament) -> str:
    player = PlayerFactory()
    services.registration_add(tournament=tournament, player=player, actor=organiser)
    _claim, code = services.player_claim_issue(player=player, actor=organiser)
    return code


@pytest.mark.parametrize("name", LOOKALIKES)
def test_the_claim_signup_refuses_a_lookalike(taken, name):
    organiser = OrganiserFactory()
    tournament = make_tournament(organiser)
    code = _claim_code(organiser, tournament)
    before = logins()
    response = Client().post(
        "/claim/", {"code": code, "username": name, "password1": PASSWORD, "password2": PASSWORD}
    )
    assert response.status_code == 409
    assert "занят" in response.content.decode()
    assert logins() == before


@pytest.mark.parametrize("name", LOOKALIKES)
def test_referee_logins_refuse_a_lookalike_in_the_panel_and_the_api(taken, name):
    organiser = OrganiserFactory()
    tournament = make_tournament(organiser)
    page = Client()
    page.force_login(organiser)
    before = logins()
    response = page.post(
        f"/panel/t/{tournament.pk}/people/referees/new/", {"username": name, "name": "Судья"}
    )
    assert response.status_code == 302  # back to the people page, with the refusal
    api = APIClient()
    api.force_authenticate(organiser)
    response = api.post(
        f"/api/v1/tournaments/{tournament.pk}/referees/logins/",
        {"username": name, "name": "Судья"},
        format="json",
    )
    assert response.status_code == 409
    assert response.json()["code"] == "username_taken"
    assert logins() == before


@pytest.mark.parametrize("name", LOOKALIKES)
def test_signup_refuses_a_lookalike(taken, name):
    before = logins()
    response = Client().post(
        "/accounts/signup/", {"username": name, "password1": PASSWORD, "password2": PASSWORD}
    )
    assert response.status_code == 400
    assert "username" in response.context["form"].errors
    assert logins() == before


def test_a_folding_that_changes_length_is_refused(db):
    response = Client().post(
        "/accounts/signup/", {"username": "straße", "password1": PASSWORD, "password2": PASSWORD}
    )
    assert response.status_code == 400
    assert not get_user_model().objects.filter(username__icontains="stra").exists()


def test_the_commands_refuse_a_lookalike(taken):
    with pytest.raises(CommandError):
        call_command("ensure_organiser", "--username", "ＯＲＧＢ", stdout=StringIO())
    with pytest.raises(CommandError):
        call_command("ensure_superuser", "--username", "ORGB", stdout=StringIO())
    assert logins() == 1
    taken.refresh_from_db()
    assert not taken.is_superuser


def test_the_admin_refuses_a_lookalike_on_create_and_rename(taken):
    admin = UserFactory(username="root", is_superuser=True, is_staff=True)
    page = Client()
    page.force_login(admin)
    response = page.post(
        "/admin/auth/user/add/",
        {
            "username": "ＯＲＧＢ",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "usable_password": "true",
        },
    )
    assert response.status_code == 200 and "username" in response.context["adminform"].form.errors
    other = UserFactory(username="someone")
    form = page.get(f"/admin/auth/user/{other.pk}/change/").context["adminform"].form
    data = {k: v for k, v in form.initial.items() if v is not None and not isinstance(v, list)}
    data.update({"username": "ORGB", "date_joined_0": "2026-01-01", "date_joined_1": "10:00"})
    response = page.post(f"/admin/auth/user/{other.pk}/change/", data)
    assert response.status_code == 200
    assert list(response.context["adminform"].form.errors) == ["username"]
    other.refresh_from_db()
    assert other.username == "someone"
    assert logins() == 3


def test_an_integrity_error_in_the_api_is_a_409_with_a_code(monkeypatch, taken):
    organiser = OrganiserFactory()
    tournament = make_tournament(organiser)

    def clash(**kwargs):
        raise IntegrityError(
            'duplicate key value violates unique constraint "auth_user_username_key"'
        )

    monkeypatch.setattr(services, "referee_login_create", clash)
    api = APIClient()
    api.force_authenticate(organiser)
    response = api.post(
        f"/api/v1/tournaments/{tournament.pk}/referees/logins/",
        {"username": "newref", "name": "Судья"},
        format="json",
    )
    assert response.status_code == 409
    assert response.json()["code"] == "conflict"
    assert "Retry-After" not in response


# --- logging in folds the name the same way --------------------------------------------------

PASSWORD_OF_FACTORY = "correct-horse-battery"  # tests.factories.UserFactory's


def _log_in(name: str, password: str = PASSWORD_OF_FACTORY) -> Client:
    page = Client()
    response = page.post("/accounts/login/", {"username": name, "password": password})
    page.logged_in = response.status_code == 302  # type: ignore[attr-defined]
    return page


def _who(page: Client) -> str | None:
    user = page.get("/accounts/login/").wsgi_request.user
    return user.username if user.is_authenticated else None


@pytest.mark.parametrize("name", LOOKALIKES)
def test_a_login_answers_to_every_spelling_that_folds_to_it(taken, name):
    page = _log_in(name)
    assert page.logged_in
    assert _who(page) == "orgb"  # the session holds on the next request


def test_a_folded_name_with_a_wrong_password_is_refused(taken):
    page = _log_in("ＯＲＧＢ", password="wrong-password")
    assert not page.logged_in
    assert _who(page) is None


def test_older_logins_that_fold_alike_are_told_apart_by_their_exact_spelling(taken):
    # Made before the folding rule (the factory writes the row directly).
    other = UserFactory(username="ORGB", password="another-horse-battery")
    assert _who(_log_in("orgb")) == "orgb"
    assert _who(_log_in("ORGB", password="another-horse-battery")) == other.username
    # A third spelling is neither's: which one was meant cannot be known.
    assert not _log_in("Orgb").logged_in
    assert not _log_in("Orgb", password="another-horse-battery").logged_in


def test_the_admin_login_folds_the_name_too(taken):
    taken.is_staff = True
    taken.save(update_fields=["is_staff"])
    page = Client()
    response = page.post(
        "/admin/login/?next=/admin/",
        {"username": "ＯＲＧＢ", "password": "correct-horse-battery", "next": "/admin/"},
    )
    assert response.status_code == 302 and response["Location"] == "/admin/"
