"""Anonymous readers get a budget per address (config/throttle.py): a phone polling every 2 s
never meets it, a client hammering the pages does, and nobody else pays for him."""

from __future__ import annotations

import uuid
from types import SimpleNamespace

import pytest
from django.test import Client
from rest_framework.test import APIClient

from config.throttle import Rate, parse_rate
from tests.factories import TournamentFactory, UserFactory

pytestmark = pytest.mark.django_db


class Clock:
    """The throttle's clock, moved by the test: windows begin where the test says."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0  # the start of a minute

    def time(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch) -> Clock:
    clock = Clock()
    monkeypatch.setattr("config.throttle.time", SimpleNamespace(time=clock.time))
    return clock


@pytest.fixture
def address() -> str:
    """A fresh address per test: the counters live in the shared cache."""
    return "10.{}.{}.{}".format(*uuid.uuid4().bytes[:3])


@pytest.fixture
def public_tournament(db):
    return TournamentFactory(is_public=True)


def test_a_phone_polling_every_two_seconds_is_never_limited(
    settings, clock, address, public_tournament
) -> None:
    settings.LUZA_SCRAPER_RATE = "120/min"
    phone = Client(REMOTE_ADDR=address)
    url = f"/t/{public_tournament.pk}/bracket/?fragment=1"
    statuses = set()
    for _ in range(10 * 30):  # ten minutes
        statuses.add(phone.get(url).status_code)
        clock.now += 2
    assert statuses == {200}


def test_a_hammering_client_is_told_to_wait(settings, clock, address, public_tournament) -> None:
    settings.LUZA_SCRAPER_RATE = "60/min"  # counted as 10 per 10 s: no minute's budget in a burst
    clock.now += 4  # into the window
    client = Client(REMOTE_ADDR=address)
    url = f"/t/{public_tournament.pk}/"
    assert [client.get(url).status_code for _ in range(10)] == [200] * 10
    response = client.get(url)
    assert response.status_code == 429
    assert response["Retry-After"] == "6"
    assert "Слишком много запросов с вашего адреса" in response.content.decode()

    api = APIClient(REMOTE_ADDR=address)
    response = api.get(f"/api/v1/tournaments/{public_tournament.pk}/")
    assert response.status_code == 429  # pages and API share the budget
    body = response.json()
    assert body["code"] == "throttled" and body["params"] == {"wait": 6}
    assert response["Retry-After"] == "6"

    clock.now += 6  # the next window
    assert client.get(url).status_code == 200


def test_the_api_limit_answers_in_the_error_contract(settings, clock, address) -> None:
    settings.LUZA_SCRAPER_RATE = "2/min"
    api = APIClient(REMOTE_ADDR=address, HTTP_ACCEPT_LANGUAGE="en")
    for url in ("/api/v1/players/", "/api/v1/tournaments/", "/api/v1/presets/"):
        api.get(url)
    response = api.get("/api/v1/presets/")
    assert response.status_code == 429
    assert set(response.json()) == {"code", "message", "params"}
    assert "Too many requests" in response.json()["message"]


def test_others_do_not_pay_for_the_hammering_client(
    settings, clock, address, public_tournament
) -> None:
    settings.LUZA_SCRAPER_RATE = "5/min"
    settings.LUZA_TRUSTED_PROXY_HEADER = "X-Forwarded-For"
    url = f"/t/{public_tournament.pk}/"
    scraper = Client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=address)
    for _ in range(6):
        last = scraper.get(url)
    assert last.status_code == 429
    phone = Client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="198.51.100.77")
    assert phone.get(url).status_code == 200
    # A logged-in referee at the same address is never limited here.
    referee = Client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=address)
    referee.force_login(UserFactory())
    assert referee.get(url).status_code == 200
    api = APIClient(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=address)
    api.force_authenticate(UserFactory())
    assert api.get(f"/api/v1/tournaments/{public_tournament.pk}/").status_code == 200


def test_static_files_logins_and_writes_are_not_counted(settings, clock, address) -> None:
    settings.LUZA_SCRAPER_RATE = "6/min"  # one per 10 s
    client = Client(REMOTE_ADDR=address)
    for _ in range(3):
        assert client.get("/static/js/live.js").status_code == 200
        assert client.get("/accounts/login/").status_code == 200
        assert client.get("/admin/login/").status_code == 200
        client.post("/accounts/login/", {"username": "nobody", "password": "x"})
        client.post("/i18n/setlang/", {"language": "ru"})
    assert client.get("/").status_code == 200
    assert client.get("/").status_code == 429


def test_a_cache_outage_lets_readers_through(settings, clock, address, monkeypatch) -> None:
    settings.LUZA_SCRAPER_RATE = "1/min"

    def down(*args, **kwargs):
        raise ConnectionError("redis is away")

    monkeypatch.setattr("config.throttle.cache.incr", down)
    monkeypatch.setattr("config.throttle.cache.add", down)
    client = Client(REMOTE_ADDR=address)
    assert [client.get("/").status_code for _ in range(3)] == [200] * 3


def test_switched_off_and_malformed_rates() -> None:
    assert parse_rate("") is None
    assert parse_rate("120/min") == Rate(120, 60)
    assert parse_rate("5/s") == Rate(5, 1)
    assert parse_rate("1000/hour") == Rate(1000, 3600)
    with pytest.raises(ValueError, match="12000/min"):
        parse_rate("fast")
