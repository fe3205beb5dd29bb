"""A made-up discipline, registered only by tests: a coin toss decides who starts, then one
colour of 15 balls and a race to N; a foul passes the turn and its balls are spotted.

It proves that a discipline is a plug-in: nothing outside this file knows it, yet the engine
replays it, validates its rulesets, the contract describes it (its own event type, the toss),
the view shows it and the log words it. Its words are in the Russian catalogue like any
discipline's. Beside it, tests/rules/toy_scratch.py adds a field to the family's shot.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from rules import describe
from rules.common import (
    FORFEIT_KEYS,
    OTHER,
    PLAYERS,
    Event,
    State,
    check_keys,
    count_run,
    end_visits,
    expect,
    expect_turn,
    finish,
    forfeit,
    get_count,
    get_foul,
    get_player,
    new_stats,
)
from rules.describe import Entry, choice, choose, count, kind
from rules.errors import too_many
from rules.fouls import SHOT_FOUL_CODES
from rules.in_force import rules_in_force
from rules.registry import Discipline
from rules.schemas import COUNT, PER_PLAYER, SLOT
from rules.words import Text, gettext_noop, player, text

BALLS = 15
TOSS_SENTENCE = gettext_noop("%(winner)s won the toss and starts")
TOSS_KEYS = frozenset({"type", "player", "winner"})
SHOT_KEYS = frozenset({"type", "player", "pocketed", "foul"})


def initial_state(rs: dict[str, Any]) -> State:
    return {
        "discipline": "toy_race",
        "ruleset": rs,
        "events": 0,
        "finished": False,
        "winner": None,
        "end_reason": None,
        "turn": "a",  # the referee enters the toss
        "awaiting": "coin_toss",
        "to_spot": 0,
        "options": [],
        "breaker": "a",
        "offender": None,
        "after_choice": None,
        "stats": new_stats(),
        "score": {"a": 0, "b": 0},
        "balls_on_table": BALLS,
    }


def on_toss(st: State, ev: Event) -> None:
    check_keys(ev, TOSS_KEYS)
    p = get_player(ev)
    winner = get_player(ev, "winner")
    expect(st, "coin_toss", "coin_toss")
    expect_turn(st, p)
    st["turn"] = winner
    st["breaker"] = winner
    st["awaiting"] = "shot"


def on_shot(st: State, ev: Event) -> None:
    check_keys(ev, SHOT_KEYS)
    p = get_player(ev)
    n = get_count(ev, "pocketed")
    foul = get_foul(ev, SHOT_FOUL_CODES, required=False)
    expect(st, "shot", "shot")
    expect_turn(st, p)
    if n > st["balls_on_table"]:
        raise too_many(n, st["balls_on_table"])
    st["to_spot"] = 0
    if foul is not None:
        st["stats"][p]["fouls"] += 1
        st["to_spot"] = n
        st["turn"] = OTHER[p]
    elif n:
        count_run(st, p, n)
        st["score"][p] += n
        st["balls_on_table"] -= n
        if st["score"][p] >= st["ruleset"]["balls_to_win"]:
            finish(st, p, "race")
            return
    else:
        st["turn"] = OTHER[p]
    end_visits(st)


def race_key(default: int) -> dict[str, Any]:
    """The made-up races' one ruleset key: the balls that win, a key a stage may set."""
    return {
        "key": "balls_to_win",
        "label": gettext_noop("Balls to win"),
        "stage": True,
        "type": "int",
        "default": default,
        "min": 1,
        "max": 8,
        "help": "Balls that win (at most 8 of the 15, so the table never runs out).",
    }


