"""The discipline registry: one object per discipline, asked instead of testing its name.

A discipline (free pyramid, Duplex, ...) is a subclass of ``Discipline`` registered once, as
python-chess lists its variants in ``chess.variant.VARIANTS``. It carries its engine (initial
state, event handlers), its contract (ruleset keys, event key sets, state fields), its rules in
force, and the answers the product asks of it (time limit, head start, result score, the state
view, what the referee enters, its words). The engine, the rulesets, the rules in force and the
contract read the registry; nothing keeps a list of names.

``register(d)`` adds one (a test adds a made-up discipline), ``unregister(name)`` removes it,
``registered(d)`` does both around a block. See docs/rules-engine.md, "Disciplines".
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any, ClassVar, TypedDict

from rules import describe
from rules.common import PLAYERS, Handler, State
from rules.describe import Entry, EventKind, Headline, PlayerView, StateView
from rules.schemas import EVENT_FIELDS, Schema
from rules.words import Text, text


class InForceBase(TypedDict):
    """The discipline's own part of the rules in force (rules/in_force.py lays the ruleset's
    options over it)."""

    spotting: str  # "rear_spot" (G25.2) or "back_cushion" (D6.1-6.2)
    spotting_rule: str
    # Fixed ("colours", "any_ball"), or None: the ruleset's `direct_call` decides between
    # "direct_call" (a fool is recorded apart) and "any_ball".
    pocketing: str | None
    # Fixed (kind, rule), or None: the ruleset's `penalty` decides (R shelf or G29).
    penalty: tuple[str, str] | None
    play_options: tuple[str, ...]
    break_options: tuple[str, ...]
    rerack_options: tuple[str, ...]  # offered only with the ruleset's `continuation`


class EventSpec(TypedDict):
    """An event type outside the family's vocabulary (rules/schemas.py), for its schema."""

    fields: dict[str, Schema]
    required: list[str]
    description: str


