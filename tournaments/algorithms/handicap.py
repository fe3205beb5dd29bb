"""Handicap schemes: from a rating difference to a head start (фора).

Schemes are data (frozen dataclasses, JSON-able with ``to_json``/``from_json``):

* ``RaceScheme``: defined for a race to ``base`` balls (30); the weaker player
  starts with ``min(cap, diff // step * balls_per_step)`` balls. Applied to a
  race to N != base the head start is scaled: proportional (``× N / base``),
  rounded down; in any race it is never more than ``N // 2 - 1`` (a race to 8:
  at most 3), so the weaker player always has more than half the race to play.
* ``PairScheme``: LLB frames to 8; the k-th rating step gives the pair
  (stronger, weaker): the match is played to ``stronger`` and the weaker
  player starts with ``stronger - weaker`` points.
* ``NoHandicap``: nobody gets anything.

The Django layer calls ``compute_handicap``; presets live in ``SCHEMES``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, TypeAlias

__all__ = [
    "SCHEMES",
    "HandicapPreset",
    "HandicapResult",
    "NoHandicap",
    "PairScheme",
    "RaceScheme",
    "Scheme",
    "compute_handicap",
    "get_scheme",
    "max_head_start",
    "scheme_from_json",
    "scheme_to_json",
]


def _int(value: object, name: str) -> int:
    # bool is an int subclass, but True as a rating or a ball count is a bug.
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    return value


def _expect_type(data: Any, expected: str) -> Mapping[str, Any]:
    if not isinstance(data, Mapping):
        raise TypeError(f"a handicap scheme must be an object, got {type(data).__name__}")
    if data.get("type") != expected:
        raise ValueError(f"expected a scheme of type {expected!r}, got {data.get('type')!r}")
    return data


def max_head_start(balls_to_win: int) -> int:
    """The most a race scheme credits in a race to ``balls_to_win``: half the race minus one."""
    return max(0, balls_to_win // 2 - 1)


@dataclass(frozen=True)
class RaceScheme:
    """Race to ``base`` balls: ``balls_per_step`` head-start balls per full ``step`` of
    rating, at most ``cap``; scaled to other races (module docstring)."""

    TYPE: ClassVar[str] = "race"

    step: int = 50
    balls_per_step: int = 2
    cap: int = 12
    base: int = 30

    def __post_init__(self) -> None:
        if _int(self.step, "step") <= 0:
            raise ValueError(f"step must be positive, got {self.step}")
        if _int(self.balls_per_step, "balls_per_step") < 0:
            raise ValueError(f"balls_per_step must not be negative, got {self.balls_per_step}")
        if _int(self.cap, "cap") < 0:
            raise ValueError(f"cap must not be negative, got {self.cap}")
        if _int(self.base, "base") < 1:
            raise ValueError(f"base must be at least 1, got {self.base}")

    def head_start(self, *, diff: int, balls_to_win: int) -> int:
        """Balls credited to the weaker player in a race to ``balls_to_win``: the scheme's
        head start at its own race, scaled proportionally (rounded down) to another race,
        and never more than half the race minus one."""
        at_base = min(self.cap, diff // self.step * self.balls_per_step)
        scaled = at_base if balls_to_win == self.base else at_base * balls_to_win // self.base
        return max(0, min(scaled, max_head_start(balls_to_win)))

    def to_json(self) -> dict[str, Any]:
        return {
            "type": self.TYPE,
            "step": self.step,
            "balls_per_step": self.balls_per_step,
            "cap": self.cap,
            "base": self.base,
        }

    @classmethod
    def from_json(cls, data: Any) -> RaceScheme:
        d = _expect_type(data, cls.TYPE)
        return cls(
            step=d["step"],
            balls_per_step=d["balls_per_step"],
            cap=d["cap"],
            base=d.get("base", 30),
        )


@dataclass(frozen=True)
class PairScheme:
    """LLB pair table: the k-th full ``step`` of rating gives ``pairs[k-1]``.

    A pair is (stronger's target, weaker's target); below one step both play to
    ``base``; beyond the table the last pair applies.
    """

    TYPE: ClassVar[str] = "pairs"

    name: str
    step: int
    pairs: Sequence[tuple[int, int]]
    base: int = 8

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise ValueError("name must be a non-empty string")
        if _int(self.step, "step") <= 0:
            raise ValueError(f"step must be positive, got {self.step}")
        if _int(self.base, "base") < 1:
            raise ValueError(f"base must be at least 1, got {self.base}")
        pairs: list[tuple[int, int]] = []
        for i, pair in enumerate(self.pairs):
            if isinstance(pair, str) or not isinstance(pair, Sequence) or len(pair) != 2:
                raise ValueError(f"pair {i + 1} must be (stronger, weaker), got {pair!r}")
            stronger, weaker = _int(pair[0], "stronger"), _int(pair[1], "weaker")
            if not 1 <= weaker <= stronger:
                raise ValueError(
                    f"pair {i + 1} ({stronger}-{weaker}): need 1 <= weaker <= stronger"
                )
            pairs.append((stronger, weaker))
        if not pairs:
            raise ValueError("a pair scheme needs at least one pair")
        # A tuple keeps the frozen dataclass immutable and hashable.
        object.__setattr__(self, "pairs", tuple(pairs))

    def pair_for(self, diff: int) -> tuple[int, int]:
        """(stronger's target, weaker's target) for a rating difference."""
        steps = diff // self.step
        if steps == 0:
            return (self.base, self.base)
        return self.pairs[min(steps, len(self.pairs)) - 1]

    def to_json(self) -> dict[str, Any]:
        return {
            "type": self.TYPE,
            "name": self.name,
            "step": self.step,
            "pairs": [list(p) for p in self.pairs],
            "base": self.base,
        }

    @classmethod
    def from_json(cls, data: Any) -> PairScheme:
        d = _expect_type(data, cls.TYPE)
        raw_pairs = d["pairs"]
        if isinstance(raw_pairs, str) or not isinstance(raw_pairs, Sequence):
            raise ValueError("pairs must be a list of [stronger, weaker]")
        return cls(
            name=d["name"],
            step=d["step"],
            pairs=[tuple(p) for p in raw_pairs],
            base=d.get("base", 8),
        )


@dataclass(frozen=True)
class NoHandicap:
    """No head start whatever the ratings."""

    TYPE: ClassVar[str] = "none"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE}

    @classmethod
    def from_json(cls, data: Any) -> NoHandicap:
        _expect_type(data, cls.TYPE)
        return cls()


Scheme: TypeAlias = RaceScheme | PairScheme | NoHandicap

_SCHEME_TYPES: dict[str, type[RaceScheme] | type[PairScheme] | type[NoHandicap]] = {
    cls.TYPE: cls for cls in (RaceScheme, PairScheme, NoHandicap)
}


def scheme_to_json(scheme: Scheme) -> dict[str, Any]:
    """JSON-able dict with a ``type`` key ("race", "pairs" or "none")."""
    return scheme.to_json()


def scheme_from_json(data: Any) -> Scheme:
    """Inverse of ``scheme_to_json``; raises ``ValueError``/``TypeError`` on bad data."""
    if not isinstance(data, Mapping):
        raise TypeError(f"a handicap scheme must be an object, got {type(data).__name__}")
    kind = data.get("type")
    cls = _SCHEME_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ValueError(f"unknown handicap scheme type {kind!r}; known: {sorted(_SCHEME_TYPES)}")
    try:
        return cls.from_json(data)
    except KeyError as exc:
        raise ValueError(f"handicap scheme {kind!r} is missing {exc.args[0]!r}") from None


@dataclass(frozen=True)
class HandicapPreset:
    """A named built-in scheme; ``title`` is English, the UI translates it."""

    slug: str
    title: str
    scheme: Scheme


SCHEMES: dict[str, HandicapPreset] = {
    p.slug: p
    for p in (
        HandicapPreset(
            "race_2_per_50",
            "Race: 2 balls per 50 rating points, at most 12",
            RaceScheme(),
        ),
        # The league does not state the step of scheme 1; 50 points is our choice
        # (the common rating band width), half the step of scheme 4.
        HandicapPreset(
            "llb_1",
            "LLB scheme 1: frames to 8, a pair per 50 rating points",
            PairScheme(
                name="llb_1",
                step=50,
                pairs=[(8, 7), (9, 7), (9, 6), (10, 6), (10, 5), (11, 5)],
            ),
        ),
        HandicapPreset(
            "llb_4",
            "LLB scheme 4: frames to 8, a pair per 100 rating points",
            PairScheme(name="llb_4", step=100, pairs=[(8, 7), (8, 6), (8, 5), (8, 4)]),
        ),
        HandicapPreset("none", "No handicap", NoHandicap()),
    )
}


def get_scheme(slug: str) -> Scheme:
    """The preset scheme for ``slug``; ``ValueError`` names the known slugs."""
    try:
        return SCHEMES[slug].scheme
    except KeyError:
        raise ValueError(f"unknown handicap scheme {slug!r}; known: {sorted(SCHEMES)}") from None


@dataclass(frozen=True)
class HandicapResult:
    """Target and head starts for one match; ``stronger`` is None on equal ratings."""

    balls_to_win: int
    head_start: dict[str, int]
    stronger: Literal["a", "b"] | None
    diff: int

    def to_json(self) -> dict[str, Any]:
        return {
            "balls_to_win": self.balls_to_win,
            "head_start": dict(self.head_start),
            "stronger": self.stronger,
            "diff": self.diff,
        }


def compute_handicap(
    *, scheme: Scheme, rating_a: int, rating_b: int, balls_to_win: int
) -> HandicapResult:
    """Head start for players a and b under ``scheme`` in a race to ``balls_to_win``.

    A ``PairScheme`` sets the target itself and is only valid for its own base
    race (8 for the LLB tables); another ``balls_to_win`` raises ``ValueError``.
    """
    _int(rating_a, "rating_a")
    _int(rating_b, "rating_b")
    if _int(balls_to_win, "balls_to_win") < 1:
        raise ValueError(f"balls_to_win must be at least 1, got {balls_to_win}")
    diff = abs(rating_a - rating_b)
    stronger: Literal["a", "b"] | None = None
    if rating_a != rating_b:
        stronger = "a" if rating_a > rating_b else "b"

    target = balls_to_win
    if isinstance(scheme, RaceScheme):
        extra = scheme.head_start(diff=diff, balls_to_win=balls_to_win)
    elif isinstance(scheme, PairScheme):
        if balls_to_win != scheme.base:
            raise ValueError(
                f"handicap scheme {scheme.name!r} is for races to {scheme.base}, not {balls_to_win}"
            )
        target, weaker_target = scheme.pair_for(diff)
        extra = target - weaker_target
    elif isinstance(scheme, NoHandicap):
        extra = 0
    else:
        raise TypeError(f"unknown handicap scheme {type(scheme).__name__}")

    head_start = {"a": 0, "b": 0}
    if stronger is not None and extra > 0:
        head_start["b" if stronger == "a" else "a"] = extra
    return HandicapResult(balls_to_win=target, head_start=head_start, stronger=stronger, diff=diff)
