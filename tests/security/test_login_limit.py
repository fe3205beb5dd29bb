"""Logins hold under attack, the club does not get locked out (django-axes, config/login_limit).

Failures count per client address and normalised username together: the attacker's address
loses the names it tried, a colleague at the next table (or behind the same nginx) does not."""

from __future__ import annotations

import pytest
from django.test import Client, RequestFactory

from config.client_ip import client_ip
from tests.conftest import PASSWORD
from tests.factories import OrganiserFactory, UserFactory

pytestmark = pytest.mark.django_db

ADMIN_LOGIN = "/admin/login/?next=/admin/"
SITE_LOGIN = "/accounts/login/"


@pytest.fixture
def limit(settings) -> int:
    settings.AXES_FAILURE_LIMIT = 5
    return 5


def attempt(client: Client, url: str, username: str, password: str, **extra: str):
    return client.post(url, {"username": username, "password": password}, **extra)


def logged_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


def test_25_wrong_admin_passwords_then_the_right_one_do_not_log_in(limit) -> None:
    admin = UserFactory(username="chief", is_superuser=True, is_staff=True)
    client = Client()
    statuses = [
        attempt(client, ADMIN_LOGIN, admin.username, "wrong").status_code for _ in range(25)
    ]
    assert statuses[: limit - 1] == [200] * (limit - 1)  # the form again, "wrong password"
    assert set(statuses[limit:]) == {429}
    response = attempt(client, ADMIN_LOGIN, admin.username, PASSWORD)
    assert response.status_code == 429
    assert not logged_in(client)
    assert client.get("/admin/").status_code == 302  # still sent to the login page


def test_the_fullwidth_or_capitalised_name_gets_no_fresh_attempts(limit) -> None:
    user = OrganiserFactory(username="org2")
    client = Client()
    for _ in range(limit - 1):
        assert attempt(client, SITE_LOGIN, "org2", "wrong").status_code == 200
    # The limit-th failure, under another spelling of the same name: counted, not fresh.
    assert attempt(client, SITE_LOGIN, "ｏｒｇ２", "wrong").status_code == 429
    for spelling in ("ｏｒｇ２", "ORG2", " org2 ", "org2"):
        assert attempt(client, SITE_LOGIN, spelling, PASSWORD).status_code == 429, spelling
    assert not logged_in(client)
    assert user.username == "org2"


def test_the_lockout_says_how_long_to_wait_in_russian(limit) -> None:
    user = OrganiserFactory()
    client = Client()
    for _ in range(limit):
        response = attempt(client, SITE_LOGIN, user.username, "wrong")
    assert response.status_code == 429
    page = response.content.decode()
    assert "Попробуйте снова через 15 минут" in page
    assert response["Retry-After"] == str(15 * 60)


def test_another_login_from_the_same_address_still_works(limit) -> None:
    victim, colleague = OrganiserFactory(), OrganiserFactory()
    attacker = Client()
    for _ in range(limit + 3):
        attempt(attacker, SITE_LOGIN, victim.username, "wrong", REMOTE_ADDR="10.0.0.7")
    same_place = Client()
    response = attempt(same_place, SITE_LOGIN, colleague.username, PASSWORD, REMOTE_ADDR="10.0.0.7")
    assert response.status_code == 302 and logged_in(same_place)


def test_the_attacked_login_still_works_from_another_address(limit) -> None:
    victim = OrganiserFactory()
    attacker = Client()
    for _ in range(limit + 3):
        attempt(attacker, SITE_LOGIN, victim.username, "wrong", REMOTE_ADDR="10.0.0.66")
    own_phone = Client()
    response = attempt(own_phone, SITE_LOGIN, victim.username, PASSWORD, REMOTE_ADDR="10.0.0.8")
    assert response.status_code == 302 and logged_in(own_phone)


