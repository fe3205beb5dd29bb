"""Players through the API: create, search, detail with rating history, edit, link a login."""

from __future__ import annotations

import pytest

from tests.factories import PlayerFactory, UserFactory
from tournaments.models import Player, RatingChange

pytestmark = pytest.mark.django_db

URL = "/api/v1/players/"


def test_organiser_creates_a_player_with_the_starting_rating(org_api, settings):
    settings.LUZA_INITIAL_RATING = 850
    response = org_api.post(URL, {"name": "  Сидоров   Сергей ", "city": "Тверь"}, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["name"] == "Сидоров Сергей" and body["rating"] == 850 and body["city"] == "Тверь"


def test_default_starting_rating_is_900(org_api):
    assert org_api.post(URL, {"name": "Новиков Егор"}, format="json").json()["rating"] == 900


def test_anonymous_and_plain_users_cannot_create(api, user):
    assert api.post(URL, {"name": "X"}, format="json").status_code in (401, 403)
    api.force_authenticate(user)
    assert api.post(URL, {"name": "X"}, format="json").status_code == 403
    assert not Player.objects.exists()


def test_search_is_case_insensitive_in_cyrillic(api):
    PlayerFactory(name="Ёлкин Фёдор")
    PlayerFactory(name="Иванов Иван")
    PlayerFactory(name="Петров Пётр")
    names = lambda q: [p["name"] for p in api.get(URL, {"search": q}).json()["results"]]  # noqa: E731
    assert names("иванов") == ["Иванов Иван"]
    assert names("ИВАН") == ["Иванов Иван"]
    assert names("фёдор") == ["Ёлкин Фёдор"]
    assert names("ёлк") == ["Ёлкин Фёдор"]
    assert names("ван") == []  # a word start, not any substring
    assert names("федор ёлкин") == ["Ёлкин Фёдор"]  # every word, in any order
    assert names("  ЕЛКИН   ") == ["Ёлкин Фёдор"]
    assert len(names("")) == 3


def test_detail_shows_rating_history_and_a_superusers_adjustment(api, superuser_api):
    player = PlayerFactory(rating=1000)
    response = superuser_api.patch(
        f"{URL}{player.pk}/", {"rating": 1040, "club": "Пирамида"}, format="json"
    )
    assert response.status_code == 200, response.json()
    detail = api.get(f"{URL}{player.pk}/").json()
    assert detail["rating"] == 1040 and detail["club"] == "Пирамида"
    [change] = detail["rating_history"]
    assert (change["rating_before"], change["rating_after"], change["delta"]) == (1000, 1040, 40)
    assert change["reason"] == "manual"


def test_a_superuser_links_a_login_and_never_replaces_one_silently(superuser_api, user):
    first, second = PlayerFactory(), PlayerFactory()
    linked = superuser_api.patch(f"{URL}{first.pk}/", {"user": user.pk}, format="json")
    assert linked.status_code == 200, linked.json()
    first.refresh_from_db()
    assert first.user == user
    clash = superuser_api.patch(f"{URL}{second.pk}/", {"user": user.pk}, format="json")
    assert clash.status_code == 409 and clash.json()["code"] == "login_taken"
    second.refresh_from_db()
    assert second.user is None
    other = UserFactory()
    replaced = superuser_api.patch(f"{URL}{first.pk}/", {"user": other.pk}, format="json")
    assert replaced.status_code == 409 and replaced.json()["code"] == "player_linked"
    first.refresh_from_db()
    assert first.user == user


def test_invalid_rating_is_refused(org_api, superuser_api):
    player = PlayerFactory(rating=1000)
    response = superuser_api.patch(f"{URL}{player.pk}/", {"rating": -5}, format="json")
    assert response.status_code == 400 and response.json()["message"]
    assert not RatingChange.objects.exists()
    blank = org_api.post(URL, {"name": ""}, format="json")
    assert blank.status_code == 400 and blank.json()["code"] == "invalid"
