"""HTTP caching: ETags and 304s on the match API and the public pages, and the shared cache of
the bracket, which a result must invalidate at once (timed figures are in bench/, not here)."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from matches import services
from matches.models import Match
from tests.web.helpers import first_ready, play_to_win, submit
from tournaments.models import Tournament
from tournaments.services.players import player_update
from tournaments.web.shared import http_cache

pytestmark = pytest.mark.django_db

BREAK = {"type": "break", "player": "a", "legal": True, "pocketed": 3}


def bracket(client: Client, tournament: Tournament, etag: str | None = None):
    headers = {"HTTP_IF_NONE_MATCH": etag} if etag else {}
    return client.get(f"/t/{tournament.pk}/bracket/?fragment=1", **headers)


# --- the match API --------------------------------------------------------------------------


def test_the_match_api_answers_304_to_its_own_etag(first_match) -> None:
    api = APIClient()
    url = f"/api/v1/matches/{first_match.pk}/"
    first = api.get(url)
    assert first.status_code == 200
    etag = first["ETag"]

    again = api.get(url, HTTP_IF_NONE_MATCH=etag)

    assert again.status_code == 304
    assert again.content == b""
    assert again["ETag"] == etag
    assert "no-cache" in again["Cache-Control"]


def test_a_new_event_changes_the_match_etag(first_match, referee) -> None:
    api = APIClient()
    url = f"/api/v1/matches/{first_match.pk}/"
    etag = api.get(url)["ETag"]

    submit(first_match, BREAK, referee)
    after = api.get(url, HTTP_IF_NONE_MATCH=etag)

    assert after.status_code == 200
    assert after["ETag"] != etag
    assert after.json()["version"] == 1
    assert api.get(url, HTTP_IF_NONE_MATCH=after["ETag"]).status_code == 304


def test_a_clock_start_changes_the_match_etag(first_match, referee) -> None:
    api = APIClient()
    url = f"/api/v1/matches/{first_match.pk}/"
    etag = api.get(url)["ETag"]

    services.match_clock(match_id=first_match.pk, action="start", actor=referee)

    assert api.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 200


def test_a_304_is_no_way_round_a_private_tournament(first_match, drawn) -> None:
    api = APIClient()
    url = f"/api/v1/matches/{first_match.pk}/"
    etag = api.get(url)["ETag"]
    Tournament.objects.filter(pk=drawn.pk).update(is_public=False)

    assert api.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 404


# --- public pages ---------------------------------------------------------------------------


def test_the_bracket_answers_304_to_its_own_etag(client, drawn) -> None:
    first = bracket(client, drawn)
    assert first.status_code == 200

    assert bracket(client, drawn, first["ETag"]).status_code == 304


def test_a_result_changes_the_bracket_at_once(client, drawn, referee) -> None:
    match = first_ready(drawn)
    first = bracket(client, drawn)
    assert first.status_code == 200
    assert "won" not in first.content.decode()  # nothing decided yet

    play_to_win(match, "a", referee)
    after = bracket(client, drawn, first["ETag"])

    assert after.status_code == 200
    assert after["ETag"] != first["ETag"]
    match.refresh_from_db()
    page = after.content.decode()
    assert 'class="side won"' in page
    assert f">{match.score_a}<" in page


def test_the_bracket_is_rendered_once_for_all_pollers(
    drawn, referee, django_assert_max_num_queries
) -> None:
    bracket(Client(), drawn)  # the first poller renders it into the cache

    # Any other poller, even one without an ETag, gets it from the cache: only the
    # tournament row (its public version) is read.
    with django_assert_max_num_queries(1):
        response = bracket(Client(), drawn)
    assert response.status_code == 200
    assert 'class="bm' in response.content.decode()


def test_a_result_invalidates_the_cached_bracket(drawn, referee) -> None:
    match = first_ready(drawn)
    before = bracket(Client(), drawn).content.decode()
    version = Tournament.objects.get(pk=drawn.pk).public_version

    play_to_win(match, "a", referee)

    assert Tournament.objects.get(pk=drawn.pk).public_version > version
    page = bracket(Client(), drawn).content.decode()  # a new poller, no ETag: the cache
    assert page != before
    assert 'class="side won"' in page


def test_calling_a_match_to_a_table_changes_the_public_pages(drawn, organiser) -> None:
    first = bracket(Client(), drawn)
    services.tables_ensure(tournament=drawn, count=2, actor=organiser)

    services.table_assign_next(tournament=drawn, actor=organiser)

    after = bracket(Client(), drawn, first["ETag"])
    assert after.status_code == 200
    assert "Table 1" in after.content.decode()


def test_standings_answer_304_while_balls_are_scored(client, drawn, referee) -> None:
    match = first_ready(drawn)
    submit(match, BREAK, referee)  # play starts: a public change
    url = f"/t/{drawn.pk}/standings/?fragment=1"
    etag = client.get(url)["ETag"]

    match = Match.objects.get(pk=match.pk)
    turn = match.state["turn"]
    submit(match, {"type": match.state["awaiting"], "player": turn, "pocketed": 0}, referee)

    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304


def test_while_a_new_version_renders_other_pollers_get_the_last_one_without_an_etag(
    drawn, referee, monkeypatch
) -> None:
    from django.core.cache import cache

    monkeypatch.setattr(http_cache, "live_window", lambda now=None: 1)  # no window boundary
    before = bracket(Client(), drawn)
    submit(first_ready(drawn), BREAK, referee)  # play starts: a new public version
    tournament = Tournament.objects.get(pk=drawn.pk)
    place = http_cache.bracket_cache(tournament, http_cache.bracket_etag(tournament))
    cache.set(f"{place.key}:rendering", 1)  # another process is rendering it

    meanwhile = bracket(Client(), drawn, before["ETag"])

    assert meanwhile.status_code == 200
    assert meanwhile.content == before.content
    assert "ETag" not in meanwhile  # so the poller asks again, and gets the new version
    cache.delete(f"{place.key}:rendering")
    after = bracket(Client(), drawn)
    assert after["ETag"] != before["ETag"]
    assert after.content != before.content


def test_renaming_a_player_changes_the_cached_bracket(drawn, organiser) -> None:
    player = first_ready(drawn).player_a
    first = bracket(Client(), drawn)
    assert player.name in first.content.decode()

    player_update(player=player, actor=organiser, data={"name": "Переименованный Игрок"})

    after = bracket(Client(), drawn, first["ETag"])
    assert after.status_code == 200
    assert "Переименованный Игрок" in after.content.decode()


def test_a_renamed_player_changes_the_scoreboard_at_once(first_match, organiser) -> None:
    phone = Client()
    url = f"/m/{first_match.pk}/?fragment=1"
    etag = phone.get(url)["ETag"]
    assert phone.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304

    player_update(player=first_match.player_a, actor=organiser, data={"name": "Иван Новиков"})
    after = phone.get(url, HTTP_IF_NONE_MATCH=etag)

    assert after.status_code == 200
    assert "Иван Новиков" in after.content.decode()
