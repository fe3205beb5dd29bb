"""The change feed: what the domain tells the world when something public changes.

A domain write calls ``change_emit(...)`` inside its transaction. Subscribers registered once
(in an ``AppConfig.ready()``) hear of it in one of two moments:

- ``when="transaction"``: at once, inside the writer's transaction, so a subscriber can write
  rows that commit or roll back with the change (an outbox: the webhooks' deliveries);
- ``when="commit"`` (the default): after the transaction commits, never for a rolled-back
  change (the live pages' push through Redis).

The feed sits in config's base so that both domain apps (``matches`` below ``tournaments``) emit
into it without importing each other or the faces that listen. A subscriber that fails after
commit is logged and the others still run: the write has happened, a lost notice is caught up
by the readers' fallback (polling, the webhook's retry). One that fails inside the transaction
fails the write, as any other write in it would.

Kinds (``Change.kind``) are dotted names, the first part the object: ``match.event`` (an entry of
a match's log: an event or an undo), ``match.started``, ``match.finished``, ``match.corrected``,
``match.table`` (called to a table, moved, sent back), ``tournament.draw``,
``tournament.visibility`` (made public or private); the live pages and the webhooks document
the kinds they use. A result's ``winner`` is the slot ("a", "b") and ``winner_id`` the player,
as the REST answers name them.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from django.db import transaction

log = logging.getLogger(__name__)

When = Literal["transaction", "commit"]


@dataclass(frozen=True)
class Change:
    kind: str
    tournament_id: int
    match_id: int | None = None
    data: Mapping[str, Any] = field(default_factory=dict)
    # What the writer will know of the object once its transaction ends (its in-memory row,
    # read at commit): the push gives a ball's score without reading the match again.
    figures: Callable[[], Mapping[str, Any]] | None = field(default=None, compare=False, repr=False)


Subscriber = Callable[[Change], None]

_subscribers: dict[When, list[Subscriber]] = {"transaction": [], "commit": []}


def change_subscribe(subscriber: Subscriber, *, when: When = "commit") -> None:
    """Register a subscriber (once: a second registration of the same one is ignored, as
    ``ready()`` may run twice in tests)."""
    if subscriber not in _subscribers[when]:
        _subscribers[when].append(subscriber)


def change_unsubscribe(subscriber: Subscriber) -> None:
    for subscribers in _subscribers.values():
        if subscriber in subscribers:
            subscribers.remove(subscriber)


def change_emit(
    *,
    kind: str,
    tournament_id: int,
    match_id: int | None = None,
    data: Mapping[str, Any] | None = None,
    figures: Callable[[], Mapping[str, Any]] | None = None,
) -> Change:
    """Tell the subscribers of a change made in the current transaction (or at once, in
    autocommit). ``figures``: see Change.figures."""
    change = Change(
        kind=kind, tournament_id=tournament_id, match_id=match_id, data=data or {}, figures=figures
    )
    for subscriber in list(_subscribers["transaction"]):
        subscriber(change)
    if _subscribers["commit"]:
        transaction.on_commit(lambda: _deliver(change))
    return change


def _deliver(change: Change) -> None:
    for subscriber in list(_subscribers["commit"]):
        try:
            subscriber(change)
        except Exception:
            log.exception("change subscriber %r failed on %s", subscriber, change.kind)
