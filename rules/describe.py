"""What the disciplines say about a state: the shapes of their answers and the family's words.

A page shows any discipline from these shapes without knowing it: ``StateView`` (scoreboard,
overlay, bracket, the form's board) and ``EventKind`` (what the referee may enter, with fields,
bounds, options, fouls and prompts). Texts are ``rules.words.Text`` (msgids with params); the
caller translates them. Shared here: the family's vocabulary (foul titles, options, spotting,
the common prompts) and the builders of the event kinds every pyramid discipline has.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, NotRequired, TypedDict

from rules.common import PLAYERS
from rules.fouls import FOUL_CODES, FOUL_EVENT_CODES, SHOT_FOUL_CODES
from rules.words import (
    Param,
    PlayerRef,
    Text,
    gettext_noop,
    lowered,
    ngettext_lazy,
    player,
    rule_label,
    text,
)

# --- the state view ---------------------------------------------------------------------------


class Fact(TypedDict):
    """One fact beside a player's number: key (stable), value, and its words."""

    key: str  # "head_start", "debt", "frames", "plus", "minus", "balls", ...
    value: int | str | None
    text: Text


class PlayerView(TypedDict):
    score: int | None  # the headline number
    facts: list[Fact]
    colour: str | None  # the colour of his balls ("a"/"b", named after the player), if any
    turn: bool
    winner: bool


class TableView(TypedDict):
    balls: int | None  # object balls on the table
    colours: dict[str, int] | None  # per colour, where the rules use colours
    text: Text | None


class FrameView(TypedDict):
    number: int | None
    of: int | None  # frames in a game of fixed length (Duplex: 3), else None
    rack: int | None
    text: Text | None


class FrameRow(TypedDict):
    frame: int
    points: dict[str, int]


class FrameSummary(TypedDict):
    """The frame that has just ended: its points, why, and what follows (shown until the next
    frame's first ball is played)."""

    frame: int
    points: dict[str, int]
    lines: list[Text]
    rules: list[str]  # the clauses the lines cite (D7.4, ...)


class Headline(TypedDict):
    score: dict[str, int | None]
    # "points" (the frame's points), "frames" (frames won), "plus" (Duplex frames 1-2),
    # "provisional_final" (Duplex frame 3 so far), "final".
    kind: str
    label: Text | None


class ScoreSummary(TypedDict):
    score: dict[str, int | None] | None
    frames: dict[str, int] | None


class Features(TypedDict):
    time_limit: bool
    head_start: bool
    colours: bool


class StateView(TypedDict):
    discipline: str
    label: Text
    renderer: str
    features: Features
    finished: bool
    winner: str | None
    turn: str | None
    awaiting: str | None
    end_reason: str | None
    end_label: Text | None  # how it ended, in words (Discipline.end_label)
    to_spot: int
    spotting: Text | None  # where the balls to spot go
    # What the last event's penalty did to the balls, in one line with its clause (a ball from
    # the offender's shelf to the table, a debt, the opponent takes a ball); None: no penalty.
    penalty: Text | None
    score: dict[str, int | None]
    score_kind: str
    score_label: Text | None
    players: dict[str, PlayerView]
    table: TableView
    frame: FrameView
    frames: dict[str, int] | None  # frames won, in a match of several frames
    frame_points: list[FrameRow]  # the per-frame points table
    frame_summary: FrameSummary | None
    provisional: dict[str, int] | None  # Duplex frame 3: the final points so far
    lines: list[Text]
    notices: list[Text]


def per_player(value: object) -> dict[str, int] | None:
    """{"a": n, "b": n} from a state field, or None when it is not one."""
    if not isinstance(value, dict):
        return None
    a, b = value.get("a"), value.get("b")
    if not isinstance(a, int) or not isinstance(b, int):
        return None
    return {"a": a, "b": b}


def fact(key: str, value: int | str | None, words: Text) -> Fact:
    return {"key": key, "value": value, "text": words}


