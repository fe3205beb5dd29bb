"""What combined, dynamic and classic pyramid say about their states alike (rules/pyramid_games.py
is their shared engine): the frame's points and the frames won, where the coloured cue ball is,
the golden ball, and the referee's entries every one of them has (the choice after a foul, a
foul outside a stroke, a concession)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules import describe
from rules.common import BREAK_OPTIONS, FORFEIT_KEYS, LAG_KEYS
from rules.describe import Choice, EventKind, Fact, Headline, choice, fact, per_player
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
from rules.registry import Discipline
from rules.schemas import LAG_STATE_FIELDS, PER_PLAYER, enum
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
PROMPTS = {
    "cue_ball": gettext_noop("And the cue ball?"),
    "frames_race": gettext_noop("first to %(f)s frames of %(n)s"),
    "race": gettext_noop("race to %(n)s"),
}


def frames_to_win(state: Mapping[str, Any]) -> int:
    rs = state.get("ruleset")
    n = rs.get("frames_to_win", 1) if isinstance(rs, dict) else 1
    return n if isinstance(n, int) and n > 0 else 1


def foul_title(code: str) -> Text:
    own = FOUL_TITLES.get(code)
    return text(own) if own is not None else describe.foul_title(code)


def stroke_foul_choices(
    state: Mapping[str, Any], in_force: RulesInForce, *, cue_ball_pocketed: bool
) -> list[Choice]:
    """The fouls of a stroke now: the family's (the ball off the table has its own kind), the
    house ball only on a shot from hand in the house (G21.2), the pocketed cue ball where it
    is a foul."""
    out = describe.shot_foul_choices(in_force)
    if state.get("cue_ball") == IN_HAND_HOUSE:
        out.append(choice("house_ball", foul_title("house_ball"), rule="G21.2"))
    if cue_ball_pocketed:
        out.append(choice("cue_ball_pocketed", foul_title("cue_ball_pocketed"), rule="C5.5"))
    return out


def cue_outcomes(values: tuple[str, ...], prompt: Text | None = None) -> describe.Field:
    return describe.choose(
        "cue_ball", [choice(v, text(CUE_OUTCOME_LABELS[v])) for v in values], prompt
    )


class CueBallPyramid(Discipline):
    """The shared answers; subclasses set the engine and the entry."""

    abstract_ruleset_race_key = "balls_to_win"
    has_time_limit = True
    records = frozenset({"stats", "events"})
    max_balls = 15
    awaiting = ("break", "shot", "choice")
    options = BREAK_OPTIONS
    end_reasons = ("frames", "time", "golden_ball", "forfeit")
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

    def race(self, state: Mapping[str, Any]) -> int | None:
        rs = state.get("ruleset") or {}
        n = rs.get(self.abstract_ruleset_race_key) if isinstance(rs, dict) else None
        return n if isinstance(n, int) else None

    # --- results ---------------------------------------------------------------------------

    def result_field(self, state: dict[str, Any], ruleset: dict[str, Any] | None = None) -> str:
        rs = state.get("ruleset") or ruleset or {}
        several = isinstance(rs, dict) and frames_to_win({"ruleset": rs}) > 1
        return "frames" if several else "score"

    def headline(self, state: dict[str, Any]) -> Headline:
        if state.get("finished") and self.result_field(state) == "frames":
            a, b = self.result_score(state)
            return {
                "score": {"a": a, "b": b},
                "kind": "frames",
                "label": text(gettext_noop("frames won")),
            }
        score = per_player(state.get("score")) or {}
        return {
            "score": {"a": score.get("a"), "b": score.get("b")},
            "kind": "points",
            "label": None,
        }

    def score_summary(self, state: dict[str, Any]) -> describe.ScoreSummary:
        score = per_player(state.get("score"))
        return {
            "score": {"a": score["a"], "b": score["b"]} if score else None,
            "frames": per_player(state.get("frames")),
        }

    # --- the view --------------------------------------------------------------------------

    def player_facts(self, state: dict[str, Any], slot: str) -> list[Fact]:
        out = []
        head = per_player((state.get("ruleset") or {}).get("head_start")) or {}
        if head.get(slot):
            out.append(
                fact("head_start", head[slot], text(gettext_noop("head start %(n)s"), n=head[slot]))
            )
        if frames_to_win(state) > 1:
            frames = per_player(state.get("frames")) or {"a": 0, "b": 0}
            out.append(
                fact("frames", frames[slot], text(gettext_noop("frames: %(n)s"), n=frames[slot]))
            )
        return out

    def frame_view(self, state: dict[str, Any]) -> describe.FrameView:
        frame = state.get("frame")
        several = frames_to_win(state) > 1
        return {
            "number": frame if isinstance(frame, int) else None,
            "of": None,
            "rack": None,
            "text": text(gettext_noop("frame %(n)s"), n=frame)
            if several and isinstance(frame, int)
            else None,
        }

    def frames_won(self, state: dict[str, Any]) -> dict[str, int] | None:
        return per_player(state.get("frames")) if frames_to_win(state) > 1 else None

    def cue_ball_text(self, state: Mapping[str, Any]) -> Text | None:
        words = CUE_BALL_WORDS.get(str(state.get("cue_ball")))
        if words is None or state.get("finished") or state.get("awaiting") == "break":
            return None
        return text(words)

    def lines(self, state: dict[str, Any]) -> list[Text]:
        out: list[Text] = []
        race = self.race(state)
        if race is not None:
            frames = frames_to_win(state)
            if frames > 1:
                out.append(text(PROMPTS["frames_race"], f=frames, n=race))
            else:
                out.append(text(PROMPTS["race"], n=race))
        if not state.get("finished"):
            table = self.table_view(state)["text"]
            if table is not None:
                out.append(table)
            cue = self.cue_ball_text(state)
            if cue is not None:
                out.append(cue)
        return out

    def notices(self, state: dict[str, Any]) -> list[Text]:
        if state.get("golden_ball") and not state.get("finished"):
            return [text(gettext_noop("Golden ball: the next pocketed ball wins"))]
        return []

    # --- the entry ------------------------------------------------------------------------

    def common_kinds(self, state: dict[str, Any], in_force: RulesInForce) -> list[EventKind]:
        """The choice after a foul (G6, G12.2), a foul outside a stroke, the concession."""
        kinds: list[EventKind] = []
        if state.get("awaiting") == "choice":
            kinds.append(describe.option_kind(state, "choice", describe.after_foul_prompt(state)))
        if state.get("awaiting") in FOUL_AWAITING:
            kinds.append(describe.foul_event_kind(state, in_force))
        kinds.append(describe.forfeit_kind())
        return kinds

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


__all__ = ["PLAY_OPTIONS", "SHOT_FOULS"]
