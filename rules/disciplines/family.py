"""What the pyramid family's descriptions share, so that a discipline's class is mostly data:

- ``PyramidDiscipline`` (every one of them): the referee's entry around the discipline's own
  kinds (who acts and the question after his name, the choice after a foul, a foul outside a
  stroke, the concession), the form's prompts from a table, the log's sentences of the family
  with the rules in force;
- ``FramesRace`` (free pyramid and the coloured-cue-ball games): a race to a number of points
  a frame over ``frames_to_win`` frames: the frame's points and the frames won, the race on the
  scoreboard, the golden ball after time;
- the prompts and the fool of a stroke whose balls are counted (free and combined pyramid).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from rules import describe
from rules.common import PLAYERS
from rules.describe import Entry, EventKind, Fact, Field, Headline, count, fact, kind, per_player
from rules.in_force import RulesInForce, rules_in_force
from rules.registry import Discipline
from rules.words import Text, gettext_noop, ngettext_lazy, text

# A stroke whose balls are counted (free and combined pyramid): its questions.
COUNT_PROMPTS = {
    "pocketed_direct": gettext_noop("How many balls were pocketed directly, as called?"),
    "pocketed_any": gettext_noop("How many balls were pocketed?"),
    "illegal_break_balls": gettext_noop("Balls that fell on the illegal break (they are spotted):"),
    "foul_balls": gettext_noop("Balls that fell on the foul shot (they are spotted):"),
    "fool": gettext_noop("Fool"),
    "fool_legal_too": gettext_noop("Also pocketed legally in the same shot (optional):"),
    "fool_count": gettext_noop("Fools (fell not directly) — tap to record:"),
}
FOOL_PROMPTS = ("fool", "fool_legal_too", "fool_count")

_FRAMES = {
    "race": gettext_noop("race to %(n)s"),
    "frames_race": gettext_noop("first to %(f)s frames of %(n)s"),
    "head_start": gettext_noop("head start %(n)s"),
    "frames": gettext_noop("frames: %(n)s"),
    "frame": gettext_noop("frame %(n)s"),
    "frames_won": gettext_noop("frames won"),
    "golden_ball": gettext_noop("Golden ball: the next pocketed ball wins"),
}


def pocketed_question(in_force: RulesInForce) -> str:
    """What a counted shot asks: the balls pocketed directly where fools are recorded apart."""
    direct = in_force["pocketing"] == "direct_call"
    return COUNT_PROMPTS["pocketed_direct" if direct else "pocketed_any"]


def count_prompts(in_force: RulesInForce) -> dict[str, str]:
    """The form's prompts of a counted stroke: the shot's question, the balls spotted after
    an illegal break or a foul, and the fool's where fools are recorded."""
    out = {"pocketed": pocketed_question(in_force)}
    out.update({key: COUNT_PROMPTS[key] for key in ("illegal_break_balls", "foul_balls")})
    if in_force["fools"]:
        out.update({key: COUNT_PROMPTS[key] for key in FOOL_PROMPTS})
    return out


def foul_balls(at_most: int) -> Field:
    """The balls that fell on a foul shot (they are spotted), counted."""
    return count("pocketed", at_most, text(COUNT_PROMPTS["foul_balls"]))


def fool_kind(p: str, on_table: int, rule: str | None = None) -> EventKind:
    """A fool (a ball that fell not directly), with the balls pocketed legally beside it."""
    return kind(
        "fool",
        "shot",
        text(COUNT_PROMPTS["fool"]),
        player_slot=p,
        fields=[
            count("pocketed", on_table - 1, text(COUNT_PROMPTS["fool_legal_too"])),
            count("fools", on_table, text(COUNT_PROMPTS["fool_count"]), minimum=1),
        ],
        limits=[{"fields": ["pocketed", "fools"], "max": on_table}],
        rule=rule,
    )


def frames_to_win(state: Mapping[str, Any], ruleset: Mapping[str, Any] | None = None) -> int:
    """The frames that win the match, from the state's ruleset (else ``ruleset``); 1 unless
    a ruleset says more."""
    rs = state.get("ruleset") or ruleset or {}
    n = rs.get("frames_to_win", 1) if isinstance(rs, dict) else 1
    return n if isinstance(n, int) and n > 0 else 1