class Discipline(ABC):
    """One discipline. Subclasses set the class attributes and implement the abstract methods;
    the other defaults fit a plain race between two players "a" and "b"."""

    # --- identity and words (msgids, translated by the caller) -----------------------------
    name: ClassVar[str]
    label: ClassVar[str]  # «Свободная пирамида»
    diploma_phrase: ClassVar[str]  # «по свободной пирамиде» (diplomas)
    # The referee form's renderer, static/js/referee/disciplines/<renderer>.js ("": the name).
    renderer: ClassVar[str] = ""

    # --- engine and contract ---------------------------------------------------------------
    # Ruleset keys: {"key", "type" (int|bool|choice|per_player_int), "default", "help",
    # "min"/"max" or "choices"} (rules/rulesets.py), and their words: "label" (a msgid: the
    # settings form's field), "choice_labels" ({choice: msgid}, for a choice) and "stage": true
    # for a key a tournament may set per stage (the race of a bracket's stage).
    ruleset_keys: ClassVar[tuple[dict[str, Any], ...]]
    handlers: ClassVar[Mapping[str, Handler]]
    # The keys each event type's handler accepts; the contract's event schemas follow them.
    event_keys: ClassVar[Mapping[str, frozenset[str]]]
    # Event types that the family's vocabulary (rules.schemas.EVENT_FIELDS) does not have; a
    # type the family has may not be declared again (register refuses it).
    extra_events: ClassVar[Mapping[str, EventSpec]] = {}
    # New fields on event types the family has, by type: {"shot": {"cue_ball": {"type":
    # "boolean"}}}. The contract's schema of that type gains them (rules/contract.py); a field
    # the type already has is refused.
    extra_event_fields: ClassVar[Mapping[str, Mapping[str, Schema]]] = {}
    # The state's own fields beside the common ones, as JSON Schema.
    state_fields: ClassVar[Mapping[str, Schema]]
    awaiting: ClassVar[tuple[str, ...]]  # values of `awaiting` besides null
    options: ClassVar[tuple[str, ...]]  # values of `options`
    end_reasons: ClassVar[tuple[str, ...]]

    # --- rules and answers -----------------------------------------------------------------
    in_force: ClassVar[InForceBase]
    has_time_limit: ClassVar[bool] = True  # False: a clock only shows the time (Duplex)
    has_head_start: ClassVar[bool] = False  # handicap points (the ruleset's head_start)
    uses_colours: ClassVar[bool] = False  # each player has balls of his own colour
    max_balls: ClassVar[int] = 16  # object balls on a full table
    # State fields kept for the record that no rule reads (counters): two states that differ
    # only there go on the same way, so what an event would do is worked out once for both.
    records: ClassVar[frozenset[str]] = frozenset()

    @property
    def renderer_name(self) -> str:
        return self.renderer or self.name

    @property
    def stage_keys(self) -> tuple[str, ...]:
        """The ruleset keys a tournament may set per stage (specs with "stage": true)."""
        return tuple(spec["key"] for spec in self.ruleset_keys if spec.get("stage"))

    def sample_rulesets(self) -> dict[str, dict[str, Any]]:
        """Named rulesets that between them reach the discipline's rules: the property, fuzz,
        finishing, view and words tests play random games of each (tests/rules/samples.py).
        Default: the defaults alone."""
        return {"defaults": {"discipline": self.name}}

    def __repr__(self) -> str:
        return f"<discipline {self.name}>"

    # Engine ------------------------------------------------------------------------------
    @abstractmethod
    def initial_state(self, ruleset: dict[str, Any]) -> State:
        """The state before the first event, for a complete normalised ruleset."""

    def check_ruleset(self, ruleset: dict[str, Any]) -> None:
        """Checks across keys after each key was validated (raise invalid_ruleset); none by
        default."""
        return

    # Words of the log ---------------------------------------------------------------------
    def describe_event(self, event: Mapping[str, Any], ruleset: Mapping[str, Any]) -> Text:
        """The match log's sentence for one of its events (players as references, filled in
        with their names): «Иванова: 2 шара». Rendered once when the entry is appended
        (matches.wording.log_texts). Default: the family's sentences for its event types; a
        discipline words here its own types and fields. An illegal break cites the break's
        criteria in force (the regulation's strict break or G12.1), as the form does."""
        return describe.event_sentence(event, {"break_rule_ref": describe.break_rule_ref(ruleset)})

    def end_label(self, end_reason: str | None) -> Text | None:
        """How a match ended, for each of ``end_reasons`` and the results recorded outside
        the engine (a walkover, a correction): «Победа: соперник сдал матч». register()
        refuses a discipline with an end reason that has none. Default: the family's words."""
        return describe.end_label(end_reason)

    def result_kind(self, end_reason: str | None) -> str:
        """What a match that ended so records as its result: "race" (won at the table),
        "time" (the time limit decided it) or "forfeit"."""
        return END_RESULTS.get(end_reason or "", "race")

    # Results ------------------------------------------------------------------------------
    def result_field(self, state: dict[str, Any], ruleset: dict[str, Any] | None = None) -> str:
        """The state field that holds the figures of the match's result score (a result
        stored outside the engine, a walkover or a correction, is laid over it)."""
        return "score"

    def result_score(self, state: dict[str, Any]) -> tuple[int | None, int | None]:
        """The score a finished match records (a: b)."""
        points = state.get(self.result_field(state))
        if not isinstance(points, dict) or not points:
            return None, None
        return points.get("a"), points.get("b")

    def headline(self, state: dict[str, Any]) -> Headline:
        """The scoreboard's big numbers now, what they are, and their caption."""
        a, b = self.result_score(state)
        return {"score": {"a": a, "b": b}, "kind": "points", "label": None}

    def score_summary(self, state: dict[str, Any]) -> describe.ScoreSummary:
        """The figures of the API's `score`: {"score": the numbers now, "frames": frames won
        or None}."""
        score = self.headline(state)["score"]
        if score["a"] is None and score["b"] is None:
            return {"score": None, "frames": None}
        return {"score": score, "frames": None}

    # Description --------------------------------------------------------------------------
    def state_view(self, state: dict[str, Any]) -> StateView:
        """What any page shows of a state (scoreboard, overlay, bracket, form); the same
        shape for every discipline. Subclasses fill the parts through the hooks below."""
        return _assemble_view(self, state)

    def player_facts(self, state: dict[str, Any], slot: str) -> list[describe.Fact]:
        return []

    def table_view(self, state: dict[str, Any]) -> describe.TableView:
        n = state.get("balls_on_table")
        return {"balls": n if isinstance(n, int) else None, "colours": None, "text": None}

    def frame_view(self, state: dict[str, Any]) -> describe.FrameView:
        return {"number": state.get("frame"), "of": None, "rack": None, "text": None}

    def frames_won(self, state: dict[str, Any]) -> dict[str, int] | None:
        return None

    def frame_points(self, state: dict[str, Any]) -> list[describe.FrameRow]:
        return []

    def frame_summary(self, state: dict[str, Any]) -> describe.FrameSummary | None:
        return None

    def provisional(self, state: dict[str, Any]) -> dict[str, int] | None:
        return None

    def lines(self, state: dict[str, Any]) -> list[Text]:
        """The scoreboard's sub-line: the race, the frame, the table."""
        return []

    def notices(self, state: dict[str, Any]) -> list[Text]:
        """Lines a page shows prominently (the golden ball)."""
        return []

    @abstractmethod
    def entry(self, state: dict[str, Any]) -> Entry:
        """What the referee may enter now: event kinds with their fields, bounds
        from the state, options and fouls with their labels and rule references."""

    def may_finish(self, state: Mapping[str, Any], kind: EventKind) -> bool:
        """False only when no values of ``kind`` can end the match now: a bound that spares
        rules.finishing_values its tries on the engine (which decide wherever this is True).
        Err on True."""
        return True

    def prompts(self, ruleset: dict[str, Any]) -> dict[str, Text]:
        """Every prompt of the referee form for this ruleset; `%(name)s` placeholders are
        left for the form (the entry's prompts have them filled)."""
        return describe.common_prompts()

    def spotting(self, to_spot: int) -> Text | None:
        """Where re-spotted balls go, for `to_spot` balls (None for none)."""
        return describe.spotting_hint(self.in_force["spotting"], to_spot)

    def turn_rules(self, ruleset: dict[str, Any]) -> list[describe.TurnRule]:
        """Who is at the table after each kind of event, as data the referee form follows
        offline (describe.turn_rules). Default: the pyramid family's, with the ruleset's
        direct call and a foul answered by the opponent's choice."""
        direct = rules_in_force_fools(self, ruleset)
        penalty = self.in_force["penalty"]
        removes = penalty is not None and penalty[0] == "opponent_removes"
        return describe.turn_rules(direct, "penalty_removal" if removes else "choice")

    def penalty_line(self, state: dict[str, Any]) -> Text | None:
        """What the last event's penalty did to the balls, in one line with its clause (None:
        the last event had no penalty). Default: from the state's ``last_penalty``
        ({"offender", "effect"}) where the discipline keeps one."""
        last = state.get("last_penalty")
        if not isinstance(last, dict) or last.get("offender") not in PLAYERS:
            return None
        return describe.penalty_line(str(last.get("effect")), str(last["offender"]))

    def paper_sheet(self, ruleset: Mapping[str, Any]) -> str:
        """The match sheet a club prints for this discipline, by name (the page renders the
        template print/sheet/<name>.html): "frames" by default (each frame's score and its
        winner, «до N побед»); "racks" is free pyramid's race to N balls (balls per rack). A
        discipline with paper of its own names its own sheet and adds its template."""
        return "frames"

    def regulation(self, ruleset: dict[str, Any]) -> describe.Regulation:
        """The race and the rule terms in words, for the tournament's public page."""
        return {"race": [text(self.label)], "terms": []}

    @abstractmethod
    def random_event(
        self, state: State, rng: random.Random, skill: float, rare: float
    ) -> dict[str, Any]:
        """A plausible legal event for an unfinished state (benchmarks, tests)."""


