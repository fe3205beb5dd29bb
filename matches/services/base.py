"""Shared constants and the answer type of the match writes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from matches.models import Match
from matches.selectors import CLOSED as CLOSED  # re-exported
from matches.selectors import LIVE as LIVE
from matches.selectors import NOT_STARTED as NOT_STARTED

Status = Match.Status
TIME_EXPIRED = {"type": "time_expired"}
SOURCE_CLOCK = "clock"
SWEEP_BATCH = 200
_MS = timedelta(milliseconds=1)

Renderer = Callable[[Match], dict[str, Any]]
# The caller's permission check on the locked match (the API's object permissions), so that a
# write loads its match once; it raises to refuse.
Authorizer = Callable[[Match], None]


@dataclass
class WriteResult:
    """The match after a write, and the answer stored for its idempotency key."""

    match: Match
    status_code: int
    body: dict[str, Any] | None
    replayed: bool = False
