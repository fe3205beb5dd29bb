"""The referee form's prompts against the engine, for combined, dynamic and classic pyramid:
every prompt an entry shows is one the discipline lists for the rules in force
(`Discipline.prompts(ruleset)`), each kind it offers is one those rules allow, and a kind sent
as offered does what its words say (the engine decides, not the form)."""

from __future__ import annotations

import random
from typing import Any

import pytest

import rules
from rules.simulate import random_event
from rules.words import msgids

GAMES = ("combined_pyramid", "dynamic_pyramid", "classic_pyramid")
RULESETS = [
    pytest.param(rs, id=f"{name}-{key}")
    for name in GAMES
    for key, rs in rules.discipline(name).sample_rulesets().items()
]


def _texts(value: Any) -> set[str]:
    return {m for m, _plural in msgids(value)}


def _states(rs: dict[str, Any], seeds: int = 6) -> list[dict[str, Any]]:
    out = []
    for seed in range(seeds):
        rng = random.Random(seed)
        state = rules.initial_state(rs)
        while not state["finished"] and state["events"] < 400:
            out.append(state)
            state = rules.apply(state, random_event(state, rng, 0.5, 0.2))
    return out


def _kind_prompts(entry: dict[str, Any]) -> set[str]:
    found = _texts(entry.get("prompt"))
    for kind in entry["kinds"]:
        found |= _texts(kind.get("prompt"))
        for field in kind["fields"]:
            found |= _texts(field.get("prompt"))
    return found


@pytest.mark.parametrize("rs", RULESETS)
def test_every_prompt_of_the_form_is_one_of_the_rules_in_force(rs: dict[str, Any]) -> None:
    d = rules.discipline(rs["discipline"])
    ruleset = rules.validate_ruleset(rs)
    allowed = _texts(d.prompts(ruleset))
    direct = bool(ruleset.get("direct_call"))
    for state in _states(rs):
        entry = rules.entry(state)
        assert _kind_prompts(entry) <= allowed
        keys = {k["key"] for k in entry["kinds"]}
        # «прямой заказ» alone has fools (K5.3 counts every ball).
        assert ("fool" in keys) == (direct and state["awaiting"] == "shot")
        fouls = {
            c["value"]
            for k in entry["kinds"]
            for f in k["fields"]
            if f["name"] == "foul" and k["type"] == "shot"
            for c in f["choices"]
        }
        # G21.2: the house ball only on a shot from hand in the house.
        if state["awaiting"] == "shot":
            assert ("house_ball" in fouls) == (state["cue_ball"] == "in_hand_house")
        premium = state["cue_ball"] == "in_hand_anywhere" and state["awaiting"] == "shot"
        # N5.2: the premium shot offers the pocketed cue ball as a foul, not a «свояк».
        if d.name != "classic_pyramid" and state["awaiting"] == "shot":
            assert ("premium_scratch" in keys) == premium
            assert ("svoyak" in keys) == (not premium)
        for kind in entry["kinds"]:
            if kind["key"] in ("svoyak", "break_svoyak"):
                # The «свояк»'s prompt says who takes the ball, as the ruleset says.
                opponent = ruleset["svoyak_taken_by"] == "opponent"
                assert ("the opponent takes" in kind["prompt"]["msgid"]) == opponent
            if d.name == "classic_pyramid" and kind["key"] in ("foul_shot", "off_table"):
                # The regulation's penalty, in the figures of this ruleset.
                params = kind["prompt"]["params"]
                assert params["deduct"]["n"] == ruleset["foul_deduct"]
                assert params["award"]["n"] == ruleset["foul_award"]


@pytest.mark.parametrize("rs", RULESETS)
def test_a_kind_sent_as_offered_does_what_it_says(rs: dict[str, Any]) -> None:
    """The «свояк» keeps the striker with the cue ball in hand (from the house, or anywhere in
    dynamic pyramid); a kind of a foul gives the opponent the choice; classic's call made keeps
    the striker, not made passes the turn."""
    d = rules.discipline(rs["discipline"])
    for state in _states(rs, seeds=3):
        if state["awaiting"] != "shot" or state["golden_ball"]:
            continue
        p = state["turn"]
        for kind in rules.entry(state)["kinds"]:
            values: dict[str, Any] = {}
            if kind["key"] == "made":
                values = {"call": state["on_table"][0], "pocketed": []}
            event = rules.build_event(kind, values)
            try:
                after = rules.apply(state, event)
            except rules.RuleError:
                continue
            if after["finished"] or after["frame"] != state["frame"]:
                continue
            if kind["key"] == "svoyak":
                assert after["turn"] == p
                assert after["cue_ball"] == (
                    "in_hand_anywhere" if d.name == "dynamic_pyramid" else "in_hand_house"
                )
            if kind["key"] in (
                "foul_shot",
                "off_table",
                "cue_off_table",
                "cue_foul",
                "premium_scratch",
            ):
                assert after["turn"] != p and after["awaiting"] == "choice"
            if kind["key"] == "made":
                assert after["turn"] == p
            if kind["key"] == "not_made":
                assert after["turn"] != p


@pytest.mark.parametrize(
    ("name", "label", "phrase"),
    [
        ("combined_pyramid", "Комбинированная пирамида", "по комбинированной пирамиде"),
        ("dynamic_pyramid", "Динамичная пирамида", "по динамичной пирамиде"),
        ("classic_pyramid", "Классическая пирамида", "по классической пирамиде"),
    ],
)
def test_the_games_names_and_diploma_phrases_in_russian(name: str, label: str, phrase: str) -> None:
    import gettext
    import subprocess
    from pathlib import Path

    po = Path(__file__).resolve().parents[2] / "locale/ru/LC_MESSAGES/django.po"
    mo = subprocess.run(["msgfmt", "-o", "-", str(po)], capture_output=True, check=True).stdout
    import io

    ru = gettext.GNUTranslations(io.BytesIO(mo))
    d = rules.discipline(name)
    assert (ru.gettext(d.label), ru.gettext(d.diploma_phrase)) == (label, phrase)
