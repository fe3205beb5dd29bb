"""Hand-worked cases for the games of design/rules-engine.md §6, as the command line takes
them: a ruleset, a list of events, and what the state must then show (or the error). Each
case is run twice, by ``rules.replay`` and by ``python -m rules replay`` (its main, on files),
so a case is also a pair of JSON files a reader can replay by hand. A game's module lists its
cases and takes the two tests from ``replay_tests``:

    test_by_replay, test_by_the_command_line = replay_tests(CASES)
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from contextlib import redirect_stdout
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

import rules
from rules.__main__ import main

Event = dict[str, Any]

# The options after an illegal break (G12.2).
BREAK_OPTIONS = ["play", "hand_back", "rebreak_self", "rebreak_opponent"]


@dataclass(frozen=True)
class Case:
    name: str  # the clause it works out: "K5.2 a «свояк» scores and gives a shot from hand"
    ruleset: dict[str, Any]
    events: list[Event]
    expect: dict[str, Any] = field(default_factory=dict)  # fields of the final state
    error: str | None = None  # the error code instead, at the last event (or the ruleset)


def params(cases: list[Case]) -> list[Any]:
    return [pytest.param(c, id=c.name) for c in cases]


def _subset(state: dict[str, Any], expect: dict[str, Any]) -> dict[str, Any]:
    return {k: state.get(k) for k in expect}


def check_replay(case: Case) -> None:
    if case.error is not None:
        with pytest.raises(rules.RuleError) as info:
            rules.replay(case.ruleset, case.events)
        assert info.value.code == case.error
        if case.error == "invalid_ruleset":
            assert info.value.index is None
        else:
            assert info.value.index == len(case.events) - 1
        return
    state = rules.replay(case.ruleset, case.events)
    assert _subset(state, case.expect) == case.expect


def check_cli(case: Case, tmp_path: Path) -> None:
    ruleset = tmp_path / "ruleset.json"
    events = tmp_path / "events.json"
    ruleset.write_text(json.dumps(case.ruleset))
    events.write_text(json.dumps(case.events))
    out = io.StringIO()
    with redirect_stdout(out):
        code = main(["replay", str(ruleset), str(events)])
    printed = json.loads(out.getvalue())
    if case.error is not None:
        assert code == 2 and printed["error"]["code"] == case.error
        return
    assert code == 0
    assert _subset(printed, case.expect) == case.expect


def replay_tests(
    cases: list[Case],
) -> tuple[Callable[[Case], None], Callable[[Case, Path], None]]:
    """The two tests of a module of cases: each case by ``rules.replay`` and by the command
    line (pytest collects them under the names the module gives them)."""

    @pytest.mark.parametrize("case", params(cases))
    def by_replay(case: Case) -> None:
        check_replay(case)

    @pytest.mark.parametrize("case", params(cases))
    def by_the_command_line(case: Case, tmp_path: Path) -> None:
        check_cli(case, tmp_path)

    return by_replay, by_the_command_line


# --- event builders ---------------------------------------------------------------------------


def brk(p: str, pocketed: Any = 0, legal: bool = True, cue: str | None = None) -> Event:
    ev: Event = {"type": "break", "player": p, "legal": legal, "pocketed": pocketed}
    if cue is not None:
        ev["cue_ball"] = cue
    return ev


def shot(p: str, pocketed: Any = 0, **more: Any) -> Event:
    return {"type": "shot", "player": p, "pocketed": pocketed, **more}


def choice(p: str, option: str) -> Event:
    return {"type": "choice", "player": p, "option": option}


def foul(p: str, code: str) -> Event:
    return {"type": "foul", "player": p, "foul": code}


TIME: Event = {"type": "time_expired"}


def forfeit(p: str) -> Event:
    return {"type": "forfeit", "player": p}
