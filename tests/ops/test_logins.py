"""The set-up commands never change an existing password; secrets are shown once; tokens are
managed by command, panel and API."""

from __future__ import annotations

import io
import logging
import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from audit.models import AuditEntry
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def run(*args: str) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def test_ensure_organiser_creates_once_and_never_changes_the_password(settings) -> None:
    first = run("ensure_organiser", "--username", "anna")
    password = re.search(r"password: (\S+)", first).group(1)
    user = get_user_model().objects.get(username="anna")
    # The admin is the superusers': an organiser gets no staff flag.
    assert user.check_password(password) and not user.is_staff and not user.is_superuser
    assert user.groups.filter(name="organiser").exists()
    hash_before = user.password

    second = run("ensure_organiser", "--username", "anna")
    assert "unchanged" in second and password not in second
    user.refresh_from_db()
    assert user.password == hash_before
    # Nothing of the password is kept anywhere but the hash.
    assert not any(settings.VAR_DIR.glob("*login*.txt"))
    assert AuditEntry.objects.filter(action="login_ensure").count() == 1


def test_ensure_organiser_needs_a_username() -> None:
    from django.core.management.base import CommandError

    with pytest.raises(CommandError):
        call_command("ensure_organiser")


def test_ensure_superuser_keeps_an_existing_password(organiser) -> None:
    hash_before = organiser.password
    out = run("ensure_superuser", "--username", organiser.username)
    organiser.refresh_from_db()
    assert organiser.is_superuser and organiser.password == hash_before
    assert "unchanged" in out
    created = run("ensure_superuser", "--username", "root-admin")
    password = re.search(r"password: (\S+)", created).group(1)
    admin = get_user_model().objects.get(username="root-admin")
    assert admin.is_superuser and admin.check_password(password)


def test_api_token_command_issues_shows_once_and_revokes(organiser) -> None:
    assert "no API token" in run("api_token", organiser.username)
    key = run("api_token", organiser.username, "--issue", "--quiet-key").strip()
    assert Token.objects.get(user=organiser).key == key
    status = run("api_token", organiser.username)
    assert key[:4] in status and key not in status
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert api.post("/api/v1/players/", {"name": "Лебедев Пётр"}, format="json").status_code == 201
    run("api_token", organiser.username, "--revoke")
    assert api.get("/api/v1/auth/token/").status_code == 401  # an invalid token


def test_an_organiser_manages_his_token_through_the_api(organiser) -> None:
    api = APIClient()
    api.force_authenticate(organiser)
    assert api.get("/api/v1/auth/token/").json() == {
        "exists": False,
        "created": None,
        "expires": None,
        "hint": None,
    }
    issued = api.post("/api/v1/auth/token/")
    assert issued.status_code == 201 and issued["Cache-Control"] == "no-store"
    key = issued.json()["token"]
    status = api.get("/api/v1/auth/token/").json()
    assert status["exists"] and status["hint"] == key[:4] and "token" not in status
    second = api.post("/api/v1/auth/token/").json()["token"]
    assert second != key and not Token.objects.filter(key=key).exists()
    assert api.delete("/api/v1/auth/token/").status_code == 204
    assert not Token.objects.filter(user=organiser).exists()
    actions = list(AuditEntry.objects.values_list("action", flat=True).order_by("pk"))
    assert actions == ["api_token_issue", "api_token_issue", "api_token_revoke"]


def test_the_panel_shows_a_new_token_once(organiser) -> None:
    client = Client()
    client.force_login(organiser)
    assert "Ключа у вас нет" in client.get("/panel/api-token/").content.decode()
    issued = client.post("/panel/api-token/", {"action": "issue"})
    key = Token.objects.get(user=organiser).key
    assert key in issued.content.decode()
    later = client.get("/panel/api-token/").content.decode()
    assert key not in later and key[:4] in later
    assert client.post("/panel/api-token/", {"action": "revoke"}).status_code == 302
    assert not Token.objects.filter(user=organiser).exists()


def test_a_refused_login_is_one_line_with_address_and_username(organiser, caplog, settings) -> None:
    settings.LUZA_TRUSTED_PROXY_HEADER = "X-Forwarded-For"  # nginx in front, as deployed
    client = Client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="203.0.113.9")
    with caplog.at_level(logging.WARNING, logger="luza.auth"):
        answers = [  # settings_test: 5 failures, then 429
            client.post("/accounts/login/", {"username": organiser.username, "password": "x"})
            for _ in range(6)
        ]
    lines = [r.getMessage() for r in caplog.records if r.name == "luza.auth"]
    assert any(line.startswith("login failed: address=203.0.113.9") for line in lines)
    refused = [line for line in lines if line.startswith("login refused (429)")]
    locked = sum(answer.status_code == 429 for answer in answers)
    assert locked >= 1
    line = f"login refused (429): address=203.0.113.9 username='{organiser.username}'"
    assert refused == [line] * locked  # one line per refused attempt
    assert PASSWORD not in " ".join(lines)
