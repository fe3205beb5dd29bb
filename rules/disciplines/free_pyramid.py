"""Free pyramid (G with the regulation R) as a registered discipline: its engine
(rules/free_pyramid.py) and what it says about its states."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from rules import describe
from rules import free_pyramid as engine
from rules.common import BREAK_OPTIONS, FORFEIT_KEYS, LAG_KEYS, State
from rules.describe import Entry, EventKind, Fact, Headline, count, fact, kind, per_player
from rules.in_force import rules_in_force
from rules.registry import Discipline
from rules.schemas import LAG_STATE_FIELDS, PER_PLAYER, SLOT, nullable, obj
from rules.simulate import free_pyramid_event
from rules.words import Text, gettext_noop, ngettext_lazy, text

_PROMPTS = {
    "pocketed_direct": gettext_noop("How many balls were pocketed directly, as called?"),
    "pocketed_any": gettext_noop("How many balls were pocketed?"),
    "illegal_break_balls": gettext_noop("Balls that fell on the illegal break (they are spotted):"),
    "foul_balls": gettext_noop("Balls that fell on the foul shot (they are spotted):"),
    "fool": gettext_noop("Fool"),
    "fool_legal_too": gettext_noop("Also pocketed legally in the same shot (optional):"),
    "fool_count": gettext_noop("Fools (fell not directly) — tap to record:"),
    "rerack_prompt": gettext_noop("2 balls left — chooses:"),
}


def _frames_to_win(state: dict[str, Any], ruleset: dict[str, Any] | None = None) -> int:
    rs = state.get("ruleset") or ruleset or {}
    n = rs.get("frames_to_win", 1) if isinstance(rs, dict) else 1
    return n if isinstance(n, int) and n > 0 else 1


class FreePyramid(Discipline):
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
    end_reasons = ("frames", "time", "golden_ball", "forfeit")

    in_force = {
        "spotting": "rear_spot",
        "spotting_rule": "G25.2",
        "pocketing": None,  # direct call (R) or any ball (G), by the ruleset
        "penalty": None,  # the shelf (R) or the opponent takes a ball (G29), by the ruleset
        "play_options": engine.PLAY_OPTIONS,
        "break_options": BREAK_OPTIONS,
        "rerack_options": engine.RERACK_OPTIONS,
    }
    has_time_limit = True
    has_head_start = True
    uses_colours = False
    records = frozenset({"stats", "events"})  # no rule of the free pyramid reads them
    max_balls = engine.FULL_TABLE

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

    def describe_event(self, event: Mapping[str, Any], ruleset: Mapping[str, Any]) -> Text:
        # An illegal break cites the break's criteria in force: the regulation's or G12.1.
        return describe.event_sentence(event, rules_in_force(dict(ruleset)))

    def check_ruleset(self, ruleset: dict[str, Any]) -> None:
        engine.check_ruleset(ruleset)

    # --- results -------------------------------------------------------------------------

    def result_field(self, state: dict[str, Any], ruleset: dict[str, Any] | None = None) -> str:
        """Frames won in a match of several frames, else the frame's score (head start in)."""
        return "frames" if _frames_to_win(state, ruleset) > 1 else "score"

    def headline(self, state: dict[str, Any]) -> Headline:
        if state.get("finished"):
            a, b = self.result_score(state)
            if self.result_field(state) == "frames":
                return {
                    "score": {"a": a, "b": b},
                    "kind": "frames",
                    "label": text(gettext_noop("frames won")),
                }
            return {"score": {"a": a, "b": b}, "kind": "points", "label": None}
        score = per_player(state.get("score")) or {}
        return {
            "score": {"a": score.get("a"), "b": score.get("b")},
            "kind": "points",
            "label": None,
        }

    def score_summary(self, state: dict[str, Any]) -> describe.ScoreSummary:
        """The frame's points and the frames won, as the state keeps them."""
        score = per_player(state.get("score"))
        return {
            "score": {"a": score["a"], "b": score["b"]} if score else None,
            "frames": per_player(state.get("frames")),
        }

    # --- the view ------------------------------------------------------------------------

    def player_facts(self, state: dict[str, Any], slot: str) -> list[Fact]:
        out = []
        head = per_player((state.get("ruleset") or {}).get("head_start")) or {}
        if head.get(slot):
            out.append(
                fact("head_start", head[slot], text(gettext_noop("head start %(n)s"), n=head[slot]))
            )
        debt = per_player(state.get("debt")) or {}
        if debt.get(slot):
            out.append(fact("debt", debt[slot], text(gettext_noop("owes %(n)s"), n=debt[slot])))
        frames = self.frames_won(state)
        if frames is not None:
            out.append(
                fact("frames", frames[slot], text(gettext_noop("frames: %(n)s"), n=frames[slot]))
            )
        return out

    def table_view(self, state: dict[str, Any]) -> describe.TableView:
        n = state.get("balls_on_table")
        if not isinstance(n, int):
            return {"balls": None, "colours": None, "text": None}
        return {
            "balls": n,
            "colours": None,
            "text": text(gettext_noop("%(n)s balls on the table"), n=n),
        }

    def frame_view(self, state: dict[str, Any]) -> describe.FrameView:
        frame = state.get("frame")
        several = _frames_to_win(state) > 1
        return {
            "number": frame if isinstance(frame, int) else None,
            "of": None,
            "rack": state.get("rack") if isinstance(state.get("rack"), int) else None,
            "text": text(gettext_noop("frame %(n)s"), n=frame)
            if several and isinstance(frame, int)
            else None,
        }

    def frames_won(self, state: dict[str, Any]) -> dict[str, int] | None:
        return per_player(state.get("frames")) if _frames_to_win(state) > 1 else None

    def lines(self, state: dict[str, Any]) -> list[Text]:
        rs = state.get("ruleset") or {}
        out: list[Text] = []
        balls = rs.get("balls_to_win")
        if isinstance(balls, int):
            frames = _frames_to_win(state)
            if frames > 1:
                out.append(text(gettext_noop("first to %(f)s frames of %(n)s"), f=frames, n=balls))
            else:
                out.append(text(gettext_noop("race to %(n)s"), n=balls))
        table = self.table_view(state)["text"]
        if table is not None and not state.get("finished"):
            out.append(table)
        return out

    def notices(self, state: dict[str, Any]) -> list[Text]:
        if state.get("golden_ball") and not state.get("finished"):
            return [text(gettext_noop("Golden ball: the next pocketed ball wins"))]
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

    def entry(self, state: dict[str, Any]) -> Entry:
        awaiting = state.get("awaiting")
        p = state.get("turn")
        if state.get("finished") or awaiting is None:
            return {"awaiting": None, "player": None, "prompt": None, "kinds": []}
        in_force = rules_in_force(state.get("ruleset") or {"discipline": self.name})
        common = describe.common_prompts()
        balls = state.get("balls_on_table")
        n = balls if isinstance(balls, int) else 0
        kinds: list[EventKind] = []
        prompt: Text | None = None
        if awaiting == "break":
            prompt = common["breaks"]
            kinds.append(
                kind(
                    "break",
                    "break",
                    common["legal_break"],
                    player_slot=p,
                    fixed={"legal": True},
                    fields=[count("pocketed", n, describe.break_prompt(in_force["break_rule"]))],
                )
            )
            kinds.append(
                kind(
                    "illegal_break",
                    "break",
                    common["illegal_break"],
                    player_slot=p,
                    fixed={"legal": False},
                    fields=[count("pocketed", n, text(_PROMPTS["illegal_break_balls"]))],
                    rule=in_force["break_rule_ref"],
                )
            )
        elif awaiting == "shot":
            prompt = common["shoots"]
            direct = in_force["pocketing"] == "direct_call"
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
            if in_force["fools"]:
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
                        rule="R",
                    )
                )
            kinds.append(
                kind(
                    "foul_shot",
                    "shot",
                    common["foul"],
                    player_slot=p,
                    fields=[
                        describe.choose("foul", describe.shot_foul_choices(in_force)),
                        count("pocketed", n, text(_PROMPTS["foul_balls"])),
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
                    fields=[
                        count("off_table", n, common["off_table_count"], minimum=1),
                        count("pocketed", n - 1, text(_PROMPTS["foul_balls"])),
                    ],
                    limits=[{"fields": ["off_table", "pocketed"], "max": n}],
                    rule="G24.3",
                )
            )
        elif awaiting == "choice":
            prompt = common["chooses"]
            kinds.append(describe.option_kind(state, "choice", describe.after_foul_prompt(state)))
        elif awaiting == "rerack":
            prompt = text(_PROMPTS["rerack_prompt"])
            kinds.append(describe.option_kind(state, "rerack", text(_PROMPTS["rerack_prompt"])))
        if awaiting in engine.FOUL_AWAITING:
            kinds.append(describe.foul_event_kind(state, in_force))
        kinds.append(describe.forfeit_kind())
        return {"awaiting": awaiting, "player": p, "prompt": prompt, "kinds": kinds}

    def prompts(self, ruleset: dict[str, Any]) -> dict[str, Text]:
        in_force = rules_in_force(ruleset)
        out = {**describe.common_prompts(), **describe.ruleset_prompts(in_force)}
        direct = in_force["pocketing"] == "direct_call"
        out["pocketed"] = text(_PROMPTS["pocketed_direct"] if direct else _PROMPTS["pocketed_any"])
        for key in ("illegal_break_balls", "foul_balls", "rerack_prompt"):
            out[key] = text(_PROMPTS[key])
        if in_force["fools"]:
            for key in ("fool", "fool_legal_too", "fool_count"):
                out[key] = text(_PROMPTS[key])
        return out

    def paper_sheet(self, ruleset: Mapping[str, Any]) -> str:
        # A race of frames («до 3 побед»), else one long race to N balls, rack after rack.
        frames = ruleset.get("frames_to_win")
        return "frames" if isinstance(frames, int) and frames > 1 else "racks"

    def regulation(self, ruleset: dict[str, Any]) -> describe.Regulation:
        defaults = {key["key"]: key["default"] for key in engine.RULESET_KEYS}
        rs = {**defaults, **ruleset}
        balls = int(rs["balls_to_win"])
        frames = int(rs["frames_to_win"])
        if frames > 1:
            race = [
                ngettext_lazy("To %(n)d frame won", "To %(n)d frames won", frames),
                ngettext_lazy("a frame to %(n)d ball", "a frame to %(n)d balls", balls),
            ]
        else:
            race = [ngettext_lazy("Race to %(n)d ball", "Race to %(n)d balls", balls)]
        terms = []
        if rs["continuation"]:
            terms.append(text(gettext_noop("with continuation")))
        if rs["direct_call"]:
            terms.append(text(gettext_noop("direct call, fools do not count")))
        if rs["strict_break"]:
            terms.append(text(gettext_noop("strict break")))
        if rs["penalty"] == "shelf_to_table":
            terms.append(text(gettext_noop("a foul costs a ball from the shelf")))
        else:
            terms.append(text(gettext_noop("after a foul the opponent takes a ball")))
        return {"race": race, "terms": terms}

    def random_event(
        self, state: State, rng: random.Random, skill: float, rare: float
    ) -> dict[str, Any]:
        return free_pyramid_event(state, rng, skill, rare)