def race_words(frames: int, target: int, *, unit: str) -> list[Text]:
    """The regulation's race: «до N побед, партия до M очков» or «до M очков»; ``unit`` is
    "point" or "ball", what a frame is raced to."""
    if unit == "ball":
        frame = ngettext_lazy("a frame to %(n)d ball", "a frame to %(n)d balls", target)
        alone = ngettext_lazy("Race to %(n)d ball", "Race to %(n)d balls", target)
    else:
        frame = ngettext_lazy("a frame to %(n)d point", "a frame to %(n)d points", target)
        alone = ngettext_lazy("Race to %(n)d point", "Race to %(n)d points", target)
    if frames > 1:
        return [ngettext_lazy("To %(n)d frame won", "To %(n)d frames won", frames), frame]
    return [alone]


class PyramidDiscipline(Discipline):
    """The shared answers of the family; a subclass sets the tables and its own kinds."""

    # The discipline's own prompts of the form: key -> msgid (`%(name)s` left for the form).
    prompt_table: ClassVar[Mapping[str, str]] = {}
    # The question after the player's name, by `awaiting`: a key of the common prompts
    # (describe.common_prompts) or of ``prompt_table``; an awaiting value not here has none.
    awaiting_prompts: ClassVar[Mapping[str, str]] = {
        "break": "breaks",
        "shot": "shoots",
        "choice": "chooses",
    }
    # The awaiting values at which a foul outside a stroke may be recorded.
    foul_awaiting: ClassVar[frozenset[str]] = frozenset({"break", "shot", "choice"})

    def with_defaults(self, ruleset: Mapping[str, Any]) -> dict[str, Any]:
        """The ruleset with its keys' defaults where it leaves them out."""
        return {**{key["key"]: key["default"] for key in self.ruleset_keys}, **ruleset}

    # --- words -----------------------------------------------------------------------------

    def describe_event(self, event: Mapping[str, Any], ruleset: Mapping[str, Any]) -> Text:
        """The family's sentence with the rules in force (an illegal break cites the break's
        criteria: the regulation's or G12.1)."""
        return describe.event_sentence(event, rules_in_force(dict(ruleset)))

    # --- the referee's entry ---------------------------------------------------------------

    def entry(self, state: dict[str, Any]) -> Entry:
        awaiting = state.get("awaiting")
        p = state.get("turn")
        if state.get("finished") or awaiting is None or p not in PLAYERS:
            return {"awaiting": None, "player": None, "prompt": None, "kinds": []}
        in_force = rules_in_force(state.get("ruleset") or {"discipline": self.name})
        kinds = self.own_kinds(state, str(awaiting), str(p), in_force)
        if awaiting == "choice":
            kinds.append(describe.option_kind(state, "choice", describe.after_foul_prompt(state)))
        if awaiting in self.foul_awaiting:
            kinds.append(describe.foul_event_kind(state, in_force))
        kinds.append(describe.forfeit_kind())
        prompt = self.entry_prompt(state, str(awaiting))
        return {"awaiting": awaiting, "player": p, "prompt": prompt, "kinds": kinds}

    def entry_prompt(self, state: Mapping[str, Any], awaiting: str) -> Text | None:
        key = self.awaiting_prompts.get(awaiting)
        if key is None:
            return None
        common = describe.common_prompts()
        return common[key] if key in common else text(self.prompt_table[key])

    def own_kinds(
        self, state: dict[str, Any], awaiting: str, p: str, in_force: RulesInForce
    ) -> list[EventKind]:
        """The discipline's kinds at ``awaiting`` (its strokes, its own choices), before the
        family's: the choice after a foul, a foul outside a stroke, the concession."""
        return []

    def prompts(self, ruleset: dict[str, Any]) -> dict[str, Text]:
        in_force = rules_in_force(ruleset)
        out = {**describe.common_prompts(), **describe.ruleset_prompts(in_force)}
        out.update(
            {key: text(msgid) for key, msgid in self.form_prompts(ruleset, in_force).items()}
        )
        return out

    def form_prompts(self, ruleset: Mapping[str, Any], in_force: RulesInForce) -> dict[str, str]:
        """The discipline's prompts for this ruleset (key -> msgid) beside the family's;
        default: all of ``prompt_table``."""
        return dict(self.prompt_table)


