"""One log format for every process (gunicorn, Django, Celery worker and beat): UTC times,
level, process id, logger name. Used by settings.LOGGING and config/gunicorn.conf.py."""

from __future__ import annotations

import logging
import os
from datetime import UTC, datetime
from typing import Any

FORMAT = "%(asctime)s %(levelname)s [%(process)d] %(name)s: %(message)s"


def level() -> str:
    """LUZA_LOG_LEVEL, the one variable for every process's level."""
    return (os.environ.get("LUZA_LOG_LEVEL") or "INFO").strip().upper()


def beat_level() -> str:
    """Beat's own lines ("Sending due task", every 5 s): WARNING unless LUZA_BEAT_LOG_LEVEL
    asks for more (the tests wait for them to know that beat runs)."""
    return (os.environ.get("LUZA_BEAT_LOG_LEVEL") or "WARNING").strip().upper()


class UTCFormatter(logging.Formatter):
    """ISO 8601 in UTC with milliseconds, whatever TIME_ZONE sets for the process."""

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        moment = datetime.fromtimestamp(record.created, UTC)
        return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


class WithoutTraceback(logging.Filter):
    """For refusals that are the client's doing (a bad Host header): one line, no traceback,
    a warning (Django says ERROR: nothing is wrong with the server)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno > logging.WARNING:
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        if record.exc_info and record.exc_info[1] is not None:
            record.msg = f"{record.getMessage()} ({record.exc_info[1].__class__.__name__})"
            record.args = None
        record.exc_info = None
        record.exc_text = None
        return True


def formatters() -> dict[str, Any]:
    return {"utc": {"()": UTCFormatter, "format": FORMAT}}


def django_logging() -> dict[str, Any]:
    """settings.LOGGING; Celery uses it as it is (config/celery.py keeps Celery's hands off)."""
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": formatters(),
        "filters": {"without_traceback": {"()": WithoutTraceback}},
        "handlers": {
            "console": {"class": "logging.StreamHandler", "formatter": "utc"},
            "console_one_line": {
                "class": "logging.StreamHandler",
                "formatter": "utc",
                "filters": ["without_traceback"],
            },
        },
        "root": {"handlers": ["console"], "level": level()},
        "loggers": {
            "django.db.backends": {"level": "WARNING"},
            # runserver's request lines (make run) in the one format too, not Django's own.
            "django.server": {"handlers": ["console"], "level": "INFO", "propagate": False},
            "django.security.DisallowedHost": {
                "handlers": ["console_one_line"],
                "level": "WARNING",
                "propagate": False,
            },
            # Every 5 s beat sends the clock sweep ("Sending due task") and a worker runs it:
            # these INFO lines would bury the lines that matter (an expired clock is one line
            # of its own, from matches.services); beat says only what goes wrong.
            "celery.app.trace": {"level": "WARNING"},
            "celery.worker.strategy": {"level": "WARNING"},
            "celery.beat": {"level": beat_level()},
            # WeasyPrint narrates every PDF (its steps, fontTools' subsetting): seven INFO
            # lines per diploma or printout; what goes wrong is still a warning.
            "weasyprint": {"level": "WARNING"},
            "fontTools": {"level": "WARNING"},
        },
    }


def gunicorn_logging(gunicorn_level: str, *, access: bool) -> dict[str, Any]:
    """gunicorn's logconfig_dict: the same format on stderr. With a logconfig_dict gunicorn
    always logs requests; `access` off (nginx logs them) silences that logger."""
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": formatters(),
        "handlers": {
            "console": {
                "class": "logging.StreamHandler",
                "formatter": "utc",
                "stream": "ext://sys.stderr",
            }
        },
        "root": {"handlers": ["console"], "level": level()},
        "loggers": {
            "gunicorn.error": {
                "handlers": ["console"],
                "level": gunicorn_level,
                "propagate": False,
            },
            "gunicorn.access": {
                "handlers": ["console"] if access else [],
                "level": "INFO" if access else "CRITICAL",
                "propagate": False,
            },
        },
    }


def uvicorn_logging(*, access: bool) -> dict[str, Any]:
    """uvicorn's log_config (config/serve.py): the one format on stderr; its request lines
    only with `access` (make run shows them, as runserver did; nginx logs them in production)."""
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": formatters(),
        "handlers": {
            "console": {
                "class": "logging.StreamHandler",
                "formatter": "utc",
                "stream": "ext://sys.stderr",
            }
        },
        "root": {"handlers": ["console"], "level": level()},
        "loggers": {
            "uvicorn": {"handlers": ["console"], "level": level(), "propagate": False},
            "uvicorn.error": {"level": level()},
            "uvicorn.access": {
                "handlers": ["console"] if access else [],
                "level": "INFO" if access else "CRITICAL",
                "propagate": False,
            },
        },
    }
