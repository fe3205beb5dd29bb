"""Anonymous writes have a budget (config.write_limits, django-ratelimit): the probe made 40
accounts in a row from one address and had 12 reset e-mails sent by 12 POSTs."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.cache import cache
from django.test import Client

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "Пирамида-Луза-2026"


@pytest.fixture
def budgets(settings):
    settings.LUZA_WRITE_RATES = {
        "signup": ("5/h", "3/h"),
        "claim": ("5/h", "3/h"),
        "password_reset": ("5/h", "1/15m"),
    }
    settings.LUZA_MAIL_ENABLED = True
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    cache.clear()
    yield settings
    cache.clear()


def test_signups_from_one_address_stop_at_the_budget(budgets):
    answers = [
        Client(REMOTE_ADDR="203.0.113.5")  # a new client each time: a signed-up one is let in
        .post(
            "/accounts/signup/",
            {"username": f"bot{n}", "password1": PASSWORD, "password2": PASSWORD},
        )
        .status_code
        for n in range(8)
    ]
    assert answers[:5] == [302] * 5 and answers[5:] == [429] * 3
    assert get_user_model().objects.filter(username__startswith="bot").count() == 5
    refused = Client(REMOTE_ADDR="203.0.113.5").post("/accounts/signup/", {"username": "x"})
    assert refused["Retry-After"]
    # Another address (another club) is not affected.
    other = Client(REMOTE_ADDR="198.51.100.7").post(
        "/accounts/signup/", {"username": "player1", "password1": PASSWORD, "password2": PASSWORD}
    )
    assert other.status_code == 302


def test_probing_one_name_stops_at_its_budget_from_any_address(budgets):
    UserFactory(username="organiser")
    answers = [
        Client(REMOTE_ADDR=f"192.0.2.{n}")
        .post(
            "/accounts/signup/",
            {"username": name, "password1": PASSWORD, "password2": PASSWORD},
        )
        .status_code
        for n, name in enumerate(("organiser", "ｏｒｇａｎｉｓｅｒ", " Organiser ", "ORGANISER"))
    ]
    assert answers == [400, 400, 400, 429]


def test_claim_tries_from_one_address_stop_at_the_budget(budgets):
    client = Client(REMOTE_ADDR="203.0.113.9")
    answers = [
        client.post("/claim/", {"code": f"AAAA-BBBB-CC{n:02d}"}).status_code for n in range(7)
    ]
    assert 429 not in answers[:5] and answers[5:] == [429, 429]


def test_one_reset_mail_per_address_per_interval_and_the_same_answer(budgets):
    UserFactory(username="ivanov", email="ivanov@example.org")
    answers = []
    for n in range(3):
        response = Client(REMOTE_ADDR=f"192.0.2.{n}").post(
            "/accounts/password/reset/", {"email": "ivanov@example.org"}
        )
        answers.append((response.status_code, response.get("Location")))
    unknown = Client(REMOTE_ADDR="192.0.2.99").post(
        "/accounts/password/reset/", {"email": "nobody@example.org"}
    )
    assert len(mail.outbox) == 1
    assert set(answers) == {(302, unknown["Location"])}
    # From one address, past its budget: a 429 whatever the address asked for.
    client = Client(REMOTE_ADDR="203.0.113.77")
    codes = [
        client.post("/accounts/password/reset/", {"email": f"x{n}@example.org"}).status_code
        for n in range(6)
    ]
    assert codes[-1] == 429


def test_reads_of_a_hall_are_never_counted(budgets):
    hall = Client(REMOTE_ADDR="203.0.113.200")
    for _ in range(30):
        assert hall.get("/accounts/signup/").status_code == 200
    response = hall.post(
        "/accounts/signup/", {"username": "fan", "password1": PASSWORD, "password2": PASSWORD}
    )
    assert response.status_code == 302
