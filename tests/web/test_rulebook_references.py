"""Every reference names its rulebook («п. 6 Общих правил», «п. 7.4 правил Дуплекса», the
Регламент) and follows the rules in force — the log's sentence of an illegal break too."""

from __future__ import annotations

import pytest
from django.utils import translation

from matches import wording
from matches.models import Match
from matches.selectors import log_entry_words
from rules.words import rule_label
from tournaments.presets import preset_fields

ILLEGAL_BREAK = {"type": "break", "player": "a", "legal": False, "pocketed": 0}
NAMES = {"a": "Иванов Иван", "b": "Петров Пётр"}


def _sentence(ruleset: dict[str, object]) -> str:
    match = Match(state={}, ruleset=ruleset)
    with translation.override("ru"):
        return wording.say(log_entry_words("event", ILLEGAL_BREAK, match), NAMES)


@pytest.mark.parametrize(
    ("preset", "cited"),
    [("free_pyramid_30", "(Регламент)"), ("llb_frames_8", "(п. 12.1 Общих правил)")],
)
def test_the_log_cites_the_break_rule_in_force(preset: str, cited: str) -> None:
    ruleset = preset_fields(preset)["ruleset"]
    assert _sentence(ruleset).endswith(cited)


def test_duplex_under_a_strict_break_cites_the_regulation_too() -> None:
    assert _sentence({"discipline": "duplex", "strict_break": True}).endswith("(Регламент)")
    assert _sentence({"discipline": "duplex"}).endswith("(п. 12.1 Общих правил)")


@pytest.mark.parametrize(
    ("ref", "said"),
    [
        ("G6", "п. 6 Общих правил"),
        ("G12.2 (3)", "п. 12.2 (3) Общих правил"),
        ("D7.4", "п. 7.4 правил Дуплекса"),
        ("R", "Регламент"),
    ],
)
def test_a_reference_names_its_rulebook(ref: str, said: str) -> None:
    with translation.override("ru"):
        assert wording.say(rule_label(ref)) == said
