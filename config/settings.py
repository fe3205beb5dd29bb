"""Luza settings: everything comes from the environment, with defaults that need no server.

Unset DATABASE_URL / REDIS_URL: SQLite under var/, and the private Redis that `make run` starts
on a Unix socket under var/ (a laptop). Set: PostgreSQL and a Redis server (production, CI).
Redis is the Celery broker and the cache either way.
"""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import django_stubs_ext
from csp.constants import NONCE
from django.utils.translation import gettext_lazy as _
from whitenoise.compress import Compressor

from config.env import (
    ConfigError,
    celery_broker_url,
    database_from_url,
    embedded_redis_url,
    env_bool,
    env_int,
    env_list,
    env_str,
    instance_name,
    redis_url_checked,
)
from config.logs import django_logging

# The generic classes of Django the annotations subscript (ModelAdmin[Player], ModelForm[Match])
# take their type arguments at run time too, as DRF's already do.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env_str("LUZA_VAR_DIR") or BASE_DIR / "var")
try:
    VAR_DIR.mkdir(parents=True, exist_ok=True)
except OSError as _exc:
    raise ConfigError(
        f"LUZA_VAR_DIR {VAR_DIR} cannot be created ({_exc.strerror}): set LUZA_VAR_DIR to a "
        "folder the service user may write (docs/deployment.md)."
    ) from None

DEFAULT_SECRET_KEY = "luza-insecure-development-key-do-not-use-in-production"  # noqa: S105
DEBUG = env_bool("DJANGO_DEBUG", False)
SECRET_KEY = env_str("DJANGO_SECRET_KEY") or DEFAULT_SECRET_KEY
# Placeholders of the templates (deploy/env.example) and Django's own generated development keys.
PLACEHOLDER_SECRET_KEYS = ("CHANGE-ME", "change-me", "changeme", "secret", "django-insecure-")
if not DEBUG and SECRET_KEY == DEFAULT_SECRET_KEY:
    raise ConfigError(
        "DJANGO_SECRET_KEY is not set; production mode (DJANGO_DEBUG off) refuses the default key."
    )