class FramesRace(PyramidDiscipline):
    """A race to ``race_key`` points a frame (the head start in), frames broken alternately
    up to ``frames_to_win``; after time the golden ball."""

    race_key: ClassVar[str] = "balls_to_win"
    race_unit: ClassVar[str] = "point"  # what the regulation says a frame is raced to
    has_time_limit = True
    end_reasons = ("frames", "time", "golden_ball", "forfeit")
    records = frozenset({"stats", "events"})  # no rule of these games reads them

    def race(self, state: Mapping[str, Any]) -> int | None:
        rs = state.get("ruleset") or {}
        n = rs.get(self.race_key) if isinstance(rs, dict) else None
        return n if isinstance(n, int) else None

    def regulation(self, ruleset: dict[str, Any]) -> describe.Regulation:
        rs = self.with_defaults(ruleset)
        race = race_words(int(rs["frames_to_win"]), int(rs[self.race_key]), unit=self.race_unit)
        return {"race": race, "terms": self.terms(rs)}

    def terms(self, ruleset: Mapping[str, Any]) -> list[Text]:
        """The regulation's terms of a ruleset (its defaults in)."""
        return []

    # --- results ---------------------------------------------------------------------------

    def result_field(self, state: dict[str, Any], ruleset: dict[str, Any] | None = None) -> str:
        """Frames won in a match of several frames, else the frame's score (head start in)."""
        return "frames" if frames_to_win(state, ruleset) > 1 else "score"

    def headline(self, state: dict[str, Any]) -> Headline:
        if state.get("finished") and self.result_field(state) == "frames":
            a, b = self.result_score(state)
            return {
                "score": {"a": a, "b": b},
                "kind": "frames",
                "label": text(_FRAMES["frames_won"]),
            }
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

    # --- the view --------------------------------------------------------------------------

    def player_facts(self, state: dict[str, Any], slot: str) -> list[Fact]:
        out = []
        head = per_player((state.get("ruleset") or {}).get("head_start")) or {}
        if head.get(slot):
            out.append(fact("head_start", head[slot], text(_FRAMES["head_start"], n=head[slot])))
        out.extend(self.own_facts(state, slot))
        frames = self.frames_won(state)
        if frames is not None:
            out.append(fact("frames", frames[slot], text(_FRAMES["frames"], n=frames[slot])))
        return out

    def own_facts(self, state: dict[str, Any], slot: str) -> list[Fact]:
        """The discipline's facts beside a player, between the head start and the frames."""
        return []

    def frame_view(self, state: dict[str, Any]) -> describe.FrameView:
        frame = state.get("frame")
        rack = state.get("rack")  # free pyramid's racks of a frame
        several = frames_to_win(state) > 1
        return {
            "number": frame if isinstance(frame, int) else None,
            "of": None,
            "rack": rack if isinstance(rack, int) else None,
            "text": text(_FRAMES["frame"], n=frame) if several and isinstance(frame, int) else None,
        }

    def frames_won(self, state: dict[str, Any]) -> dict[str, int] | None:
        return per_player(state.get("frames")) if frames_to_win(state) > 1 else None

    def lines(self, state: dict[str, Any]) -> list[Text]:
        """The race, then, while the match is on, the table and the discipline's own lines."""
        out: list[Text] = []
        race = self.race(state)
        if race is not None:
            frames = frames_to_win(state)
            if frames > 1:
                out.append(text(_FRAMES["frames_race"], f=frames, n=race))
            else:
                out.append(text(_FRAMES["race"], n=race))
        if not state.get("finished"):
            table = self.table_view(state)["text"]
            if table is not None:
                out.append(table)
            out.extend(self.own_lines(state))
        return out

    def own_lines(self, state: dict[str, Any]) -> list[Text]:
        """The discipline's lines after the table's while the match is on."""
        return []

    def table_view(self, state: dict[str, Any]) -> describe.TableView:
        n = state.get("balls_on_table")
        if not isinstance(n, int):
            return {"balls": None, "colours": None, "text": None}
        return {
            "balls": n,
            "colours": None,
            "text": text(gettext_noop("%(n)s balls on the table"), n=n),
        }

    def notices(self, state: dict[str, Any]) -> list[Text]:
        if state.get("golden_ball") and not state.get("finished"):
            return [text(_FRAMES["golden_ball"])]
        return []
