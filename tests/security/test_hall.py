"""The hall is never refused: sixty phones behind the club's one address read the pages they
read and keep a live connection each, and all are served; the scorers keep a lane of their own
(a concurrency limit for anonymous requests, not a rate per address)."""

from __future__ import annotations

import threading
from types import SimpleNamespace

import httpx
import pytest
from django.http import HttpResponse
from django.test import Client, RequestFactory

from config.throttle import AnonymousConcurrencyMiddleware
from tests.factories import UserFactory
from tests.stream_server import read_events, stream_server
from tests.web.helpers import drawn_tournament, first_ready
from tests.world import opening_break, submit

PHONES = 60
HALL = "203.0.113.7"  # the club's one public address


# Slow (about 10 s on an idle machine): 300 real reads, the window of the measurement.
@pytest.mark.slow
def test_sixty_phones_behind_one_address_are_all_served(
    settings, monkeypatch, db, organiser, referee
) -> None:
    settings.LUZA_SCRAPER_RATE = "12000/min"  # the production default
    now = SimpleNamespace(time=lambda: 1_800_000_002.0)  # every read in one 10-s window
    monkeypatch.setattr("config.throttle.time", now)
    tournament = drawn_tournament(organiser, 8, referee=referee, format="single")
    match = first_ready(tournament)
    submit(match, opening_break(match), referee)
    pages = [
        f"/m/{match.pk}/",
        f"/t/{tournament.pk}/bracket/",
        f"/t/{tournament.pk}/",
        f"/t/{tournament.pk}/standings/",
        f"/api/v1/tournaments/{tournament.pk}/",
    ]
    polls = [f"/m/{match.pk}/?fragment=1", f"/t/{tournament.pk}/bracket/?fragment=1"]
    statuses: list[int] = []
    etags: dict[str, str] = {}
    for phone_no in range(PHONES):  # 300 reads: the window that answered 20 and refused 280
        phone = Client(REMOTE_ADDR=HALL)
        statuses.append(phone.get(pages[phone_no % len(pages)]).status_code)
        for n in range(4):
            url = polls[n % 2]
            answer = phone.get(url, HTTP_IF_NONE_MATCH=etags.get(url, ""))
            etags[url] = answer.get("ETag", "")
            statuses.append(answer.status_code)
    assert len(statuses) == 300
    assert set(statuses) <= {200, 304}, sorted(set(statuses))


@pytest.mark.slow  # sixty real connections to a real uvicorn
@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_sixty_live_connections_from_one_address_all_hear_a_tap(
    require_redis, organiser, referee
) -> None:
    tournament = drawn_tournament(organiser, 4, referee=referee, format="single")
    match = first_ready(tournament)
    heard: list[str] = []
    connected = threading.Barrier(PHONES + 1, timeout=30)
    lock = threading.Lock()

    def phone(url: str) -> None:
        with httpx.stream("GET", url, timeout=20) as answer:
            lines = answer.iter_lines()
            read_events(lines, 1)  # ready
            connected.wait()
            (event,) = read_events(lines, 1)
            with lock:
                heard.append(event.event)

    with stream_server() as server:
        url = f"{server}/api/v1/tournaments/{tournament.pk}/stream/"
        threads = [threading.Thread(target=phone, args=(url,)) for _ in range(PHONES)]
        for thread in threads:
            thread.start()
        connected.wait()
        submit(match, opening_break(match), referee)
        for thread in threads:
            thread.join(20)
    assert heard == ["match.event"] * PHONES


def test_a_scorer_is_served_while_the_audience_holds_every_anonymous_turn(settings, db) -> None:
    settings.LUZA_ANON_CONCURRENCY = 1
    settings.LUZA_ANON_WAIT_SECONDS = 0
    middleware = AnonymousConcurrencyMiddleware(lambda request: HttpResponse("ok"))
    assert middleware.turns.acquire()  # the audience's one turn is taken
    factory = RequestFactory()
    from django.contrib.auth.models import AnonymousUser

    spectator = factory.get("/t/1/bracket/")
    spectator.user = AnonymousUser()
    busy = middleware(spectator)
    assert busy.status_code == 503 and busy["Retry-After"] == "2"
    scorer = factory.get("/referee/")
    scorer.user = UserFactory()
    assert middleware(scorer).status_code == 200
    api = factory.get("/api/v1/matches/1/", HTTP_AUTHORIZATION="Bearer x")
    api.user = AnonymousUser()
    assert middleware(api).status_code == 200  # a token: the API's lane
    middleware.turns.release()
    assert middleware(spectator).status_code == 200
