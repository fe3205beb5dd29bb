"""The push channel: a tournament's and a match's changes as Server-Sent Events from the real
stream server (uvicorn), resumed from the last id after a drop, refused to a stranger exactly
as the private tournament's own API answer is, and closed to him the moment the tournament
turns private."""

from __future__ import annotations

from contextlib import ExitStack

import httpx
import pytest
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from config.changes import Change
from config.push import push_publish
from tests.factories import UserFactory
from tests.stream_server import Event, read_events, stream_server
from tests.web.helpers import drawn_tournament, first_ready
from tests.world import finish_by_forfeit, opening_break, submit
from tournaments.models import Tournament
from tournaments.services.settings_live import tournament_settings_update
from tournaments.web import stream

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def server(require_redis):
    with stream_server() as url:
        yield url


def follow(url: str, count: int, **headers: str) -> list:
    with httpx.stream("GET", url, headers=headers, timeout=10) as answer:
        assert answer.status_code == 200
        assert answer.headers["content-type"].startswith("text/event-stream")
        return read_events(answer.iter_lines(), count)


def test_a_reconnect_resumes_from_the_last_id_without_a_gap(server, organiser, referee):
    tournament = drawn_tournament(organiser, 4, referee=referee, format="single")
    match = first_ready(tournament)
    url = f"{server}/api/v1/tournaments/{tournament.pk}/stream/"

    (ready,) = follow(url, 1)
    assert ready.event == "ready" and ready.id  # where the stream stood when it connected

    # The phone is away while two balls are scored and a third event is written.
    submit(match, opening_break(match), referee)
    submit(match, {"type": "shot", "player": match.state["turn"], "pocketed": 1}, referee)

    missed = follow(url, 4, **{"Last-Event-ID": ready.id})
    # The first ball started the match: its event and the match's start, then the second ball.
    assert sorted(e.event for e in missed[:3]) == ["match.event", "match.event", "match.started"]
    assert missed[3].event == "ready"
    assert missed[0].data["match"] == match.pk and missed[0].data["tournament"] == tournament.pk
    assert len({e.id for e in missed[:3]}) == 3

    # Resuming from the last of them: nothing twice; the match's own stream has them too.
    (again,) = follow(url, 1, **{"Last-Event-ID": missed[2].id})
    assert again.event == "ready"
    match_events = follow(f"{server}/api/v1/matches/{match.pk}/stream/?last_event_id=0-0", 4)
    # (its own ids: each stream numbers its entries)
    assert [e.data for e in match_events[:3]] == [e.data for e in missed[:3]]


def test_a_change_reaches_a_connected_client(server, organiser, referee):
    tournament = drawn_tournament(organiser, 4, referee=referee, format="single")
    match = first_ready(tournament)
    with httpx.stream("GET", f"{server}/api/v1/matches/{match.pk}/stream/", timeout=10) as answer:
        lines = answer.iter_lines()
        (ready,) = read_events(lines, 1)
        submit(match, opening_break(match), referee)
        (event,) = read_events(lines, 1)
    assert event.event == "match.event" and event.id > ready.id
    assert event.data["kind"] == "match.event" and event.data["at"] > 0


def test_an_id_no_longer_kept_asks_for_a_reload(server, organiser, referee):
    tournament = drawn_tournament(organiser, 4, referee=referee, format="single")
    url = f"{server}/api/v1/tournaments/{tournament.pk}/stream/"
    (reset, ready) = follow(url, 2, **{"Last-Event-ID": "1-0"})
    assert reset.event == "reset" and ready.event == "ready"


