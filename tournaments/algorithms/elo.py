"""Standard Elo ratings for match results.

Float maths is fine here: ratings are not money. Each update changes the two
ratings by exact opposites, so the rating pool is conserved.

Walkovers (a player did not show up, or withdrew) are not rated: whether a match
counts is the caller's business, and the caller must simply not call these
functions for it.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

__all__ = ["elo_change", "elo_update", "expected_score"]

_SCORES = (0, 0.5, 1)


def expected_score(r_a: float, r_b: float) -> float:
    """Player a's expected score (0..1) against player b."""
    return 1 / (1 + 10 ** ((r_b - r_a) / 400))


def _round_half_away(value: float) -> int:
    # Decimal(float) is exact, so ties are decided on the real value, not on x + 0.5.
    return int(Decimal(value).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def _check_int(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    return value


def elo_update(*, rating_a: int, rating_b: int, score_a: float, k: int = 32) -> tuple[int, int]:
    """New (rating_a, rating_b) after a match where a scored ``score_a`` (1, 0.5 or 0).

    The change is ``k * (score_a - expected)`` rounded half away from zero; b's
    change is its exact opposite.
    """
    _check_int(rating_a, "rating_a")
    _check_int(rating_b, "rating_b")
    if _check_int(k, "k") <= 0:
        raise ValueError(f"k must be positive, got {k}")
    if isinstance(score_a, bool) or not isinstance(score_a, int | float):
        raise TypeError(f"score_a must be 1, 0.5 or 0, got {type(score_a).__name__}")
    if score_a not in _SCORES:
        raise ValueError(f"score_a must be 1, 0.5 or 0, got {score_a}")
    # Always compute from the lower-rated side so that swapping a and b gives
    # exactly mirrored results despite float rounding.
    if rating_a <= rating_b:
        delta_a = _round_half_away(k * (score_a - expected_score(rating_a, rating_b)))
    else:
        delta_a = -_round_half_away(k * ((1 - score_a) - expected_score(rating_b, rating_a)))
    return rating_a + delta_a, rating_b - delta_a


def elo_change(*, winner_rating: int, loser_rating: int, k: int = 32) -> int:
    """Points the winner gains (and the loser loses) for a decided match."""
    new_winner, _ = elo_update(rating_a=winner_rating, rating_b=loser_rating, score_a=1, k=k)
    return new_winner - winner_rating
