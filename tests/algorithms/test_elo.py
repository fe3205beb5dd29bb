"""Elo ratings (pure, no database)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.algorithms.elo import elo_change, elo_update, expected_score


def test_expected_score() -> None:
    assert expected_score(1000, 1000) == 0.5
    assert expected_score(1400, 1000) == pytest.approx(10 / 11)
    assert expected_score(1000, 1400) == pytest.approx(1 / 11)


def test_equal_ratings_move_by_half_k() -> None:
    assert elo_update(rating_a=1000, rating_b=1000, score_a=1) == (1016, 984)
    assert elo_update(rating_a=1000, rating_b=1000, score_a=0) == (984, 1016)
    assert elo_update(rating_a=1000, rating_b=1000, score_a=0.5) == (1000, 1000)


def test_upset_moves_more_than_expected_win() -> None:
    # 32 * 10/11 = 29.09 -> 29; 32 * 1/11 = 2.9 -> 3.
    assert elo_update(rating_a=1000, rating_b=1400, score_a=1) == (1029, 1371)
    assert elo_update(rating_a=1400, rating_b=1000, score_a=1) == (1403, 997)


def test_draw_between_unequal_players() -> None:
    # 32 * (0.5 - 1/11) = 13.09 -> 13 towards the weaker player.
    assert elo_update(rating_a=1000, rating_b=1400, score_a=0.5) == (1013, 1387)


def test_custom_k() -> None:
    assert elo_update(rating_a=1000, rating_b=1000, score_a=1, k=20) == (1010, 990)


def test_rounding_is_half_away_from_zero() -> None:
    # k=1 at equal ratings: change 0.5 -> 1, and -0.5 -> -1.
    assert elo_update(rating_a=1000, rating_b=1000, score_a=1, k=1) == (1001, 999)
    assert elo_update(rating_a=1000, rating_b=1000, score_a=0, k=1) == (999, 1001)


def test_elo_change_is_the_winners_delta() -> None:
    assert elo_change(winner_rating=1000, loser_rating=1000) == 16
    assert elo_change(winner_rating=1000, loser_rating=1400) == 29
    assert elo_change(winner_rating=1400, loser_rating=1000) == 3
    assert elo_change(winner_rating=1000, loser_rating=1000, k=10) == 5


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"score_a": 0.7}, ValueError, "score_a must be 1, 0.5 or 0"),
        ({"score_a": 2}, ValueError, "score_a must be 1, 0.5 or 0"),
        ({"score_a": True}, TypeError, "score_a"),
        ({"score_a": "1"}, TypeError, "score_a"),
        ({"score_a": 1, "k": 0}, ValueError, "k must be positive"),
        ({"score_a": 1, "rating_a": 1000.0}, TypeError, "rating_a must be an int"),
    ],
)
def test_bad_arguments(kwargs: dict[str, object], error: type[Exception], message: str) -> None:
    args: dict[str, object] = {"rating_a": 1000, "rating_b": 1100, **kwargs}
    with pytest.raises(error, match=message):
        elo_update(**args)  # type: ignore[arg-type]


ratings = st.integers(0, 3000)
scores = st.sampled_from([0, 0.5, 1])
ks = st.integers(1, 64)


@given(a=ratings, b=ratings, score=scores, k=ks)
def test_pool_is_conserved_and_swapping_mirrors(a: int, b: int, score: float, k: int) -> None:
    new_a, new_b = elo_update(rating_a=a, rating_b=b, score_a=score, k=k)
    assert new_a + new_b == a + b
    assert abs(new_a - a) <= k
    assert elo_update(rating_a=b, rating_b=a, score_a=1 - score, k=k) == (new_b, new_a)


@given(a=ratings, b=ratings, k=ks)
def test_winner_never_loses_and_loser_never_gains(a: int, b: int, k: int) -> None:
    new_a, new_b = elo_update(rating_a=a, rating_b=b, score_a=1, k=k)
    assert new_a >= a
    assert new_b <= b
    assert elo_change(winner_rating=a, loser_rating=b, k=k) == new_a - a


@given(a=ratings, b=ratings, k=ks)
def test_change_is_the_rounded_exact_value(a: int, b: int, k: int) -> None:
    exact = k * (1 - expected_score(a, b))
    assert abs(elo_change(winner_rating=a, loser_rating=b, k=k) - exact) <= 0.5 + 1e-9


@given(a=ratings, b=ratings, gap=st.integers(1, 500), k=ks)
def test_beating_a_stronger_player_earns_at_least_as_much(a: int, b: int, gap: int, k: int) -> None:
    assert elo_change(winner_rating=a, loser_rating=b + gap, k=k) >= elo_change(
        winner_rating=a, loser_rating=b, k=k
    )