def rules_in_force_fools(d: Discipline, ruleset: dict[str, Any]) -> bool:
    """Whether a ball that fell not directly is a fool apart (rules_in_force's `fools`)."""
    return bool(ruleset.get("direct_call", False)) and d.in_force["pocketing"] is None


def _assemble_view(d: Discipline, state: Mapping[str, Any]) -> StateView:
    """The view from the discipline's hooks (Discipline.state_view)."""
    st = dict(state)
    head = d.headline(st)
    winner = st.get("winner") if st.get("finished") else None
    turn = st.get("turn")
    spot = st.get("to_spot")
    to_spot = spot if isinstance(spot, int) else 0
    reason = st.get("end_reason")
    players: dict[str, PlayerView] = {
        p: {
            "score": head["score"].get(p),
            "facts": [
                *d.player_facts(st, p),
                *describe.credit_facts(st, p),
                *describe.lag_facts(st, p),
            ],
            "colour": p if d.uses_colours else None,
            "turn": turn == p,
            "winner": winner == p,
        }
        for p in PLAYERS
    }
    return {
        "discipline": d.name,
        "label": text(d.label),
        "renderer": d.renderer_name,
        "features": {
            "time_limit": d.has_time_limit,
            "head_start": d.has_head_start,
            "colours": d.uses_colours,
        },
        "finished": bool(st.get("finished")),
        "winner": winner,
        "turn": turn,
        "awaiting": st.get("awaiting"),
        "end_reason": st.get("end_reason"),
        "end_label": d.end_label(reason) if isinstance(reason, str) else None,
        "to_spot": to_spot,
        "spotting": d.spotting(to_spot),
        "penalty": d.penalty_line(st),
        "score": head["score"],
        "score_kind": head["kind"],
        "score_label": head["label"],
        "players": players,
        "table": d.table_view(st),
        "frame": d.frame_view(st),
        "frames": d.frames_won(st),
        "frame_points": d.frame_points(st),
        "frame_summary": d.frame_summary(st),
        "provisional": d.provisional(st),
        "lines": d.lines(st),
        "notices": d.notices(st),
    }


