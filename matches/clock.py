"""Net match clock arithmetic over plain values: no database, no Celery.

The clock is stored as the net time played before the current run (`elapsed_ms`), the moment
the current run started (`running_since`, None while stopped) and the limit. Everything the
API shows (remaining time, deadline, the 10-minute warning) is derived from those.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta

WARNING_SECONDS = 10 * 60
_MS = timedelta(milliseconds=1)


@dataclass(frozen=True)
class ClockReading:
    limit_seconds: int | None
    elapsed_ms: int
    remaining_ms: int | None  # None: no limit, the clock only counts up
    deadline: datetime | None  # when the limit is reached if the clock keeps running
    running: bool
    expired: bool

    @property
    def elapsed_seconds(self) -> int:
        return self.elapsed_ms // 1000

    @property
    def remaining_seconds(self) -> int | None:
        # Rounded up, so that 0 is shown only when the time is really up.
        return None if self.remaining_ms is None else math.ceil(self.remaining_ms / 1000)

    @property
    def warning(self) -> bool:
        return (
            not self.expired
            and self.remaining_ms is not None
            and 0 < self.remaining_ms <= WARNING_SECONDS * 1000
        )


def played_ms(*, elapsed_ms: int, running_since: datetime | None, now: datetime) -> int:
    """Net time played up to `now`."""
    if running_since is None:
        return elapsed_ms
    return elapsed_ms + max(0, (now - running_since) // _MS)


def deadline(
    *, limit_seconds: int | None, elapsed_ms: int, running_since: datetime | None
) -> datetime | None:
    """When a running clock reaches its limit; None when stopped or without a limit."""
    if limit_seconds is None or running_since is None:
        return None
    return running_since + timedelta(milliseconds=limit_seconds * 1000 - elapsed_ms)


def read(
    *,
    limit_seconds: int | None,
    elapsed_ms: int,
    running_since: datetime | None,
    expired: bool,
    now: datetime,
) -> ClockReading:
    played = played_ms(elapsed_ms=elapsed_ms, running_since=running_since, now=now)
    remaining = None if limit_seconds is None else max(0, limit_seconds * 1000 - played)
    if expired and remaining is not None:
        remaining = 0
    return ClockReading(
        limit_seconds=limit_seconds,
        elapsed_ms=played,
        remaining_ms=remaining,
        deadline=deadline(
            limit_seconds=limit_seconds, elapsed_ms=elapsed_ms, running_since=running_since
        ),
        running=running_since is not None,
        expired=expired,
    )
