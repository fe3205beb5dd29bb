"""The referee's home: his live matches one tap from their forms; a table's page; the next
match at a table; only the links he may use."""

from __future__ import annotations

import pytest
from django.test import Client

from matches import services as match_services
from matches.models import Table
from tests.factories import UserFactory
from tests.web.helpers import first_ready, play_to_win

pytestmark = pytest.mark.django_db


@pytest.fixture
def on_table(drawn, organiser):
    match_services.tables_ensure(tournament=drawn, count=2, actor=organiser)
    table = Table.objects.get(tournament=drawn, number=1)
    match = first_ready(drawn)
    match_services.match_assign_table(match=match, table=table, actor=organiser)
    match.refresh_from_db()
    return match


def test_referee_home_lists_live_and_ready_matches_with_links(referee_client, on_table):
    page = referee_client.get("/referee/").content.decode()
    assert f"/m/{on_table.pk}/score/" in page
    assert on_table.player_a.name in page
    ready = first_ready(on_table.tournament)
    assert f"/m/{ready.pk}/score/" in page


def test_referee_sees_my_matches_and_not_the_organiser_panel(referee_client, on_table):
    page = referee_client.get(f"/m/{on_table.pk}/score/").content.decode()
    assert "/referee/" in page
    assert 'href="/panel/"' not in page
    assert f"/t/{on_table.tournament_id}/tables/1/" in page


def test_a_stranger_has_an_empty_home(on_table):
    client = Client()
    client.force_login(UserFactory())
    page = client.get("/referee/")
    assert page.status_code == 200
    assert f"/m/{on_table.pk}/score/" not in page.content.decode()
    assert Client().get("/referee/").status_code == 302


def test_table_page_shows_the_match_and_the_form_to_those_who_may_score(
    referee_client, on_table, referee
):
    url = f"/t/{on_table.tournament_id}/tables/1/"
    page = referee_client.get(url).content.decode()
    assert on_table.player_a.name in page and f"/m/{on_table.pk}/score/" in page
    anonymous = Client().get(url).content.decode()
    assert on_table.player_a.name in anonymous and f"/m/{on_table.pk}/score/" not in anonymous
    play_to_win(on_table, "a", referee)
    after = referee_client.get(url).content.decode()
    assert f"/m/{on_table.pk}/score/" not in after  # the table is free again
    assert Client().get(f"/t/{on_table.tournament_id}/tables/9/").status_code == 404


def test_referee_home_and_table_page_queries_do_not_grow_with_the_tournament(
    referee_client, on_table, django_assert_max_num_queries
):
    # Session, user, groups, the nav's role checks, then a fixed number of reads.
    with django_assert_max_num_queries(12):
        assert referee_client.get("/referee/").status_code == 200
    with django_assert_max_num_queries(12):
        assert referee_client.get(f"/t/{on_table.tournament_id}/tables/1/").status_code == 200