# --- the registry -----------------------------------------------------------------------------

_REGISTRY: dict[str, Discipline] = {}


class UnknownDiscipline(LookupError):
    """No discipline of that name is registered."""


# What a finished match records (matches.models.Match.Result), by the family's end reasons;
# any other reason is a race won at the table.
RESULT_KINDS = ("race", "time", "forfeit")
END_RESULTS = {"time": "time", "golden_ball": "time", "forfeit": "forfeit"}


def _check(d: Discipline) -> None:
    """A discipline the contract can describe and the pages can word: its key sets match its
    handlers, every event type it handles is in the family's vocabulary or its own extra
    events (which shadow neither the family's nor another discipline's), a field it adds to a
    family type is new, and its end reasons and ruleset keys have their words."""
    if not d.name or not d.name.replace("_", "").isalnum() or not d.name.islower():
        raise ValueError(f"a discipline's name is lower_snake_case, not {d.name!r}")
    if set(d.handlers) != set(d.event_keys):
        raise ValueError(f"{d.name}: event_keys must name exactly the handled event types")
    others = [other for other in _REGISTRY.values() if other.name != d.name]
    _check_events(d, others)
    for event_type, keys in d.event_keys.items():
        spec = d.extra_events.get(event_type)
        if spec is None and event_type not in EVENT_FIELDS:
            raise ValueError(f"{d.name}: event type {event_type!r} needs an extra_events spec")
        if spec is not None:
            known = set(spec["fields"])
        else:
            known = set(EVENT_FIELDS[event_type][0]) | set(d.extra_event_fields.get(event_type, {}))
        if not keys - {"type"} <= known:
            raise ValueError(f"{d.name}: {event_type} keys {sorted(keys)} outside its schema")
    if "forfeit" not in d.handlers:
        raise ValueError(f"{d.name}: every discipline accepts a forfeit")
    for reason in d.end_reasons:
        if d.end_label(reason) is None:
            raise ValueError(f"{d.name}: end reason {reason!r} has no words (end_label)")
        if d.result_kind(reason) not in RESULT_KINDS:
            raise ValueError(f"{d.name}: end reason {reason!r}: result_kind not in {RESULT_KINDS}")
    for key in d.ruleset_keys:
        if not key.get("label"):
            raise ValueError(f"{d.name}: ruleset key {key['key']!r} needs its label")
        if key["type"] == "choice" and set(key.get("choice_labels") or {}) != set(key["choices"]):
            raise ValueError(f"{d.name}: ruleset key {key['key']!r} needs a label per choice")


