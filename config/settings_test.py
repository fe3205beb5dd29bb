"""Test settings: the base settings with a throwaway key and fast password hashing."""

import os
import secrets

from config.env import xdist_redis_url

os.environ.setdefault("DJANGO_SECRET_KEY", "test-" + secrets.token_hex(32))
os.environ.setdefault("DJANGO_DEBUG", "0")
# Keep the embedded broker, cache and SQLite files of tests apart from a running `make run`.
os.environ.setdefault(
    "LUZA_VAR_DIR", os.path.join(os.path.dirname(os.path.dirname(__file__)), "var", "test")
)

# Under pytest-xdist (`-n`) each worker process gets its own Redis database (the configured
# one plus the worker's number) and its own var folder, so that Celery workers, queues, flushes
# and caches of parallel tests never meet. Set in the environment: the Celery, gunicorn and
# manage.py processes tests start inherit it. See docs/reliability.md.
# Once: the processes inherit PYTEST_XDIST_WORKER too, and must not shift again.
_XDIST_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")  # "gw0", "gw1"... under -n
_SHIFTED = os.environ.get("LUZA_TEST_WORKER") == _XDIST_WORKER
if _XDIST_WORKER.startswith("gw") and _XDIST_WORKER[2:].isdigit() and not _SHIFTED:
    os.environ["LUZA_TEST_WORKER"] = _XDIST_WORKER
    os.environ["LUZA_VAR_DIR"] = os.path.join(os.environ["LUZA_VAR_DIR"], _XDIST_WORKER)
    if os.environ.get("REDIS_URL"):
        os.environ["REDIS_URL"] = xdist_redis_url(os.environ["REDIS_URL"], int(_XDIST_WORKER[2:]))

from config.settings import *  # noqa: E402, F403

if not os.environ.get("REDIS_URL"):
    # No Redis configured (make check, a laptop without services): the tests that need one skip
    # (tests/conftest.py, require_redis); the others keep the cache in memory and send tasks
    # nowhere, instead of waiting for the socket of a `make run` that is not running.
    REDIS_URL = ""
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    CELERY_BROKER_URL = "memory://"
    CELERY_BROKER_TRANSPORT_OPTIONS = {}

PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.MD5PasswordHasher"
]  # speed only; prod keeps PBKDF2
SECURE_SSL_REDIRECT = False
AXES_FAILURE_LIMIT = 5
# The suite reads as anonymous from one address hundreds of times a minute; the limit's own
# tests switch it on (tests/security/test_anonymous_rate.py).
LUZA_SCRAPER_RATE = ""
# The same for the anonymous writes' budgets: tests/security/test_write_budgets.py sets them.
LUZA_WRITE_RATES = {}
# Browser tests talk plain HTTP to a local server.
SESSION_COOKIE_SECURE = False
CSRF_COOKIE_SECURE = False
STORAGES = {
    **STORAGES,  # noqa: F405
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True
