"""The live pages' push channel, the writing side: every committed change into Redis streams.

Each change of the feed (config.changes), once committed, is appended (XADD) to two Redis
streams: its tournament's and, for a match's change, its match's. A stream keeps the last
``STREAM_LENGTH`` entries (MAXLEN ~), so a reader that lost its connection resumes from the id
of the last entry it had (SSE's Last-Event-ID) without a gap, and one that was away for longer
than that is told to reload the view once. The stream ids are the events' ids.

Redis is the fan-out between machines: every stream server process (tournaments.web.stream)
reads a stream once, whatever the number of its clients, so several web machines serve one
tournament. The entry is the change as JSON, serialised here once; ``at`` is the commit time
(milliseconds), which the bench uses to measure the delay to the spectators. A change of who
may read a tournament (``tournament.visibility``) also goes to the control stream, which every
stream server process follows whatever its clients.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Mapping
from typing import Any

from django.conf import settings

from config.changes import Change

log = logging.getLogger(__name__)

# About an hour of a busy 32-table tournament (a ball a table every ~10 s): a phone whose
# Wi-Fi dropped for minutes resumes, a longer absence reloads its view once.
STREAM_LENGTH = 10_000
# A match's own stream: a match has at most a few hundred events.
MATCH_STREAM_LENGTH = 1_000
# The changes of who may read a tournament (it became public or private): besides its own
# stream, they go to one control stream that every stream server process reads, so that each
# drops its cached decision and cuts off the readers who may no longer read, whichever of the
# tournament's or its matches' streams they follow.
VISIBILITY = "tournament.visibility"
CONTROL_KINDS = (VISIBILITY,)
CONTROL_STREAM_LENGTH = 1_000

_client: Any = None

Enricher = Callable[[Change], Mapping[str, Any]]
_enrichers: list[Enricher] = []


def push_enrich_register(enricher: Enricher) -> None:
    """Add figures to every pushed change after its commit (the matches app adds a match's
    score, which the bracket's cells show without fetching anything). A change that brings
    its own (Change.figures: a ball, the hot path) is not enriched: no read after commit."""
    if enricher not in _enrichers:
        _enrichers.append(enricher)


def stream_key(*, scope: str, object_id: int) -> str:
    """The Redis key of a tournament's (scope "t") or a match's (scope "m") stream."""
    return f"{settings.INSTANCE}:live:{scope}:{object_id}"


def control_key() -> str:
    """The Redis key of the control stream (the changes of who may read, CONTROL_KINDS)."""
    return f"{settings.INSTANCE}:live:control"


def change_payload(change: Change, *, at_ms: int) -> dict[str, Any]:
    """What a subscriber receives as an event's data (docs/api.md, "Following a tournament")."""
    return {
        "kind": change.kind,
        "tournament": change.tournament_id,
        "match": change.match_id,
        "data": dict(change.data),
        "at": at_ms,
    }


def redis_client() -> Any:
    global _client
    if _client is None:
        import redis

        _client = redis.Redis.from_url(
            settings.REDIS_URL, socket_connect_timeout=0.5, socket_timeout=1.0
        )
    return _client


def push_publish(change: Change) -> None:
    """The change feed's after-commit subscriber: the change into its streams (one round trip).

    A Redis outage loses the notice (logged by the feed), not the write: the pages' polling
    catches up."""
    if not settings.REDIS_URL:  # a test run without Redis: no push, the pages poll
        return
    payload = change_payload(change, at_ms=int(time.time() * 1000))
    if change.figures is not None:
        payload.update(change.figures())
    else:
        for enricher in _enrichers:
            payload.update(enricher(change))
    body = json.dumps(payload, default=str)
    pipe = redis_client().pipeline(transaction=False)
    if change.kind in CONTROL_KINDS:  # first: heard before any later change of its streams
        pipe.xadd(control_key(), {"d": body}, maxlen=CONTROL_STREAM_LENGTH, approximate=True)
    pipe.xadd(
        stream_key(scope="t", object_id=change.tournament_id),
        {"d": body},
        maxlen=STREAM_LENGTH,
        approximate=True,
    )
    if change.match_id is not None:
        pipe.xadd(
            stream_key(scope="m", object_id=change.match_id),
            {"d": body},
            maxlen=MATCH_STREAM_LENGTH,
            approximate=True,
        )
    pipe.execute()
