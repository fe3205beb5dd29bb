"""Online entry and the desk through the pages and the API; "my match" live on /me/."""

from __future__ import annotations

import pytest
from django.test import Client

from audit.models import AuditEntry
from matches import services as match_services
from tests.factories import PlayerFactory, UserFactory
from tests.world import build_world
from tournaments.models import Registration

pytestmark = pytest.mark.django_db


def login(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def online(tournament):
    tournament.online_entry = True
    tournament.max_players = 1
    tournament.save()
    return tournament


def test_a_player_enters_online_lands_on_the_reserve_list_and_moves_up(online, organiser) -> None:
    first_user, second_user = UserFactory(), UserFactory()
    PlayerFactory(user=first_user, name="Первый Игрок")
    PlayerFactory(user=second_user, name="Второй Игрок")
    first, second = login(first_user), login(second_user)

    assert first.post(f"/t/{online.pk}/entry/", {"action": "enter"}).status_code == 302
    response = second.post(f"/t/{online.pk}/entry/", {"action": "enter"}, follow=True)
    html = response.content.decode()
    assert 'data-entry-status="reserve"' in html
    assert "1" in html

    desk = login(organiser).get(f"/panel/t/{online.pk}/registrations/").content.decode()
    assert "data-reserve" in desk and "Второй Игрок" in desk

    first.post(f"/t/{online.pk}/entry/", {"action": "withdraw"})
    me = second.get("/me/").content.decode()
    assert 'data-status="active"' in me and "data-promoted" in me
    assert 'data-entry-status="active"' in second.get(f"/t/{online.pk}/entry/").content.decode()


def test_entry_refusals_are_shown_and_change_nothing(online) -> None:
    user = UserFactory()
    PlayerFactory(user=user, rating=2000)
    online.entry_max_rating = 1500
    online.save()
    response = login(user).post(f"/t/{online.pk}/entry/", {"action": "enter"})
    assert response.status_code == 409
    assert not Registration.objects.filter(tournament=online).exists()
    anonymous = Client().post(f"/t/{online.pk}/entry/", {"action": "enter"})
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]


def test_entry_api_enters_withdraws_and_lists_reserves(online) -> None:
    from rest_framework.test import APIClient

    clients = []
    for _ in range(3):
        user = UserFactory()
        PlayerFactory(user=user)
        client = APIClient()
        client.force_authenticate(user)
        clients.append(client)
    url = f"/api/v1/tournaments/{online.pk}/entry/"
    assert clients[0].post(url).json()["mine"]["status"] == "active"
    second = clients[1].post(url).json()
    assert second["mine"] == {**second["mine"], "status": "reserve", "position": 1}
    assert clients[2].post(url).json()["mine"]["position"] == 2
    again = clients[2].post(url)
    assert again.status_code == 409 and again.json()["code"] == "already_registered"
    clients[0].post(f"{url}withdraw/")
    reserves = clients[0].get(f"/api/v1/tournaments/{online.pk}/reserves/").json()
    assert [r["position"] for r in reserves] == [1]
    assert clients[1].get(url).json()["mine"]["promoted"] is True


def test_desk_checks_in_and_removes_the_absent(online, organiser, org_api) -> None:
    online.max_players = 2
    online.save()
    regs = []
    for _ in range(3):
        user = UserFactory()
        PlayerFactory(user=user)
        login(user).post(f"/t/{online.pk}/entry/", {"action": "enter"})
    regs = list(Registration.objects.filter(tournament=online).order_by("pk"))
    desk = login(organiser)
    desk.post(f"/panel/t/{online.pk}/registrations/{regs[0].pk}/check-in/", {"present": "1"})
    r = org_api.post(
        f"/api/v1/tournaments/{online.pk}/registrations/{regs[2].pk}/check-in/", {}, format="json"
    )
    assert r.status_code == 200 and r.json()["checked_in"] is True
    page = desk.post(f"/panel/t/{online.pk}/registrations/remove-absent/", follow=True)
    assert page.status_code == 200
    statuses = dict(Registration.objects.filter(tournament=online).values_list("pk", "status"))
    assert statuses == {regs[0].pk: "active", regs[1].pk: "withdrawn", regs[2].pk: "active"}
    assert AuditEntry.objects.filter(action="reserve_promoted").count() == 1


