"""Reading settings from the environment, with one clear line when a value is wrong."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any
from urllib.parse import SplitResult, parse_qsl, urlencode, urlsplit, urlunsplit


class ConfigError(SystemExit):
    """Stops the process with a one-line message instead of a traceback."""

    def __init__(self, message: str) -> None:
        super().__init__(f"Luza configuration error: {message}")


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default).strip()


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    value = raw.strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ConfigError(f"{name}={raw!r} is not a boolean (use 1/0, true/false, yes/no, on/off).")


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ConfigError(f"{name}={raw!r} is not an integer.") from None


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


_DB_SCHEMES = {"postgres", "postgresql", "pgsql", "sqlite"}


def database_from_url(url: str, *, conn_max_age: int) -> dict[str, Any]:
    """Parse DATABASE_URL; a malformed one stops the process with one line."""
    import dj_database_url

    parts = urlsplit(url)
    if parts.scheme not in _DB_SCHEMES:
        raise ConfigError(
            f"DATABASE_URL has an unsupported scheme {parts.scheme!r}; "
            "expected postgresql://user:password@host:port/name or sqlite:///path."
        )
    if parts.scheme != "sqlite" and (not parts.hostname or not parts.path.strip("/")):
        raise ConfigError(
            "DATABASE_URL is malformed: it needs a host and a database name, "
            "e.g. postgresql://postgres@127.0.0.1:5432/luza."
        )
    try:
        config = dj_database_url.parse(url, conn_max_age=conn_max_age, conn_health_checks=True)
    except (ValueError, KeyError) as exc:
        raise ConfigError(f"DATABASE_URL is malformed: {exc}.") from None
    return dict(config)


REDIS_DATABASES = 16  # Redis's default `databases`


def _redis_db(parts: SplitResult) -> int:
    """The database number of a redis:// URL (its path) or a unix:// URL (`?db=`)."""
    if parts.scheme == "unix":
        raw = dict(parse_qsl(parts.query)).get("db", "0")
    else:
        raw = parts.path.strip("/") or "0"
    if not raw.isdigit() or int(raw) >= REDIS_DATABASES:
        raise ConfigError(f"REDIS_URL names the database {raw!r}: use 0-{REDIS_DATABASES - 1}.")
    return int(raw)


def _with_redis_db(parts: SplitResult, db: int) -> str:
    if parts.scheme == "unix":
        query = [(k, v) for k, v in parse_qsl(parts.query) if k != "db"] + [("db", str(db))]
        return f"unix://{parts.path}?{urlencode(query)}"
    return urlunsplit(parts._replace(path=f"/{db}"))


def xdist_redis_url(url: str, worker: int) -> str:
    """The Redis URL of a parallel test worker: database `worker` places after the URL's."""
    parts = urlsplit(redis_url_checked(url))
    base = _redis_db(parts)
    if base + worker >= REDIS_DATABASES:
        raise ConfigError(
            f"REDIS_URL: parallel test worker {worker} would need Redis database {base + worker}, "
            f"beyond {REDIS_DATABASES - 1}; use a lower database in REDIS_URL or fewer workers (-n)."
        )
    return _with_redis_db(parts, base + worker)


def redis_url_checked(url: str) -> str:
    """REDIS_URL: redis://host:port/db (rediss:// with TLS) or unix:///path/to/redis.sock?db=N
    (the private server of `make run`, scripts/run.sh)."""
    parts = urlsplit(url)
    if parts.scheme == "unix" and parts.path.startswith("/") and not parts.netloc:
        _redis_db(parts)
        return url
    if parts.scheme not in {"redis", "rediss"} or not parts.hostname:
        raise ConfigError(
            "REDIS_URL is malformed: expected redis://host:port/db, e.g. redis://127.0.0.1:6379/0, "
            "or unix:///path/to/redis.sock?db=0."
        )
    _redis_db(parts)
    return url


def embedded_redis_url(var_dir: Path) -> str:
    """With REDIS_URL unset: the private redis-server `make run` starts on a Unix socket in
    LUZA_VAR_DIR (scripts/run.sh starts it at this very path)."""
    return f"unix://{var_dir.resolve() / 'redis' / 'redis.sock'}?db=0"


def celery_broker_url(redis_url: str) -> str:
    """Celery's name for the same server: kombu spells a Unix socket redis+socket:// and its
    database `virtual_host`."""
    parts = urlsplit(redis_url)
    if parts.scheme != "unix":
        return redis_url
    query = urlencode({"virtual_host": _redis_db(parts)})
    return f"redis+socket://{parts.path}?{query}"


_INSTANCE = re.compile(r"[a-z][a-z0-9-]{0,39}")


def instance_name(raw: str) -> str:
    """LUZA_INSTANCE: the installation's namespace in Redis and its workers' names."""
    if not _INSTANCE.fullmatch(raw):
        raise ConfigError(
            f"LUZA_INSTANCE={raw!r} must be 1-40 lowercase letters, digits or '-', "
            "starting with a letter (e.g. luza-prod)."
        )
    return raw
