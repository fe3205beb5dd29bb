"""Classic pyramid (design/rules-engine.md §6.3) as a registered discipline: its engine
(rules/classic_pyramid.py) and what it says: the numbered balls on the table, the call of a
ball and a pocket, the regulation's penalty."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from rules import classic_pyramid as engine
from rules import describe
from rules.common import BREAK_OPTIONS, State
from rules.describe import (
    EventKind,
    balls,
    choice,
    choose,
    foul_shot_kind,
    illegal_break_kind,
    kind,
    legal_break_kind,
    off_table_kind,
)
from rules.disciplines.family import COUNT_PROMPTS
from rules.disciplines.pyramid_games import (
    CUE_BALL_PROMPT,
    CueBallPyramid,
    cue_outcomes,
    stroke_foul_choices,
)
from rules.in_force import RulesInForce, rules_in_force
from rules.pyramid_games import IN_HAND_HOUSE, OFF_TABLE, PLAY_OPTIONS, POCKETED, STAYED
from rules.registry import InForceBase
from rules.schemas import NUMBERS, PER_PLAYER, obj
from rules.words import Text, gettext_noop, ngettext_lazy, player, text

_PROMPTS = {
    "made": gettext_noop("Called ball in the called pocket"),
    "call": gettext_noop("Which ball was called?"),
    "made_balls": gettext_noop("Other balls pocketed in the same stroke (they count too):"),
    "not_made": gettext_noop("Not as called"),
    "not_made_balls": gettext_noop("Balls that fell (they are spotted); none: a miss"),
    "call_reminder": gettext_noop(
        "Before the stroke the striker calls a ball and a pocket (he may change the call "
        "before the stroke)."
    ),
    "break_balls": gettext_noop("Balls pocketed on the legal break: all of them count"),
    "illegal_break_balls": COUNT_PROMPTS["illegal_break_balls"],
    "foul_balls": gettext_noop("Balls that fell on the foul stroke (they are spotted):"),
    "off_table_balls": gettext_noop("Balls that left the table:"),
    "cue_foul": gettext_noop("Cue ball pocketed or jumped"),
    "cue_foul_hint": gettext_noop(
        "A foul (C5.5): the balls are spotted, the opponent plays from hand from the house."
    ),
}
# The regulation's penalty in its figures (the form's prompt is the ruleset's, filled in).
_PENALTY = gettext_noop("Penalty: the offender loses %(deduct)s, the opponent gains %(award)s.")
_SENTENCES = {
    "made": gettext_noop("%(who)s: %(ball)s as called, %(points)s"),
    "not_made": gettext_noop("%(who)s: not as called, %(balls)s spotted"),
    "break": gettext_noop("%(who)s: break, balls %(balls)s"),
}


def _numbers_text(numbers: object) -> str:
    if not isinstance(numbers, list):
        return ""
    return ", ".join(str(n) for n in numbers if isinstance(n, int))


def _cue_foul_kind(
    key: str, event_type: str, p: str, on: list[int], fixed: dict[str, Any] | None = None
) -> EventKind:
    """C5.5: a pocketed or jumped cue ball is a foul of its own, on the break too."""
    return kind(
        key,
        event_type,
        text(_PROMPTS["cue_foul"]),
        player_slot=p,
        fixed=fixed,
        prompt=text(_PROMPTS["cue_foul_hint"]),
        fields=[
            cue_outcomes((POCKETED, OFF_TABLE)),
            balls("pocketed", on, text(_PROMPTS["foul_balls"])),
        ],
        rule="C5.5",
    )


class ClassicPyramid(CueBallPyramid):
    name = "classic_pyramid"
    label = gettext_noop("Classic pyramid")
    diploma_phrase = gettext_noop("in classic pyramid")

    race_key = "points_to_win"
    ruleset_keys = engine.RULESET_KEYS
    handlers = engine.HANDLERS
    event_keys = {
        "break": engine.BREAK_KEYS,
        "shot": engine.SHOT_KEYS,
        **CueBallPyramid.common_event_keys,
    }
    extra_event_fields = {
        "break": CueBallPyramid.extra_event_fields["break"],
        "shot": {
            **CueBallPyramid.extra_event_fields["shot"],
            "call": {
                "type": "integer",
                "minimum": 1,
                "maximum": 15,
                "nullable": True,
                "description": "Classic pyramid: the called ball (C5.2); null: no call.",
            },
            "made": {
                "type": "boolean",
                "description": "Classic pyramid: the called ball fell in the called pocket "
                "(C5.3). Missing: false.",
            },
        },
    }
    state_fields = {
        **CueBallPyramid.common_state_fields,
        "balls_on_table": {"type": "integer", "minimum": 0, "maximum": len(engine.BALLS)},
        "on_table": {**NUMBERS, "description": "The numbers of the balls on the table, sorted."},
        "to_spot": {
            **NUMBERS,
            "description": "Classic pyramid: the numbers of the balls to spot, ascending.",
        },
        "pocketed": obj({"a": NUMBERS, "b": NUMBERS}, ["a", "b"]),
        "score": {**PER_PLAYER, "description": "Points in the current frame (may be below 0)."},
    }
    in_force: ClassVar[InForceBase] = {
        "spotting": "rear_spot",
        "spotting_rule": "G25.2",
        "pocketing": "called_ball",
        "penalty": ("points", "C"),
        "play_options": PLAY_OPTIONS,
        "break_options": BREAK_OPTIONS,
        "rerack_options": (),
    }
    prompt_table = {**_PROMPTS, "cue_ball": CUE_BALL_PROMPT}
    awaiting_prompts = {"break": "breaks", "shot": "call_reminder"}

    def initial_state(self, ruleset: dict[str, Any]) -> State:
        return engine.initial_state(self.name, ruleset)

    def sample_rulesets(self) -> dict[str, dict[str, Any]]:
        return {
            "penalty-3-to-opponent": {
                "discipline": self.name,
                "foul_deduct": 0,
                "foul_award": 3,
            },
            "penalty-5-deducted-best-of-3": {
                "discipline": self.name,
                "foul_deduct": 5,
                "foul_award": 0,
                "frames_to_win": 2,
                "first_break": "b",
            },
            "short-frames": {
                "discipline": self.name,
                "points_to_win": 31,
                "foul_deduct": 2,
                "foul_award": 2,
                "frames_to_win": 2,
            },
        }

    # --- words -----------------------------------------------------------------------------

    def describe_stroke(self, event: Mapping[str, Any], ruleset: Mapping[str, Any]) -> Text:
        kind_ = event.get("type")
        who = player(str(event.get("player")))
        raw = event.get("pocketed")
        pocketed: list[Any] = raw if isinstance(raw, list) else []
        count_ = len(pocketed)
        cue_foul = event.get("cue_ball") in (POCKETED, OFF_TABLE)
        in_force = rules_in_force(dict(ruleset))
        if kind_ == "break" and event.get("legal") is not False and not cue_foul and count_:
            return text(_SENTENCES["break"], who=who, balls=_numbers_text(pocketed))
        if kind_ == "shot":
            off = event.get("off_table")
            foul = event.get("foul")
            if not foul and event.get("cue_ball") == POCKETED:
                foul = "cue_ball_pocketed"
            if not foul and (event.get("cue_ball") == OFF_TABLE or off):
                foul = "ball_off_table"
            if foul:
                return self.describe_foul({**event, "foul": foul}) or describe.event_sentence(
                    {"type": "shot", "player": event.get("player"), "foul": foul}, in_force
                )
            if event.get("made"):
                points = sum(engine.ball_value(n) for n in pocketed if isinstance(n, int))
                return text(
                    _SENTENCES["made"],
                    who=who,
                    ball=_numbers_text(pocketed),
                    points=ngettext_lazy("%(n)d point", "%(n)d points", points),
                )
            if count_:
                return text(_SENTENCES["not_made"], who=who, balls=_numbers_text(pocketed))
            return describe.event_sentence({"type": "shot", "player": event.get("player")})
        return describe.event_sentence(
            {**event, "pocketed": count_} if kind_ == "break" else event, in_force
        )

    def terms(self, ruleset: Mapping[str, Any]) -> list[Text]:
        terms = [text(self.label), text(gettext_noop("a ball and a pocket are called"))]
        if ruleset.get("foul_deduct") is not None and ruleset.get("foul_award") is not None:
            terms.append(self.penalty_text(ruleset))
        return terms

    def penalty_text(self, ruleset: Mapping[str, Any]) -> Text:
        return text(
            _PENALTY,
            deduct=ngettext_lazy("%(n)d point", "%(n)d points", int(ruleset["foul_deduct"])),
            award=ngettext_lazy("%(n)d point", "%(n)d points", int(ruleset["foul_award"])),
        )

    # --- the view --------------------------------------------------------------------------

    def table_view(self, state: dict[str, Any]) -> describe.TableView:
        on = state.get("on_table")
        if not isinstance(on, list):
            return {"balls": None, "colours": None, "text": None}
        return {
            "balls": len(on),
            "colours": None,
            "text": text(gettext_noop("on the table: %(balls)s"), balls=_numbers_text(on))
            if on
            else text(gettext_noop("the table is clear")),
        }

    def state_view(self, state: dict[str, Any]) -> describe.StateView:
        spot = state.get("to_spot")
        numbers = spot if isinstance(spot, list) else []
        view = super().state_view({**state, "to_spot": len(numbers)})
        if numbers:
            view["spotting"] = text(
                gettext_noop("Put on the table: %(balls)s (from the rear spot, rule 25.2)."),
                balls=_numbers_text(numbers),
            )
        return view

    def spotting(self, to_spot: int) -> Text | None:
        return describe.spotting_hint(self.in_force["spotting"], to_spot)

    # --- the entry -------------------------------------------------------------------------

    def pocketed_cue(self, event_type: str) -> list[describe.TurnRule]:
        """C5.5: a pocketed cue ball is a foul, on the break too."""
        return [
            {"type": event_type, "when": {"cue_ball": POCKETED}, "next": "other", "then": "choice"}
        ]

    def turn_rules(self, ruleset: dict[str, Any]) -> list[describe.TurnRule]:
        # Only the called ball in the called pocket keeps the striker at the table (C5.3, C5.4).
        out = []
        for rule in self.cue_ball_turn_rules(ruleset):
            if rule["type"] == "shot" and "pocketed" in rule.get("sum", []):
                out.append({"type": "shot", "when": {"made": True}, "next": "same", "then": "shot"})
                continue
            out.append(rule)
        return out

    def own_kinds(
        self, state: dict[str, Any], awaiting: str, p: str, in_force: RulesInForce
    ) -> list[EventKind]:
        on = list(state.get("on_table") or [])
        penalty = self.penalty_text(state.get("ruleset") or {"discipline": self.name})
        if awaiting == "break":
            return [
                legal_break_kind(p, [balls("pocketed", on, text(_PROMPTS["break_balls"]))]),
                illegal_break_kind(
                    p,
                    in_force,
                    [
                        balls("pocketed", on, text(_PROMPTS["illegal_break_balls"])),
                        cue_outcomes((STAYED, POCKETED, OFF_TABLE), text(CUE_BALL_PROMPT)),
                    ],
                    prompt=penalty,
                ),
                _cue_foul_kind("break_cue_foul", "break", p, on, {"legal": True}),
            ]
        if awaiting != "shot":
            return []
        calls = [choice(n, text(str(n))) for n in on]
        return [
            kind(
                "made",
                "shot",
                text(_PROMPTS["made"]),
                player_slot=p,
                fixed={"made": True},
                fields=[
                    choose("call", calls, text(_PROMPTS["call"])),
                    balls("pocketed", on, text(_PROMPTS["made_balls"]), includes="call"),
                ],
                rule="C5.3",
            ),
            kind(
                "not_made",
                "shot",
                text(_PROMPTS["not_made"]),
                player_slot=p,
                fixed={"made": False},
                fields=[balls("pocketed", on, text(_PROMPTS["not_made_balls"]))],
                rule="C5.4",
            ),
            _cue_foul_kind("cue_foul", "shot", p, on),
            foul_shot_kind(
                p,
                [
                    choose("foul", stroke_foul_choices(state, in_force)),
                    balls("pocketed", on, text(_PROMPTS["foul_balls"])),
                ],
                prompt=penalty,
            ),
            off_table_kind(
                p,
                [balls("off_table", on, text(_PROMPTS["off_table_balls"]), minimum=1)],
                prompt=penalty,
            ),
        ]

    def prompts(self, ruleset: dict[str, Any]) -> dict[str, Text]:
        # The penalty in this ruleset's figures.
        return {**super().prompts(ruleset), "penalty": self.penalty_text(ruleset)}

    def random_stroke(self, state: State, rng: random.Random, skill: float) -> dict[str, Any]:
        p = state["turn"]
        on = list(state["on_table"])
        x = rng.random()
        if state["awaiting"] == "break":
            out: dict[str, Any] = {
                "type": "break",
                "player": p,
                "legal": x < 0.85,
                "pocketed": rng.sample(on, min(len(on), rng.choice((0, 0, 1, 1, 2)))),
            }
            if rng.random() < 0.05:
                out["cue_ball"] = rng.choice((POCKETED, OFF_TABLE))
            return out
        if x < skill:
            call = rng.choice(on)
            pocketed = [call]
            rest = [n for n in on if n != call]
            if rest and rng.random() < 0.1:
                pocketed.append(rng.choice(rest))
            return {"type": "shot", "player": p, "call": call, "made": True, "pocketed": pocketed}
        if x < skill + 0.08:
            return {
                "type": "shot",
                "player": p,
                "call": rng.choice(on),
                "made": False,
                "pocketed": rng.sample(on, min(len(on), 1)),
            }
        if x < skill + 0.14:
            foul = rng.choice(("double_hit", "no_contact", "incomplete_shot", "cue_ball_pocketed"))
            if state["cue_ball"] == IN_HAND_HOUSE and rng.random() < 0.3:
                foul = "house_ball"
            return {
                "type": "shot",
                "player": p,
                "pocketed": rng.sample(on, min(len(on), rng.choice((0, 1)))),
                "foul": foul,
            }
        if x < skill + 0.17:
            return {"type": "shot", "player": p, "cue_ball": rng.choice((POCKETED, OFF_TABLE))}
        if x < skill + 0.19:
            return {"type": "shot", "player": p, "off_table": rng.sample(on, 1)}
        return {"type": "shot", "player": p, "call": rng.choice(on)}
