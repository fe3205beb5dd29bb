"""Dynamic pyramid («Динамичная», Невская; design/rules-engine.md §6.2): combined pyramid
(rules/combined_pyramid.py) except N5.2: after a «свояк» the striker plays on with the cue ball
in hand anywhere on the table, and on that premium shot a pocketed cue ball is the foul
`cue_ball_pocketed` (only object balls may be pocketed); no house, so no `house_ball` then."""

from __future__ import annotations

from rules import combined_pyramid
from rules.pyramid_games import IN_HAND_ANYWHERE

RULESET_KEYS = combined_pyramid.ruleset_keys("Points that win a frame (8).")
HANDLERS = combined_pyramid.make_handlers(IN_HAND_ANYWHERE)
check_ruleset = combined_pyramid.check_ruleset
initial_state = combined_pyramid.initial_state

__all__ = ["HANDLERS", "RULESET_KEYS", "check_ruleset", "initial_state"]
