"""The match writes reach the tournament through a registered listener (matches.hooks), and a
system check refuses to start without it."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.core.management.base import SystemCheckError

from matches import checks, hooks
from tournaments.services.match_listener import TournamentSide


def test_the_tournaments_app_registers_its_listener_and_the_check_passes() -> None:
    assert isinstance(hooks.listener(), TournamentSide)
    assert checks.hooks_registered() == []
    call_command("check")


def test_without_a_listener_the_system_check_fails(monkeypatch) -> None:
    monkeypatch.setattr(hooks, "_listener", None)
    assert [problem.id for problem in checks.hooks_registered()] == ["matches.E001"]
    with pytest.raises(SystemCheckError, match=r"matches\.E001"):
        call_command("check")


def test_without_the_expiry_task_the_system_check_fails(monkeypatch) -> None:
    monkeypatch.setattr(hooks, "_expiry_task", None)
    with pytest.raises(SystemCheckError, match=r"matches\.E002"):
        call_command("check")