def test_a_private_tournaments_stream_is_refused_to_a_stranger(server, organiser, referee):
    tournament = drawn_tournament(organiser, 4, referee=referee, format="single")
    tournament.is_public = False
    tournament.save(update_fields=["is_public"])
    match = first_ready(tournament)
    own_answer = APIClient().get(f"/api/v1/tournaments/{tournament.pk}/")
    assert own_answer.status_code == 404

    for path in (f"tournaments/{tournament.pk}", f"matches/{match.pk}"):
        refused = httpx.get(f"{server}/api/v1/{path}/stream/", timeout=10)
        assert refused.status_code == 404
        assert refused.json() == own_answer.json()

    # A logged-in stranger too; the organiser's session and a referee's token are let in.
    stranger = Client()
    stranger.force_login(UserFactory())
    cookie = {"Cookie": f"sessionid={stranger.cookies['sessionid'].value}"}
    refused = httpx.get(f"{server}/api/v1/tournaments/{tournament.pk}/stream/", headers=cookie)
    assert refused.status_code == 404

    own = Client()
    own.force_login(organiser)
    (ready,) = follow(
        f"{server}/api/v1/tournaments/{tournament.pk}/stream/",
        1,
        Cookie=f"sessionid={own.cookies['sessionid'].value}",
    )
    assert ready.event == "ready"
    token = Token.objects.create(user=referee)
    (ready,) = follow(
        f"{server}/api/v1/matches/{match.pk}/stream/", 1, Authorization=f"Bearer {token.key}"
    )
    assert ready.event == "ready"
    wrong = httpx.get(
        f"{server}/api/v1/matches/{match.pk}/stream/", headers={"Authorization": "Bearer nope"}
    )
    assert wrong.status_code == 401 and wrong.json()["code"] == "authentication_failed"


def test_unknown_streams_and_writes_are_refused_with_the_error_body(server):
    missing = httpx.get(f"{server}/api/v1/tournaments/999999/stream/", timeout=10)
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"
    post = httpx.post(f"{server}/api/v1/tournaments/1/stream/", timeout=10)
    assert post.status_code == 405 and post.headers["allow"] == "GET, HEAD"


def test_through_gunicorn_the_stream_paths_refuse_alike_or_say_no_content(organiser, referee):
    """Without the stream server in front (gunicorn alone): the same refusals, and 204 (a
    browser's EventSource stops; the pages poll) for whoever may read."""
    tournament = drawn_tournament(organiser, 4, referee=referee, format="single")
    client = APIClient()
    assert client.get(f"/api/v1/tournaments/{tournament.pk}/stream/").status_code == 204
    tournament.is_public = False
    tournament.save(update_fields=["is_public"])  # not through a service: no change heard
    stream._public.clear()
    refused = client.get(f"/api/v1/tournaments/{tournament.pk}/stream/")
    assert refused.status_code == 404
    assert refused.json() == client.get(f"/api/v1/tournaments/{tournament.pk}/").json()
    client.force_login(organiser)
    assert client.get(f"/api/v1/tournaments/{tournament.pk}/stream/").status_code == 204
    assert client.post(f"/api/v1/tournaments/{tournament.pk}/stream/").status_code == 405


def until_ready(url: str, last_id: str) -> list[Event]:
    """What a client resuming from `last_id` is sent, up to its "ready"."""
    with httpx.stream("GET", url, headers={"Last-Event-ID": last_id}, timeout=10) as answer:
        assert answer.status_code == 200
        lines = answer.iter_lines()
        events: list[Event] = []
        while not events or events[-1].event != "ready":
            (event,) = read_events(lines, 1)
            events.append(event)
        return events[:-1]


def test_a_result_names_the_winner_as_the_rest_answers_do(server, organiser, referee):
    tournament = drawn_tournament(organiser, 4, referee=referee, format="single")
    match = first_ready(tournament)
    url = f"{server}/api/v1/tournaments/{tournament.pk}/stream/"
    (ready,) = follow(url, 1)

    finish_by_forfeit(match, referee, loser="b")
    organiser_api = APIClient()
    organiser_api.force_login(organiser)
    corrected = organiser_api.post(
        f"/api/v1/tournaments/{tournament.pk}/matches/{match.pk}/correct/",
        {"winner": "b", "score_a": 2, "score_b": 8, "reason": "протокол"},
        format="json",
    ).json()

    by_kind = {e.event: e.data["data"] for e in until_ready(url, ready.id)}
    assert by_kind["match.finished"] == {
        "status": "finished",
        "winner": "a",
        "winner_id": match.player_a_id,
    }
    assert by_kind["match.corrected"] == {
        "winner": "b",
        "winner_id": match.player_b_id,
        "score_a": 2,
        "score_b": 8,
    }
    # The same names as the REST answer of the correction.
    assert (corrected["winner"], corrected["winner_id"]) == ("b", match.player_b_id)