def test_entry_settings_are_saved_and_checked(online, organiser, org_api) -> None:
    url = f"/api/v1/tournaments/{online.pk}/entry-settings/"
    bad = org_api.patch(
        url,
        {"entry_opens_at": "2026-12-02T10:00:00Z", "entry_closes_at": "2026-12-01T10:00:00Z"},
        format="json",
    )
    assert bad.status_code == 400 and bad.json()["code"] == "invalid_settings"
    ok = org_api.patch(url, {"entry_min_rating": 800, "entry_max_rating": 1400}, format="json")
    assert ok.status_code == 200 and ok.json()["entry_max_rating"] == 1400
    page = login(organiser).post(
        f"/panel/t/{online.pk}/entry-settings/",
        {"online_entry": "on", "entry_min_rating": "", "entry_max_rating": "1600"},
    )
    assert page.status_code == 302
    online.refresh_from_db()
    assert (online.entry_min_rating, online.entry_max_rating) == (None, 1600)


def test_my_match_is_called_to_a_table_live_with_etag(django_assert_max_num_queries) -> None:
    world = build_world()
    me = login(world.player_user)
    ready = world.ready
    # The world's player plays the running match; another player's login waits for `ready`.
    waiting = UserFactory()
    type(ready.player_a).objects.filter(pk=ready.player_a_id).update(user=waiting)
    client = login(waiting)
    page = client.get("/me/")
    html = page.content.decode()
    assert "data-live-url" in html and "data-called" not in html
    fragment = client.get("/me/?fragment=1")
    etag = fragment["ETag"]
    with django_assert_max_num_queries(6):
        assert client.get("/me/?fragment=1", HTTP_IF_NONE_MATCH=etag).status_code == 304
    match_services.match_assign_table(match=ready, table=world.free_table, actor=world.organiser)
    called = client.get("/me/?fragment=1", HTTP_IF_NONE_MATCH=etag)
    assert called.status_code == 200
    text = called.content.decode()
    assert f'data-called="{ready.pk}-{world.free_table}"' in text
    api = client.get("/api/v1/me/").json()
    assert api["next_match"]["called"] is True and api["next_match"]["table"] == world.free_table
    # The running match's player sees it as being played.
    assert "data-match" in me.get("/me/?fragment=1").content.decode()


def test_me_without_a_player_offers_the_claim(client) -> None:
    client.force_login(UserFactory())
    assert "/claim/" in client.get("/me/").content.decode()
    assert client.get("/api/v1/me/").json()["player"] is None


def test_signup_makes_a_login_and_logs_in(client) -> None:
    response = client.post(
        "/accounts/signup/",
        {
            "username": "new-player",
            "email": "",
            "password1": "correct-horse-battery",
            "password2": "correct-horse-battery",
        },
    )
    assert response.status_code == 302 and response["Location"] == "/me/"
    assert AuditEntry.objects.filter(action="login_create", data__by="signup").exists()
    taken = Client().post(
        "/accounts/signup/",
        {"username": "NEW-player", "password1": "x-Y-z-123456", "password2": "x-Y-z-123456"},
    )
    assert taken.status_code == 400
    # Without mail settings there is no password reset by e-mail.
    assert client.get("/accounts/password/reset/").status_code == 404


def test_me_leaves_out_a_private_tournament_the_player_may_not_see() -> None:
    world = build_world(public=False)
    client = login(world.player_user)
    html = client.get("/me/").content.decode()
    assert world.tournament.name not in html and "data-match" not in html
    assert client.get("/api/v1/me/").json()["next_match"] is None