def lag_facts(state: Mapping[str, Any], slot: str) -> list[Fact]:
    """The lag beside the players' numbers, once recorded (G7.1, G7.4): who won it and who
    broke frame 1 (every discipline with the lag event)."""
    lag = state.get("lag")
    if not isinstance(lag, dict):
        return []
    out = []
    if lag.get("winner") == slot:
        out.append(fact("lag", slot, text(gettext_noop("won the lag"))))
    if lag.get("breaker") == slot:
        out.append(fact("first_break", slot, text(gettext_noop("broke first"))))
    return out


def credit_facts(state: Mapping[str, Any], slot: str) -> list[Fact]:
    """The frames credited to a player before the match (the ruleset's `frames_credit`, a
    lateness penalty of his opponent): already counted in the state's frames won, said apart
    so that nobody looks for the frame he did not play."""
    rs = state.get("ruleset")
    credit = rs.get("frames_credit") if isinstance(rs, dict) else None
    n = credit.get(slot) if isinstance(credit, dict) else None
    if not isinstance(n, int) or isinstance(n, bool) or n <= 0:
        return []
    return [
        fact(
            "frames_credit",
            n,
            ngettext_lazy("%(n)d frame credited", "%(n)d frames credited", n),
        )
    ]


# --- what the referee enters ------------------------------------------------------------------


class Choice(TypedDict):
    value: str | int
    label: Text | None  # None: the player named by `player` (his name is the label)
    player: str | None
    hint: Text | None
    rule: str | None  # the clause, e.g. "G12.2 (3)"
    rule_label: Text | None  # «п. 12.2 (3)»
    disabled: bool
    confirm: Text | None  # ask before sending (the choice ends the match)


class Field(TypedDict):
    """One value of the event. ``name`` is the event's key; "pocketed.a" is key "a" of the
    object "pocketed"."""

    name: str
    # "count", "choice", or "balls": numbered balls picked among `choices` (a list of numbers;
    # `min`/`max` bound how many)
    kind: str
    min: int | None
    max: int | None
    default: int | str | list[int] | None
    choices: list[Choice]
    prompt: Text | None
    # A "balls" field only: the value of this other field (the called ball) is always among
    # the balls the event sends.
    includes: NotRequired[str]


class Limit(TypedDict):
    fields: list[str]
    max: int  # the sum of these fields is at most this


class EventKind(TypedDict):
    """One thing the referee may enter now."""

    key: str  # what is tapped: "break", "illegal_break", "shot", "fool", "foul_shot", ...
    type: str  # the event's type
    label: Text
    prompt: Text | None
    rule: str | None
    player: str | None  # who acts; None: a "player" field says (a foul's offender, forfeit)
    fixed: dict[str, Any]  # the event's keys the kind sets itself
    fields: list[Field]
    limits: list[Limit]


class Entry(TypedDict):
    """What the referee enters now: who acts, the question, and the kinds to choose from."""

    awaiting: str | None
    player: str | None
    prompt: Text | None  # «разбивает», shown after the player's name
    kinds: list[EventKind]


def count(name: str, maximum: int, prompt: Text | None = None, minimum: int = 0) -> Field:
    return {
        "name": name,
        "kind": "count",
        "min": minimum,
        "max": max(maximum, 0),
        "default": minimum,
        "choices": [],
        "prompt": prompt,
    }


def balls(
    name: str,
    numbers: Iterable[int],
    prompt: Text | None = None,
    minimum: int = 0,
    includes: str | None = None,
) -> Field:
    """Numbered balls picked among ``numbers`` (classic pyramid's): the value is their list,
    ascending; with ``includes``, the value of that field is always among them."""
    shown = list(numbers)
    out: Field = {
        "name": name,
        "kind": "balls",
        "min": minimum,
        "max": len(shown),
        "default": [],
        "choices": [choice(n, text(str(n))) for n in shown],
        "prompt": prompt,
    }
    if includes is not None:
        out["includes"] = includes
    return out


def choose(name: str, choices: list[Choice], prompt: Text | None = None) -> Field:
    first = next((c["value"] for c in choices if not c["disabled"]), None)
    return {
        "name": name,
        "kind": "choice",
        "min": None,
        "max": None,
        "default": first,
        "choices": choices,
        "prompt": prompt,
    }


