"""Entry-fee schemes: flat and rating-banded fees (pure, no database)."""

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.algorithms.fees import (
    FeeBand,
    InvalidFeeBands,
    bands_from_json,
    bands_to_json,
    fee_for_rating,
    validate_bands,
)

D = Decimal

LLB_BANDS = [
    FeeBand(None, 699, D("800")),
    FeeBand(700, 849, D("1000")),
    FeeBand(850, 999, D("1300")),
    FeeBand(1000, None, D("1500")),
]


@pytest.mark.parametrize(
    ("rating", "fee"),
    [
        (0, "800"),
        (699, "800"),
        (700, "1000"),
        (849, "1000"),
        (850, "1300"),
        (999, "1300"),
        (1000, "1500"),
        (2500, "1500"),
    ],
)
def test_banded_fee_uses_inclusive_bounds(rating: int, fee: str) -> None:
    assert fee_for_rating(rating=rating, flat_fee=None, bands=LLB_BANDS) == D(fee)


def test_bands_win_over_flat_fee() -> None:
    assert fee_for_rating(rating=750, flat_fee=D("500"), bands=LLB_BANDS) == D("1000")


def test_flat_fee_without_bands() -> None:
    assert fee_for_rating(rating=750, flat_fee=D("700"), bands=[]) == D("700")


def test_rating_outside_every_band_is_an_error_naming_the_bands() -> None:
    bands = [FeeBand(700, 849, D("1000")), FeeBand(850, 999, D("1300"))]
    with pytest.raises(
        ValueError, match=r"rating 1200 is outside every fee band \(700-849, 850-999\)"
    ):
        fee_for_rating(rating=1200, flat_fee=None, bands=bands)


def test_rating_outside_every_band_falls_back_to_flat_fee() -> None:
    bands = [FeeBand(700, 849, D("1000"))]
    assert fee_for_rating(rating=600, flat_fee=D("900"), bands=bands) == D("900")


def test_no_scheme_at_all_is_an_error() -> None:
    with pytest.raises(ValueError, match="no fee scheme"):
        fee_for_rating(rating=800, flat_fee=None, bands=[])


def test_floats_are_refused() -> None:
    with pytest.raises(TypeError, match="fee must be a Decimal"):
        FeeBand(700, 849, 1000.0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="flat_fee must be a Decimal"):
        fee_for_rating(rating=800, flat_fee=700.0, bands=[])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="not a float"):
        bands_from_json([{"min_rating": 1, "max_rating": 2, "fee": 10.5}])


def test_int_fee_is_stored_as_decimal() -> None:
    band = FeeBand(700, 849, 1000)  # type: ignore[arg-type]
    assert isinstance(band.fee, Decimal)
    assert band.fee == D("1000")


def test_rating_bounds_must_be_ints() -> None:
    with pytest.raises(TypeError, match="min_rating"):
        FeeBand(700.0, 849, D(1))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="rating must be an int"):
        fee_for_rating(rating=True, flat_fee=D(1), bands=[])


def test_valid_bands_pass() -> None:
    validate_bands(LLB_BANDS)
    validate_bands([])
    validate_bands([FeeBand(None, None, D("0"))])


def test_overlap_is_refused_with_both_bands_named() -> None:
    bands = [FeeBand(700, 849, D("1000")), FeeBand(800, 999, D("1300"))]
    with pytest.raises(InvalidFeeBands) as info:
        validate_bands(bands)
    assert str(info.value) == (
        "band 1 (700-849, fee 1000) and band 2 (800-999, fee 1300) overlap: 800-849"
    )


def test_touching_bounds_overlap_because_bounds_are_inclusive() -> None:
    bands = [FeeBand(700, 850, D("1000")), FeeBand(850, 999, D("1300"))]
    with pytest.raises(InvalidFeeBands, match="overlap: 850-850"):
        validate_bands(bands)


def test_open_bands_overlap() -> None:
    bands = [FeeBand(None, 900, D("1000")), FeeBand(None, 800, D("900"))]
    with pytest.raises(InvalidFeeBands, match=r"overlap: up to 800"):
        validate_bands(bands)
    bands = [FeeBand(1000, None, D("1000")), FeeBand(900, None, D("900"))]
    with pytest.raises(InvalidFeeBands, match=r"overlap: 1000 and above"):
        validate_bands(bands)