if not DEBUG and (
    len(SECRET_KEY) < 50
    or len(set(SECRET_KEY)) < 5
    or any(SECRET_KEY.startswith(p) for p in PLACEHOLDER_SECRET_KEYS)
):
    # Django's own measure of a key (its security.W009 check), refused instead of warned of:
    # a key anyone can read in the template signs sessions and password-reset links.
    raise ConfigError(
        "DJANGO_SECRET_KEY is a placeholder or too weak: production mode (DJANGO_DEBUG off) "
        "needs at least 50 characters, 5 of them different (e.g. python3 -c 'import secrets; "
        "print(secrets.token_urlsafe(50))')."
    )

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "config.admin.SuperuserAdminConfig",  # the admin, for superusers only
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "csp",
    "axes",
    "rules",
    "tournaments",
    "matches",
    "audit",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "config.middleware.PagesInRussianByDefault",
    "django.middleware.locale.LocaleMiddleware",
    "config.middleware.ApiInUtc",
    "config.api.JsonNotFoundMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "config.throttle.AnonymousConcurrencyMiddleware",
    "config.throttle.AnonymousPageThrottleMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "config.login_log.LoginRefusalLog",
    # Keyed writes of the API run with their recorded answer (config/idempotency).
    "config.idempotency.IdempotencyMiddleware",
    # Last, as django-axes asks: turns a locked-out login into its answer (config/login_limit).
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "csp.context_processors.nonce",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------------
DATABASE_URL = env_str("DATABASE_URL")
if DATABASE_URL:
    DATABASES = {
        "default": database_from_url(DATABASE_URL, conn_max_age=env_int("DB_CONN_MAX_AGE", 60))
    }
    if "postgresql" in DATABASES["default"]["ENGINE"] and env_bool("DB_PREPARED_STATEMENTS", True):
        # Parameters bound by the server, and a statement run five times on a connection is
        # prepared: PostgreSQL then plans the scoring path's joins once per connection, not
        # on every ball. Turn off behind a pooler in transaction mode (docs/deployment.md).
        DATABASES["default"]["OPTIONS"] = {
            **DATABASES["default"].get("OPTIONS", {}),
            "server_side_binding": True,
            "prepare_threshold": 5,
        }
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": VAR_DIR / "luza.sqlite3",
            # A file, not memory, so that a Celery worker started by a test sees the test data.
            "TEST": {"NAME": str(VAR_DIR / "test-luza.sqlite3")},
            "OPTIONS": {
                "timeout": 20,
                "transaction_mode": "IMMEDIATE",
                "init_command": "PRAGMA journal_mode=WAL;",
            },
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis: Celery broker and cache ---------------------------------------------------------
# One installation, one namespace: everything it keeps in Redis (cache, queues, unacknowledged
# tasks, worker pings, the health ping) is prefixed with LUZA_INSTANCE (docs/deployment.md).
# REDIS_URL unset: the private redis-server that `make run` starts on a Unix socket in VAR_DIR
# (scripts/run.sh), so the laptop runs production's transport, not a stand-in.
INSTANCE = instance_name(env_str("LUZA_INSTANCE", "luza"))
REDIS_URL = redis_url_checked(env_str("REDIS_URL") or embedded_redis_url(VAR_DIR))
CACHE_PREFIX = env_str("LUZA_CACHE_PREFIX") or f"{INSTANCE}.cache"
BROKER_PREFIX = f"{INSTANCE}.broker:"
CACHES = {
    "default": {
        "BACKEND": "config.cache.RedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": CACHE_PREFIX,
    }
}
CELERY_BROKER_URL = celery_broker_url(REDIS_URL)
CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, object] = {
    # ETA tasks (match clocks) stay reserved this long before Redis redelivers them;
    # the periodic sweep covers a worker that died with clocks in hand.
    "visibility_timeout": 3 * 3600,
    # Queues, bindings, unacknowledged tasks and the control channels (pings) alike.
    "global_keyprefix": BROKER_PREFIX,
}

CELERY_TASK_DEFAULT_QUEUE = INSTANCE
CELERY_TASK_DEFAULT_EXCHANGE = INSTANCE
CELERY_TASK_DEFAULT_ROUTING_KEY = INSTANCE
CELERY_CONTROL_EXCHANGE = INSTANCE
CELERY_EVENT_EXCHANGE = f"{INSTANCE}.events"
CELERY_WORKER_HIJACK_ROOT_LOGGER = False  # LOGGING below: one format for every process
CELERY_TASK_IGNORE_RESULT = True
CELERY_RESULT_BACKEND = None
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = "UTC"
CELERY_ENABLE_UTC = True
CLOCK_SWEEP_SECONDS = env_int("LUZA_CLOCK_SWEEP_SECONDS", 5)
HEALTH_PING_SECONDS = env_int("LUZA_HEALTH_PING_SECONDS", 10)  # /healthz reads the last ping
CELERY_BEAT_SCHEDULE = {
    "sweep-expired-clocks": {
        "task": "matches.tasks.clock_sweep",
        "schedule": timedelta(seconds=CLOCK_SWEEP_SECONDS),
        "options": {"expires": CLOCK_SWEEP_SECONDS},
    },
    "ping-workers": {
        "task": "config.workers_ping",
        "schedule": timedelta(seconds=HEALTH_PING_SECONDS),
        "options": {"expires": HEALTH_PING_SECONDS},
    },
    "prune-idempotency-records": {
        "task": "matches.tasks.idempotency_prune",
        "schedule": timedelta(hours=24),
        "options": {"expires": 3600},
    },
}
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")

