"""What combined, dynamic and classic pyramid say about their states alike (rules/pyramid_games.py
is their shared engine), on top of the family's race in frames (rules/disciplines/family.py):
where the coloured cue ball is, what became of it in a stroke, its fouls and its turn rules."""

from __future__ import annotations

import random
from abc import abstractmethod
from collections.abc import Mapping
from typing import Any, ClassVar

from rules import describe
from rules.common import BREAK_OPTIONS, FORFEIT_KEYS, LAG_KEYS, State
from rules.describe import Choice, choice
from rules.disciplines.family import FramesRace
from rules.in_force import RulesInForce
from rules.pyramid_games import (
    CUE_BALL_FIELD,
    CUE_BALL_PLACES,
    FOUL_AWAITING,
    FOUL_KEYS,
    IN_HAND_ANYWHERE,
    IN_HAND_HOUSE,
    OFF_TABLE,
    OPTION_KEYS,
    PLAY_OPTIONS,
    POCKETED,
    SHOT_FOULS,
    TIME_KEYS,
)
from rules.schemas import LAG_STATE_FIELDS, PER_PLAYER, enum
from rules.simulate import common_event
from rules.words import Text, gettext_noop, lowered, player, rule_label, text

# The cue ball between strokes, as the board says it.
CUE_BALL_WORDS = {
    IN_HAND_HOUSE: gettext_noop("cue ball in hand, from the house"),
    IN_HAND_ANYWHERE: gettext_noop("cue ball in hand, anywhere on the table"),
}
# What became of the cue ball in a stroke, as the referee picks it.
CUE_OUTCOME_LABELS = {
    "stayed": gettext_noop("Cue ball stayed on the table"),
    POCKETED: gettext_noop("Cue ball pocketed"),
    OFF_TABLE: gettext_noop("Cue ball left the table"),
}
FOUL_TITLES = {
    "house_ball": gettext_noop("From hand: first struck a ball in the house"),
    "cue_ball_pocketed": gettext_noop("Cue ball pocketed"),
}
FOUL_AND_RULE = "%(foul)s (%(rule)s)"  # neutral: no word of its own
CUE_BALL_PROMPT = gettext_noop("And the cue ball?")


def foul_title(code: str) -> Text:
    own = FOUL_TITLES.get(code)
    return text(own) if own is not None else describe.foul_title(code)


def stroke_foul_choices(state: Mapping[str, Any], in_force: RulesInForce) -> list[Choice]:
    """The fouls of a stroke to pick: the family's (the ball off the table has its own kind),
    and the house ball only on a shot from hand in the house (G21.2). The pocketed cue ball is
    not picked: it is a kind of its own where it is a foul (C5.5, N5.2)."""
    out = describe.shot_foul_choices(in_force)
    if state.get("cue_ball") == IN_HAND_HOUSE:
        out.append(choice("house_ball", foul_title("house_ball"), rule="G21.2"))
    return out


def cue_outcomes(values: tuple[str, ...], prompt: Text | None = None) -> describe.Field:
    return describe.choose(
        "cue_ball", [choice(v, text(CUE_OUTCOME_LABELS[v])) for v in values], prompt
    )


