"""People: the organiser makes referees' logins in the panel (one-time password on a slip),
resets them, players claim their record with a code; players' rights in the shared registry."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from rest_framework.test import APIClient

from audit.models import AuditEntry
from tests.factories import OrganiserFactory, PlayerFactory, RegistrationFactory, UserFactory
from tests.matches.conftest import post_event
from tests.matches.factories import MatchFactory
from tournaments.models import Player, PlayerClaim, RatingChange, Tournament

pytestmark = pytest.mark.django_db

BREAK = {"type": "break", "player": "a", "legal": True, "pocketed": 0}


def browser(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def api_as(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def slip_secret(response, label: str) -> str:
    """The secret printed after `label` on a slip."""
    text = response.content.decode()
    found = re.search(rf"<dt>{label}</dt><dd[^>]*>([^<]+)</dd>", text)
    assert found, text
    return found.group(1).strip()


def fingerprint(player: Player) -> tuple:
    player.refresh_from_db()
    return (
        player.name,
        player.city,
        player.club,
        player.rating,
        player.user_id,
        AuditEntry.objects.count(),
        RatingChange.objects.count(),
    )


# --- referees' logins ------------------------------------------------------------------------


def test_an_organiser_creates_a_referee_login_who_then_scores_a_match(tournament, organiser):
    match = MatchFactory(tournament=tournament)
    response = browser(organiser).post(
        f"/panel/t/{tournament.pk}/people/referees/new/",
        {"name": "Сидоров Иван", "username": "sidorov"},
    )
    assert response.status_code == 200
    assert response["Cache-Control"] == "no-store"
    assert "<svg" in response.content.decode()  # the QR code of the login page
    password = slip_secret(response, "Пароль")

    referee = browser()
    assert referee.login(username="sidorov", password=password)
    scorer = APIClient()
    scorer.cookies = referee.cookies
    assert post_event(scorer, match, BREAK).status_code == 201

    pdf = browser(organiser).post(
        f"/panel/t/{tournament.pk}/people/slip.pdf",
        {"kind": "referee", "name": "Сидоров Иван", "username": "sidorov", "secret": password},
    )
    assert pdf["Content-Type"] == "application/pdf" and pdf.content.startswith(b"%PDF")

    entry = AuditEntry.objects.get(action="referee_login_create")
    assert entry.actor == organiser and entry.tournament == tournament
    assert password not in str(entry.data)
    people = browser(organiser).get(f"/panel/t/{tournament.pk}/people/").content.decode()
    assert "Сидоров Иван" in people and "sidorov" in people


def test_the_api_creates_a_referee_login_once_per_name(tournament, organiser):
    client = api_as(organiser)
    url = f"/api/v1/tournaments/{tournament.pk}/referees/logins/"
    made = client.post(url, {"username": "judge1", "name": "Орлова Анна"}, format="json")
    assert made.status_code == 201, made.json()
    assert made.json()["password"] and made["Cache-Control"] == "no-store"
    again = client.post(url, {"username": "JUDGE1"}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "username_taken"
    listed = client.get(f"/api/v1/tournaments/{tournament.pk}/referees/").json()
    assert {"username": "judge1", "name": "Орлова Анна", "issued": True}.items() <= next(
        r for r in listed if r["username"] == "judge1"
    ).items()


def test_a_referee_password_is_reset_by_his_organiser_only(tournament, organiser):
    client = api_as(organiser)
    made = client.post(
        f"/api/v1/tournaments/{tournament.pk}/referees/logins/",
        {"username": "judge2"},
        format="json",
    ).json()
    url = f"/api/v1/tournaments/{tournament.pk}/referees/{made['id']}/password/"

    stranger = OrganiserFactory()
    refused = api_as(stranger).post(url, format="json")
    assert refused.status_code == 403
    assert browser().login(username="judge2", password=made["password"])

    reset = client.post(url, format="json")
    assert reset.status_code == 200
    new = reset.json()["password"]
    assert new != made["password"]
    assert not browser().login(username="judge2", password=made["password"])
    assert browser().login(username="judge2", password=new)
    assert AuditEntry.objects.filter(action="referee_password_reset").count() == 1


def test_a_login_not_made_in_the_panel_cannot_be_reset_there(tournament, organiser, referee):
    response = api_as(organiser).post(
        f"/api/v1/tournaments/{tournament.pk}/referees/{referee.pk}/password/", format="json"
    )
    assert response.status_code == 403
    panel = browser(organiser).post(
        f"/panel/t/{tournament.pk}/people/referees/{referee.pk}/password/", follow=True
    )
    assert "Сбросить можно только пароль судьи" in panel.content.decode()


def test_referees_are_removed_through_the_api_and_audited(tournament, organiser, referee):
    url = f"/api/v1/tournaments/{tournament.pk}/referees/{referee.pk}/"
    assert api_as(organiser).delete(url).status_code == 204
    assert referee not in tournament.referees.all()
    assert AuditEntry.objects.filter(action="tournament_referee_remove").exists()


def test_anyone_with_a_login_changes_his_own_password(referee):
    client = browser(referee)
    page = client.get("/accounts/password/")
    assert page.status_code == 200 and "Смена пароля" in page.content.decode()
    response = client.post(
        "/accounts/password/",
        {
            "old_password": "correct-horse-battery",
            "new_password1": "Лузa-пирамида-2026",
            "new_password2": "Лузa-пирамида-2026",
        },
    )
    assert response.status_code == 302
    assert browser().login(username=referee.username, password="Лузa-пирамида-2026")
    assert AuditEntry.objects.filter(action="password_change", actor=referee).exists()


# --- rights over players -----------------------------------------------------------------------


def test_another_organiser_cannot_relink_rename_or_rerate_a_player(tournament, organiser):
    owner = UserFactory()
    player = PlayerFactory(name="Петров Михаил", city="Мытищи", rating=1100, user=owner)
    RegistrationFactory(tournament=tournament, player=player)
    stranger = OrganiserFactory()
    client = api_as(stranger)
    before = fingerprint(player)
    for body in (
        {"user": stranger.pk},
        {"user": None},
        {"name": "Подменённый"},
        {"city": "Тула"},
        {"rating": 2500},
    ):
        response = client.patch(f"/api/v1/players/{player.pk}/", body, format="json")
        assert response.status_code == 403, (body, response.json())
        assert response.json()["code"] == "forbidden"
    assert fingerprint(player) == before
    # He has a login: his identity is his own. The organiser of his tournament may not rename
    # him; he changes his club himself, but neither re-rates nor relinks himself.
    mine = api_as(organiser)
    assert (
        mine.patch(f"/api/v1/players/{player.pk}/", {"club": "Пирамида"}, format="json").status_code
        == 403
    )
    himself = api_as(owner)
    club = himself.patch(f"/api/v1/players/{player.pk}/", {"club": "Пирамида"}, format="json")
    assert club.status_code == 200
    for body in ({"rating": 1200}, {"user": None}):
        assert (
            himself.patch(f"/api/v1/players/{player.pk}/", body, format="json").status_code == 403
        )
    player.refresh_from_db()
    assert (player.club, player.rating, player.user) == ("Пирамида", 1100, owner)


def test_another_organisers_tournament_stops_the_edit_a_finished_one_does_not(
    tournament, organiser
):
    player = PlayerFactory(name="Козлов Олег")
    RegistrationFactory(tournament=tournament, player=player)
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
    url = f"/api/v1/players/{player.pk}/"
    response = api_as(organiser).patch(url, {"name": "Козлов Олег Иванович"}, format="json")
    assert response.status_code == 200
    RegistrationFactory(player=player)  # another organiser's tournament shows him now
    response = api_as(organiser).patch(url, {"name": "Козлов Олег"}, format="json")
    assert response.status_code == 403


def test_every_change_to_a_player_is_in_his_history(tournament, organiser, superuser):
    player = PlayerFactory(name="Смирнов Дмитрий", city="", rating=1000)
    RegistrationFactory(tournament=tournament, player=player)
    api_as(organiser).patch(f"/api/v1/players/{player.pk}/", {"city": "Тверь"}, format="json")
    api_as(superuser).patch(f"/api/v1/players/{player.pk}/", {"rating": 1050}, format="json")
    history = api_as(organiser).get(f"/api/v1/players/{player.pk}/history/").json()["results"]
    actions = [h["action"] for h in history]
    assert actions[:2] == ["player_rating_adjust", "player_update"]
    assert history[1]["data"]["before"] == {"city": ""}
    assert history[1]["data"]["changed"] == {"city": "Тверь"}
    assert api_as(UserFactory()).get(f"/api/v1/players/{player.pk}/history/").status_code == 403
    card = browser(organiser).get(f"/panel/players/{player.pk}/").content.decode()
    assert "Рейтинг скорректирован" in card and "Тверь" in card


# --- claim codes ---------------------------------------------------------------------------------


def test_a_player_links_his_login_with_the_code_on_his_slip(tournament, organiser):
    player = PlayerFactory(name="Волков Пётр")
    RegistrationFactory(tournament=tournament, player=player)
    assert (
        api_as(OrganiserFactory())
        .post(f"/api/v1/players/{player.pk}/claim-code/", {}, format="json")
        .status_code
        == 403
    )

    slip = browser(organiser).post(f"/panel/t/{tournament.pk}/people/players/{player.pk}/slip/")
    assert slip.status_code == 200 and slip["Cache-Control"] == "no-store"
    code = slip_secret(slip, "Код")
    assert not PlayerClaim.objects.filter(code_hash__icontains=code.replace("-", "")).exists()

    owner = UserFactory()
    linked = api_as(owner).post("/api/v1/players/claim/", {"code": code.lower()}, format="json")
    assert linked.status_code == 200, linked.json()
    player.refresh_from_db()
    assert player.user == owner
    entry = AuditEntry.objects.get(action="player_link_login")
    assert entry.player == player and entry.actor == owner

    reused = api_as(UserFactory()).post("/api/v1/players/claim/", {"code": code}, format="json")
    assert reused.status_code == 400 and reused.json()["code"] == "claim_invalid"
    player.refresh_from_db()
    assert player.user == owner  # never replaced
    # Linked, his identity is his own: no organiser issues a code for him any more.
    again = api_as(organiser).post(f"/api/v1/players/{player.pk}/claim-code/", {}, format="json")
    assert again.status_code == 403


def test_a_new_code_retires_the_old_one(tournament, organiser):
    player = PlayerFactory()
    RegistrationFactory(tournament=tournament, player=player)
    client = api_as(organiser)
    first = client.post(f"/api/v1/players/{player.pk}/claim-code/", {}, format="json").json()
    second = client.post(f"/api/v1/players/{player.pk}/claim-code/", {}, format="json").json()
    owner = api_as(UserFactory())
    assert (
        owner.post("/api/v1/players/claim/", {"code": first["code"]}, format="json").status_code
        == 400
    )
    assert (
        owner.post("/api/v1/players/claim/", {"code": second["code"]}, format="json").status_code
        == 200
    )


def test_the_slip_link_creates_the_players_login(tournament, organiser):
    player = PlayerFactory(name="Зайцев Павел")
    RegistrationFactory(tournament=tournament, player=player)
    code = (
        api_as(organiser)
        .post(f"/api/v1/players/{player.pk}/claim-code/", {}, format="json")
        .json()["code"]
    )
    client = browser()
    page = client.get(f"/claim/?code={code}")
    assert page.status_code == 200 and "Зайцев Павел" in page.content.decode()
    response = client.post(
        "/claim/",
        {
            "code": code,
            "username": "zaitsev",
            "password1": "Бильярд-пирамида-77",
            "password2": "Бильярд-пирамида-77",
        },
    )
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.user.username == "zaitsev"
    assert browser().login(username="zaitsev", password="Бильярд-пирамида-77")


# --- one identity per person ---------------------------------------------------------------------


def test_search_folds_yo_case_and_spaces_and_shows_who_is_registered(tournament, organiser, api):
    fyodorov = PlayerFactory(name="Фёдоров  Алексей")
    PlayerFactory(name="Федотов Андрей")
    found = api.get("/api/v1/players/", {"search": "федоров"}).json()["results"]
    assert [p["id"] for p in found] == [fyodorov.pk]
    RegistrationFactory(tournament=tournament, player=fyodorov)
    listed = (
        api_as(organiser)
        .get("/api/v1/players/", {"search": "Алексей ФЕДОРОВ", "tournament": tournament.pk})
        .json()["results"]
    )
    assert [(p["id"], p["registration_status"]) for p in listed] == [(fyodorov.pk, "active")]
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.REGISTRATION)
    desk = (
        browser(organiser)
        .get(f"/panel/t/{tournament.pk}/registrations/", {"q": "Федоров"})
        .content.decode()
    )
    assert "уже в заявке" in desk and "пока нет" not in desk


def test_a_namesake_is_created_only_when_confirmed(org_api):
    PlayerFactory(name="Петров Михаил", city="Мытищи")
    body = {"name": "петров  михаил", "city": "МЫТИЩИ"}
    refused = org_api.post("/api/v1/players/", body, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "possible_duplicate"
    assert refused.json()["params"]["players"][0]["city"] == "Мытищи"
    assert Player.objects.count() == 1
    other_city = org_api.post(
        "/api/v1/players/", {"name": "Петров Михаил", "city": "Тула"}, format="json"
    )
    assert other_city.status_code == 201
    confirmed = org_api.post("/api/v1/players/", {**body, "confirm": True}, format="json")
    assert confirmed.status_code == 201
    assert Player.objects.count() == 3


def test_the_desk_offers_the_existing_player_instead_of_a_duplicate(tournament, organiser):
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.REGISTRATION)
    existing = PlayerFactory(name="Петров Михаил", city="Мытищи")
    client = browser(organiser)
    response = client.post(
        f"/panel/t/{tournament.pk}/registrations/new/",
        {"name": "Петров Михаил", "city": "Мытищи"},
        follow=True,
    )
    page = response.content.decode()
    assert "уже есть в списке игроков" in page
    assert f'name="player" value="{existing.pk}"' in page  # register the existing one
    assert "Это другой человек с тем же именем" in page
    assert Player.objects.count() == 1
    client.post(
        f"/panel/t/{tournament.pk}/registrations/new/",
        {"name": "Петров Михаил", "city": "Мытищи", "confirm_duplicate": "on"},
    )
    assert Player.objects.count() == 2


def test_the_registrations_api_asks_before_a_namesake(org_api, tournament):
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.REGISTRATION)
    existing = PlayerFactory(name="Орлов Игорь", city="")
    url = f"/api/v1/tournaments/{tournament.pk}/registrations/"
    refused = org_api.post(url, {"player": {"name": "орлов игорь"}}, format="json")
    assert refused.status_code == 409
    assert [p["id"] for p in refused.json()["params"]["players"]] == [existing.pk]
    assert not tournament.registrations.exists()
    made = org_api.post(url, {"player": {"name": "Орлов Игорь", "confirm": True}}, format="json")
    assert made.status_code == 201 and made.json()["player"]["id"] != existing.pk