# --- Auth -----------------------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"
# Failed logins (django-axes, config/login_limit.py): per client address and username together.
AUTHENTICATION_BACKENDS = [
    "config.login_limit.LoginLimitBackend",
    "config.login_limit.FoldedLoginBackend",
]
AXES_FAILURE_LIMIT = env_int("LUZA_LOGIN_RATE_LIMIT", 10)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("LUZA_LOGIN_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["ip_address", "username"]]
AXES_USERNAME_CALLABLE = "config.login_limit.normalised_username"
AXES_CLIENT_IP_CALLABLE = "config.client_ip.client_ip"
AXES_LOCKOUT_CALLABLE = "config.login_limit.lockout_response"
AXES_RESET_ON_SUCCESS = True
# Refusals are logged once, with address and username, by config.login_log; axes's own
# lines (one at every start of every process, one per login) would only repeat or drown them.
AXES_VERBOSE = False
# The client's address: REMOTE_ADDR, unless a reverse proxy is declared here (docs/deployment.md).
# With nginx's `X-Forwarded-For $proxy_add_x_forwarded_for`: "X-Forwarded-For" and count 1.
LUZA_TRUSTED_PROXY_HEADER = env_str("LUZA_TRUSTED_PROXY_HEADER", "")
LUZA_TRUSTED_PROXY_COUNT = env_int("LUZA_TRUSTED_PROXY_COUNT", 1)
# Requests per client address of anonymous readers, pages and API together (config/throttle.py);
# a phone polling every 2 s makes 30 a minute. Empty: no limit.
# Live connections (Server-Sent Events) one stream server process holds; past it a new one
# gets 503 with Retry-After (tournaments/web/stream.py).
LUZA_STREAM_MAX_CLIENTS = env_int("LUZA_STREAM_MAX_CLIENTS", 20000)
# API tokens: how long one works after it is issued, and how often an address may exchange a
# password for one (POST /api/v1/auth/token/; failed passwords also count for django-axes).
LUZA_API_TOKEN_DAYS = env_int("LUZA_API_TOKEN_DAYS", 90)
LUZA_TOKEN_RATE = env_str("LUZA_TOKEN_RATE", "10/min")
# Webhooks to loopback and private addresses: refused unless allowed (tests, a closed network).
LUZA_WEBHOOK_ALLOW_PRIVATE = env_bool("LUZA_WEBHOOK_ALLOW_PRIVATE", False)
# A hall of phones shares one address: no per-address limit that a hall reaches; only a
# scraper's rate (docs/security.md, "The hall is never refused").
LUZA_SCRAPER_RATE = env_str("LUZA_SCRAPER_RATE", "12000/min")
# Anonymous requests one web process runs at once (the others wait their turn, at most
# LUZA_ANON_WAIT_SECONDS): the logged-in scorers' requests never wait behind the audience's.
LUZA_ANON_CONCURRENCY = env_int("LUZA_ANON_CONCURRENCY", max(1, env_int("GUNICORN_THREADS", 4) - 1))
LUZA_ANON_WAIT_SECONDS = env_int("LUZA_ANON_WAIT_SECONDS", 20)
if LUZA_SCRAPER_RATE and not re.fullmatch(
    r"\d+/(s|sec|second|m|min|minute|h|hour)", LUZA_SCRAPER_RATE
):
    raise ConfigError(
        f"LUZA_SCRAPER_RATE={LUZA_SCRAPER_RATE!r}: give requests per period, like 120/min"
    )
# Budgets of the anonymous writes (config/write_limits.py): per client address and per target
# (the login name, the claim code, the e-mail address). A club's desk makes its players' logins
# from one address, so a claim allows a hall; one reset e-mail per address per 15 minutes.
LUZA_WRITE_RATES: dict[str, tuple[str | None, str | None]] = {
    "signup": ("20/h", "5/h"),
    "claim": ("60/h", "10/h"),
    "password_reset": ("10/h", "1/15m"),
}
RATELIMIT_FAIL_OPEN = True

# --- Language and time ----------------------------------------------------------------------
LANGUAGE_CODE = "ru"
LANGUAGES = [("ru", _("Russian")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = env_str("LUZA_TIME_ZONE", "Europe/Moscow")
USE_TZ = True

# --- Static files ---------------------------------------------------------------------------
STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = DEBUG
# Source maps are for a developer's browser, not for phones: compressing them (brotli at its
# best) was most of collectstatic's two minutes on every release (deploy/bin/install).
WHITENOISE_SKIP_COMPRESS_EXTENSIONS = (*Compressor.SKIP_COMPRESS_EXTENSIONS, "map")

# --- API ------------------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "config.drf.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_THROTTLE_CLASSES": ["config.throttle.AnonymousReadThrottle"],
    "DEFAULT_PAGINATION_CLASS": "config.drf.LimitOffsetPagination",
    "PAGE_SIZE": 100,
    "EXCEPTION_HANDLER": "config.api.exception_handler",
    # JSON only: form and multipart bodies cannot say a list, a null or a nested object.
    "DEFAULT_PARSER_CLASSES": ["config.drf.JSONParser"],
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"]
    + (["rest_framework.renderers.BrowsableAPIRenderer"] if DEBUG else []),
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Luza API",
    "DESCRIPTION": "Tournaments, brackets and live match scoring for Russian billiards.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "config.schema.document_idempotency",
        "config.schema.document_errors",
        "config.schema.document_contract",
        "config.schema.document_optional_auth",
        "config.schema.openapi_31",
        "config.schema.name_enums",
    ],
    # 3.1: nullables as JSON Schema's null type, which strict readers and generators understand.
    "OAS_VERSION": "3.1.0",
    # Three models have a "status"; name each enum so the schema keeps them apart.
    "ENUM_NAME_OVERRIDES": {
        "MatchStatusEnum": "matches.models.Match.Status",
        "TournamentStatusEnum": "tournaments.models.Tournament.Status",
        "RegistrationStatusEnum": "tournaments.models.Registration.Status",
        # One player's slot, "a" or "b": a winner, the absent player of a no-show, a turn.
        "SlotEnum": [("a", "a"), ("b", "b")],
        # The events a webhook hears: a hook's list, a delivery's event (one name, not two).
        "WebhookEventEnum": "tournaments.models.Webhook.Event",
    },
}
DATA_UPLOAD_MAX_MEMORY_SIZE = 256 * 1024  # event bodies are tiny; imports use their own limit

# --- Security -------------------------------------------------------------------------------
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False  # the referee form's JavaScript reads it for its POSTs
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
if not DEBUG:
    SESSION_COOKIE_SECURE = env_bool("LUZA_SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = env_bool("LUZA_SECURE_COOKIES", True)
    SECURE_HSTS_SECONDS = env_int("LUZA_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_SSL_REDIRECT = env_bool("LUZA_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]

CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        # The nonce: the wall bracket's sizes, computed per sheet (templates/print/bracket.html).
        "style-src": ["'self'", NONCE],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "frame-ancestors": ["'none'"],
        "form-action": ["'self'"],
        "base-uri": ["'self'"],
        "object-src": ["'none'"],
    },
}

LOGGING = django_logging()  # UTC, one format, LUZA_LOG_LEVEL (config/logs.py)

# --- Luza -----------------------------------------------------------------------------------
LUZA_REQUIRE_SERVICES = env_bool("LUZA_REQUIRE_SERVICES", False)

# Mail (password reset by e-mail): only where the deployment sets EMAIL_HOST (docs/web.md).
EMAIL_HOST = env_str("EMAIL_HOST", "")
EMAIL_PORT = env_int("EMAIL_PORT", 587)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "luza@localhost")
LUZA_MAIL_ENABLED = bool(EMAIL_HOST)