class CueBallPyramid(FramesRace):
    """The shared answers; subclasses set the engine and their own kinds."""

    max_balls = 15
    awaiting = ("break", "shot", "choice")
    options = BREAK_OPTIONS
    # No question after the name at the choice after a foul: the choice's field asks it.
    awaiting_prompts: ClassVar[Mapping[str, str]] = {"break": "breaks", "shot": "shoots"}
    foul_awaiting = FOUL_AWAITING
    extra_event_fields = {
        "break": {"cue_ball": CUE_BALL_FIELD},
        "shot": {"cue_ball": CUE_BALL_FIELD},
    }
    common_state_fields: Mapping[str, Any] = {
        "score": {**PER_PLAYER, "description": "Points in the current frame."},
        "frames": {**PER_PLAYER, "description": "Frames won."},
        "frame": {"type": "integer", "minimum": 1},
        "cue_ball": {
            **enum(CUE_BALL_PLACES),
            "description": "Where the coloured cue ball is: on the table, or in hand (from the "
            "house, G21; anywhere, dynamic pyramid's premium shot).",
        },
        "golden_ball": {"type": "boolean"},
        "time_expired": {"type": "boolean"},
        **LAG_STATE_FIELDS,
    }
    common_event_keys: Mapping[str, frozenset[str]] = {
        "foul": FOUL_KEYS,
        "choice": OPTION_KEYS,
        "time_expired": TIME_KEYS,
        "forfeit": FORFEIT_KEYS,
        "lag": LAG_KEYS,
    }

    # --- the view --------------------------------------------------------------------------

    def cue_ball_text(self, state: Mapping[str, Any]) -> Text | None:
        words = CUE_BALL_WORDS.get(str(state.get("cue_ball")))
        if words is None or state.get("finished") or state.get("awaiting") == "break":
            return None
        return text(words)

    def own_lines(self, state: dict[str, Any]) -> list[Text]:
        cue = self.cue_ball_text(state)
        return [] if cue is None else [cue]

    # --- words -----------------------------------------------------------------------------

    def describe_event(self, event: Mapping[str, Any], ruleset: Mapping[str, Any]) -> Text:
        own = self.describe_foul(event)
        return own if own is not None else self.describe_stroke(event, ruleset)

    def describe_stroke(self, event: Mapping[str, Any], ruleset: Mapping[str, Any]) -> Text:
        """An event but a foul of the cue ball: the family's sentence by default."""
        return super().describe_event(event, ruleset)

    # --- the turn rules ---------------------------------------------------------------------

    def cue_ball_turn_rules(self, ruleset: dict[str, Any]) -> list[describe.TurnRule]:
        """The family's turn rules (describe.turn_rules) with the cue ball's: after its
        illegal-break and named-foul rules, a stroke whose cue ball left the table (a foul)
        and the discipline's own pocketed-cue-ball rules (``pocketed_cue``)."""
        direct = bool(ruleset.get("direct_call"))
        family = describe.turn_rules(direct, "choice")
        off: list[describe.TurnRule] = [
            {"type": t, "when": {"cue_ball": OFF_TABLE}, "next": "other", "then": "choice"}
            for t in ("break", "shot")
        ]
        out: list[describe.TurnRule] = []
        for rule in family:
            out.append(rule)
            if rule["type"] == "break" and rule.get("when") == {"legal": False}:
                out += [off[0], *self.pocketed_cue("break")]
            if rule["type"] == "shot" and rule.get("set") == ["foul"]:
                out += [off[1], *self.pocketed_cue("shot")]
        return out

    def pocketed_cue(self, event_type: str) -> list[describe.TurnRule]:
        """A stroke that pocketed the cue ball without a named foul: a «свояк» (the striker
        goes on) by default."""
        return [
            {"type": event_type, "when": {"cue_ball": POCKETED}, "next": "same", "then": "shot"}
        ]

    def turn_rules(self, ruleset: dict[str, Any]) -> list[describe.TurnRule]:
        return self.cue_ball_turn_rules(ruleset)

    def describe_foul(self, event: Mapping[str, Any]) -> Text | None:
        """A foul of the cue ball in the log, in its own words; None for the family's."""
        code = event.get("foul")
        if event.get("type") == "shot" and code in FOUL_TITLES:
            rule = "G21.2" if code == "house_ball" else self.in_force_cue_rule()
            named = text(FOUL_AND_RULE, foul=lowered(foul_title(str(code))), rule=rule_label(rule))
            return text(
                gettext_noop("%(who)s: foul — %(foul)s"),
                who=player(str(event.get("player"))),
                foul=named,
            )
        return None

    def in_force_cue_rule(self) -> str:
        return "C5.5"

    # --- random games ------------------------------------------------------------------------

    def random_event(
        self, state: State, rng: random.Random, skill: float, rare: float
    ) -> dict[str, Any]:
        """Now and then a foul outside a stroke, a concession or the clock; at the choice
        after a foul one of its options; else a stroke of the discipline's."""
        ev = common_event(state, rng, ("break", "shot", "choice"), rare)
        if ev is not None:
            return dict(ev)
        p = state["turn"]
        if state["awaiting"] == "choice":
            return {"type": "choice", "player": p, "option": rng.choice(state["options"])}
        return self.random_stroke(state, rng, skill)

    @abstractmethod
    def random_stroke(self, state: State, rng: random.Random, skill: float) -> dict[str, Any]:
        """A plausible break or shot of the player to act."""


__all__ = ["PLAY_OPTIONS", "SHOT_FOULS"]
