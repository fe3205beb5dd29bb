"""What the match writes call above the matches domain, declared here and registered from above.

The matches domain sits below the tournaments domain and never imports it, yet a match that
starts or finishes changes its tournament (status, progression, the public version). Those
calls go through a `TournamentListener`: the tournaments app registers its implementation in
`TournamentsConfig.ready()`, and the match writes call it inside their own transaction, so a
refusal of the tournament (e.g. the next match has started) undoes the match write too.

The clock's deadline task lives in matches.tasks, which calls the services; the services reach
it through `ExpiryTask`, registered by `MatchesConfig.ready()`.

A Django system check (matches.checks) fails when either is missing: without them a finished
match would silently leave its bracket behind.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

from django.core.exceptions import ImproperlyConfigured

if TYPE_CHECKING:
    from matches.models import Match


class TournamentListener(Protocol):
    """The tournament's side of a match's life, called inside the match write's transaction
    (the match row locked; lock order: match, tournament, table)."""

    def match_started(self, *, match: Match) -> None:
        """Play began in `match` (its first event or its clock's start)."""

    def match_finished(self, *, match: Match) -> None:
        """`match` has its result (finished or walked over: winner, loser and scores set)."""

    def public_changed(self, *, tournament_id: int) -> None:
        """Something the tournament's public pages show has changed (a table called, a match
        started or finished): their ETags and cached fragments must change with it."""

    def tournament_running(self, *, tournament_id: int) -> bool:
        """Whether the tournament is still being played, read after match_finished (which may
        have finished it): a freed table then takes the next ready match."""


class ExpiryTask(Protocol):
    """The task run at a clock's deadline (a Celery task: matches.tasks.clock_expire)."""

    def apply_async(self, *, args: list[int], eta: datetime | None) -> Any: ...


_listener: TournamentListener | None = None
_expiry_task: ExpiryTask | None = None


def listener_register(listener: TournamentListener | None) -> None:
    """Register the tournament side (None unregisters it: for tests of the check)."""
    global _listener
    _listener = listener


def listener_registered() -> TournamentListener | None:
    return _listener


def listener() -> TournamentListener:
    if _listener is None:
        raise ImproperlyConfigured(
            "No tournament listener is registered (TournamentsConfig.ready registers it)."
        )
    return _listener


def expiry_task_register(task: ExpiryTask | None) -> None:
    global _expiry_task
    _expiry_task = task


def expiry_task_registered() -> ExpiryTask | None:
    return _expiry_task


def expiry_task() -> ExpiryTask:
    if _expiry_task is None:
        raise ImproperlyConfigured(
            "No clock expiry task is registered (MatchesConfig.ready registers it)."
        )
    return _expiry_task
