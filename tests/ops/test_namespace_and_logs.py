"""One installation, one namespace in Redis; logs in one format, in UTC."""

from __future__ import annotations

import io
import logging
import os
import subprocess
import sys

import pytest
import redis
from django.conf import settings
from django.core.cache import cache
from django.core.management import call_command

from config.logs import UTCFormatter, WithoutTraceback
from tests.workers import ROOT, process_env

pytestmark = pytest.mark.django_db


def test_every_redis_name_of_an_installation_carries_its_instance() -> None:
    instance = settings.INSTANCE
    assert instance == settings.CELERY_TASK_DEFAULT_QUEUE
    assert instance == settings.CELERY_TASK_DEFAULT_EXCHANGE
    assert instance == settings.CELERY_CONTROL_EXCHANGE
    assert settings.CELERY_EVENT_EXCHANGE.startswith(instance)
    if settings.REDIS_URL:
        assert settings.CELERY_BROKER_TRANSPORT_OPTIONS["global_keyprefix"].startswith(instance)
        assert settings.CACHES["default"]["KEY_PREFIX"].startswith(instance)


def _settings_of(instance: str) -> dict[str, str]:
    code = (
        "import django; django.setup(); from django.conf import settings as s; "
        "print(s.CELERY_TASK_DEFAULT_QUEUE, s.CELERY_CONTROL_EXCHANGE, "
        "s.CACHES['default'].get('KEY_PREFIX'), s.BROKER_PREFIX)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=process_env(LUZA_INSTANCE=instance),
        capture_output=True,
        text=True,
        check=False,
    )
    return {"out": out.stdout.strip(), "err": out.stderr.strip()}


def test_two_installations_share_no_name() -> None:
    prod, staging = _settings_of("luza-prod")["out"].split(), _settings_of("luza-staging")["out"]
    assert prod[0] == "luza-prod" and prod[1] == "luza-prod"
    # Without Redis the cache and the broker have no key prefix at all ("None" twice): only
    # the names an installation has can be shared.
    assert not (set(prod) & set(staging.split())) - {"None"}


def test_a_bad_instance_name_stops_with_one_line() -> None:
    result = _settings_of("Prod Copy")
    assert result["err"].splitlines()[-1].startswith("Luza configuration error: LUZA_INSTANCE=")


def test_clearing_the_cache_keeps_the_broker_and_other_installations(require_redis) -> None:
    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    queue = settings.BROKER_PREFIX + settings.CELERY_TASK_DEFAULT_QUEUE
    foreign = "luza-other.cache:1:page"
    # Earlier tests of the same worker may have left tasks nobody consumed in the queue: what
    # was there must stay there too.
    queued = client.lrange(queue, 0, -1)
    client.rpush(queue, "a clock task")
    client.set(foreign, "theirs")
    cache.set("bracket", "ours")
    try:
        out = io.StringIO()
        call_command("cache_clear", stdout=out)
        assert cache.get("bracket") is None
        assert client.lrange(queue, 0, len(queued)) == [*queued, b"a clock task"]
        assert client.get(foreign) == b"theirs"
    finally:
        client.lrem(queue, 1, "a clock task")
        client.delete(foreign)


def test_log_times_are_utc_whatever_the_time_zone() -> None:
    record = logging.LogRecord("luza", logging.INFO, __file__, 1, "hello", None, None)
    record.created = 1_767_225_600.5  # 2026-01-01 00:00:00.5 UTC, 03:00 in Moscow
    line = UTCFormatter("%(asctime)s %(levelname)s %(name)s: %(message)s").format(record)
    assert line == "2026-01-01T00:00:00.500Z INFO luza: hello"


def test_a_bad_host_is_one_line_without_traceback(client, caplog) -> None:
    handler = logging.StreamHandler(stream := io.StringIO())
    handler.addFilter(WithoutTraceback())
    handler.setFormatter(UTCFormatter("%(levelname)s %(name)s: %(message)s"))
    logger = logging.getLogger("django.security.DisallowedHost")
    logger.addHandler(handler)
    try:
        response = client.get("/healthz", HTTP_HOST="10.0.0.7")
    finally:
        logger.removeHandler(handler)
    assert response.status_code == 400
    lines = stream.getvalue().strip().splitlines()
    assert len(lines) == 1 and "10.0.0.7" in lines[0] and "DisallowedHost" in lines[0]
    assert lines[0].startswith("WARNING ")  # the client's mistake, not the server's error
