"""Test settings: the base settings with a throwaway key and fast password hashing."""

import os
import secrets

os.environ.setdefault("DJANGO_SECRET_KEY", "test-" + secrets.token_hex(16))
os.environ.setdefault("DJANGO_DEBUG", "0")
# Keep the embedded broker, cache and SQLite files of tests apart from a running `make run`.
os.environ.setdefault(
    "LUZA_VAR_DIR", os.path.join(os.path.dirname(os.path.dirname(__file__)), "var", "test")
)

from config.settings import *  # noqa: F403

PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.MD5PasswordHasher"
]  # speed only; prod keeps PBKDF2
SECURE_SSL_REDIRECT = False
AXES_FAILURE_LIMIT = 5
# The suite reads as anonymous from one address hundreds of times a minute; the limit's own
# tests switch it on (tests/security/test_anonymous_rate.py).
LUZA_ANON_RATE = ""
# Browser tests talk plain HTTP to a local server.
SESSION_COOKIE_SECURE = False
CSRF_COOKIE_SECURE = False
STORAGES = {
    **STORAGES,  # noqa: F405
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True
