"""Free pyramid (G with the regulation R) as a registered discipline: its engine
(rules/free_pyramid.py) and what it says about its states."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from rules import describe
from rules import free_pyramid as engine
from rules.common import BREAK_OPTIONS, FORFEIT_KEYS, LAG_KEYS, State
from rules.describe import (
    EventKind,
    Fact,
    count,
    counted_off_table_kind,
    fact,
    foul_shot_kind,
    illegal_break_kind,
    legal_break_kind,
    per_player,
    shot_kind,
)
from rules.disciplines.family import (
    COUNT_PROMPTS,
    FramesRace,
    count_prompts,
    fool_kind,
    foul_balls,
    pocketed_question,
)
from rules.in_force import RulesInForce
from rules.schemas import LAG_STATE_FIELDS, PER_PLAYER, SLOT, nullable, obj
from rules.simulate import free_pyramid_event
from rules.words import Text, gettext_noop, text

_PROMPTS = {**COUNT_PROMPTS, "rerack_prompt": gettext_noop("2 balls left — chooses:")}


class FreePyramid(FramesRace):
    name = "free_pyramid"
    label = gettext_noop("Free pyramid")
    diploma_phrase = gettext_noop("in free pyramid")

    ruleset_keys = engine.RULESET_KEYS
    handlers = engine.HANDLERS
    event_keys = {
        "break": engine.BREAK_KEYS,
        "shot": engine.SHOT_KEYS,
        "foul": engine.FOUL_KEYS,
        "choice": engine.OPTION_KEYS,
        "rerack": engine.OPTION_KEYS,
        "time_expired": engine.TIME_KEYS,
        "forfeit": FORFEIT_KEYS,
        "lag": LAG_KEYS,
    }
    state_fields = {
        "score": {**PER_PLAYER, "description": "Points in the current frame, head start in."},
        "frames": {**PER_PLAYER, "description": "Frames won."},
        "frame": {"type": "integer", "minimum": 1},
        "rack": {"type": "integer", "minimum": 1},
        "balls_on_table": {"type": "integer", "minimum": 0, "maximum": engine.FULL_TABLE},
        "debt": PER_PLAYER,
        "golden_ball": {"type": "boolean"},
        "time_expired": {"type": "boolean"},
        "play_on": nullable(SLOT),
        "shelf": {
            **PER_PLAYER,
            "description": "Balls on each player's shelf in this rack: those he pocketed (or "
            "took as a penalty) since the pyramid was last set. A head start is score, never "
            "a ball on a shelf.",
        },
        "last_penalty": nullable(
            {
                **obj(
                    {
                        "offender": SLOT,
                        "effect": {
                            "type": "string",
                            "enum": ["shelf_to_table", "debt", "opponent_takes"],
                        },
                    },
                    ["offender", "effect"],
                ),
                "description": "What the penalty of the last event did to the balls (§2.1): a "
                "ball from the offender's shelf to the table, a debt written, or a ball the "
                "opponent took; null when the last event had no penalty.",
            }
        ),
        **LAG_STATE_FIELDS,
    }
    awaiting = ("break", "shot", "choice", "rerack")
    options = (*BREAK_OPTIONS, *engine.RERACK_OPTIONS)

    in_force = {
        "spotting": "rear_spot",
        "spotting_rule": "G25.2",
        "pocketing": None,  # direct call (R) or any ball (G), by the ruleset
        "penalty": None,  # the shelf (R) or the opponent takes a ball (G29), by the ruleset
        "play_options": engine.PLAY_OPTIONS,
        "break_options": BREAK_OPTIONS,
        "rerack_options": engine.RERACK_OPTIONS,
    }
    has_head_start = True
    uses_colours = False
    max_balls = engine.FULL_TABLE
    race_unit = "ball"
    prompt_table = _PROMPTS
    awaiting_prompts = {**FramesRace.awaiting_prompts, "rerack": "rerack_prompt"}
    foul_awaiting = engine.FOUL_AWAITING

    def initial_state(self, ruleset: dict[str, Any]) -> State:
        return engine.initial_state(ruleset)

    def sample_rulesets(self) -> dict[str, dict[str, Any]]:
        return {
            "regulation": {"discipline": self.name},
            "opponent_takes-fools-count-head-start": {
                "discipline": self.name,
                "penalty": "opponent_takes",
                "direct_call": False,
                "head_start": {"a": 0, "b": 5},
            },
            "classic-8-best-of-5": {
                "discipline": self.name,
                "balls_to_win": 8,
                "frames_to_win": 3,
                "continuation": False,
                "strict_break": False,
                "first_break": "b",
            },
            "short-frames-head-start": {
                "discipline": self.name,
                "balls_to_win": 5,
                "frames_to_win": 2,
                "penalty": "opponent_takes",
                "head_start": {"a": 2},
            },
            "no-continuation-opponent-takes": {
                "discipline": self.name,
                "balls_to_win": 12,
                "frames_to_win": 2,
                "continuation": False,
                "penalty": "opponent_takes",
            },
        }

    def check_ruleset(self, ruleset: dict[str, Any]) -> None:
        engine.check_ruleset(ruleset)

    def terms(self, ruleset: Mapping[str, Any]) -> list[Text]:
        terms = []
        if ruleset["continuation"]:
            terms.append(text(gettext_noop("with continuation")))
        if ruleset["direct_call"]:
            terms.append(text(gettext_noop("direct call, fools do not count")))
        if ruleset["strict_break"]:
            terms.append(text(gettext_noop("strict break")))
        if ruleset["penalty"] == "shelf_to_table":
            terms.append(text(gettext_noop("a foul costs a ball from the shelf")))
        else:
            terms.append(text(gettext_noop("after a foul the opponent takes a ball")))
        return terms

    def paper_sheet(self, ruleset: Mapping[str, Any]) -> str:
        # A race of frames («до 3 побед»), else one long race to N balls, rack after rack.
        frames = ruleset.get("frames_to_win")
        return "frames" if isinstance(frames, int) and frames > 1 else "racks"

    # --- the view ------------------------------------------------------------------------

    def own_facts(self, state: dict[str, Any], slot: str) -> list[Fact]:
        debt = per_player(state.get("debt")) or {}
        if debt.get(slot):
            return [fact("debt", debt[slot], text(gettext_noop("owes %(n)s"), n=debt[slot]))]
        return []

    # --- the referee's entry ---------------------------------------------------------------

    def may_finish(self, state: Mapping[str, Any], kind: EventKind) -> bool:
        # The match ends on the frame that wins it (points reach the race), or, after time,
        # on the golden ball; without continuation also at the end of a rack. One event moves
        # at most its counts in points, plus a penalty ball (G29.2), to either player.
        if state["golden_ball"] or not state["ruleset"]["continuation"]:
            return True
        rs = state["ruleset"]
        gain = 1 + sum(f["max"] or 0 for f in kind["fields"] if f["kind"] == "count")
        return any(
            state["frames"][p] + 1 >= rs["frames_to_win"]
            and state["score"][p] + gain >= rs["balls_to_win"]
            for p in ("a", "b")
        )

    def own_kinds(
        self, state: dict[str, Any], awaiting: str, p: str, in_force: RulesInForce
    ) -> list[EventKind]:
        balls = state.get("balls_on_table")
        n = balls if isinstance(balls, int) else 0
        if awaiting == "break":
            question = describe.break_prompt(in_force["break_rule"])
            return [
                legal_break_kind(p, [count("pocketed", n, question)]),
                illegal_break_kind(
                    p, in_force, [count("pocketed", n, text(_PROMPTS["illegal_break_balls"]))]
                ),
            ]
        if awaiting == "rerack":
            prompt = text(_PROMPTS["rerack_prompt"])
            return [describe.option_kind(state, "rerack", prompt)]
        if awaiting != "shot":
            return []
        kinds = [shot_kind(p, [count("pocketed", n, text(pocketed_question(in_force)))])]
        if in_force["fools"]:
            kinds.append(fool_kind(p, n, rule="R"))
        kinds += [
            foul_shot_kind(
                p,
                [
                    describe.choose("foul", describe.shot_foul_choices(in_force)),
                    foul_balls(n),
                ],
            ),
            counted_off_table_kind(p, n, [foul_balls(n - 1)]),
        ]
        return kinds

    def form_prompts(self, ruleset: Mapping[str, Any], in_force: RulesInForce) -> dict[str, str]:
        return {**count_prompts(in_force), "rerack_prompt": _PROMPTS["rerack_prompt"]}

    def random_event(
        self, state: State, rng: random.Random, skill: float, rare: float
    ) -> dict[str, Any]:
        return free_pyramid_event(state, rng, skill, rare)