class MadeUpRace(Discipline):
    """What the made-up races share: one colour of 15 balls, a race to N won by "race", no
    time-limit rule, spotting as the general rules."""

    state_fields = {
        "score": PER_PLAYER,
        "balls_on_table": {**COUNT, "maximum": BALLS},
    }
    options = ()
    end_reasons = ("race", "forfeit")
    in_force = {
        "spotting": "rear_spot",
        "spotting_rule": "G25.2",
        "pocketing": "any_ball",
        "penalty": ("turn_passes", "toy"),
        "play_options": (),
        "break_options": (),
        "rerack_options": (),
    }
    has_time_limit = False
    max_balls = BALLS

    def end_label(self, end_reason: str | None) -> Text | None:
        if end_reason == "race":
            return text(gettext_noop("Race won"))
        return super().end_label(end_reason)

    def lines(self, state: dict[str, Any]) -> list[Text]:
        target = (state.get("ruleset") or {}).get("balls_to_win")
        return [text(gettext_noop("race to %(n)s"), n=target)] if target else []


class ToyRace(MadeUpRace):
    name = "toy_race"
    label = gettext_noop("Toy race")
    diploma_phrase = gettext_noop("in the toy race")
    ruleset_keys = (race_key(5),)
    handlers = {"coin_toss": on_toss, "shot": on_shot, "forfeit": forfeit}
    event_keys = {"coin_toss": TOSS_KEYS, "shot": SHOT_KEYS, "forfeit": FORFEIT_KEYS}
    extra_events = {
        "coin_toss": {
            "fields": {"player": SLOT, "winner": SLOT},
            "required": ["player", "winner"],
            "description": "Toy race: who won the toss starts.",
        }
    }
    awaiting = ("coin_toss", "shot")

    def initial_state(self, ruleset: dict[str, Any]) -> State:
        return initial_state(ruleset)

    def sample_rulesets(self) -> dict[str, dict[str, Any]]:
        return {
            "defaults": {"discipline": self.name},
            "race-to-8": {"discipline": self.name, "balls_to_win": 8},
        }

    def describe_event(self, event: Mapping[str, Any], ruleset: Mapping[str, Any]) -> Text:
        if event.get("type") == "coin_toss":
            return text(TOSS_SENTENCE, winner=player(str(event.get("winner"))))
        return super().describe_event(event, ruleset)

    def entry(self, state: dict[str, Any]) -> Entry:
        awaiting = state.get("awaiting")
        p = state.get("turn")
        if state.get("finished"):
            return {"awaiting": None, "player": None, "prompt": None, "kinds": []}
        n = state["balls_on_table"]
        kinds = []
        if awaiting == "coin_toss":
            kinds.append(
                kind(
                    "coin_toss",
                    "coin_toss",
                    text(gettext_noop("Toss")),
                    player_slot=p,
                    fields=[choose("winner", [choice(c, player_slot=c) for c in PLAYERS])],
                )
            )
        else:
            in_force = rules_in_force(state["ruleset"])
            kinds.append(
                kind(
                    "shot",
                    "shot",
                    text(gettext_noop("Record the shot")),
                    player_slot=p,
                    fields=[count("pocketed", n)],
                )
            )
            kinds.append(
                kind(
                    "foul_shot",
                    "shot",
                    text(gettext_noop("Foul")),
                    player_slot=p,
                    fields=[
                        choose("foul", describe.shot_foul_choices(in_force)),
                        count("pocketed", n),
                    ],
                )
            )
        kinds.append(describe.forfeit_kind())
        return {"awaiting": awaiting, "player": p, "prompt": None, "kinds": kinds}

    def random_event(
        self, state: State, rng: random.Random, skill: float, rare: float
    ) -> dict[str, Any]:
        p = state["turn"]
        if rng.random() < 0.002 * rare:
            return {"type": "forfeit", "player": rng.choice(PLAYERS)}
        if state["awaiting"] == "coin_toss":
            return {"type": "coin_toss", "player": p, "winner": rng.choice(PLAYERS)}
        n = state["balls_on_table"]
        pocketed = min(n, 1 + (rng.random() < 0.2)) if rng.random() < skill else 0
        if rng.random() < 0.1:
            return {"type": "shot", "player": p, "pocketed": pocketed, "foul": "double_hit"}
        return {"type": "shot", "player": p, "pocketed": pocketed}
