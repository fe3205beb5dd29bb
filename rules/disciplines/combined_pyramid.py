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
from rules.describe import (
    EventKind,
    count,
    counted_off_table_kind,
    foul_shot_kind,
    illegal_break_kind,
    kind,
    legal_break_kind,
    shot_kind,
)
from rules.disciplines.family import (
    COUNT_PROMPTS,
    count_prompts,
    fool_kind,
    foul_balls,
    pocketed_question,
)
from rules.disciplines.pyramid_games import (
    CUE_BALL_PROMPT,
    CueBallPyramid,
    cue_outcomes,
    stroke_foul_choices,
)
from rules.in_force import RulesInForce
from rules.pyramid_games import (
    IN_HAND_ANYWHERE,
    IN_HAND_HOUSE,
    OFF_TABLE,
    PLAY_OPTIONS,
    POCKETED,
    STAYED,
)
from rules.registry import InForceBase
from rules.words import Text, gettext_noop, player, text

_PROMPTS = {
    **COUNT_PROMPTS,
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
    "cue_off": gettext_noop("Cue ball off the table"),
}
# The question after the name on a shot from hand (a premium or penalty shot).
_FROM_HAND = {IN_HAND_HOUSE: "premium_house", IN_HAND_ANYWHERE: "premium_anywhere"}
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
    prompt_table = _PROMPTS

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

    def describe_stroke(self, event: Mapping[str, Any], ruleset: Mapping[str, Any]) -> Text:
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
        return super().describe_stroke(event, ruleset)

    def in_force_cue_rule(self) -> str:
        return "N5.2"

    def terms(self, ruleset: Mapping[str, Any]) -> list[Text]:
        terms = [text(self.label)]
        if ruleset["direct_call"]:
            terms.append(text(gettext_noop("direct call (house rule): fools do not count")))
        else:
            terms.append(text(gettext_noop("every ball pocketed counts")))
        if ruleset["svoyak_taken_by"] == "opponent":
            terms.append(text(gettext_noop("after a «svoyak» the opponent takes the ball off")))
        terms.append(text(_premium_words(self.premium)))
        return terms

    # --- the entry -------------------------------------------------------------------------

    def svoyak_taken(self, ruleset: Mapping[str, Any]) -> str:
        """Who takes the ball off after a «свояк», as the ruleset says (K5.2 or the house's)."""
        opponent = ruleset.get("svoyak_taken_by") == "opponent"
        return _PROMPTS["svoyak_opponent" if opponent else "svoyak_striker"]

    def svoyak_kind(
        self, key: str, event_type: str, fixed: dict[str, Any], state: Mapping[str, Any]
    ) -> EventKind:
        """A «свояк» (K5.2): the point, the ball taken off, the premium shot from hand."""
        p = str(state.get("turn"))
        return kind(
            key,
            event_type,
            text(_PROMPTS["svoyak"]),
            player_slot=p,
            fixed=fixed,
            prompt=text(self.svoyak_taken(state.get("ruleset") or {}), name=player(p)),
            fields=[count("pocketed", state["balls_on_table"], text(_PROMPTS["svoyak_balls"]))],
            rule=self.premium_rule,
        )

    def entry_prompt(self, state: Mapping[str, Any], awaiting: str) -> Text | None:
        from_hand = _FROM_HAND.get(str(state.get("cue_ball")))
        if awaiting == "shot" and from_hand is not None:
            return text(_PROMPTS[from_hand])
        return super().entry_prompt(state, awaiting)

    def own_kinds(
        self, state: dict[str, Any], awaiting: str, p: str, in_force: RulesInForce
    ) -> list[EventKind]:
        n = state["balls_on_table"]
        if awaiting == "break":
            return [
                legal_break_kind(p, [count("pocketed", n, text(_PROMPTS["pocketed_any"]))]),
                self.svoyak_kind(
                    "break_svoyak", "break", {"legal": True, "cue_ball": POCKETED}, state
                ),
                illegal_break_kind(
                    p,
                    in_force,
                    [
                        count("pocketed", n, text(_PROMPTS["illegal_break_balls"])),
                        cue_outcomes((STAYED, POCKETED, OFF_TABLE), text(CUE_BALL_PROMPT)),
                    ],
                ),
            ]
        if awaiting != "shot":
            return []
        kinds = [shot_kind(p, [count("pocketed", n, text(pocketed_question(in_force)))])]
        if state.get("cue_ball") == IN_HAND_ANYWHERE:
            kinds.append(
                kind(
                    "premium_scratch",
                    "shot",
                    text(_PROMPTS["premium_scratch"]),
                    player_slot=p,
                    fixed={"cue_ball": POCKETED, "foul": "cue_ball_pocketed"},
                    prompt=text(_PROMPTS["premium_scratch_hint"]),
                    fields=[foul_balls(n)],
                    rule="N5.2",
                )
            )
        else:
            kinds.append(self.svoyak_kind("svoyak", "shot", {"cue_ball": POCKETED}, state))
        if in_force["fools"]:
            kinds.append(fool_kind(p, n))
        kinds += [
            foul_shot_kind(
                p,
                [
                    describe.choose("foul", stroke_foul_choices(state, in_force)),
                    foul_balls(n),
                    cue_outcomes((STAYED, POCKETED), text(CUE_BALL_PROMPT)),
                ],
                prompt=text(_PROMPTS["penalty"]),
                rule="K7",
            ),
            counted_off_table_kind(p, n, [foul_balls(n - 1)]),
            kind(
                "cue_off_table",
                "shot",
                text(_PROMPTS["cue_off"]),
                player_slot=p,
                fixed={"cue_ball": OFF_TABLE, "foul": "ball_off_table"},
                prompt=text(_PROMPTS["penalty_hand"]),
                fields=[foul_balls(n)],
                rule="G24.3",
            ),
        ]
        return kinds

    def form_prompts(self, ruleset: Mapping[str, Any], in_force: RulesInForce) -> dict[str, str]:
        out = {
            **{key: _PROMPTS[key] for key in ("penalty", "penalty_hand", "svoyak")},
            **count_prompts(in_force),
            "svoyak_taken": self.svoyak_taken(ruleset),
            "premium": _premium_words(self.premium),
            "cue_ball": CUE_BALL_PROMPT,
            "break_balls": _PROMPTS["pocketed_any"],  # on a legal break every ball counts
            "premium_house": _PROMPTS["premium_house"],  # also a penalty shot (K7)
            "svoyak_balls": _PROMPTS["svoyak_balls"],
            "cue_off": _PROMPTS["cue_off"],
        }
        if self.premium == IN_HAND_ANYWHERE:
            for key in ("premium_anywhere", "premium_scratch", "premium_scratch_hint"):
                out[key] = _PROMPTS[key]
        return out

    def random_stroke(self, state: State, rng: random.Random, skill: float) -> dict[str, Any]:
        p = state["turn"]
        n = state["balls_on_table"]
        x = rng.random()
        if state["awaiting"] == "break":
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
