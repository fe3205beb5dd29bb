"""What a match gets when both its players are known: the effective ruleset (tournament rules,
the stage's race, the handicap), the engine's initial state and the clock limit."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import rules
from matches.models import Match
from matches.selectors import discipline_of
from rules.registry import find
from tournaments.algorithms import handicap, pair_race
from tournaments.models import Tournament

# A stage without its own entry plays by its parent's (the grand final continues the upper).
STAGE_PARENT = {"grand_final": "upper"}


def stage_overrides(stage_rules: Mapping[str, Any], stage_key: str) -> dict[str, Any]:
    """A stage's race and time limit overrides, over its parent stage's."""
    parent = STAGE_PARENT.get(stage_key)
    merged = dict(stage_rules.get(parent) or {}) if parent else {}
    merged.update(stage_rules.get(stage_key) or {})
    return merged


def stage_keys(discipline: str) -> tuple[str, ...]:
    """What a stage may set of its own: the discipline's ruleset keys declared per stage (its
    race: Discipline.stage_keys) and the net time limit (a clock that only shows the time, in
    a discipline without a time-limit rule, ignores it)."""
    found = find(discipline)
    return (*(found.stage_keys if found is not None else ()), "time_limit_minutes", "pair_race")


def frames_credited(discipline: str) -> bool:
    """Whether the discipline can start a match with frames already won (its ruleset's
    `frames_credit`: a race of frames), so that lateness may cost frames."""
    found = find(discipline)
    return found is not None and any(spec["key"] == "frames_credit" for spec in found.ruleset_keys)


def stage_ruleset(values: Mapping[str, Any], stage_key: str | None) -> dict[str, Any]:
    """The tournament ruleset with one stage's overrides of its discipline's keys (not
    validated)."""
    ruleset = dict(values["ruleset"])
    ruleset["discipline"] = values["discipline"]
    found = find(values["discipline"])
    if stage_key is not None and found is not None:
        overrides = stage_overrides(values.get("stage_rules") or {}, stage_key)
        for key in found.stage_keys:
            if key in overrides:
                ruleset[key] = overrides[key]
    return ruleset


# Which `stage_rules` entry a bracket stage plays by. The grand final continues the upper
# bracket unless it has its own race; a single-elimination bracket and the third-place match are play-off matches.
STAGE_RULES_KEY = {
    "single": "playoff",
    "playoff": "playoff",
    "third_place": "playoff",
    "upper": "upper",
    "grand_final": "grand_final",
    "grand_final_reset": "grand_final",
    "lower": "lower",
    "group": "group",
}


def _settings(tournament: Tournament) -> dict[str, Any]:
    return {
        "discipline": tournament.discipline,
        "ruleset": tournament.ruleset,
        "stage_rules": tournament.stage_rules,
    }


def clock_limit_seconds(tournament: Tournament, stage: str) -> int | None:
    """The stage's net time limit (else the tournament's) in seconds; None: no limit.
    A discipline without a time-limit rule (Duplex) has a clock that only shows the time."""
    if not discipline_of({"discipline": tournament.discipline}).has_time_limit:
        return None
    overrides = stage_overrides(tournament.stage_rules or {}, STAGE_RULES_KEY.get(stage, ""))
    minutes = overrides.get("time_limit_minutes", tournament.time_limit_minutes)
    return None if minutes is None else int(minutes) * 60


def effective_ruleset(
    tournament: Tournament, stage: str, *, rating_a: int, rating_b: int
) -> dict[str, Any]:
    """Tournament ruleset + stage overrides + the handicap scheme's race and head start,
    normalised by the rules engine."""
    ruleset = stage_ruleset(_settings(tournament), STAGE_RULES_KEY.get(stage))
    # The pair's race: the stage's bands of the pair's ratings set this match's race.
    overrides = stage_overrides(tournament.stage_rules or {}, STAGE_RULES_KEY.get(stage, ""))
    if overrides.get("pair_race"):
        ruleset.update(
            pair_race.race_for(overrides["pair_race"], rating_a=rating_a, rating_b=rating_b)
        )
    scheme = handicap.get_scheme(tournament.handicap_scheme)
    head_start = discipline_of(ruleset).has_head_start
    if head_start and not isinstance(scheme, handicap.NoHandicap):
        target = ruleset.get("balls_to_win", 30)
        result = handicap.compute_handicap(
            scheme=scheme, rating_a=rating_a, rating_b=rating_b, balls_to_win=target
        )
        ruleset["balls_to_win"] = result.balls_to_win
        ruleset["head_start"] = dict(result.head_start)
    return rules.validate_ruleset(ruleset)


def ready_fields(
    tournament: Tournament, stage: str, *, rating_a: int, rating_b: int
) -> dict[str, Any]:
    """Field values that make a match with two known players ready to be called."""
    ruleset = effective_ruleset(tournament, stage, rating_a=rating_a, rating_b=rating_b)
    return {
        "ruleset": ruleset,
        "state": rules.initial_state(ruleset),
        "clock_limit_seconds": clock_limit_seconds(tournament, stage),
        "head_start_overridden": False,
        "status": Match.Status.READY,
    }
