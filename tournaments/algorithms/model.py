"""Plain data shared by the bracket algorithms.

Players are identified only by their seed number (1..N) inside these algorithms;
the caller maps seeds to people. The Django layer writes one Match row per
``MatchSpec``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

__all__ = [
    "FORMATS",
    "STAGES",
    "Bracket",
    "GrandFinal",
    "MatchSpec",
    "Place",
    "Side",
    "Slot",
    "Source",
    "SourceKind",
]

SourceKind = Literal["seed", "winner", "loser", "group"]
Side = Literal["a", "b"]
GrandFinal = Literal["none", "single", "reset"]
# Where a match's winner or loser goes: (match key, side).
Slot = tuple[str, Side]

FORMATS = ("single", "double", "double_to_single", "groups_playoff")
STAGES = (
    "single",
    "upper",
    "lower",
    "grand_final",
    "grand_final_reset",
    "playoff",
    "third_place",
    "group",
)


@dataclass(frozen=True, slots=True)
class Source:
    """Who fills a match side.

    ``ref`` is a seed number (kind "seed"), a match key ("winner", "loser") or a
    ``(group number, rank)`` pair ("group").
    """

    kind: SourceKind
    ref: int | str | tuple[int, int]

    # The ref as its kind has it: typed reads for callers that have checked `kind`.
    def seed(self) -> int:
        if isinstance(self.ref, int):
            return self.ref
        raise TypeError(f"a {self.kind} source has no seed")

    def group_rank(self) -> tuple[int, int]:
        if isinstance(self.ref, tuple):
            return self.ref
        raise TypeError(f"a {self.kind} source has no group and rank")


@dataclass(frozen=True, slots=True)
class MatchSpec:
    """One real match of a bracket (byes are resolved away at generation).

    ``key`` names it: "S2-1" single elimination round 2 match 1, "U1-1" upper,
    "L3-2" lower, "GF-1"/"GF-2" grand final and its reset, "P2-1" play-off,
    "3RD" third place, "G2-R3-1" group 2 round 3 match 1. ``order`` is the
    position in the round of the full power-of-two bracket, so a round with byes
    has gaps; keys use the same number.
    """

    key: str
    stage: str
    round: int
    order: int
    a: Source | None
    b: Source | None
    winner_to: Slot | None
    loser_to: Slot | None
    group: int | None = None
    # GF reset: played only if the lower-bracket player won GF-1.
    conditional: bool = False
    # Earliest global wave in which the match can be ready (1 = first).
    schedule_round: int = 0


@dataclass(frozen=True, slots=True)
class Bracket:
    format: str
    entrants: int
    matches: tuple[MatchSpec, ...]
    options: Mapping[str, object]


@dataclass(frozen=True, slots=True)
class Place:
    """Final places ``first``..``last`` shared by ``seeds`` (first == last: not shared)."""

    first: int
    last: int
    seeds: tuple[int, ...]
