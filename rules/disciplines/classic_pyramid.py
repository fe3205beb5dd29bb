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
from rules.describe import Entry, EventKind, balls, choice, choose, kind
from rules.disciplines.pyramid_games import (
    PROMPTS,
    CueBallPyramid,
    cue_outcomes,
    stroke_foul_choices,
)
from rules.in_force import rules_in_force
from rules.pyramid_games import IN_HAND_HOUSE, OFF_TABLE, PLAY_OPTIONS, POCKETED, STAYED
from rules.registry import InForceBase
from rules.schemas import NUMBERS, PER_PLAYER, obj
from rules.simulate import common_event
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
    "illegal_break_balls": gettext_noop("Balls that fell on the illegal break (they are spotted):"),
    "foul_balls": gettext_noop("Balls that fell on the foul stroke (they are spotted):"),
    "off_table_balls": gettext_noop("Balls that left the table:"),
    "cue_foul": gettext_noop("Cue ball pocketed or jumped"),
    "cue_foul_hint": gettext_noop(
        "A foul (C5.5): the balls are spotted, the opponent plays from hand from the house."
    ),
    "penalty": gettext_noop(
        "Penalty: the offender loses %(deduct)s, the opponent gains %(award)s."
    ),
}
_SENTENCES = {
    "made": gettext_noop("%(who)s: %(ball)s as called, %(points)s"),
    "not_made": gettext_noop("%(who)s: not as called, %(balls)s spotted"),
    "break": gettext_noop("%(who)s: break, balls %(balls)s"),
}


def _numbers_text(numbers: object) -> str:
    if not isinstance(numbers, list):
        return ""
    return ", ".join(str(n) for n in numbers if isinstance(n, int))


