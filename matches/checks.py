"""System checks of the matches app: what matches.hooks needs registered from above."""

from __future__ import annotations

from typing import Any

from django.core import checks

from matches import hooks


def hooks_registered(**_kwargs: Any) -> list[checks.CheckMessage]:
    """Without a tournament listener a finished match would leave its bracket behind (nobody
    moves the winner on); without the expiry task no clock would ever run out."""
    problems: list[checks.CheckMessage] = []
    if hooks.listener_registered() is None:
        problems.append(
            checks.Error(
                "No tournament listener is registered for the match writes.",
                hint="TournamentsConfig.ready() registers it (matches.hooks.listener_register); "
                "is the tournaments app in INSTALLED_APPS?",
                id="matches.E001",
            )
        )
    if hooks.expiry_task_registered() is None:
        problems.append(
            checks.Error(
                "No clock expiry task is registered for the match writes.",
                hint="MatchesConfig.ready() registers matches.tasks.clock_expire.",
                id="matches.E002",
            )
        )
    return problems


def register() -> None:
    checks.register(hooks_registered)
