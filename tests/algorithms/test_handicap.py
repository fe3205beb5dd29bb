"""Handicap schemes: rating difference to head start (pure, no database)."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.algorithms.handicap import (
    SCHEMES,
    HandicapResult,
    NoHandicap,
    PairScheme,
    RaceScheme,
    Scheme,
    compute_handicap,
    get_scheme,
    scheme_from_json,
    scheme_to_json,
)

LLB_1 = get_scheme("llb_1")
LLB_4 = get_scheme("llb_4")


# --- race scheme --------------------------------------------------------------


@pytest.mark.parametrize(
    ("diff", "head_start"),
    [(0, 0), (49, 0), (50, 2), (99, 2), (100, 4), (149, 4), (299, 10), (300, 12), (1000, 12)],
)
def test_race_two_balls_per_fifty_points(diff: int, head_start: int) -> None:
    result = compute_handicap(
        scheme=RaceScheme(), rating_a=1000 + diff, rating_b=1000, balls_to_win=30
    )
    assert result.balls_to_win == 30
    assert result.head_start == {"a": 0, "b": head_start}
    assert result.diff == diff


def test_weaker_player_a_gets_the_head_start() -> None:
    result = compute_handicap(scheme=RaceScheme(), rating_a=800, rating_b=960, balls_to_win=30)
    assert result == HandicapResult(
        balls_to_win=30, head_start={"a": 6, "b": 0}, stronger="b", diff=160
    )


def test_head_start_fits_the_race() -> None:
    # The scheme is for a race to 30: 600 points give 12 there. A race to 8 scales it
    # (12 × 8 / 30 = 3.2, rounded down to 3), never past half the race minus one (3).
    result = compute_handicap(scheme=RaceScheme(), rating_a=700, rating_b=1300, balls_to_win=8)
    assert result.head_start == {"a": 3, "b": 0}
    result = compute_handicap(scheme=RaceScheme(), rating_a=700, rating_b=1300, balls_to_win=30)
    assert result.head_start == {"a": 12, "b": 0}
    result = compute_handicap(scheme=RaceScheme(), rating_a=700, rating_b=1300, balls_to_win=15)
    assert result.head_start == {"a": 6, "b": 0}
    # 160 points: 6 at 30, 6 × 8 / 30 = 1.6 → 1 in a race to 8.
    result = compute_handicap(scheme=RaceScheme(), rating_a=800, rating_b=960, balls_to_win=8)
    assert result.head_start == {"a": 1, "b": 0}
    result = compute_handicap(scheme=RaceScheme(), rating_a=700, rating_b=1300, balls_to_win=1)
    assert result.head_start == {"a": 0, "b": 0}


@given(
    scheme=st.builds(
        RaceScheme,
        step=st.integers(1, 200),
        balls_per_step=st.integers(0, 5),
        cap=st.integers(0, 40),
        base=st.integers(1, 60),
    ),
    diff=st.integers(0, 3000),
    race=st.integers(1, 60),
)
def test_a_race_scheme_never_gives_half_the_race(scheme: RaceScheme, diff: int, race: int) -> None:
    head = compute_handicap(scheme=scheme, rating_a=0, rating_b=diff, balls_to_win=race)
    at_base = min(scheme.cap, diff // scheme.step * scheme.balls_per_step)
    assert 0 <= head.head_start["a"] <= max(0, race // 2 - 1)
    assert head.head_start["a"] <= at_base * race // scheme.base or race == scheme.base


def test_equal_ratings_give_no_head_start() -> None:
    for scheme in (RaceScheme(), LLB_1, LLB_4, NoHandicap()):
        balls = 8 if isinstance(scheme, PairScheme) else 30
        result = compute_handicap(scheme=scheme, rating_a=900, rating_b=900, balls_to_win=balls)
        assert result == HandicapResult(
            balls_to_win=balls, head_start={"a": 0, "b": 0}, stronger=None, diff=0
        )


def test_custom_race_scheme() -> None:
    scheme = RaceScheme(step=25, balls_per_step=1, cap=5)
    result = compute_handicap(scheme=scheme, rating_a=1000, rating_b=940, balls_to_win=30)
    assert result.head_start == {"a": 0, "b": 2}
    result = compute_handicap(scheme=scheme, rating_a=1000, rating_b=500, balls_to_win=30)
    assert result.head_start == {"a": 0, "b": 5}


# --- pair schemes -------------------------------------------------------------


@pytest.mark.parametrize(
    ("diff", "target", "head_start"),
    [
        (0, 8, 0),
        (49, 8, 0),
        (50, 8, 1),  # 8-7
        (100, 9, 2),  # 9-7
        (150, 9, 3),  # 9-6
        (200, 10, 4),  # 10-6
        (250, 10, 5),  # 10-5
        (300, 11, 6),  # 11-5
        (349, 11, 6),
        (900, 11, 6),  # capped at the last pair
    ],
)
def test_llb_1(diff: int, target: int, head_start: int) -> None:
    result = compute_handicap(scheme=LLB_1, rating_a=800, rating_b=800 + diff, balls_to_win=8)
    assert result.balls_to_win == target
    assert result.head_start == {"a": head_start, "b": 0}
    assert result.stronger == ("b" if diff else None)


@pytest.mark.parametrize(
    ("diff", "head_start"),
    [(0, 0), (99, 0), (100, 1), (200, 2), (300, 3), (400, 4), (550, 4)],
)
def test_llb_4_plays_to_8(diff: int, head_start: int) -> None:
    result = compute_handicap(scheme=LLB_4, rating_a=800 + diff, rating_b=800, balls_to_win=8)
    assert result.balls_to_win == 8
    assert result.head_start == {"a": 0, "b": head_start}


def test_small_difference_has_a_stronger_player_but_no_head_start() -> None:
    result = compute_handicap(scheme=LLB_4, rating_a=850, rating_b=800, balls_to_win=8)
    assert result == HandicapResult(
        balls_to_win=8, head_start={"a": 0, "b": 0}, stronger="a", diff=50
    )


def test_pair_scheme_refuses_another_race_length() -> None:
    with pytest.raises(ValueError, match="'llb_1' is for races to 8, not 30"):
        compute_handicap(scheme=LLB_1, rating_a=800, rating_b=900, balls_to_win=30)


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"name": "x", "step": 0, "pairs": [(8, 7)]}, ValueError, "step must be positive"),
        ({"name": "x", "step": 50, "pairs": []}, ValueError, "at least one pair"),
        ({"name": "x", "step": 50, "pairs": [(7, 8)]}, ValueError, r"pair 1 \(7-8\)"),
        ({"name": "x", "step": 50, "pairs": [(8, 0)]}, ValueError, r"pair 1 \(8-0\)"),
        ({"name": "x", "step": 50, "pairs": [(8, 7, 6)]}, ValueError, "must be"),
        ({"name": "", "step": 50, "pairs": [(8, 7)]}, ValueError, "name"),
        ({"name": "x", "step": 50.0, "pairs": [(8, 7)]}, TypeError, "step must be an int"),
    ],
)
def test_bad_pair_schemes(kwargs: dict[str, object], error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        PairScheme(**kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [({"step": 0}, "step"), ({"balls_per_step": -1}, "balls_per_step"), ({"cap": -1}, "cap")],
)
def test_bad_race_schemes(kwargs: dict[str, int], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        RaceScheme(**kwargs)


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="balls_to_win must be at least 1"):
        compute_handicap(scheme=RaceScheme(), rating_a=1, rating_b=2, balls_to_win=0)
    with pytest.raises(TypeError, match="rating_a must be an int"):
        compute_handicap(scheme=RaceScheme(), rating_a=1.5, rating_b=2, balls_to_win=8)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="unknown handicap scheme"):
        compute_handicap(scheme="llb_1", rating_a=1, rating_b=2, balls_to_win=8)  # type: ignore[arg-type]


def test_no_handicap_scheme() -> None:
    result = compute_handicap(
        scheme=get_scheme("none"), rating_a=700, rating_b=1200, balls_to_win=30
    )
    assert result == HandicapResult(
        balls_to_win=30, head_start={"a": 0, "b": 0}, stronger="b", diff=500
    )


# --- presets and JSON -----------------------------------------------------------


def test_presets() -> None:
    assert set(SCHEMES) == {"race_2_per_50", "llb_1", "llb_4", "none"}
    assert get_scheme("race_2_per_50") == RaceScheme(step=50, balls_per_step=2, cap=12)
    assert get_scheme("llb_1") == PairScheme(
        name="llb_1", step=50, pairs=[(8, 7), (9, 7), (9, 6), (10, 6), (10, 5), (11, 5)]
    )
    assert get_scheme("llb_4") == PairScheme(
        name="llb_4", step=100, pairs=[(8, 7), (8, 6), (8, 5), (8, 4)]
    )
    for slug, preset in SCHEMES.items():
        assert preset.slug == slug
        assert preset.title.isascii()


def test_unknown_preset() -> None:
    with pytest.raises(ValueError, match="unknown handicap scheme 'llb_9'"):
        get_scheme("llb_9")


@pytest.mark.parametrize("slug", sorted(SCHEMES))
def test_presets_round_trip_through_json(slug: str) -> None:
    scheme = get_scheme(slug)
    text = json.dumps(scheme_to_json(scheme))
    assert scheme_from_json(json.loads(text)) == scheme
    assert type(scheme).from_json(json.loads(text)) == scheme


def test_pair_scheme_json_shape() -> None:
    assert LLB_4.to_json() == {
        "type": "pairs",
        "name": "llb_4",
        "step": 100,
        "pairs": [[8, 7], [8, 6], [8, 5], [8, 4]],
        "base": 8,
    }


@pytest.mark.parametrize(
    ("data", "error", "message"),
    [
        ([], TypeError, "must be an object"),
        ({"type": "elo"}, ValueError, "unknown handicap scheme type 'elo'"),
        ({"type": "race", "step": 50}, ValueError, "missing 'balls_per_step'"),
        (
            {"type": "pairs", "name": "x", "step": 50, "pairs": "8-7"},
            ValueError,
            "pairs must be a list",
        ),
        (
            {"type": "race", "step": "50", "balls_per_step": 2, "cap": 12},
            TypeError,
            "step must be an int",
        ),
    ],
)
def test_bad_json(data: object, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        scheme_from_json(data)


def test_from_json_checks_the_type() -> None:
    with pytest.raises(ValueError, match="expected a scheme of type 'race'"):
        RaceScheme.from_json({"type": "none"})


def test_result_to_json() -> None:
    result = compute_handicap(scheme=RaceScheme(), rating_a=800, rating_b=900, balls_to_win=30)
    assert result.to_json() == {
        "balls_to_win": 30,
        "head_start": {"a": 4, "b": 0},
        "stronger": "b",
        "diff": 100,
    }


# --- properties -------------------------------------------------------------------

ratings = st.integers(0, 2500)
race_schemes = st.builds(
    RaceScheme, step=st.integers(1, 200), balls_per_step=st.integers(0, 5), cap=st.integers(0, 40)
)
pair_schemes = st.builds(
    PairScheme,
    name=st.just("custom"),
    step=st.integers(1, 200),
    pairs=st.lists(
        st.tuples(st.integers(1, 20), st.integers(0, 10)).map(lambda p: (p[0] + p[1], p[0])),
        min_size=1,
        max_size=8,
    ),
)
schemes: st.SearchStrategy[Scheme] = st.one_of(race_schemes, pair_schemes, st.just(NoHandicap()))


@given(scheme=schemes, a=ratings, b=ratings, race=st.integers(1, 60))
def test_only_the_weaker_player_gets_a_head_start_and_swapping_mirrors(
    scheme: Scheme, a: int, b: int, race: int
) -> None:
    if isinstance(scheme, PairScheme):
        race = scheme.base
    result = compute_handicap(scheme=scheme, rating_a=a, rating_b=b, balls_to_win=race)
    assert result.diff == abs(a - b)
    assert min(result.head_start.values()) >= 0
    assert max(result.head_start.values()) < result.balls_to_win
    if a >= b:
        assert result.head_start["a"] == 0
    if b >= a:
        assert result.head_start["b"] == 0
    swapped = compute_handicap(scheme=scheme, rating_a=b, rating_b=a, balls_to_win=race)
    assert swapped.head_start == {"a": result.head_start["b"], "b": result.head_start["a"]}
    assert swapped.balls_to_win == result.balls_to_win
    assert scheme_from_json(json.loads(json.dumps(scheme_to_json(scheme)))) == scheme


@given(
    scheme=race_schemes, a=ratings, b=ratings, extra=st.integers(0, 500), race=st.integers(1, 60)
)
def test_race_head_start_never_shrinks_as_the_gap_grows(
    scheme: RaceScheme, a: int, b: int, extra: int, race: int
) -> None:
    low, high = sorted((a, b))
    near = compute_handicap(scheme=scheme, rating_a=low, rating_b=high, balls_to_win=race)
    far = compute_handicap(scheme=scheme, rating_a=low - extra, rating_b=high, balls_to_win=race)
    assert far.head_start["a"] >= near.head_start["a"]
    # The cap is the scheme's at its own race, scaled like every head start to another.
    assert far.head_start["a"] <= max(scheme.cap, scheme.cap * race // scheme.base)
