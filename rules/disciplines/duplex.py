"""Duplex (D) as a registered discipline: its engine (rules/duplex.py) and what it says about
its states: plus points of frames 1-2, the deciding frame's minus and provisional final points
(docs/rules-engine.md, "Duplex: the provisional final score"), balls of each colour."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from rules import describe
from rules import duplex as engine
from rules.common import BREAK_OPTIONS, FORFEIT_KEYS, LAG_KEYS, OTHER, PLAYERS, State
from rules.describe import (
    EventKind,
    Fact,
    Field,
    FrameSummary,
    Headline,
    choice,
    choose,
    count,
    counted_off_table_kind,
    fact,
    foul_shot_kind,
    illegal_break_kind,
    kind,
    legal_break_kind,
    per_player,
    shot_kind,
)
from rules.disciplines.family import PyramidDiscipline
from rules.in_force import RulesInForce
from rules.schemas import LAG_STATE_FIELDS, PER_PLAYER, SLOT, nullable
from rules.simulate import duplex_event
from rules.words import Text, gettext_noop, ngettext_lazy, player, rule_label, text

FRAMES = 3  # D7.1: a game is 3 frames, the third deciding
_ZERO = {"a": 0, "b": 0}

_PROMPTS = {
    "pocketed_colour": gettext_noop("Balls of %(name)s pocketed:"),
    "illegal_break_colour": gettext_noop(
        "Balls of %(name)s that fell on the illegal break (they are spotted):"
    ),
    "foul_colour": gettext_noop("Balls of %(name)s that fell on the foul shot (they are spotted):"),
    "removes": gettext_noop("takes a penalty ball off the table"),
    "colour_of": gettext_noop("a ball of %(name)s"),
    "on_table": gettext_noop("%(n)s on the table"),
    "choose_breaker": gettext_noop("leads and chooses who breaks frame 3"),
    "breaks_frame_3": gettext_noop("%(name)s breaks frame 3"),
}


def _int(value: object, default: int = 0) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def _frame_points(state: dict[str, Any]) -> list[dict[str, int]]:
    rows = state.get("frame_points")
    if not isinstance(rows, list):
        return []
    return [per_player(row) or dict(_ZERO) for row in rows]


def _colour_fields(table: dict[str, int], prompt: str) -> list[Field]:
    """One count per colour, bounded by that colour's balls on the table; each named after
    the player whose colour it is (D2.1)."""
    return [count(f"pocketed.{c}", table[c], text(prompt, name=player(c))) for c in PLAYERS]


class Duplex(PyramidDiscipline):
    name = "duplex"
    label = gettext_noop("Duplex")
    diploma_phrase = gettext_noop("in Duplex pyramid")

    ruleset_keys = engine.RULESET_KEYS
    handlers = engine.HANDLERS
    event_keys = {
        "break": engine.BREAK_KEYS,
        "shot": engine.SHOT_KEYS,
        "foul": engine.FOUL_KEYS,
        "penalty_removal": engine.REMOVAL_KEYS,
        "choice": engine.OPTION_KEYS,
        "choose_breaker": engine.BREAKER_KEYS,
        # Handled only to be refused (unexpected_event): Duplex has no time-limit rule.
        "time_expired": engine.TIME_KEYS,
        "forfeit": FORFEIT_KEYS,
        "lag": LAG_KEYS,
    }
    state_fields = {
        "frame": {"type": "integer", "minimum": 1, "maximum": FRAMES},
        "table": {**PER_PLAYER, "description": "Balls of each colour on the table."},
        "balls_on_table": {"type": "integer", "minimum": 0, "maximum": 2 * engine.PER_COLOUR},
        "frame_points": {"type": "array", "items": PER_PLAYER},
        "plus": PER_PLAYER,
        "minus": PER_PLAYER,
        "final": nullable(PER_PLAYER),
        "leader": nullable(SLOT),
        **LAG_STATE_FIELDS,
    }
    awaiting = ("break", "shot", "choice", "penalty_removal", "choose_breaker")
    options = BREAK_OPTIONS
    end_reasons = ("forfeit", "game")

    in_force = {
        "spotting": "back_cushion",
        "spotting_rule": "D6.1",
        "pocketing": "colours",
        "penalty": ("opponent_removes", "D5.2"),
        "play_options": engine.PLAY_OPTIONS,
        "break_options": BREAK_OPTIONS,
        "rerack_options": (),
    }
    has_time_limit = False  # the clock only shows the time
    has_head_start = False
    uses_colours = True
    records = frozenset({"stats", "events"})  # no Duplex rule reads them
    max_balls = 2 * engine.PER_COLOUR
    prompt_table = _PROMPTS
    awaiting_prompts = {
        **PyramidDiscipline.awaiting_prompts,
        "penalty_removal": "removes",
        "choose_breaker": "choose_breaker",
    }
    foul_awaiting = engine.FOUL_AWAITING

    def describe_event(self, event: Mapping[str, Any], ruleset: Mapping[str, Any]) -> Text:
        """The family's sentence, but a ball says whose colour it was (D2.1): «Иванов: 2 шара
        игрока Иванов, 1 шар игрока Петров»."""
        pocketed = event.get("pocketed")
        plain = event.get("type") in ("break", "shot") and not event.get("foul")
        if not plain or event.get("legal") is False or not isinstance(pocketed, dict):
            return super().describe_event(event, ruleset)
        parts = [
            ngettext_lazy("%(n)d ball of %(name)s", "%(n)d balls of %(name)s", n, name=player(c))
            for c in PLAYERS
            if isinstance(n := pocketed.get(c), int) and not isinstance(n, bool) and n > 0
        ]
        if not parts or _int(event.get("off_table")):
            return super().describe_event(event, ruleset)
        what = parts[0] if len(parts) == 1 else text(describe.BOTH, first=parts[0], second=parts[1])
        who = player(str(event.get("player")))
        if event.get("type") == "break":
            return text(gettext_noop("%(who)s: break, %(balls)s"), who=who, balls=what)
        return text(describe.SAID, who=who, what=what)

    def initial_state(self, ruleset: dict[str, Any]) -> State:
        return engine.initial_state(ruleset)

    def sample_rulesets(self) -> dict[str, dict[str, Any]]:
        return {
            "defaults": {"discipline": self.name},
            "b-breaks": {"discipline": self.name, "first_break": "b"},
        }

    # --- results -------------------------------------------------------------------------

    def result_field(self, state: dict[str, Any], ruleset: dict[str, Any] | None = None) -> str:
        """The final points (D7.14); the plus points when the game ended before (forfeit)."""
        return "plus" if state.get("plus") and not state.get("final") else "final"

    def result_score(self, state: dict[str, Any]) -> tuple[int | None, int | None]:
        points = state.get("final") or state.get("plus")
        if not isinstance(points, dict) or not points:
            return None, None
        return points.get("a"), points.get("b")

    def provisional(self, state: dict[str, Any]) -> dict[str, int] | None:
        """The final points if frame 3 were scored now (D7.14-7.15): each player's plus points
        of frame 3 (0 until it ends: they are counted at its end, D7.4) minus his remaining
        minus points (D7.8, paid off by his own balls, D7.9-7.12). At the end of frame 3 this
        is the engine's `final`; None outside frame 3 and after a game ended otherwise."""
        if _int(state.get("frame")) != FRAMES:
            return None
        if state.get("finished") and state.get("end_reason") != "game":
            return None
        rows = _frame_points(state)
        points = rows[FRAMES - 1] if len(rows) >= FRAMES else _ZERO
        minus = per_player(state.get("minus")) or _ZERO
        return {p: points[p] - minus[p] for p in PLAYERS}

    def headline(self, state: dict[str, Any]) -> Headline:
        if state.get("finished"):
            a, b = self.result_score(state)
            final = self.result_field(state) == "final"
            return {
                "score": {"a": a, "b": b},
                "kind": "final" if final else "plus",
                "label": text(gettext_noop("final points"))
                if final
                else text(gettext_noop("plus points")),
            }
        provisional = self.provisional(state)
        if provisional is not None:
            return {
                "score": {"a": provisional["a"], "b": provisional["b"]},
                "kind": "provisional_final",
                "label": text(gettext_noop("provisional final points")),
            }
        plus = per_player(state.get("plus")) or {}
        return {
            "score": {"a": plus.get("a"), "b": plus.get("b")},
            "kind": "plus",
            "label": text(gettext_noop("plus points")),
        }

    # --- the view ------------------------------------------------------------------------

    def player_facts(self, state: dict[str, Any], slot: str) -> list[Fact]:
        out = []
        table = per_player(state.get("table"))
        if table is not None:
            n = table[slot]
            out.append(fact("balls", n, text(_PROMPTS["on_table"], n=n)))
        # Frame 3 in play: plus and minus beside each player. Once finished, the headline is the
        # final points: a «plus 5» beside the loser would read as his score.
        if _int(state.get("frame")) == FRAMES and not state.get("finished"):
            plus = (per_player(state.get("plus")) or _ZERO)[slot]
            if plus:
                out.append(fact("plus", plus, text(gettext_noop("plus %(n)s"), n=plus)))
            minus = (per_player(state.get("minus")) or _ZERO)[slot]
            if minus:
                out.append(fact("minus", minus, text(gettext_noop("minus %(n)s"), n=minus)))
        return out

    def table_view(self, state: dict[str, Any]) -> describe.TableView:
        table = per_player(state.get("table"))
        if table is None:
            return {"balls": None, "colours": None, "text": None}
        return {
            "balls": table["a"] + table["b"],
            "colours": table,
            "text": text(gettext_noop("on the table: %(a)s / %(b)s"), a=table["a"], b=table["b"]),
        }

    def frame_view(self, state: dict[str, Any]) -> describe.FrameView:
        frame = _int(state.get("frame"), 1)
        return {
            "number": frame,
            "of": FRAMES,
            "rack": None,
            "text": text(gettext_noop("frame %(n)s of 3"), n=frame),
        }

    def frame_points(self, state: dict[str, Any]) -> list[describe.FrameRow]:
        return [{"frame": i + 1, "points": row} for i, row in enumerate(_frame_points(state))]

    def lines(self, state: dict[str, Any]) -> list[Text]:
        frame = _int(state.get("frame"), 1)
        out = [text(gettext_noop("Duplex, frame %(n)s of 3"), n=frame)]
        table = self.table_view(state)["text"]
        if table is not None and not state.get("finished"):
            out.append(table)
        return out

    def frame_summary(self, state: dict[str, Any]) -> FrameSummary | None:
        """The frame just ended: shown from its last ball until the next frame's first shot
        (a full table awaiting the break or the leader's choice), and at the end of the game."""
        rows = _frame_points(state)
        if state.get("finished"):
            if state.get("end_reason") != "game" or len(rows) < FRAMES:
                return None
            ended = FRAMES
        else:
            frame = _int(state.get("frame"), 1)
            fresh = (
                state.get("awaiting") in ("break", "choose_breaker")
                and state.get("balls_on_table") == 2 * engine.PER_COLOUR
            )
            if frame < 2 or len(rows) != frame - 1 or not fresh:
                return None
            ended = frame - 1
        points = rows[ended - 1]
        lines = [
            text(
                gettext_noop("Frame %(n)s is over: plus points %(a)s:%(b)s"),
                n=ended,
                a=points["a"],
                b=points["b"],
            )
        ]
        cited: list[str] = []
        lines.extend(self._why(state, ended, points, cited))
        if ended == 2:
            lines.extend(self._before_deciding(state, cited))
        elif ended == FRAMES:
            lines.extend(self._result(state, cited))
        return {"frame": ended, "points": points, "lines": lines, "rules": cited}

    def _why(
        self, state: dict[str, Any], ended: int, points: dict[str, int], cited: list[str]
    ) -> list[Text]:
        scorer = next((p for p in PLAYERS if points[p] > 0), None)
        if scorer is None:
            # Reading of D7.5: in the deciding frame both colours cleared at once give none.
            cited.append("D7.5")
            return [
                text(
                    gettext_noop(
                        "Both colours were cleared in one shot: no plus points in the "
                        "deciding frame (%(rule)s)."
                    ),
                    rule=rule_label("D7.5"),
                )
            ]
        n = points[scorer]
        if n == 1 and ended < FRAMES:
            # One point: one ball of the other colour was left (D7.4), or the last balls
            # fell together (D7.5); the state after the frame no longer tells which.
            cited.extend(["D7.4", "D7.5"])
            return [
                text(
                    gettext_noop(
                        "One plus point to %(name)s: one ball of the other colour was left "
                        "(%(rule4)s), or the last balls fell in one shot (%(rule5)s)."
                    ),
                    name=player(scorer),
                    rule4=rule_label("D7.4"),
                    rule5=rule_label("D7.5"),
                )
            ]
        cited.append("D7.4")
        return [
            text(
                gettext_noop(
                    "The colour of %(name)s was cleared first; balls of the other colour "
                    "left: %(n)s (%(rule)s)."
                ),
                name=player(scorer),
                n=n,
                rule=rule_label("D7.4"),
            )
        ]

    def _before_deciding(self, state: dict[str, Any], cited: list[str]) -> list[Text]:
        plus = per_player(state.get("plus")) or _ZERO
        out = [
            text(
                gettext_noop("Plus points after two frames: %(a)s:%(b)s"),
                a=plus["a"],
                b=plus["b"],
            )
        ]
        leader = state.get("leader")
        if leader in PLAYERS:
            trailer = OTHER[str(leader)]
            minus = (per_player(state.get("minus")) or _ZERO)[trailer]
            cited.extend(["D7.8", "D7.6"])
            out.append(
                text(
                    gettext_noop("%(name)s starts the deciding frame with minus %(n)s (%(rule)s)."),
                    name=player(trailer),
                    n=minus,
                    rule=rule_label("D7.8"),
                )
            )
            out.append(
                text(
                    gettext_noop(
                        "%(name)s leads and chooses who breaks the deciding frame (%(rule)s)."
                    ),
                    name=player(str(leader)),
                    rule=rule_label("D7.6"),
                )
            )
        else:
            cited.append("D7.7")
            out.append(
                text(
                    gettext_noop(
                        "Equal plus points: the breaker of frame 1 breaks the deciding frame "
                        "(%(rule)s)."
                    ),
                    rule=rule_label("D7.7"),
                )
            )
        return out

    def _result(self, state: dict[str, Any], cited: list[str]) -> list[Text]:
        final = per_player(state.get("final"))
        if final is None:
            return []
        cited.append("D7.15")
        out = [
            text(
                gettext_noop("Final points: %(a)s:%(b)s (%(rule)s)."),
                a=final["a"],
                b=final["b"],
                rule=rule_label("D7.15"),
            )
        ]
        if final["a"] == final["b"]:
            cited.append("D7.16")
            out.append(
                text(
                    gettext_noop(
                        "Equal final points: the player whose shot ended the frame wins (%(rule)s)."
                    ),
                    rule=rule_label("D7.16"),
                )
            )
        return out

    # --- the referee's entry ---------------------------------------------------------------

    def own_kinds(
        self, state: dict[str, Any], awaiting: str, p: str, in_force: RulesInForce
    ) -> list[EventKind]:
        table = per_player(state.get("table")) or _ZERO
        if awaiting == "break":
            return [
                legal_break_kind(p, _colour_fields(table, _PROMPTS["pocketed_colour"])),
                illegal_break_kind(
                    p, in_force, _colour_fields(table, _PROMPTS["illegal_break_colour"])
                ),
            ]
        if awaiting == "shot":
            fouls = choose("foul", describe.shot_foul_choices(in_force))
            return [
                shot_kind(p, _colour_fields(table, _PROMPTS["pocketed_colour"])),
                foul_shot_kind(p, [fouls, *_colour_fields(table, _PROMPTS["foul_colour"])]),
                counted_off_table_kind(
                    p, table["a"] + table["b"], _colour_fields(table, _PROMPTS["foul_colour"])
                ),
            ]
        if awaiting == "penalty_removal":
            return [self._removal_kind(p, table)]
        if awaiting == "choose_breaker":
            return [self._breaker_kind(p)]
        return []

    def _removal_kind(self, p: str, table: dict[str, int]) -> EventKind:
        """D5.2: the opponent of the offender takes a ball of either colour off the table."""
        return kind(
            "penalty_removal",
            "penalty_removal",
            text(_PROMPTS["removes"]),
            player_slot=p,
            rule="D5.2",
            fields=[
                choose(
                    "colour",
                    [
                        choice(
                            c,
                            text(_PROMPTS["colour_of"], name=player(c)),
                            hint=text(_PROMPTS["on_table"], n=table[c]),
                            disabled=table[c] < 1,
                        )
                        for c in PLAYERS
                    ],
                )
            ],
        )

    def _breaker_kind(self, p: str) -> EventKind:
        """D7.6: the leader after two frames chooses who breaks the deciding one."""
        return kind(
            "choose_breaker",
            "choose_breaker",
            text(_PROMPTS["choose_breaker"]),
            player_slot=p,
            rule="D7.6",
            fields=[
                choose(
                    "breaker",
                    [
                        choice(c, text(_PROMPTS["breaks_frame_3"], name=player(c)), player_slot=c)
                        for c in PLAYERS
                    ],
                )
            ],
        )

    def paper_sheet(self, ruleset: Mapping[str, Any]) -> str:
        # D7: three frames, plus points in each, minus points before the third.
        return "duplex"

    def regulation(self, ruleset: dict[str, Any]) -> describe.Regulation:
        return {
            "race": [text(gettext_noop("A game of three frames (plus and minus points)"))],
            "terms": [],
        }

    def random_event(
        self, state: State, rng: random.Random, skill: float, rare: float
    ) -> dict[str, Any]:
        return duplex_event(state, rng, skill, rare)
