"""The rules in force for one match, as the referee form must follow them.

Each discipline describes its part (``Discipline.in_force``: how balls are spotted, how a
penalty is paid, whether a ball that fell not directly is a separate thing), and a ruleset
switches the regulation's options on or off (direct call, strict break, penalty mode,
continuation). The UI words every prompt from this description and never branches on a
discipline's name.

Rule references use the engine's letters: G (general pyramid rules), D (Duplex), R (the
free-pyramid regulation).
"""

from __future__ import annotations

from typing import Any, TypedDict

from rules import describe, registry
from rules.fouls import FOUL_EVENT_CODES, SHOT_FOUL_CODES

# Known values (a new discipline may add its own; the UI words each one):
# spotting "rear_spot" | "back_cushion"; penalty "shelf_to_table" | "opponent_takes" |
# "opponent_removes"; pocketing "direct_call" | "any_ball" | "colours";
# break_rule "general" | "strict".
Spotting = str
Penalty = str
Pocketing = str
BreakRule = str


class RulesInForce(TypedDict):
    discipline: str
    # Where re-spotted balls go: G25.2 (one on the rear spot, several from it towards the back
    # cushion) or D6.1-6.2 (one as close to the back cushion as possible, several from the back
    # cushion towards the rear spot).
    spotting: Spotting
    spotting_rule: str
    # What a shot counts: only balls pocketed directly (R "without fools"), any ball (G), or
    # balls per colour (D).
    pocketing: Pocketing
    # A ball that fell not directly is recorded as a fool (spotted, the turn passes).
    fools: bool
    # The break: G12.1 criteria or the regulation's strict break (R).
    break_rule: BreakRule
    break_rule_ref: str
    # How a foul is paid: a ball from the shelf to the table (R), the opponent takes a ball
    # from the table (G), or the opponent removes a ball of either colour (D5.2).
    penalty: Penalty
    penalty_rule: str
    # The race is continued by re-racking when 2 balls are left (R options 1-3).
    continuation: bool
    shot_fouls: list[str]
    event_fouls: list[str]
    play_options: list[str]
    break_options: list[str]
    rerack_options: list[str]


def rules_in_force(ruleset: dict[str, Any]) -> RulesInForce:
    """The description of a (validated) ruleset's rules; missing options take the general
    rules' reading (no direct call, G12.1 break, the opponent takes a ball)."""
    name = ruleset.get("discipline")
    d = registry.find(name) or registry.default()
    discipline = str(name) if name is not None else d.name
    base = d.in_force
    direct_call = bool(ruleset.get("direct_call", False)) and base["pocketing"] is None
    strict = bool(ruleset.get("strict_break", False))
    if base["penalty"] is not None:
        penalty, penalty_rule = base["penalty"]
    elif ruleset.get("penalty") == "shelf_to_table":
        penalty, penalty_rule = "shelf_to_table", "R"
    else:
        penalty, penalty_rule = "opponent_takes", "G29"
    pocketing = base["pocketing"] or ("direct_call" if direct_call else "any_ball")
    continuation = bool(ruleset.get("continuation", False)) and bool(base["rerack_options"])
    return {
        "discipline": discipline,
        "spotting": base["spotting"],
        "spotting_rule": base["spotting_rule"],
        "pocketing": pocketing,
        "fools": direct_call,
        "break_rule": "strict" if strict else "general",
        "break_rule_ref": describe.break_rule_ref(ruleset),
        "penalty": penalty,
        "penalty_rule": penalty_rule,
        "continuation": continuation,
        "shot_fouls": sorted(SHOT_FOUL_CODES),
        "event_fouls": sorted(FOUL_EVENT_CODES),
        "play_options": list(base["play_options"]),
        "break_options": list(base["break_options"]),
        "rerack_options": list(base["rerack_options"]) if continuation else [],
    }