def test_min_greater_than_max_and_negative_fee_are_refused_together() -> None:
    bands = [FeeBand(900, 850, D("1000")), FeeBand(1000, None, D("-5"))]
    with pytest.raises(InvalidFeeBands) as info:
        validate_bands(bands)
    assert info.value.problems == [
        "band 1 (900-850, fee 1000): min_rating 900 is greater than max_rating 850",
        "band 2 (1000 and above, fee -5): fee must not be negative",
    ]
    assert isinstance(info.value, ValueError)


def test_fee_for_rating_validates_bands() -> None:
    bands = [FeeBand(700, 849, D("1000")), FeeBand(800, 999, D("1300"))]
    with pytest.raises(InvalidFeeBands):
        fee_for_rating(rating=820, flat_fee=None, bands=bands)


def test_negative_flat_fee_is_refused() -> None:
    with pytest.raises(ValueError, match="negative"):
        fee_for_rating(rating=820, flat_fee=D("-1"), bands=[])


def test_non_band_is_refused() -> None:
    with pytest.raises(TypeError, match="band 1 must be a FeeBand"):
        validate_bands([(700, 849, D(1))])  # type: ignore[list-item]


def test_json_round_trip_uses_strings_for_money() -> None:
    bands = [FeeBand(None, 699, D("800.50")), FeeBand(700, None, D("1E+3"))]
    data = bands_to_json(bands)
    assert data == [
        {"min_rating": None, "max_rating": 699, "fee": "800.50"},
        {"min_rating": 700, "max_rating": None, "fee": "1000"},
    ]
    assert bands_from_json(data) == bands


def test_from_json_accepts_missing_bounds_as_open() -> None:
    assert bands_from_json([{"fee": "500"}]) == [FeeBand(None, None, D("500"))]


@pytest.mark.parametrize(
    ("data", "error", "message"),
    [
        ("700-849", TypeError, "must be a list"),
        ([["700", "849"]], TypeError, "band 1 must be an object"),
        ([{"min_rating": 700}], ValueError, "band 1: fee is missing"),
        ([{"fee": "abc"}], ValueError, "band 1: fee 'abc' is not a number"),
        ([{"fee": "NaN"}], ValueError, "finite"),
        ([{"fee": "1", "colour": "red"}], ValueError, r"unknown keys \['colour'\]"),
        ([{"fee": "1", "min_rating": "700"}], TypeError, "band 1: min_rating must be an int"),
        (
            [{"fee": "1", "min_rating": 5}, {"fee": "2", "max_rating": 5}],
            InvalidFeeBands,
            "overlap: 5-5",
        ),
    ],
)
def test_from_json_refuses_bad_data(data: object, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        bands_from_json(data)


@st.composite
def disjoint_bands(draw: st.DrawFn) -> list[FeeBand]:
    """Sorted, non-overlapping bands, possibly with gaps and open ends."""
    cuts = sorted(draw(st.sets(st.integers(0, 3000), min_size=2, max_size=12)))
    bands = []
    for low, high in zip(cuts[::2], cuts[1::2], strict=False):
        fee = D(draw(st.integers(0, 5000)))
        bands.append(FeeBand(low, high, fee))
    if draw(st.booleans()):
        bands[0] = FeeBand(None, bands[0].max_rating, bands[0].fee)
    if draw(st.booleans()):
        bands[-1] = FeeBand(bands[-1].min_rating, None, bands[-1].fee)
    return bands


@given(bands=disjoint_bands(), rating=st.integers(-100, 3100))
def test_fee_is_the_containing_band_or_the_fallback(bands: list[FeeBand], rating: int) -> None:
    validate_bands(bands)
    containing = [b for b in bands if b.contains(rating)]
    assert len(containing) <= 1
    fallback = D("123")
    fee = fee_for_rating(rating=rating, flat_fee=fallback, bands=bands)
    assert fee == (containing[0].fee if containing else fallback)
    assert bands_from_json(bands_to_json(bands)) == bands