def _open(stack: ExitStack, url: str, **headers: str):
    answer = stack.enter_context(httpx.stream("GET", url, headers=headers, timeout=10))
    assert answer.status_code == 200
    lines = answer.iter_lines()
    (ready,) = read_events(lines, 1)
    assert ready.event == "ready"
    return lines


def test_turning_private_cuts_off_anonymous_readers_and_keeps_those_with_access(
    server, organiser, referee
):
    tournament = drawn_tournament(organiser, 4, referee=referee, format="single")
    match = first_ready(tournament)
    urls = (
        f"{server}/api/v1/tournaments/{tournament.pk}/stream/",
        f"{server}/api/v1/matches/{match.pk}/stream/",
    )
    token = Token.objects.create(user=referee)
    bearer = {"Authorization": f"Bearer {token.key}"}
    stranger = Client()
    stranger.force_login(UserFactory())
    stranger_cookie = {"Cookie": f"sessionid={stranger.cookies['sessionid'].value}"}
    with ExitStack() as stack:
        anonymous = [_open(stack, url) for url in urls]
        logged_in_stranger = _open(stack, urls[0], **stranger_cookie)
        kept = [_open(stack, url, **bearer) for url in urls]

        tournament_settings_update(
            tournament=tournament, actor=organiser, data={"is_public": False}
        )

        # The anonymous readers' streams end (and the stranger's, whose login gives no access):
        # nothing more of the tournament reaches them.
        for lines in [*anonymous, logged_in_stranger]:
            assert read_events(lines, 1) == []
        # The referee's token keeps his: the tournament's stream says what changed, and the
        # next ball reaches both of his streams.
        (changed,) = read_events(kept[0], 1)
        assert changed.event == "tournament.visibility"
        assert changed.data["data"] == {"public": False}
        submit(match, opening_break(match), referee)
        assert "match.event" in {e.event for e in read_events(kept[0], 2)}
        assert "match.event" in {e.event for e in read_events(kept[1], 2)}

    # A new anonymous connection is refused at once, as the tournament's own API refuses.
    for url in urls:
        refused = httpx.get(url, timeout=10)
        assert refused.status_code == 404 and refused.json()["code"] == "not_found"
    (ready,) = follow(urls[0], 1, **bearer)
    assert ready.event == "ready"


def test_a_change_of_visibility_made_elsewhere_reaches_the_stream_server(
    server, organiser, referee
):
    """Another machine turned the tournament private: this stream server hears of it only
    through Redis, and drops what it remembered of the tournament as well as its readers."""
    tournament = drawn_tournament(organiser, 4, referee=referee, format="single")
    match = first_ready(tournament)
    url = f"{server}/api/v1/matches/{match.pk}/stream/"
    with ExitStack() as stack:
        lines = _open(stack, url)  # the server now remembers that the tournament is public
        assert stream._public[tournament.pk][0] is True
        Tournament.objects.filter(pk=tournament.pk).update(is_public=False)
        push_publish(
            Change(
                kind="tournament.visibility", tournament_id=tournament.pk, data={"public": False}
            )
        )
        assert read_events(lines, 1) == []
    refused = httpx.get(url, timeout=10)
    assert refused.status_code == 404


def test_an_idle_stream_has_heartbeats_and_tells_proxies_not_to_buffer(
    server, organiser, referee, monkeypatch
):
    # A proxy or a phone's network drops a silent connection after 30-60 s.
    assert 15 <= stream.HEARTBEAT_SECONDS <= 25
    monkeypatch.setattr(stream, "HEARTBEAT_SECONDS", 0.2)  # not a quarter of a minute here
    tournament = drawn_tournament(organiser, 4, referee=referee, format="single")
    url = f"{server}/api/v1/tournaments/{tournament.pk}/stream/"
    with httpx.stream("GET", url, timeout=10) as answer:
        assert answer.headers["x-accel-buffering"] == "no"
        assert "no-cache" in answer.headers["cache-control"]
        comments = []
        for line in answer.iter_lines():
            if line.startswith(":"):
                comments.append(line)
                if len(comments) == 2:
                    break
    assert len(comments) == 2