def _check_events(d: Discipline, others: list[Discipline]) -> None:
    """Event types and fields a discipline adds: none shadows the family's vocabulary, and
    one that another discipline adds too has the same schema (the contract has one)."""
    for event_type, spec in d.extra_events.items():
        if event_type in EVENT_FIELDS:
            raise ValueError(
                f"{d.name}: extra_events may not redeclare the family's {event_type!r} "
                "(a new field of it goes in extra_event_fields)"
            )
        for other in others:
            if other.extra_events.get(event_type, spec) != spec:
                raise ValueError(f"{d.name}: {event_type!r} is declared otherwise by {other.name}")
    for event_type, fields in d.extra_event_fields.items():
        if event_type not in EVENT_FIELDS:
            raise ValueError(
                f"{d.name}: extra_event_fields adds to the family's event types, not "
                f"{event_type!r} (a type of its own goes in extra_events)"
            )
        taken = set(fields) & set(EVENT_FIELDS[event_type][0])
        if taken:
            raise ValueError(f"{d.name}: {event_type} has {sorted(taken)} already")
        for other in others:
            theirs = other.extra_event_fields.get(event_type, {})
            for name, schema in fields.items():
                if theirs.get(name, schema) != schema:
                    raise ValueError(
                        f"{d.name}: {event_type}.{name} is declared otherwise by {other.name}"
                    )


def register(d: Discipline, *, replace: bool = False) -> Discipline:
    """Add a discipline; a name already registered is refused unless ``replace``."""
    if d.name in _REGISTRY and not replace:
        raise ValueError(f"discipline {d.name!r} is already registered")
    _check(d)
    _REGISTRY[d.name] = d
    return d


def unregister(name: str) -> Discipline:
    """Remove a discipline (a test's made-up one); returns it."""
    try:
        return _REGISTRY.pop(name)
    except KeyError:
        raise UnknownDiscipline(name) from None


@contextmanager
def registered(d: Discipline) -> Iterator[Discipline]:
    """``with registered(Toy()):`` the discipline exists inside the block only."""
    register(d)
    try:
        yield d
    finally:
        _REGISTRY.pop(d.name, None)


def discipline(name: str) -> Discipline:
    """The registered discipline of that name; UnknownDiscipline otherwise."""
    try:
        return _REGISTRY[name]
    except (KeyError, TypeError):
        raise UnknownDiscipline(str(name)) from None


def find(name: object) -> Discipline | None:
    return _REGISTRY.get(name) if isinstance(name, str) else None


def disciplines() -> tuple[Discipline, ...]:
    """Every registered discipline, in registration order (the first is the default)."""
    return tuple(_REGISTRY.values())


def names() -> tuple[str, ...]:
    return tuple(_REGISTRY)


def default() -> Discipline:
    """The discipline assumed where none is named (the first registered: free pyramid)."""
    return next(iter(_REGISTRY.values()))


def of_state(state: Mapping[str, Any]) -> Discipline:
    """The discipline of a state (or of its ruleset); the default for an empty state."""
    name = state.get("discipline")
    if name is None:
        name = (state.get("ruleset") or {}).get("discipline")
    return default() if name is None else discipline(name)
