"""Anonymous reads cost the same for a big tournament as for a small one: the full bracket page,
the players' list and the API's bracket, standings and prizes come from the shared cache once
rendered, and big lists come in pages (timed figures: bench/anon_flood.py)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from matches.models import Match
from tests.web.helpers import drawn_tournament, first_ready, play_to_win, submit
from tournaments.models import Tournament
from tournaments.selectors import desk
from tournaments.web.shared import http_cache

pytestmark = pytest.mark.django_db

BREAK = {"type": "break", "player": "a", "legal": True, "pocketed": 3}


def queries(run) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = run()
    assert response.status_code in (200, 304)
    return len(captured)


@pytest.mark.parametrize("path", ["bracket/", "standings/", "prizes/"])
def test_a_full_page_is_built_around_the_cached_part(organiser, referee, path) -> None:
    small = drawn_tournament(organiser, 8, referee=referee, format="double")
    big = drawn_tournament(organiser, 32, referee=referee, format="double")
    counts = []
    for tournament in (small, big):
        url = f"/t/{tournament.pk}/{path}"
        Client().get(url)  # renders the part into the cache
        counts.append(queries(lambda url=url: Client().get(url)))
    assert counts[0] == counts[1] <= 2  # the tournament row; nothing that grows with it


def test_the_full_bracket_page_is_the_fragment_in_its_frame(drawn) -> None:
    page = Client().get(f"/t/{drawn.pk}/bracket/").content.decode()
    fragment = Client().get(f"/t/{drawn.pk}/bracket/?fragment=1").content.decode()
    assert fragment.strip() and fragment.strip() in page
    assert 'data-live-etag="W/' in page  # the current version: the poller starts from it


def test_the_players_list_is_not_rebuilt_for_every_ball(drawn, referee, monkeypatch) -> None:
    url = f"/t/{drawn.pk}/?fragment=1"
    Client().get(url)
    calls = []
    real = desk.registration_list
    monkeypatch.setattr(desk, "registration_list", lambda **kw: calls.append(kw) or real(**kw))
    match = submit(first_ready(drawn), BREAK, referee)  # play starts: a new public version
    assert Client().get(url).status_code == 200
    assert len(calls) == 1  # the new version's list, once
    match = Match.objects.get(pk=match.pk)
    event = {"type": match.state["awaiting"], "player": match.state["turn"], "pocketed": 0}
    submit(match, event, referee)  # a ball: the page changes, the list does not
    page = Client().get(url)
    assert page.status_code == 200 and len(calls) == 1
    assert first_ready(drawn).player_a.name in page.content.decode()


@pytest.mark.parametrize("read", ["bracket", "standings", "prizes"])
def test_the_api_reads_come_from_the_cache_with_an_etag(organiser, referee, read) -> None:
    counts = []
    for size in (8, 32):
        tournament = drawn_tournament(organiser, size, referee=referee, format="double")
        url = f"/api/v1/tournaments/{tournament.pk}/{read}/"
        first = APIClient().get(url)
        assert first.status_code == 200 and first["ETag"].startswith('W/"')
        assert APIClient().get(url).json() == first.json()
        counts.append(queries(lambda url=url: APIClient().get(url)))
        unchanged = APIClient().get(url, HTTP_IF_NONE_MATCH=first["ETag"])
        assert unchanged.status_code == 304 and not unchanged.content
    assert counts[0] == counts[1] <= 2


def test_a_result_shows_in_the_api_bracket_at_once(drawn, referee) -> None:
    url = f"/api/v1/tournaments/{drawn.pk}/bracket/"
    before = APIClient().get(url)
    play_to_win(first_ready(drawn), "a", referee)
    after = APIClient().get(url, HTTP_IF_NONE_MATCH=before["ETag"])
    assert after.status_code == 200 and after.json() != before.json()


def test_a_match_log_comes_in_pages(first_match, referee) -> None:
    match = submit(first_match, BREAK, referee)
    for _ in range(4):
        match = Match.objects.get(pk=match.pk)
        event = {"type": match.state["awaiting"], "player": match.state["turn"], "pocketed": 0}
        match = submit(match, event, referee)
    url = f"/api/v1/matches/{match.pk}/events/"
    whole = APIClient().get(url).json()
    assert len(whole["events"]) == 5 and whole["next_after"] is None
    page = APIClient().get(url, {"limit": 2}).json()
    assert [e["seq"] for e in page["events"]] == [1, 2] and page["next_after"] == 2
    rest = APIClient().get(url, {"limit": 2, "after": page["next_after"]}).json()
    assert [e["seq"] for e in rest["events"]] == [3, 4]
    assert APIClient().get(url, {"limit": "x"}).status_code == 400


def test_while_a_new_version_is_computed_the_api_sends_the_last_one_without_an_etag(
    drawn, referee, monkeypatch
) -> None:
    from django.core.cache import cache

    monkeypatch.setattr(http_cache, "live_window", lambda now=None: 1)  # no window boundary
    url = f"/api/v1/tournaments/{drawn.pk}/bracket/"
    before = APIClient().get(url)
    submit(first_ready(drawn), BREAK, referee)  # play starts: a new public version
    tournament = Tournament.objects.get(pk=drawn.pk)
    place = http_cache.page_cache(tournament, http_cache.bracket_etag(tournament), "api-bracket")
    cache.set(f"{place.key}:rendering", 1)  # another process is computing it

    meanwhile = APIClient().get(url, HTTP_IF_NONE_MATCH=before["ETag"])

    assert meanwhile.status_code == 200 and meanwhile.json() == before.json()
    assert "ETag" not in meanwhile  # so the client asks again, and gets the new version
    cache.delete(f"{place.key}:rendering")
    after = APIClient().get(url)
    assert after["ETag"] != before["ETag"]
