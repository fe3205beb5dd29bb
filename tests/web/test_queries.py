"""Public pages run a fixed number of queries, whatever the size of the tournament."""

from __future__ import annotations

import pytest

from matches.models import Match
from tests.factories import PlayerFactory, TournamentFactory
from tests.web.helpers import first_ready, submit
from tournaments import services
from tournaments.models import Registration

pytestmark = pytest.mark.django_db

# The same bounds for 16 and for 256 players: no query per match, player or round.
# Bracket: tournament, ETag (latest match change), matches, registrations, rating changes,
# scores of the matches being played.
BRACKET_QUERIES = 6
# Scoreboard: the match (with players, table, tournament; its last events are on its row).
SCOREBOARD_QUERIES = 1
# Tournament page: tournament, ETag, registrations, 6 fee and player totals, table board (3),
# its club cups (1).
TOURNAMENT_QUERIES = 13
STANDINGS_QUERIES = 4
PRIZES_QUERIES = 5


def double_elimination(organiser, players: int):
    tournament = TournamentFactory(organisers=[organiser], format="double")
    Registration.objects.bulk_create(
        Registration(tournament=tournament, player=p, rating_at_entry=p.rating)
        for p in PlayerFactory.create_batch(players)
    )
    services.tournament_draw(
        tournament=tournament, actor=organiser, method="seeded", allow_unpaid=True
    )
    return tournament


@pytest.mark.parametrize("players", [16, 256])
def test_bracket_queries_do_not_grow_with_the_bracket(
    client, organiser, referee, players, django_assert_max_num_queries
):
    tournament = double_elimination(organiser, players)
    match = first_ready(tournament)
    play = {"type": "break", "player": "a", "legal": True, "pocketed": 2}
    submit(match, play, organiser)
    with django_assert_max_num_queries(BRACKET_QUERIES):
        response = client.get(f"/t/{tournament.pk}/bracket/")
    assert response.status_code == 200
    page = response.content.decode()
    matches = Match.objects.filter(tournament=tournament).count()
    assert matches > players  # upper, lower and the grand final are all there
    assert page.count('class="bm') >= matches - 1
    with django_assert_max_num_queries(BRACKET_QUERIES):
        assert client.get(f"/t/{tournament.pk}/bracket/?fragment=1").status_code == 200


@pytest.mark.parametrize("players", [16, 256])
def test_tournament_standings_and_prizes_queries_are_fixed(
    client, organiser, players, django_assert_max_num_queries
):
    tournament = double_elimination(organiser, players)
    for path, bound in (
        ("", TOURNAMENT_QUERIES),
        ("standings/", STANDINGS_QUERIES),
        ("prizes/", PRIZES_QUERIES),
    ):
        with django_assert_max_num_queries(bound):
            response = client.get(f"/t/{tournament.pk}/{path}")
        assert response.status_code == 200


def test_scoreboard_queries_are_fixed(client, organiser, django_assert_max_num_queries):
    tournament = double_elimination(organiser, 16)
    match = first_ready(tournament)
    for pocketed in (2, 0):
        player = match.state["turn"]
        kind = match.state["awaiting"]
        event = {"type": kind, "player": player, "pocketed": pocketed}
        if kind == "break":
            event["legal"] = True
        match = submit(match, event, organiser)
    with django_assert_max_num_queries(SCOREBOARD_QUERIES):
        response = client.get(f"/m/{match.pk}/")
    assert response.status_code == 200
    with django_assert_max_num_queries(SCOREBOARD_QUERIES):
        fragment = client.get(f"/m/{match.pk}/?fragment=1")
    # An unchanged match answers a poll with 304 from the match row alone.
    with django_assert_max_num_queries(1):
        assert (
            client.get(
                f"/m/{match.pk}/?fragment=1", HTTP_IF_NONE_MATCH=fragment["ETag"]
            ).status_code
            == 304
        )
