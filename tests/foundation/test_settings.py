"""Settings refuse bad production configuration in one clear line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import config.settings as base

ROOT = Path(__file__).resolve().parents[2]


def _check(**env: str) -> subprocess.CompletedProcess[str]:
    base = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "DATABASE_URL", "REDIS_URL"))
    }
    base.update(env)
    base["DJANGO_SETTINGS_MODULE"] = "config.settings"
    return subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env=base,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_production_refuses_the_default_secret_key() -> None:
    result = _check(DJANGO_DEBUG="0")
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "DJANGO_SECRET_KEY" in lines[0]


def test_production_starts_with_a_real_secret_key() -> None:
    result = _check(DJANGO_DEBUG="0", DJANGO_SECRET_KEY="luza-" + "0123456789abcdef" * 4)
    assert result.returncode == 0, result.stderr


def test_production_refuses_the_templates_placeholder_and_a_short_key() -> None:
    for key in ("CHANGE-ME", "short-but-random-Xq3", "x" * 60, "django-insecure-" + "ab12" * 12):
        result = _check(DJANGO_DEBUG="0", DJANGO_SECRET_KEY=key)
        assert result.returncode != 0, key
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and "DJANGO_SECRET_KEY" in lines[0], result.stderr


def test_malformed_database_url_is_one_clear_line() -> None:
    for url in ("postgres//nohost", "mysql://u@h/db", "postgresql://127.0.0.1:5432/"):
        result = _check(DJANGO_DEBUG="1", DATABASE_URL=url)
        assert result.returncode != 0
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1, result.stderr
        assert "DATABASE_URL" in lines[0]


def test_malformed_redis_url_is_one_clear_line() -> None:
    for url in ("localhost:6379", "unix://var/redis.sock"):
        result = _check(DJANGO_DEBUG="1", REDIS_URL=url)
        assert result.returncode != 0
        assert "REDIS_URL" in result.stderr.strip().splitlines()[0]


def test_a_unix_socket_url_names_the_same_database_for_cache_broker_and_test_workers() -> None:
    from config.env import celery_broker_url, xdist_redis_url

    url = "unix:///srv/run/redis.sock?db=2"
    assert celery_broker_url(url) == "redis+socket:///srv/run/redis.sock?virtual_host=2"
    assert xdist_redis_url(url, 3) == "unix:///srv/run/redis.sock?db=5"
    assert celery_broker_url("redis://127.0.0.1:6379/2") == "redis://127.0.0.1:6379/2"


def test_defaults_need_no_server(settings) -> None:
    import importlib

    saved = {k: os.environ.pop(k) for k in ("DATABASE_URL", "REDIS_URL") if k in os.environ}
    try:
        fresh = importlib.reload(base)
        assert fresh.DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3"
        # make run's private Redis on a Unix socket in the var folder: broker and cache.
        path = fresh.VAR_DIR.resolve() / "redis" / "redis.sock"
        cache_url, broker_url = f"unix://{path}?db=0", f"redis+socket://{path}?virtual_host=0"
        assert (cache_url, broker_url) == (fresh.REDIS_URL, fresh.CELERY_BROKER_URL)
        assert fresh.CACHES["default"]["LOCATION"] == fresh.REDIS_URL
    finally:
        os.environ.update(saved)
        importlib.reload(base)


def test_postgresql_prepares_repeated_statements_unless_turned_off(monkeypatch) -> None:
    """On by default (PostgreSQL plans the scoring path once per connection); off for a
    pooler in transaction mode, which cannot keep a connection's prepared statements."""
    import importlib

    monkeypatch.setenv("DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/luza")
    try:
        options = importlib.reload(base).DATABASES["default"]["OPTIONS"]
        assert options["server_side_binding"] is True and options["prepare_threshold"] == 5
        monkeypatch.setenv("DB_PREPARED_STATEMENTS", "0")
        options = importlib.reload(base).DATABASES["default"].get("OPTIONS", {})
        assert "server_side_binding" not in options and "prepare_threshold" not in options
    finally:
        monkeypatch.undo()
        importlib.reload(base)