def choice(
    value: str | int,
    label: Text | None = None,
    *,
    player_slot: str | None = None,
    hint: Text | None = None,
    rule: str | None = None,
    disabled: bool = False,
    confirm: Text | None = None,
) -> Choice:
    return {
        "value": value,
        "label": label,
        "player": player_slot,
        "hint": hint,
        "rule": rule,
        "rule_label": rule_label(rule) if rule else None,
        "disabled": disabled,
        "confirm": confirm,
    }


def kind(
    key: str,
    event_type: str,
    label: Text,
    *,
    player_slot: str | None,
    fields: list[Field] | None = None,
    fixed: dict[str, Any] | None = None,
    prompt: Text | None = None,
    rule: str | None = None,
    limits: list[Limit] | None = None,
) -> EventKind:
    return {
        "key": key,
        "type": event_type,
        "label": label,
        "prompt": prompt,
        "rule": rule,
        "player": player_slot,
        "fixed": fixed or {},
        "fields": fields or [],
        "limits": limits or [],
    }


def build_event(event_kind: EventKind, values: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The event an entry kind sends, with the given field values (defaults otherwise)."""
    values = values or {}
    ev: dict[str, Any] = {"type": event_kind["type"]}
    if event_kind["player"] is not None:
        ev["player"] = event_kind["player"]
    ev.update(event_kind["fixed"])
    for f in event_kind["fields"]:
        value = values.get(f["name"], f["default"])
        outer, dot, inner = f["name"].partition(".")
        if dot:
            ev.setdefault(outer, {})[inner] = value
        else:
            ev[outer] = value
    for f in event_kind["fields"]:
        with_ = f.get("includes")
        if with_ is not None and isinstance(ev.get(with_), int):
            ev[f["name"]] = sorted({*ev[f["name"]], ev[with_]})
    return ev


# --- the family's words -----------------------------------------------------------------------

# Short names of the fouls (G29.1); the rule's exact text is quoted by the page.
FOUL_TITLES: dict[str, str] = {
    "cue_tip": gettext_noop("Cue ball not struck with the tip along the cue"),
    "double_hit": gettext_noop("Double hit"),
    "balls_moving": gettext_noop("Shot before the balls stopped"),
    "no_contact": gettext_noop("Cue ball touched no object ball"),
    "feet_off_floor": gettext_noop("Both feet off the floor"),
    "touched_ball": gettext_noop("Touched a ball"),
    "illegal_break": gettext_noop("Illegal break"),
    "slow_play": gettext_noop("Slow play"),
    "incomplete_shot": gettext_noop("Shot not completed legally"),
    "ball_off_table": gettext_noop("Ball off the table"),
    "push_shot": gettext_noop("Push shot"),
    "interference": gettext_noop("Interference"),
}

OPTION_LABELS: dict[str, str] = {
    "play": gettext_noop("Take the table"),
    "hand_back": gettext_noop("Hand back to the offender"),
    "rebreak_self": gettext_noop("Re-rack and break myself"),
    "rebreak_opponent": gettext_noop("Re-rack, the offender breaks again"),
    "full": gettext_noop("Full pyramid, shot from the house"),
    "partial": gettext_noop("Incomplete pyramid, play on from the position"),
    "play_on": gettext_noop("Play the two balls"),
}

OPTION_HINTS: dict[str, str] = {
    "play": gettext_noop("Accept the position and play on"),
    "hand_back": gettext_noop("The offender plays again from this position"),
    "full": gettext_noop("16 balls; a shot from hand from the house"),
    "partial": gettext_noop("The pocketed balls are racked as an incomplete pyramid"),
    "play_on": gettext_noop("Pocket the last ball, then a full pyramid and a break"),
}

# The clause each option follows (G6 after a foul, G12.2 after an illegal break, R
# continuation options 1-3).
OPTION_RULES: dict[str, str] = {
    "play": "G6",
    "hand_back": "G6",
    "rebreak_self": "G12.2 (3)",
    "rebreak_opponent": "G12.2 (4)",
    "full": "R",
    "partial": "R",
    "play_on": "R",
}


def break_rule_ref(ruleset: Mapping[str, Any]) -> str:
    """The clause an illegal break cites: the regulation's strict break or G12.1."""
    return "R" if ruleset.get("strict_break") else "G12.1"


def foul_rule(code: str, in_force: Mapping[str, Any] | None = None) -> str:
    """The clause a foul cites under the rules in force (a strict break cites the regulation)."""
    if code == "illegal_break" and in_force is not None:
        return str(in_force["break_rule_ref"])
    return FOUL_CODES[code]


def foul_choices(codes: Iterable[str], in_force: Mapping[str, Any] | None = None) -> list[Choice]:
    """The fouls among ``codes``, in the order of G29.1, with short names and clauses."""
    wanted = set(codes)
    return [
        choice(code, text(FOUL_TITLES[code]), rule=foul_rule(code, in_force))
        for code in FOUL_CODES
        if code in wanted
    ]


# After an illegal break the same two options are G12.2 (1) and (2).
_AFTER_BREAK_RULES = {"play": "G12.2 (1)", "hand_back": "G12.2 (2)"}


def option_choices(options: Iterable[str]) -> list[Choice]:
    options = list(options)
    rules = OPTION_RULES
    if "rebreak_self" in options:
        rules = {**OPTION_RULES, **_AFTER_BREAK_RULES}
    out = []
    for o in options:
        hint = OPTION_HINTS.get(o)
        out.append(
            choice(
                o,
                text(OPTION_LABELS.get(o, o)),
                hint=text(hint) if hint else None,
                rule=rules.get(o),
            )
        )
    return out


def spotting_hint(spotting: str, to_spot: int) -> Text | None:
    """Where re-spotted balls go: G25.2 (one on the rear spot, several from it towards the back
    cushion) or D6.1-6.2 (one as close to the back cushion as possible, several from the back
    cushion towards the rear spot)."""
    if to_spot <= 0:
        return None
    if spotting == "back_cushion":
        if to_spot == 1:
            return text(
                gettext_noop(
                    "Put 1 ball on the spotting line, as close to the back cushion as possible."
                )
            )
        return ngettext_lazy(
            "Put %(n)d ball on the spotting line, from the back cushion towards the rear spot.",
            "Put %(n)d balls on the spotting line, from the back cushion towards the rear spot.",
            to_spot,
        )
    if to_spot == 1:
        return text(gettext_noop("Put 1 ball on the rear spot."))
    return ngettext_lazy(
        "Put %(n)d ball on the spotting line, from the rear spot towards the back cushion.",
        "Put %(n)d balls on the spotting line, from the rear spot towards the back cushion.",
        to_spot,
    )


def penalty_text(penalty: str) -> Text:
    """How a foul is paid under the rules in force."""
    if penalty == "shelf_to_table":
        return text(
            gettext_noop("Penalty: a ball from the offender's shelf goes back to the table.")
        )
    if penalty == "opponent_removes":
        return text(gettext_noop("Penalty: the opponent takes any ball off the table."))
    return text(gettext_noop("Penalty: the opponent takes a ball from the table."))


def penalty_line(effect: str, offender: str) -> Text | None:
    """What a penalty just did to the balls, for the table: the effects of the engine's
    ``last_penalty`` (free pyramid §2.1). Names only a ball that exists: a debt puts nothing
    on the table."""
    who = player(offender)
    other = player("b" if offender == "a" else "a")
    if effect == "shelf_to_table":
        return text(
            gettext_noop(
                "Penalty (regulation): a ball from the shelf of %(name)s goes to the table, "
                "on the rear spot (G25.2)."
            ),
            name=who,
        )
    if effect == "debt":
        return text(
            gettext_noop(
                "Debt: 1 ball (%(name)s) — no ball of his on the shelf, nothing goes on the "
                "table; his next ball pays it (regulation)."
            ),
            name=who,
        )
    if effect == "opponent_takes":
        return text(
            gettext_noop(
                "Penalty (G29): %(name)s takes a ball of his choice off the table onto his "
                "shelf, +1."
            ),
            name=other,
        )
    return None


TurnRule = dict[str, Any]


def turn_rules(direct_call: bool, foul_then: str = "choice") -> list[TurnRule]:
    """Who is at the table after an event, and what he does next, as data: what the referee
    form follows offline (it runs no rule of its own; the server judges every queued tap).
    Rules are tried in order, the first that matches decides: ``type`` (the event's), ``when``
    ({key: value} the event has), ``sum`` (keys whose counts, or per-colour counts, add up
    to at least ``min``), ``set`` (keys that are present and not null); ``next`` is "same"
    (the event's `player`), "other" or "field:<key>"; ``then`` the step that follows.
    tests/rules/test_turn_rules.py checks them against the engine over random games."""
    legal = ["pocketed"] if direct_call else ["pocketed", "fools"]
    out: list[TurnRule] = [
        {"type": "break", "when": {"legal": False}, "next": "other", "then": foul_then},
        {"type": "break", "sum": ["pocketed"], "min": 1, "next": "same", "then": "shot"},
        {"type": "break", "next": "other", "then": "shot"},
        {"type": "shot", "set": ["foul"], "next": "other", "then": foul_then},
        {"type": "shot", "sum": ["off_table"], "min": 1, "next": "other", "then": foul_then},
        {"type": "shot", "sum": legal, "min": 1, "next": "same", "then": "shot"},
    ]
    if direct_call:
        out.append({"type": "shot", "sum": ["fools"], "min": 1, "next": "other", "then": "choice"})
    out += [
        {"type": "shot", "next": "other", "then": "shot"},
        {"type": "foul", "next": "other", "then": foul_then},
        {"type": "penalty_removal", "next": "same", "then": "choice"},
        {"type": "choice", "when": {"option": "play"}, "next": "same", "then": "shot"},
        {"type": "choice", "when": {"option": "hand_back"}, "next": "other", "then": "shot"},
        {"type": "choice", "when": {"option": "rebreak_self"}, "next": "same", "then": "break"},
        {
            "type": "choice",
            "when": {"option": "rebreak_opponent"},
            "next": "other",
            "then": "break",
        },
        {"type": "rerack", "when": {"option": "full"}, "next": "same", "then": "break"},
        {"type": "rerack", "next": "same", "then": "shot"},
        {"type": "choose_breaker", "next": "field:breaker", "then": "break"},
        {"type": "lag", "next": "field:breaker", "then": "break"},
    ]
    return out


def break_criteria(break_rule: str) -> Text:
    """What makes the break legal, in short."""
    if break_rule == "strict":
        return text(
            gettext_noop(
                "Legal if a ball is pocketed, or the cue ball touches two different cushions, "
                "or a cushion and crosses the centre line (regulation)."
            )
        )
    return text(
        gettext_noop(
            "Legal if a ball is pocketed, or at least three different object balls touch a "
            "cushion, or two do and an object ball crosses the centre line (rule 12.1)."
        )
    )


def break_prompt(break_rule: str) -> Text:
    if break_rule == "strict":
        return text(gettext_noop("Legal strict break: how many balls fell? All of them count."))
    return text(gettext_noop("Legal break: how many balls fell?"))


# Prompts every pyramid discipline's form has; `%(name)s` is left for the form.
_COMMON_PROMPTS: dict[str, str] = {
    "breaks": gettext_noop("breaks"),
    "shoots": gettext_noop("to shoot"),
    "chooses": gettext_noop("chooses"),
    "legal_break": gettext_noop("Legal break"),
    "illegal_break": gettext_noop("Illegal break"),
    "miss": gettext_noop("0 · Miss"),
    "record_shot": gettext_noop("Record the shot"),
    "after_foul_of": gettext_noop("After the foul or fool of %(name)s:"),
    "foul": gettext_noop("Foul"),
    "foul_outside": gettext_noop("Foul outside a shot"),
    "who_fouled": gettext_noop("Who committed it?"),
    "off_table_count": gettext_noop("How many balls left the table?"),
    "forfeit": gettext_noop("Concede…"),
    "who_concedes": gettext_noop("Who concedes the match?"),
    "confirm_forfeit": gettext_noop("The match ends: %(name)s concedes. Confirm?"),
    "concedes": gettext_noop("%(name)s concedes the match"),
}


def common_prompts() -> dict[str, Text]:
    return {key: text(msgid) for key, msgid in _COMMON_PROMPTS.items()}


def ruleset_prompts(in_force: Mapping[str, Any]) -> dict[str, Text]:
    """The prompts that follow the rules in force: penalty, break criteria and question."""
    return {
        "penalty": penalty_text(str(in_force["penalty"])),
        "break_criteria": break_criteria(str(in_force["break_rule"])),
        "break_pocketed": break_prompt(str(in_force["break_rule"])),
    }


def foul_event_kind(state: Mapping[str, Any], in_force: Mapping[str, Any]) -> EventKind:
    """A foul outside a shot (G17, G26, G28): its offender is chosen."""
    return kind(
        "foul",
        "foul",
        text(_COMMON_PROMPTS["foul_outside"]),
        player_slot=None,
        fields=[
            choose("foul", foul_choices(sorted(FOUL_EVENT_CODES), in_force)),
            choose(
                "player",
                [choice(p, player_slot=p) for p in PLAYERS],
                text(_COMMON_PROMPTS["who_fouled"]),
            ),
        ],
    )


def forfeit_kind() -> EventKind:
    """A player concedes: the match ends, so each choice asks to confirm."""
    confirm = _COMMON_PROMPTS["confirm_forfeit"]
    return kind(
        "forfeit",
        "forfeit",
        text(_COMMON_PROMPTS["forfeit"]),
        player_slot=None,
        fields=[
            choose(
                "player",
                [
                    # Named by what it does, not by the player alone (a screen reader's
                    # list of buttons reads «Иванов сдаёт матч»).
                    choice(
                        p,
                        text(_COMMON_PROMPTS["concedes"], name=player(p)),
                        player_slot=p,
                        confirm=text(confirm, name=player(p)),
                    )
                    for p in PLAYERS
                ],
                text(_COMMON_PROMPTS["who_concedes"]),
            )
        ],
    )


def option_kind(state: Mapping[str, Any], event_type: str, prompt: Text) -> EventKind:
    """The choice after a foul or fool (or the continuation choice): the state's options."""
    return kind(
        event_type,
        event_type,
        text(_COMMON_PROMPTS["chooses"]),
        player_slot=state.get("turn"),
        fields=[choose("option", option_choices(state.get("options") or []), prompt)],
    )


def after_foul_prompt(state: Mapping[str, Any]) -> Text:
    offender = state.get("offender")
    if offender not in PLAYERS:
        offender = "b" if state.get("turn") == "a" else "a"
    return text(_COMMON_PROMPTS["after_foul_of"], name=player(str(offender)))


def shot_foul_choices(in_force: Mapping[str, Any]) -> list[Choice]:
    """The fouls of a shot, without the ball off the table (its own kind: it asks how many)."""
    return foul_choices(sorted(SHOT_FOUL_CODES - {"ball_off_table"}), in_force)


# The kinds of a stroke the pyramid disciplines word alike; the fields (counts, numbered
# balls, balls per colour) are each discipline's.


def legal_break_kind(p: str, fields: list[Field]) -> EventKind:
    return kind(
        "break",
        "break",
        text(_COMMON_PROMPTS["legal_break"]),
        player_slot=p,
        fixed={"legal": True},
        fields=fields,
    )


def illegal_break_kind(
    p: str, in_force: Mapping[str, Any], fields: list[Field], prompt: Text | None = None
) -> EventKind:
    """An illegal break, citing the break's criteria in force (the regulation's or G12.1)."""
    return kind(
        "illegal_break",
        "break",
        text(_COMMON_PROMPTS["illegal_break"]),
        player_slot=p,
        fixed={"legal": False},
        prompt=prompt,
        fields=fields,
        rule=str(in_force["break_rule_ref"]),
    )


def shot_kind(p: str, fields: list[Field]) -> EventKind:
    return kind("shot", "shot", text(_COMMON_PROMPTS["record_shot"]), player_slot=p, fields=fields)


def foul_shot_kind(
    p: str, fields: list[Field], prompt: Text | None = None, rule: str | None = None
) -> EventKind:
    """A shot with a named foul; ``fields`` start with the choice of the foul."""
    return kind(
        "foul_shot",
        "shot",
        text(_COMMON_PROMPTS["foul"]),
        player_slot=p,
        prompt=prompt,
        fields=fields,
        rule=rule,
    )


def off_table_kind(
    p: str,
    fields: list[Field],
    prompt: Text | None = None,
    limits: list[Limit] | None = None,
) -> EventKind:
    """A shot that put a ball off the table (G24.3): a foul without a code to pick."""
    return kind(
        "off_table",
        "shot",
        text(FOUL_TITLES["ball_off_table"]),
        player_slot=p,
        fixed={"foul": "ball_off_table"},
        prompt=prompt,
        fields=fields,
        limits=limits,
        rule="G24.3",
    )


def counted_off_table_kind(p: str, on_table: int, pocketed: list[Field]) -> EventKind:
    """The ball off the table counted (at least one) beside the ``pocketed`` fields of the
    same shot: together no more than the ``on_table`` balls."""
    off = count("off_table", on_table, text(_COMMON_PROMPTS["off_table_count"]), minimum=1)
    return off_table_kind(
        p,
        [off, *pocketed],
        limits=[{"fields": ["off_table", *(f["name"] for f in pocketed)], "max": on_table}],
    )


# --- the log: an event in one sentence, how a match ended ---------------------------------------

_SENTENCES: dict[str, str] = {
    "break": gettext_noop("%(who)s: break, %(balls)s"),
    "break_none": gettext_noop("%(who)s: break, nothing pocketed"),
    "illegal_break": gettext_noop("%(who)s: illegal break (%(rule)s)"),
    "foul": gettext_noop("%(who)s: foul — %(foul)s"),
    "miss": gettext_noop("%(who)s: miss"),
    "removal": gettext_noop("%(who)s removes a ball of %(colour)s"),
    "breaker": gettext_noop("%(who)s chooses the breaker: %(breaker)s"),
    "time": gettext_noop("Time is up"),
    "forfeit": gettext_noop("%(who)s concedes the match"),
    "lag_breaks": gettext_noop("%(winner)s wins the lag and breaks"),
    "lag_gives": gettext_noop("%(winner)s wins the lag and gives the break to %(breaker)s"),
}
# Joins without a word of their own (rules.words.is_neutral): the same in every language.
SAID = "%(who)s: %(what)s"
BOTH = "%(first)s, %(second)s"
_FOUL_AND_RULE = "%(foul)s (%(rule)s)"

# The log's sentence for a choice, not a button's label; `who` is the chooser.
OPTION_EVENTS: dict[str, str] = {
    "play": gettext_noop("%(who)s accepts the position"),
    "hand_back": gettext_noop("%(who)s hands the table back to the offender"),
    "rebreak_self": gettext_noop("%(who)s re-racks and breaks"),
    "rebreak_opponent": gettext_noop("%(who)s re-racks; the offender breaks again"),
    "full": gettext_noop("%(who)s chooses a full pyramid and a shot from the house"),
    "partial": gettext_noop("%(who)s chooses an incomplete pyramid"),
    "play_on": gettext_noop("%(who)s pockets the last ball first"),
}

# How a match ended, by its end reason: the engine's (the family's reasons) and those of a
# result recorded outside it (contract.RESULT_END_REASONS: a walkover, a correction).
END_LABELS: dict[str, str] = {
    "frames": gettext_noop("Race won"),
    "game": gettext_noop("Game won"),
    "time": gettext_noop("Won on time"),
    "golden_ball": gettext_noop("Won by the golden ball"),
    "forfeit": gettext_noop("Won by forfeit"),
    "walkover": gettext_noop("Walkover"),
    "corrected": gettext_noop("Result corrected by the organiser"),
}


def balls_text(n: int) -> Text:
    return ngettext_lazy("%(n)d ball", "%(n)d balls", n)


def fools_text(n: int) -> Text:
    return ngettext_lazy("%(n)d fool", "%(n)d fools", n)


def foul_title(code: str) -> Text:
    """A foul's short name («Двойной удар»); an unknown code as written."""
    title = FOUL_TITLES.get(code)
    return text(title) if title is not None else text(code)


def foul_named(code: str, in_force: Mapping[str, Any] | None = None) -> Text:
    """A foul as a sentence names it: «двойной удар (п. 18)»."""
    rule = foul_rule(code, in_force) if code in FOUL_CODES else code
    return text(_FOUL_AND_RULE, foul=lowered(foul_title(code)), rule=rule_label(rule))


def option_event(option: str, who: Param) -> Text:
    """The log's sentence for a choice («Иванова принимает позицию»)."""
    sentence = OPTION_EVENTS.get(option)
    if sentence is None:
        return text(SAID, who=who, what=text(OPTION_LABELS.get(option, option)))
    return text(sentence, who=who)


def _total(value: object) -> int:
    """A count of balls: a number, or balls per colour summed (Duplex)."""
    if isinstance(value, dict):
        return sum(v for v in value.values() if isinstance(v, int) and not isinstance(v, bool))
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _slot(value: object) -> str:
    return value if isinstance(value, str) and value in PLAYERS else ""


def _lag_sentence(event: Mapping[str, Any]) -> Text:
    won = _slot(event.get("winner"))
    breaks = _slot(event.get("breaker"))
    if won == breaks:
        return text(_SENTENCES["lag_breaks"], winner=player(won))
    return text(_SENTENCES["lag_gives"], winner=player(won), breaker=player(breaks))


def event_sentence(event: Mapping[str, Any], in_force: Mapping[str, Any] | None = None) -> Text:
    """One sentence for the match's log, for the event types of the family
    (rules.schemas.EVENT_FIELDS): «Иванова: 2 шара», «Петров, штраф: двойной удар (п. 18)».
    The default of Discipline.describe_event; ``in_force`` words the illegal break's clause."""
    kind = event.get("type")
    who = player(_slot(event.get("player")))
    n = _total(event.get("pocketed"))
    if kind == "break":
        return _break_sentence(event, who, n, in_force)
    if kind == "shot":
        return _shot_sentence(event, who, n, in_force)
    if kind == "foul":
        code = str(event.get("foul"))
        return text(_SENTENCES["foul"], who=who, foul=foul_named(code, in_force))
    if kind in ("choice", "rerack"):
        return option_event(str(event.get("option")), who)
    if kind == "penalty_removal":
        colour = player(_slot(event.get("colour")))
        return text(_SENTENCES["removal"], who=who, colour=colour)
    if kind == "choose_breaker":
        breaker = player(_slot(event.get("breaker")))
        return text(_SENTENCES["breaker"], who=who, breaker=breaker)
    if kind == "lag":
        return _lag_sentence(event)
    if kind == "time_expired":
        return text(_SENTENCES["time"])
    if kind == "forfeit":
        return text(_SENTENCES["forfeit"], who=who)
    # A type the family does not have: its discipline words it (Discipline.describe_event);
    # as written here, a catalogue has no words for it (tests/rules/test_log_words.py).
    return text(SAID, who=who, what=text(str(kind)))


def _break_sentence(
    event: Mapping[str, Any], who: PlayerRef, n: int, in_force: Mapping[str, Any] | None
) -> Text:
    if event.get("legal") is False:
        rule = rule_label(foul_rule("illegal_break", in_force))
        return text(_SENTENCES["illegal_break"], who=who, rule=rule)
    if n:
        return text(_SENTENCES["break"], who=who, balls=balls_text(n))
    return text(_SENTENCES["break_none"], who=who)


def _shot_sentence(
    event: Mapping[str, Any], who: PlayerRef, n: int, in_force: Mapping[str, Any] | None
) -> Text:
    foul = event.get("foul") or ("ball_off_table" if _total(event.get("off_table")) else None)
    if isinstance(foul, str):
        return text(_SENTENCES["foul"], who=who, foul=foul_named(foul, in_force))
    fools = _total(event.get("fools"))
    if n and fools:
        both = text(BOTH, first=balls_text(n), second=fools_text(fools))
        return text(SAID, who=who, what=both)
    if n or fools:
        return text(SAID, who=who, what=balls_text(n) if n else fools_text(fools))
    return text(_SENTENCES["miss"], who=who)


def end_label(end_reason: str | None) -> Text | None:
    """How a match ended, in words, for the family's end reasons (None for none or another)."""
    label = END_LABELS.get(end_reason or "")
    return text(label) if label is not None else None


class Regulation(TypedDict):
    race: list[Text]  # parts of one line, joined with ", "
    terms: list[Text]
