"""Security basics a club can rely on, checked against the production settings."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import PASSWORD

ROOT = Path(__file__).resolve().parents[2]


def _production_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DJANGO_ALLOWED_HOSTS="luza.example.org",
    )
    env.update(extra)
    return env


def _production_settings(expression: str) -> str:
    code = (
        f"import django; django.setup(); from django.conf import settings as s; print({expression})"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=_production_env(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_check_deploy_is_clean_under_production_settings() -> None:
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=_production_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_cookies_are_secure_and_hsts_is_on() -> None:
    values = _production_settings(
        "s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SECURE_HSTS_SECONDS, s.SECURE_SSL_REDIRECT, "
        "s.SESSION_COOKIE_HTTPONLY, s.DEBUG"
    )
    assert values == "True True 31536000 True True False"


def test_passwords_use_djangos_default_hasher_in_production() -> None:
    assert (
        _production_settings("s.PASSWORD_HASHERS[0]")
        == "django.contrib.auth.hashers.PBKDF2PasswordHasher"
    )


@pytest.mark.django_db
def test_pages_carry_a_content_security_policy(client) -> None:
    response = client.get("/")
    policy = response["Content-Security-Policy"]
    assert "default-src 'self'" in policy
    assert "script-src 'self'" in policy
    assert "'unsafe-inline'" not in policy
    assert "frame-ancestors 'none'" in policy


def test_every_post_form_in_the_templates_carries_a_csrf_token() -> None:
    offenders = []
    for template in (ROOT / "templates").rglob("*.html"):
        text = template.read_text(encoding="utf-8")
        for form in re.finditer(r"<form\b[^>]*>(.*?)</form>", text, flags=re.S | re.I):
            if re.search(
                r'method\s*=\s*["\']?post', form.group(0)[:300], flags=re.I
            ) and "csrf_token" not in form.group(1):
                offenders.append(str(template.relative_to(ROOT)))
    assert offenders == []


@pytest.mark.django_db
def test_csrf_is_enforced_on_forms(organiser) -> None:
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    response = client.post(
        "/accounts/login/", {"username": organiser.username, "password": PASSWORD}
    )
    assert response.status_code == 403


_SECRET_PATTERNS = [
    re.compile(r"-----BEGIN (RSA |EC |OPENSSH )?PRIVATE KEY-----"),
    re.compile(r"""SECRET_KEY\s*=\s*["'][^"']{20,}["']"""),
    re.compile(r"AKIA[0-9A-Z]{16}"),
    re.compile(r"""(password|passwd|token)\s*=\s*["'][A-Za-z0-9+/_\-]{24,}["']""", re.I),
]


def test_no_secret_is_committed() -> None:
    files = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    hits = []
    for name in files:
        path = ROOT / name
        if path.suffix in {".ttf", ".png", ".pdf", ".mo", ".woff2"} or not path.is_file():
            continue
        text = path.read_text(encoding="utf-8", errors="ignore")
        for pattern in _SECRET_PATTERNS:
            for match in pattern.finditer(text):
                if "DEFAULT_SECRET_KEY" in text[max(0, match.start() - 40) : match.start() + 40]:
                    continue  # the named development key that production refuses
                hits.append(f"{name}: {match.group(0)[:40]}")
    assert hits == []
