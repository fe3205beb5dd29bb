"""Combined pyramid (design/rules-engine.md §6.1) as a registered discipline, and dynamic
pyramid's class beside it (§6.2): one engine (rules/combined_pyramid.py) with the premium shot
after a «свояк» from the house or from anywhere."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from rules import combined_pyramid as engine
from rules import describe
from rules.common import BREAK_OPTIONS, State
from rules.describe import Entry, EventKind, count, kind
from rules.disciplines.pyramid_games import (
    PROMPTS,
    CueBallPyramid,
    cue_outcomes,
    stroke_foul_choices,
)
from rules.in_force import rules_in_force
from rules.pyramid_games import (
    IN_HAND_ANYWHERE,
    IN_HAND_HOUSE,
    OFF_TABLE,
    PLAY_OPTIONS,
    POCKETED,
    STAYED,
)
from rules.registry import InForceBase
from rules.simulate import common_event
from rules.words import Text, gettext_noop, ngettext_lazy, player, text

_PROMPTS = {
    "pocketed_any": gettext_noop("How many balls were pocketed?"),
    "pocketed_direct": gettext_noop("How many balls were pocketed directly, as called?"),
    "svoyak": gettext_noop("«Svoyak» (cue ball pocketed)"),
    "svoyak_striker": gettext_noop(
        "+1 point; %(name)s takes a ball of his choice off the table and plays on from hand."
    ),
    "svoyak_opponent": gettext_noop(
        "+1 point; the opponent takes a ball off the table, %(name)s plays on from hand."
    ),
    "svoyak_balls": gettext_noop("Object balls pocketed as well:"),
    "premium_house": gettext_noop("to shoot from hand from the house"),
    "premium_anywhere": gettext_noop("to shoot from hand, anywhere on the table"),
    "premium_scratch": gettext_noop("Cue ball pocketed on the premium shot"),
    "premium_scratch_hint": gettext_noop(
        "Only object balls may be pocketed on the premium shot: a foul, nothing counts."
    ),
    "penalty": gettext_noop(
        "Penalty: the opponent scores 1 and takes a ball of his choice off the table."
    ),
    "penalty_hand": gettext_noop(
        "If the cue ball fell or left the table, the opponent plays from hand from the house."
    ),
    "foul_balls": gettext_noop("Balls that fell on the foul shot (they are spotted):"),
    "illegal_break_balls": gettext_noop("Balls that fell on the illegal break (they are spotted):"),
    "cue_off": gettext_noop("Cue ball off the table"),
    "fool": gettext_noop("Fool"),
    "fool_legal_too": gettext_noop("Also pocketed legally in the same shot (optional):"),
    "fool_count": gettext_noop("Fools (fell not directly) — tap to record:"),
}
_SENTENCES = {
    "svoyak": gettext_noop("%(who)s: «svoyak»"),
    "svoyak_balls": gettext_noop("%(who)s: «svoyak» and %(balls)s"),
    "break_svoyak": gettext_noop("%(who)s: break, «svoyak» and %(balls)s"),
}


class CombinedPyramid(CueBallPyramid):
    name = "combined_pyramid"
    label = gettext_noop("Combined pyramid")
    diploma_phrase = gettext_noop("in combined pyramid")

    ruleset_keys = engine.RULESET_KEYS
    handlers = engine.HANDLERS
    premium = IN_HAND_HOUSE
    premium_rule = "K5.2"
    event_keys = {
        "break": engine.BREAK_KEYS,
        "shot": engine.SHOT_KEYS,
        **CueBallPyramid.common_event_keys,
    }
    state_fields = {
        **CueBallPyramid.common_state_fields,
        "balls_on_table": {"type": "integer", "minimum": 0, "maximum": engine.FULL_TABLE},
    }
    in_force: ClassVar[InForceBase] = {
        "spotting": "rear_spot",
        "spotting_rule": "G25.2",
        "pocketing": None,  # any ball (K5.3), or «прямой заказ» by the ruleset's direct_call
        "penalty": ("opponent_takes", "K7"),
        "play_options": PLAY_OPTIONS,
        "break_options": BREAK_OPTIONS,
        "rerack_options": (),
    }
    has_head_start = True

    def initial_state(self, ruleset: dict[str, Any]) -> State:
        return engine.initial_state(self.name, ruleset)

    def check_ruleset(self, ruleset: dict[str, Any]) -> None:
        engine.check_ruleset(ruleset)

    def sample_rulesets(self) -> dict[str, dict[str, Any]]:
        return {
            "official": {"discipline": self.name},
            "direct-call-opponent-takes-best-of-3": {
                "discipline": self.name,
                "direct_call": True,
                "svoyak_taken_by": "opponent",
                "frames_to_win": 2,
                "first_break": "b",
            },
            "short-head-start": {
                "discipline": self.name,
                "balls_to_win": 5,
                "frames_to_win": 2,
                "head_start": {"b": 2},
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
        n = raw if isinstance(raw, int) else 0
        svoyak = event.get("cue_ball") == POCKETED and not event.get("foul")
        svoyak = svoyak and not (kind_ == "break" and event.get("legal") is False)
        if kind_ == "break" and svoyak:
            return text(_SENTENCES["break_svoyak"], who=who, balls=describe.balls_text(int(n)))
        if kind_ == "shot" and svoyak and not event.get("off_table"):
            if n:
                return text(_SENTENCES["svoyak_balls"], who=who, balls=describe.balls_text(int(n)))
            return text(_SENTENCES["svoyak"], who=who)
        if kind_ == "shot" and event.get("cue_ball") == OFF_TABLE and not event.get("foul"):
            event = {**event, "foul": "ball_off_table"}
        return describe.event_sentence(event, rules_in_force(dict(ruleset)))

    def in_force_cue_rule(self) -> str:
        return "N5.2"

    def regulation(self, ruleset: dict[str, Any]) -> describe.Regulation:
        defaults = {key["key"]: key["default"] for key in self.ruleset_keys}
        rs = {**defaults, **ruleset}
        balls = int(rs["balls_to_win"])
        frames = int(rs["frames_to_win"])
        if frames > 1:
            race = [
                ngettext_lazy("To %(n)d frame won", "To %(n)d frames won", frames),
                ngettext_lazy("a frame to %(n)d point", "a frame to %(n)d points", balls),
            ]
        else:
            race = [ngettext_lazy("Race to %(n)d point", "Race to %(n)d points", balls)]
        terms = [text(self.label)]
        if rs["direct_call"]:
            terms.append(text(gettext_noop("direct call (house rule): fools do not count")))
        else:
            terms.append(text(gettext_noop("every ball pocketed counts")))
        if rs["svoyak_taken_by"] == "opponent":
            terms.append(text(gettext_noop("after a «svoyak» the opponent takes the ball off")))
        terms.append(text(_premium_words(self.premium)))
        return {"race": race, "terms": terms}

    # --- the view --------------------------------------------------------------------------

    def table_view(self, state: dict[str, Any]) -> describe.TableView:
        n = state.get("balls_on_table")
        if not isinstance(n, int):
            return {"balls": None, "colours": None, "text": None}
        return {
            "balls": n,
            "colours": None,
            "text": text(gettext_noop("%(n)s balls on the table"), n=n),
        }

    # --- the entry -------------------------------------------------------------------------

    def svoyak_prompt(self, ruleset: Mapping[str, Any], p: str) -> Text:
        key = (
            "svoyak_opponent" if ruleset.get("svoyak_taken_by") == "opponent" else "svoyak_striker"
        )
        return text(_PROMPTS[key], name=player(p))

    def entry(self, state: dict[str, Any]) -> Entry:
        awaiting = state.get("awaiting")
        p = state.get("turn")
        if state.get("finished") or awaiting is None or p not in ("a", "b"):
            return {"awaiting": None, "player": None, "prompt": None, "kinds": []}
        rs = state.get("ruleset") or {"discipline": self.name}
        in_force = rules_in_force(rs)
        common = describe.common_prompts()
        n = state["balls_on_table"]
        kinds: list[EventKind] = []
        prompt: Text | None = None
        direct = in_force["pocketing"] == "direct_call"
        premium_shot = state.get("cue_ball") == IN_HAND_ANYWHERE
        if awaiting == "break":
            prompt = common["breaks"]
            kinds.append(
                kind(
                    "break",
                    "break",
                    common["legal_break"],
                    player_slot=p,
                    fixed={"legal": True},
                    fields=[count("pocketed", n, text(_PROMPTS["pocketed_any"]))],
                )
            )
            kinds.append(
                kind(
                    "break_svoyak",
                    "break",
                    text(_PROMPTS["svoyak"]),
                    player_slot=p,
                    fixed={"legal": True, "cue_ball": POCKETED},
                    prompt=self.svoyak_prompt(rs, p),
                    fields=[count("pocketed", n, text(_PROMPTS["svoyak_balls"]))],
                    rule=self.premium_rule,
                )
            )
            kinds.append(
                kind(
                    "illegal_break",
                    "break",
                    common["illegal_break"],
                    player_slot=p,
                    fixed={"legal": False},
                    fields=[
                        count("pocketed", n, text(_PROMPTS["illegal_break_balls"])),
                        cue_outcomes((STAYED, POCKETED, OFF_TABLE), text(PROMPTS["cue_ball"])),
                    ],
                    rule=in_force["break_rule_ref"],
                )
            )
        elif awaiting == "shot":
            prompt = common["shoots"]
            if state.get("cue_ball") == IN_HAND_HOUSE:
                prompt = text(_PROMPTS["premium_house"])
            elif premium_shot:
                prompt = text(_PROMPTS["premium_anywhere"])
            question = _PROMPTS["pocketed_direct"] if direct else _PROMPTS["pocketed_any"]
            kinds.append(
                kind(
                    "shot",
                    "shot",
                    common["record_shot"],
                    player_slot=p,
                    fields=[count("pocketed", n, text(question))],
                )
            )
            if premium_shot:
                kinds.append(
                    kind(
                        "premium_scratch",
                        "shot",
                        text(_PROMPTS["premium_scratch"]),
                        player_slot=p,
                        fixed={"cue_ball": POCKETED, "foul": "cue_ball_pocketed"},
                        prompt=text(_PROMPTS["premium_scratch_hint"]),
                        fields=[count("pocketed", n, text(_PROMPTS["foul_balls"]))],
                        rule="N5.2",
                    )
                )
            else:
                kinds.append(
                    kind(
                        "svoyak",
                        "shot",
                        text(_PROMPTS["svoyak"]),
                        player_slot=p,
                        fixed={"cue_ball": POCKETED},
                        prompt=self.svoyak_prompt(rs, p),
                        fields=[count("pocketed", n, text(_PROMPTS["svoyak_balls"]))],
                        rule=self.premium_rule,
                    )
                )
            if direct:
                kinds.append(
                    kind(
                        "fool",
                        "shot",
                        text(_PROMPTS["fool"]),
                        player_slot=p,
                        fields=[
                            count("pocketed", n - 1, text(_PROMPTS["fool_legal_too"])),
                            count("fools", n, text(_PROMPTS["fool_count"]), minimum=1),
                        ],
                        limits=[{"fields": ["pocketed", "fools"], "max": n}],
                    )
                )
            kinds.append(
                kind(
                    "foul_shot",
                    "shot",
                    common["foul"],
                    player_slot=p,
                    prompt=text(_PROMPTS["penalty"]),
                    fields=[
                        describe.choose(
                            "foul", stroke_foul_choices(state, in_force, cue_ball_pocketed=False)
                        ),
                        count("pocketed", n, text(_PROMPTS["foul_balls"])),
                        cue_outcomes((STAYED, POCKETED), text(PROMPTS["cue_ball"])),
                    ],
                    rule="K7",
                )
            )
            kinds.append(
                kind(
                    "off_table",
                    "shot",
                    text(describe.FOUL_TITLES["ball_off_table"]),
                    player_slot=p,
                    fixed={"foul": "ball_off_table"},
                    fields=[
                        count("off_table", n, common["off_table_count"], minimum=1),
                        count("pocketed", n - 1, text(_PROMPTS["foul_balls"])),
                    ],
                    limits=[{"fields": ["off_table", "pocketed"], "max": n}],
                    rule="G24.3",
                )
            )
            kinds.append(
                kind(
                    "cue_off_table",
                    "shot",
                    text(_PROMPTS["cue_off"]),
                    player_slot=p,
                    fixed={"cue_ball": OFF_TABLE, "foul": "ball_off_table"},
                    prompt=text(_PROMPTS["penalty_hand"]),
                    fields=[count("pocketed", n, text(_PROMPTS["foul_balls"]))],
                    rule="G24.3",
                )
            )
        kinds.extend(self.common_kinds(state, in_force))
        return {"awaiting": awaiting, "player": p, "prompt": prompt, "kinds": kinds}

    def prompts(self, ruleset: dict[str, Any]) -> dict[str, Text]:
        in_force = rules_in_force(ruleset)
        out = {**describe.common_prompts(), **describe.ruleset_prompts(in_force)}
        out["penalty"] = text(_PROMPTS["penalty"])
        out["penalty_hand"] = text(_PROMPTS["penalty_hand"])
        direct = in_force["pocketing"] == "direct_call"
        out["pocketed"] = text(_PROMPTS["pocketed_direct"] if direct else _PROMPTS["pocketed_any"])
        out["svoyak"] = text(_PROMPTS["svoyak"])
        key = (
            "svoyak_opponent" if ruleset.get("svoyak_taken_by") == "opponent" else "svoyak_striker"
        )
        out["svoyak_taken"] = text(_PROMPTS[key])
        out["premium"] = text(_premium_words(self.premium))
        out["cue_ball"] = text(PROMPTS["cue_ball"])
        out["break_balls"] = text(_PROMPTS["pocketed_any"])  # on a legal break every ball counts
        out["premium_house"] = text(_PROMPTS["premium_house"])  # also a penalty shot (K7)
        if self.premium == IN_HAND_ANYWHERE:
            out["premium_anywhere"] = text(_PROMPTS["premium_anywhere"])
        for k in ("illegal_break_balls", "foul_balls", "svoyak_balls", "cue_off"):
            out[k] = text(_PROMPTS[k])
        if self.premium == IN_HAND_ANYWHERE:
            out["premium_scratch"] = text(_PROMPTS["premium_scratch"])
            out["premium_scratch_hint"] = text(_PROMPTS["premium_scratch_hint"])
        if direct:
            for k in ("fool", "fool_legal_too", "fool_count"):
                out[k] = text(_PROMPTS[k])
        return out

    def random_event(
        self, state: State, rng: random.Random, skill: float, rare: float
    ) -> dict[str, Any]:
        ev = common_event(state, rng, ("break", "shot", "choice"), rare)
        if ev is not None:
            return dict(ev)
        awaiting = state["awaiting"]
        p = state["turn"]
        n = state["balls_on_table"]
        if awaiting == "choice":
            return {"type": "choice", "player": p, "option": rng.choice(state["options"])}
        x = rng.random()
        if awaiting == "break":
            out: dict[str, Any] = {
                "type": "break",
                "player": p,
                "legal": x < 0.85,
                "pocketed": min(n, rng.choice((0, 0, 1, 1, 2))),
            }
            if rng.random() < 0.08:
                out["cue_ball"] = rng.choice((POCKETED, OFF_TABLE))
            return out
        direct = state["ruleset"]["direct_call"]
        in_hand = state["cue_ball"]
        if x < skill:
            shot: dict[str, Any] = {"type": "shot", "player": p, "pocketed": min(n, 1)}
            if rng.random() < 0.15:
                shot["pocketed"] = min(n, rng.choice((0, 1)))
                shot["cue_ball"] = POCKETED
                if in_hand == IN_HAND_ANYWHERE:
                    # N5.2: on the premium shot it is a foul; the form names it (the engine
                    # would find it without the name too).
                    shot["foul"] = "cue_ball_pocketed"
            if direct and rng.random() < 0.08 and n > shot["pocketed"]:
                shot["fools"] = 1
            return shot
        if x < skill + 0.06:
            foul = rng.choice(("double_hit", "no_contact", "incomplete_shot", "push_shot"))
            if in_hand == IN_HAND_HOUSE and rng.random() < 0.3:
                foul = "house_ball"
            if in_hand == IN_HAND_ANYWHERE and rng.random() < 0.3:
                foul = "cue_ball_pocketed"
            return {
                "type": "shot",
                "player": p,
                "pocketed": min(n, rng.choice((0, 1))),
                "foul": foul,
                "cue_ball": rng.choice((STAYED, STAYED, POCKETED)),
            }
        if x < skill + 0.09:
            return {"type": "shot", "player": p, "off_table": min(n, 1)}
        if x < skill + 0.11:
            return {"type": "shot", "player": p, "cue_ball": OFF_TABLE}
        if direct and x < skill + 0.15 and n:
            return {"type": "shot", "player": p, "fools": 1}
        return {"type": "shot", "player": p, "pocketed": 0}


def _premium_words(premium: str) -> str:
    if premium == IN_HAND_ANYWHERE:
        return gettext_noop("after a «svoyak» the cue ball in hand anywhere on the table")
    return gettext_noop("after a «svoyak» the cue ball in hand from the house")
