"""rules.rules_in_force: the discipline's own description under the ruleset's options (pure)."""

from __future__ import annotations

import rules


def test_free_pyramid_under_the_regulation() -> None:
    r = rules.rules_in_force(rules.validate_ruleset({"discipline": "free_pyramid"}))
    assert r["spotting"] == "rear_spot" and r["spotting_rule"] == "G25.2"
    assert r["pocketing"] == "direct_call" and r["fools"] is True
    assert r["break_rule"] == "strict" and r["break_rule_ref"] == "R"
    assert r["penalty"] == "shelf_to_table"
    assert r["continuation"] and r["rerack_options"] == ["full", "partial", "play_on"]


def test_general_rules_without_the_regulation_s_options() -> None:
    r = rules.rules_in_force(
        rules.validate_ruleset(
            {
                "discipline": "free_pyramid",
                "direct_call": False,
                "strict_break": False,
                "continuation": False,
                "penalty": "opponent_takes",
            }
        )
    )
    assert r["pocketing"] == "any_ball" and r["fools"] is False
    assert r["break_rule"] == "general" and r["break_rule_ref"] == "G12.1"
    assert r["penalty"] == "opponent_takes" and r["rerack_options"] == []


def test_duplex_describes_itself() -> None:
    r = rules.rules_in_force(rules.validate_ruleset({"discipline": "duplex"}))
    assert r["spotting"] == "back_cushion" and r["spotting_rule"] == "D6.1"
    assert r["pocketing"] == "colours" and r["fools"] is False
    assert r["penalty"] == "opponent_removes" and r["penalty_rule"] == "D5.2"
    assert r["break_rule_ref"] == "G12.1"
    assert set(r["shot_fouls"]) == set(rules.SHOT_FOUL_CODES)
