"""Club cups made in the panel, their API refusals, and a login's request to be added."""

from __future__ import annotations

import pytest
from django.test import Client

from audit.models import AuditEntry
from tests.factories import OrganiserFactory, PlayerFactory, UserFactory
from tests.players.helpers import finished_with
from tournaments.models import Player, PlayerRequest, Registration, Series

pytestmark = pytest.mark.django_db


def login(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_an_organiser_makes_a_club_cup_of_his_tournaments_in_the_panel(organiser) -> None:
    players = PlayerFactory.create_batch(4)
    first = finished_with(organiser, players, name="Этап весны")
    second = finished_with(organiser, players, name="Этап лета")
    desk = login(organiser)
    assert "/panel/series/new/" in desk.get("/panel/").content.decode()
    response = desk.post(
        "/panel/series/new/",
        {
            "name": "Кубок «Лузы»",
            "points_table": "10, 6, 4, 3",
            "participation_points": "1",
            "best_of": "1",
            "is_public": "on",
            "tournaments": [second.pk, first.pk],
        },
    )
    series = Series.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/series/{series.pk}/"
    # Stages in order of date, whatever order they were ticked in.
    assert list(series.stages.values_list("tournament_id", flat=True)) == [first.pk, second.pk]
    assert AuditEntry.objects.filter(action="series_create").exists()
    bad = desk.post(
        f"/panel/series/{series.pk}/",
        {"name": "Кубок", "points_table": "4, 6", "participation_points": "0"},
    )
    assert bad.status_code == 400
    series.refresh_from_db()
    assert series.points_table == [10, 6, 4, 3]
    assert login(OrganiserFactory()).get(f"/panel/series/{series.pk}/").status_code == 403


def test_the_series_api_refuses_tournaments_of_others_and_bad_tables(organiser, org_api) -> None:
    other = finished_with(OrganiserFactory(), PlayerFactory.create_batch(4))
    response = org_api.post(
        "/api/v1/series/", {"name": "Чужой", "tournaments": [other.pk]}, format="json"
    )
    assert response.status_code == 403 and response.json()["code"] == "forbidden"
    rising = org_api.post(
        "/api/v1/series/", {"name": "Кубок", "points_table": [1, 5]}, format="json"
    )
    assert rising.status_code == 400 and rising.json()["params"]["field"] == "points_table"
    assert not Series.objects.exists()


def test_a_login_asks_to_be_added_and_the_desk_approves(tournament, organiser) -> None:
    tournament.online_entry = True
    tournament.save()
    user = UserFactory()
    asker = login(user)
    response = asker.post(
        f"/t/{tournament.pk}/entry/",
        {"action": "request", "name": "Новенький Игрок", "city": "Тула", "club": ""},
        follow=True,
    )
    assert "data-request-pending" in response.content.decode()
    desk = login(organiser)
    page = desk.get(f"/panel/t/{tournament.pk}/registrations/").content.decode()
    assert "Новенький Игрок" in page
    request = PlayerRequest.objects.get()
    desk.post(f"/panel/t/{tournament.pk}/requests/{request.pk}/", {"approve": "1"})
    player = Player.objects.get(user=user)
    assert player.name == "Новенький Игрок" and player.city == "Тула"
    assert Registration.objects.get(tournament=tournament, player=player).online
    assert 'data-entry-status="active"' in asker.get(f"/t/{tournament.pk}/entry/").content.decode()