def test_behind_the_proxy_the_club_is_not_one_address(limit, settings) -> None:
    """nginx on the same machine: REMOTE_ADDR is 127.0.0.1 for everyone."""
    settings.LUZA_TRUSTED_PROXY_HEADER = "X-Forwarded-For"
    settings.LUZA_TRUSTED_PROXY_COUNT = 1
    user = OrganiserFactory()
    attacker = Client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="203.0.113.9")
    for _ in range(limit + 1):
        attempt(attacker, SITE_LOGIN, user.username, "wrong")
    assert attempt(attacker, SITE_LOGIN, user.username, PASSWORD).status_code == 429
    own = Client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="198.51.100.4")
    assert attempt(own, SITE_LOGIN, user.username, PASSWORD).status_code == 302


def test_a_forged_forwarded_header_gives_no_fresh_attempts(limit, settings) -> None:
    """Without a declared proxy the header is the client's own text; with one, only the entry
    the proxy added counts (a client's own X-Forwarded-For is to its left)."""
    user = OrganiserFactory()
    settings.LUZA_TRUSTED_PROXY_HEADER = ""
    client = Client(REMOTE_ADDR="10.0.0.9")
    for n in range(limit):
        attempt(client, SITE_LOGIN, user.username, "wrong", HTTP_X_FORWARDED_FOR=f"1.2.3.{n}")
    assert attempt(client, SITE_LOGIN, user.username, PASSWORD).status_code == 429

    settings.LUZA_TRUSTED_PROXY_HEADER = "X-Forwarded-For"
    other = OrganiserFactory()
    proxied = Client(REMOTE_ADDR="127.0.0.1")
    for n in range(limit):
        forged = f"1.2.3.{n}, 203.0.113.50"  # the client wrote the first, nginx added the last
        attempt(proxied, SITE_LOGIN, other.username, "wrong", HTTP_X_FORWARDED_FOR=forged)
    forged = "9.9.9.9, 203.0.113.50"
    response = attempt(proxied, SITE_LOGIN, other.username, PASSWORD, HTTP_X_FORWARDED_FOR=forged)
    assert response.status_code == 429


def test_a_success_clears_the_failures(limit) -> None:
    user = OrganiserFactory()
    client = Client()
    for _ in range(limit - 1):
        attempt(client, SITE_LOGIN, user.username, "wrong")
    assert attempt(client, SITE_LOGIN, user.username, PASSWORD).status_code == 302
    client.post("/accounts/logout/")
    for _ in range(limit - 1):
        assert attempt(client, SITE_LOGIN, user.username, "wrong").status_code == 200
    assert attempt(client, SITE_LOGIN, user.username, PASSWORD).status_code == 302


@pytest.mark.parametrize(
    ("header", "count", "forwarded", "expected"),
    [
        ("", 1, "203.0.113.1", "127.0.0.1"),
        ("X-Forwarded-For", 1, "203.0.113.1", "203.0.113.1"),
        ("X-Forwarded-For", 1, "6.6.6.6, 203.0.113.1", "203.0.113.1"),
        ("X-Forwarded-For", 2, "6.6.6.6, 203.0.113.1, 10.0.0.2", "203.0.113.1"),
        ("X-Forwarded-For", 2, "203.0.113.1", "127.0.0.1"),  # fewer hops than proxies
        ("X-Forwarded-For", 1, "not-an-address", "127.0.0.1"),
        ("X-Forwarded-For", 1, "", "127.0.0.1"),
        ("X-Real-IP", 1, None, "127.0.0.1"),
    ],
)
def test_client_address(settings, header, count, forwarded, expected) -> None:
    settings.LUZA_TRUSTED_PROXY_HEADER = header
    settings.LUZA_TRUSTED_PROXY_COUNT = count
    extra = {} if forwarded is None else {"HTTP_X_FORWARDED_FOR": forwarded}
    request = RequestFactory().get("/", REMOTE_ADDR="127.0.0.1", **extra)
    assert client_ip(request) == expected