class ClassicPyramid(CueBallPyramid):
    name = "classic_pyramid"
    label = gettext_noop("Classic pyramid")
    diploma_phrase = gettext_noop("in classic pyramid")

    abstract_ruleset_race_key = "points_to_win"
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

    def describe_event(self, event: Mapping[str, Any], ruleset: Mapping[str, Any]) -> Text:
        own = self.describe_foul(event)
        if own is not None:
            return own
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

    def regulation(self, ruleset: dict[str, Any]) -> describe.Regulation:
        defaults = {key["key"]: key["default"] for key in self.ruleset_keys}
        rs = {**defaults, **ruleset}
        points = int(rs["points_to_win"])
        frames = int(rs["frames_to_win"])
        if frames > 1:
            race = [
                ngettext_lazy("To %(n)d frame won", "To %(n)d frames won", frames),
                ngettext_lazy("a frame to %(n)d point", "a frame to %(n)d points", points),
            ]
        else:
            race = [ngettext_lazy("Race to %(n)d point", "Race to %(n)d points", points)]
        terms = [
            text(self.label),
            text(gettext_noop("a ball and a pocket are called")),
        ]
        if rs.get("foul_deduct") is not None and rs.get("foul_award") is not None:
            terms.append(self.penalty_text(rs))
        return {"race": race, "terms": terms}

    def penalty_text(self, ruleset: Mapping[str, Any]) -> Text:
        return text(
            _PROMPTS["penalty"],
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

    def entry(self, state: dict[str, Any]) -> Entry:
        awaiting = state.get("awaiting")
        p = state.get("turn")
        if state.get("finished") or awaiting is None or p not in ("a", "b"):
            return {"awaiting": None, "player": None, "prompt": None, "kinds": []}
        rs = state.get("ruleset") or {"discipline": self.name}
        in_force = rules_in_force(rs)
        common = describe.common_prompts()
        on = list(state.get("on_table") or [])
        kinds: list[EventKind] = []
        prompt: Text | None = None
        penalty = self.penalty_text(rs)
        if awaiting == "break":
            prompt = common["breaks"]
            kinds.append(
                kind(
                    "break",
                    "break",
                    common["legal_break"],
                    player_slot=p,
                    fixed={"legal": True},
                    fields=[balls("pocketed", on, text(_PROMPTS["break_balls"]))],
                )
            )
            kinds.append(
                kind(
                    "illegal_break",
                    "break",
                    common["illegal_break"],
                    player_slot=p,
                    fixed={"legal": False},
                    prompt=penalty,
                    fields=[
                        balls("pocketed", on, text(_PROMPTS["illegal_break_balls"])),
                        cue_outcomes((STAYED, POCKETED, OFF_TABLE), text(PROMPTS["cue_ball"])),
                    ],
                    rule=in_force["break_rule_ref"],
                )
            )
            kinds.append(
                kind(
                    "break_cue_foul",
                    "break",
                    text(_PROMPTS["cue_foul"]),
                    player_slot=p,
                    fixed={"legal": True},
                    prompt=text(_PROMPTS["cue_foul_hint"]),
                    fields=[
                        cue_outcomes((POCKETED, OFF_TABLE)),
                        balls("pocketed", on, text(_PROMPTS["foul_balls"])),
                    ],
                    rule="C5.5",
                )
            )
        elif awaiting == "shot":
            prompt = text(_PROMPTS["call_reminder"])
            kinds.append(
                kind(
                    "made",
                    "shot",
                    text(_PROMPTS["made"]),
                    player_slot=p,
                    fixed={"made": True},
                    fields=[
                        choose(
                            "call", [choice(n, text(str(n))) for n in on], text(_PROMPTS["call"])
                        ),
                        balls("pocketed", on, text(_PROMPTS["made_balls"]), includes="call"),
                    ],
                    rule="C5.3",
                )
            )
            kinds.append(
                kind(
                    "not_made",
                    "shot",
                    text(_PROMPTS["not_made"]),
                    player_slot=p,
                    fixed={"made": False},
                    fields=[balls("pocketed", on, text(_PROMPTS["not_made_balls"]))],
                    rule="C5.4",
                )
            )
            kinds.append(
                kind(
                    "cue_foul",
                    "shot",
                    text(_PROMPTS["cue_foul"]),
                    player_slot=p,
                    prompt=text(_PROMPTS["cue_foul_hint"]),
                    fields=[
                        cue_outcomes((POCKETED, OFF_TABLE)),
                        balls("pocketed", on, text(_PROMPTS["foul_balls"])),
                    ],
                    rule="C5.5",
                )
            )
            kinds.append(
                kind(
                    "foul_shot",
                    "shot",
                    common["foul"],
                    player_slot=p,
                    prompt=penalty,
                    fields=[
                        choose(
                            "foul", stroke_foul_choices(state, in_force, cue_ball_pocketed=False)
                        ),
                        balls("pocketed", on, text(_PROMPTS["foul_balls"])),
                    ],
                )
            )
            kinds.append(
                kind(
                    "off_table",
                    "shot",
                    text(describe.FOUL_TITLES["ball_off_table"]),
                    player_slot=p,
                    fixed={"foul": "ball_off_table"},
                    prompt=penalty,
                    fields=[balls("off_table", on, text(_PROMPTS["off_table_balls"]), minimum=1)],
                    rule="G24.3",
                )
            )
        kinds.extend(self.common_kinds(state, in_force))
        return {"awaiting": awaiting, "player": p, "prompt": prompt, "kinds": kinds}

    def prompts(self, ruleset: dict[str, Any]) -> dict[str, Text]:
        in_force = rules_in_force(ruleset)
        out = {**describe.common_prompts(), **describe.ruleset_prompts(in_force)}
        out["penalty"] = self.penalty_text(ruleset)
        out["cue_ball"] = text(PROMPTS["cue_ball"])
        for key in (
            "made",
            "call",
            "made_balls",
            "not_made",
            "not_made_balls",
            "call_reminder",
            "break_balls",
            "illegal_break_balls",
            "foul_balls",
            "off_table_balls",
            "cue_foul",
            "cue_foul_hint",
        ):
            out[key] = text(_PROMPTS[key])
        return out

    def random_event(
        self, state: State, rng: random.Random, skill: float, rare: float
    ) -> dict[str, Any]:
        ev = common_event(state, rng, ("break", "shot", "choice"), rare)
        if ev is not None:
            return dict(ev)
        awaiting = state["awaiting"]
        p = state["turn"]
        on = list(state["on_table"])
        if awaiting == "choice":
            return {"type": "choice", "player": p, "option": rng.choice(state["options"])}
        x = rng.random()
        if awaiting == "break":
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
