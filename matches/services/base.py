"""Shared constants and the answer type of the match writes."""

from __future__ import annotations

import enum
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


class Answer(enum.Enum):
    """What a write answers (and keeps for its idempotency key), rendered inside its
    transaction by matches.representation: nothing (a page that redirects), the match, or the
    match with what may be entered now (the referee form asks, ?referee=1)."""

    NONE = "none"
    MATCH = "match"
    MATCH_AND_ENTRY = "entry"


@dataclass
class WriteResult:
    """The match after a write, and the answer stored for its idempotency key."""

    match: Match
    status_code: int
    body: dict[str, Any] | None
    replayed: bool = False
