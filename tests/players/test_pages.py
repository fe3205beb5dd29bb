"""The players' pages: the rating list, a player's page with chart and head-to-head, the
series page, and what a private tournament leaves out."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from matches.models import Match
from tests.factories import OrganiserFactory, PlayerFactory, UserFactory
from tests.players.helpers import finished_with
from tournaments.models import Player, RatingChange
from tournaments.services.series import series_create

pytestmark = pytest.mark.django_db


def test_rating_list_sorts_filters_folds_the_search_and_shows_the_30_day_change(client) -> None:
    top = PlayerFactory(name="Фёдоров Иван", rating=1500, city="Тула", club="Пирамида")
    PlayerFactory(name="Сидоров Пётр", rating=1400, city="Москва", club="Луза")
    low = PlayerFactory(name="Ёлкин Олег", rating=900, city="Тула", club="Луза")
    RatingChange.objects.create(player=top, rating_before=1480, rating_after=1500, delta=20)
    old = RatingChange.objects.create(player=top, rating_before=1400, rating_after=1480, delta=80)
    RatingChange.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(days=40))

    page = client.get("/players/").content.decode()
    assert page.index("Фёдоров Иван") < page.index("Сидоров Пётр") < page.index("Ёлкин Олег")
    assert "+20" in page and "+100" not in page

    folded = client.get("/players/", {"q": "федоров"}).content.decode()
    assert "Фёдоров Иван" in folded and "Сидоров" not in folded
    assert "Ёлкин" in client.get("/players/", {"q": "ЕЛКИН"}).content.decode()

    tula = client.get("/players/", {"city": "Тула", "sort": "-rating"}).content.decode()
    assert "Сидоров" not in tula
    assert tula.index("Ёлкин Олег") < tula.index("Фёдоров Иван")
    club = client.get("/players/", {"club": "Луза"}).content.decode()
    assert "Фёдоров" not in club and "Ёлкин" in club
    assert client.get("/players/", {"sort": "bogus", "page": "x"}).status_code == 200
    assert low.pk


def test_rating_list_api_has_places_and_changes(api) -> None:
    a = PlayerFactory(name="Первый Игрок", rating=1300)
    PlayerFactory(name="Второй Игрок", rating=1300)
    PlayerFactory(name="Третий Игрок", rating=1000)
    RatingChange.objects.create(player=a, rating_before=1290, rating_after=1300, delta=10)
    body = api.get("/api/v1/players/ratings/", {"sort": "rating"}).json()
    rows = body["results"]
    assert [r["place"] for r in rows] == [1, 1, 3]
    assert next(r for r in rows if r["id"] == a.pk)["change_30_days"] == 10
    assert "user" not in rows[0]
    bad = api.get("/api/v1/players/ratings/", {"sort": "height"})
    assert bad.status_code == 400
    assert bad.json()["code"] == "invalid"


def test_player_page_shows_chart_tournaments_matches_and_head_to_head(client) -> None:
    organiser = OrganiserFactory()
    players = PlayerFactory.create_batch(4)
    tournament = finished_with(organiser, players, name="Кубок осени")
    first = Match.objects.filter(tournament=tournament).exclude(winner=None).first()
    winner = Player.objects.get(pk=first.winner_id)
    loser = Player.objects.get(pk=first.loser_id)
    RatingChange.objects.create(
        player=winner, tournament=tournament, rating_before=1000, rating_after=1016, delta=16
    )
    page = client.get(f"/players/{winner.pk}/")
    html = page.content.decode()
    assert page.status_code == 200
    assert "<svg" in html and "Кубок осени" in html and "+16 → 1016" in html
    assert f"/players/{winner.pk}/vs/{loser.pk}/" in html

    vs = client.get(f"/players/{winner.pk}/vs/{loser.pk}/")
    assert vs.status_code == 200
    assert "data-record>1–0<" in vs.content.decode()
    assert client.get(f"/players/{winner.pk}/vs/{winner.pk}/").status_code == 404
    assert client.get("/players/999999/").status_code == 404

    api = client.get(f"/api/v1/players/{winner.pk}/vs/{loser.pk}/").json()
    assert (api["wins"], api["losses"], api["played"]) == (1, 0, 1)
    profile = client.get(f"/api/v1/players/{winner.pk}/profile/").json()
    assert profile["tournaments"][0]["tournament"]["name"] == "Кубок осени"
    assert profile["tournaments"][0]["place"]
    assert profile["chart"][0]["delta"] == 16


def test_a_private_tournament_leaves_no_trace_on_players_pages(client) -> None:
    organiser = OrganiserFactory()
    players = PlayerFactory.create_batch(4)
    hidden = finished_with(organiser, players, name="Закрытый турнир", public=False)
    RatingChange.objects.create(
        player=players[0], tournament=hidden, rating_before=1000, rating_after=1010, delta=10
    )
    for url in (
        f"/players/{players[0].pk}/",
        f"/players/{players[0].pk}/vs/{players[1].pk}/",
        f"/api/v1/players/{players[0].pk}/profile/",
        f"/api/v1/players/{players[0].pk}/vs/{players[1].pk}/",
    ):
        body = client.get(url).content.decode()
        assert "Закрытый турнир" not in body, url
        assert f"/t/{hidden.pk}/" not in body, url
    assert client.get(f"/t/{hidden.pk}/entry/").status_code == 404
    client.force_login(organiser)
    assert "Закрытый турнир" in client.get(f"/players/{players[0].pk}/").content.decode()


def test_player_reads_do_not_show_login_ids(client) -> None:
    user = UserFactory(username="secret-login")
    player = PlayerFactory(user=user)
    for url in (f"/players/{player.pk}/", f"/api/v1/players/{player.pk}/profile/", "/players/"):
        assert "secret-login" not in client.get(url).content.decode()


def test_a_two_stage_club_cup_shows_points_per_stage_and_the_best_k_total(client, api) -> None:
    organiser = OrganiserFactory()
    players = PlayerFactory.create_batch(4)
    stage1 = finished_with(organiser, players, name="Этап 1", loser="b")
    stage2 = finished_with(organiser, players, name="Этап 2", loser="a")
    series = series_create(
        actor=organiser,
        data={"name": "Кубок клуба", "points_table": [10, 6, 4, 3], "best_of": 1},
        tournaments=[stage1, stage2],
    )
    page = client.get(f"/series/{series.pk}/")
    html = page.content.decode()
    assert page.status_code == 200
    assert "Этап 1" in html and "Этап 2" in html and "not-counted" in html
    body = api.get(f"/api/v1/series/{series.pk}/standings/").json()
    rows = body["rows"]
    assert len(body["stages"]) == 2
    assert all(len(r["stages"]) == 2 for r in rows)
    for row in rows:
        points = [float(s["points"]) for s in row["stages"] if s]
        assert float(row["total"]) == max(points)
        assert float(row["all_total"]) == sum(points)
    after_first = api.get(f"/api/v1/series/{series.pk}/standings/", {"after": 1}).json()
    assert all(len(r["stages"]) == 1 for r in after_first["rows"])
    # The cup is on its stages' pages and on the players' pages.
    assert f"/series/{series.pk}/" in client.get(f"/t/{stage1.pk}/").content.decode()
    assert f"/series/{series.pk}/" in client.get(f"/players/{players[0].pk}/").content.decode()


def test_the_rating_list_costs_the_same_queries_for_any_number_of_players(
    client, django_assert_max_num_queries
) -> None:
    PlayerFactory.create_batch(60, city="Тула")
    # Count, the page (place and change are subqueries), cities and clubs: no query per row.
    with django_assert_max_num_queries(4):
        assert client.get("/players/", {"sort": "change"}).status_code == 200
