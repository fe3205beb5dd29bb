"""Reading settings from the environment, with one clear line when a value is wrong."""

from __future__ import annotations

import os
import re
from typing import Any
from urllib.parse import urlsplit, urlunsplit


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


def xdist_redis_url(url: str, worker: int) -> str:
    """The Redis URL of a parallel test worker: database `worker` places after the URL's."""
    parts = urlsplit(redis_url_checked(url))
    path = parts.path.strip("/")
    base = int(path) if path.isdigit() else 0
    if base + worker >= REDIS_DATABASES:
        raise ConfigError(
            f"REDIS_URL: parallel test worker {worker} would need Redis database {base + worker}, "
            f"beyond {REDIS_DATABASES - 1}; use a lower database in REDIS_URL or fewer workers (-n)."
        )
    return urlunsplit(parts._replace(path=f"/{base + worker}"))


def redis_url_checked(url: str) -> str:
    parts = urlsplit(url)
    if parts.scheme not in {"redis", "rediss"} or not parts.hostname:
        raise ConfigError(
            "REDIS_URL is malformed: expected redis://host:port/db, e.g. redis://127.0.0.1:6379/0."
        )
    return url


_INSTANCE = re.compile(r"[a-z][a-z0-9-]{0,39}")


def instance_name(raw: str) -> str:
    """LUZA_INSTANCE: the installation's namespace in Redis and its workers' names."""
    if not _INSTANCE.fullmatch(raw):
        raise ConfigError(
            f"LUZA_INSTANCE={raw!r} must be 1-40 lowercase letters, digits or '-', "
            "starting with a letter (e.g. luza-prod)."
        )
    return raw
