"""Dynamic pyramid (design/rules-engine.md §6.2) as a registered discipline: combined pyramid's
class with its own engine (rules/dynamic_pyramid.py), whose premium shot after a «свояк» is
played from hand anywhere on the table (N5.2)."""

from __future__ import annotations

from typing import Any

from rules import dynamic_pyramid as engine
from rules.common import State
from rules.disciplines.combined_pyramid import CombinedPyramid
from rules.pyramid_games import IN_HAND_ANYWHERE
from rules.words import gettext_noop


class DynamicPyramid(CombinedPyramid):
    name = "dynamic_pyramid"
    label = gettext_noop("Dynamic pyramid")
    diploma_phrase = gettext_noop("in dynamic pyramid")

    ruleset_keys = engine.RULESET_KEYS
    handlers = engine.HANDLERS
    premium = IN_HAND_ANYWHERE
    premium_rule = "N5.2"

    def initial_state(self, ruleset: dict[str, Any]) -> State:
        return engine.initial_state(self.name, ruleset)

    def check_ruleset(self, ruleset: dict[str, Any]) -> None:
        engine.check_ruleset(ruleset)
