"""Prize pool and prize split (pure, no database)."""

import itertools
from collections.abc import Hashable, Sequence
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.algorithms.prizes import PlaceAward, prize_pool, split_prizes

D = Decimal
REGULATION = [D(45), D(30), D(25)]


# --- prize_pool ---------------------------------------------------------------


def test_pool_is_seventy_percent_of_paid_fees() -> None:
    assert prize_pool(paid_fees=[D(1000)] * 20, percent=D(70)) == D(14000)


def test_pool_accepts_the_total_of_fees() -> None:
    assert prize_pool(paid_fees=D(20000), percent=D(70)) == D(14000)


def test_pool_is_rounded_down_to_the_unit() -> None:
    # 70% of 1015 is 710.5: the club never promises the half rouble.
    assert prize_pool(paid_fees=[D(1000), D(15)], percent=D(70)) == D(710)
    assert prize_pool(paid_fees=D(1015), percent=D(70), unit=D(100)) == D(700)
    assert prize_pool(paid_fees=D("1015.55"), percent=D(70), unit=D("0.01")) == D("710.88")


def test_added_money_is_added_after_rounding() -> None:
    assert prize_pool(paid_fees=D(1015), percent=D(70), added=D(5000)) == D(5710)
    assert prize_pool(paid_fees=D(1015), percent=D(70), added=D("0.5")) == D("710.5")


def test_pool_with_no_fees() -> None:
    assert prize_pool(paid_fees=[], percent=D(70)) == D(0)
    assert prize_pool(paid_fees=[], percent=D(70), added=D(3000)) == D(3000)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"paid_fees": [D(1000), 1000.0], "percent": D(70)},
        {"paid_fees": 1000.0, "percent": D(70)},
        {"paid_fees": D(1000), "percent": 70.0},
        {"paid_fees": D(1000), "percent": D(70), "added": 0.5},
        {"paid_fees": D(1000), "percent": D(70), "unit": 0.01},
        {"paid_fees": D(1000), "percent": True},
    ],
)
def test_pool_refuses_floats(kwargs: dict[str, object]) -> None:
    with pytest.raises(TypeError, match="must be a Decimal"):
        prize_pool(**kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"paid_fees": [D(-1)], "percent": D(70)}, "paid fee #1 must not be negative"),
        ({"paid_fees": D(1), "percent": D(101)}, "between 0 and 100"),
        ({"paid_fees": D(1), "percent": D(-1)}, "percent must not be negative"),
        ({"paid_fees": D(1), "percent": D(70), "added": D(-1)}, "added must not be negative"),
        ({"paid_fees": D(1), "percent": D(70), "unit": D(0)}, "unit must be positive"),
        ({"paid_fees": D("NaN"), "percent": D(70)}, "finite"),
    ],
)
def test_pool_refuses_bad_values(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        prize_pool(**kwargs)  # type: ignore[arg-type]


def test_int_money_is_accepted_as_exact() -> None:
    assert prize_pool(paid_fees=[1000, 1000], percent=70, added=0) == D(1400)  # type: ignore[arg-type, list-item]


# --- split_prizes: places -------------------------------------------------------


def amounts(pool: Decimal, shares: Sequence[Decimal], unit: Decimal = Decimal(1)) -> list[Decimal]:
    return [a.total for a in split_prizes(pool=pool, shares=shares, unit=unit).awards]


def test_regulation_split_45_30_25() -> None:
    split = split_prizes(pool=D(14000), shares=REGULATION)
    assert split.awards == [
        PlaceAward(1, 1, (), D(6300), D(6300)),
        PlaceAward(2, 2, (), D(4200), D(4200)),
        PlaceAward(3, 3, (), D(3500), D(3500)),
    ]
    assert split.by_player == {}
    assert split.total == D(14000)


def test_leftover_units_go_to_higher_places_first() -> None:
    # 45/30/25 of 1001 = 450.45 / 300.30 / 250.25: one leftover rouble, to 1st.
    assert amounts(D(1001), REGULATION) == [D(451), D(300), D(250)]
    # Thirds of 100: 33.33 each, one leftover to 1st.
    third = D(100) / 3
    shares = [D(34), D(33), D(33)]
    assert amounts(D(100), shares) == [D(34), D(33), D(33)]
    assert sum(amounts(D(101), [third, third, D(100) - 2 * third])) == D(101)
    # 2 leftover units: 1st and 2nd.
    assert amounts(D(11), [D(40), D(30), D(30)]) == [D(5), D(3), D(3)]


def test_rounding_unit_of_a_hundred() -> None:
    # 45/30/25 of 7105: 3197.25 / 2131.5 / 1776.25 -> 3100 / 2100 / 1700, then the
    # 200 left over (two units of 100) to 1st and 2nd, and the sub-unit 5 to 1st.
    assert amounts(D(7105), REGULATION, unit=D(100)) == [D(3205), D(2200), D(1700)]


def test_sub_unit_remainder_goes_to_first_place() -> None:
    assert amounts(D("1000.50"), REGULATION) == [D("450.50"), D(300), D(250)]


def test_kopeck_unit() -> None:
    assert amounts(
        D("100.00"), [D(100) / 3 * 0 + D("33.33"), D("33.33"), D("33.34")], D("0.01")
    ) == [
        D("33.33"),
        D("33.33"),
        D("33.34"),
    ]


def test_zero_share_places_get_nothing_and_no_leftover() -> None:
    # 3 leftover units from 1st-3rd must not reach the 0% 4th place.
    assert amounts(D(10), [D(35), D(35), D(30), D(0)]) == [D(4), D(3), D(3), D(0)]


def test_zero_pool() -> None:
    assert amounts(D(0), REGULATION) == [D(0), D(0), D(0)]


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"pool": D(100), "shares": [D(50), D(40)]}, ValueError, "add up to 100"),
        ({"pool": D(100), "shares": []}, ValueError, "add up to 100"),
        ({"pool": D(100), "shares": [D(110), D(-10)]}, ValueError, "place 2 must not be negative"),
        ({"pool": D(-1), "shares": [D(100)]}, ValueError, "pool must not be negative"),
        ({"pool": 100.0, "shares": [D(100)]}, TypeError, "pool must be a Decimal"),
        ({"pool": D(100), "shares": [50.0, D(50)]}, TypeError, "place 1 must be a Decimal"),
        ({"pool": D(100), "shares": [D(100)], "unit": D(-1)}, ValueError, "unit must be positive"),
    ],
)
def test_split_refuses_bad_input(
    kwargs: dict[str, object], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        split_prizes(**kwargs)  # type: ignore[arg-type]


# --- split_prizes: players and shared places -----------------------------------


def test_players_on_single_places() -> None:
    split = split_prizes(
        pool=D(14000), shares=REGULATION, places=[(1, 1, ["ann"]), (2, 2, ["bob"]), (3, 3, ["cid"])]
    )
    assert split.by_player == {"ann": D(6300), "bob": D(4200), "cid": D(3500)}
    assert [a.players for a in split.awards] == [("ann",), ("bob",), ("cid",)]


def test_two_players_tied_for_third_share_third_place_money() -> None:
    # No third-place match: both semi-final losers are 3-4; only place 3 pays.
    split = split_prizes(
        pool=D(1001),
        shares=REGULATION,
        places=[(1, 1, ["ann"]), (2, 2, ["bob"]), (3, 4, ["cid", "dan"])],
    )
    third = split.awards[2]
    assert third == PlaceAward(
        3, 4, ("cid", "dan"), D(125), D(250), (D(125), D(125)), paid=(True, True)
    )
    assert split.by_player == {"ann": D(451), "bob": D(300), "cid": D(125), "dan": D(125)}


def test_shared_places_leftover_units_go_in_the_order_given() -> None:
    # 2nd+3rd of 1000 = 300 + 250 = 550 -> 275 each; of 1003 -> 301+250 = 551.
    split = split_prizes(
        pool=D(1003), shares=REGULATION, places=[(1, 1, ["ann"]), (2, 3, ["dan", "bob"])]
    )
    shared = split.awards[1]
    assert shared.total == D(551)
    assert shared.amount_each == D(275)
    assert shared.amounts == (D(276), D(275))
    assert split.by_player == {"ann": D(452), "dan": D(276), "bob": D(275)}


def test_three_way_tie_with_leftovers() -> None:
    split = split_prizes(pool=D(100), shares=[D(100)], places=[(1, 3, ["x", "y", "z"])])
    assert split.by_player == {"x": D(34), "y": D(33), "z": D(33)}


def test_places_without_share_are_listed_only_if_given() -> None:
    split = split_prizes(
        pool=D(1000),
        shares=REGULATION,
        places=[(1, 1, [1]), (2, 2, [2]), (3, 3, [3]), (5, 8, [5, 6, 7, 8])],
    )
    assert [(a.first, a.last) for a in split.awards] == [(1, 1), (2, 2), (3, 3), (5, 8)]
    assert split.awards[-1].total == D(0)
    assert split.by_player[8] == D(0)


def test_undecided_prize_places_stay_listed_without_players() -> None:
    # Only the final has been played: 3rd place is still open.
    split = split_prizes(pool=D(1000), shares=REGULATION, places=[(2, 2, ["bob"]), (1, 1, ["ann"])])
    assert [(a.first, a.players, a.total) for a in split.awards] == [
        (1, ("ann",), D(450)),
        (2, ("bob",), D(300)),
        (3, (), D(250)),
    ]
    assert split.total == D(1000)


def test_half_decided_shared_place_pays_the_known_player_and_reserves_the_rest() -> None:
    # Between the two semi-finals: one loser of 3-4 is known.
    split = split_prizes(pool=D(1001), shares=REGULATION, places=[(3, 4, ["cid"])])
    third = split.awards[2]
    assert (third.players, third.amounts, third.pending) == (("cid",), (D(125),), D(125))
    assert split.by_player == {"cid": D(125)}
    assert split.pending_total == D(1001) - D(125)
    assert split.total == D(1001)


def test_the_known_player_keeps_his_amount_when_the_place_completes() -> None:
    half = split_prizes(pool=D(1000), shares=REGULATION, places=[(2, 3, ["bob"])])
    full = split_prizes(pool=D(1000), shares=REGULATION, places=[(2, 3, ["bob", "dan"])])
    assert half.by_player["bob"] == full.by_player["bob"] == D(275)
    assert half.awards[1].pending == full.by_player["dan"]


def test_withheld_player_keeps_his_place_and_his_money_is_not_paid() -> None:
    split = split_prizes(
        pool=D(1000),
        shares=REGULATION,
        places=[(1, 1, ["ann"]), (2, 2, ["bob"]), (3, 4, ["cid", "dan"])],
        withheld={"dan"},
    )
    third = split.awards[2]
    assert third.players == ("cid", "dan")
    assert third.paid == (True, False)
    assert third.withheld == D(125)
    assert third.paid_total == D(125)
    assert split.by_player == {"ann": D(450), "bob": D(300), "cid": D(125)}
    assert split.paid_total + split.withheld_total == D(1000)
    assert split.pending_total == D(0)


def test_more_players_than_places_is_refused() -> None:
    with pytest.raises(ValueError, match="span 1 place"):
        split_prizes(pool=D(100), shares=REGULATION, places=[(1, 1, ["a", "b"])])


@pytest.mark.parametrize(
    ("places", "message"),
    [
        ([(0, 0, ["a"])], "invalid place range 0-0"),
        ([(3, 2, ["a"])], "invalid place range 3-2"),
        ([(3, 4, ["a", "b", "c"])], "span 2 place"),
        ([(1, 1, ["a"]), (2, 2, ["a"])], "'a' is listed in more than one place"),
        ([(1, 2, ["a", "b"]), (2, 2, ["c"])], "1-2 and 2-2 overlap"),
    ],
)
def test_bad_places_are_refused(places: list[tuple[int, int, list[str]]], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        split_prizes(pool=D(100), shares=REGULATION, places=places)


# --- properties -------------------------------------------------------------------

units = st.sampled_from([D("0.01"), D(1), D(10), D(50), D(100)])
pools = st.decimals(min_value=0, max_value=10**7, places=2, allow_nan=False, allow_infinity=False)


@st.composite
def share_lists(draw: st.DrawFn, *, non_increasing: bool = False) -> list[Decimal]:
    """Percent shares with two decimals adding up to exactly 100."""
    cuts = draw(st.lists(st.integers(0, 10000), max_size=9))
    bounds = [0, *sorted(cuts), 10000]
    basis_points = [high - low for low, high in itertools.pairwise(bounds)]
    if non_increasing:
        basis_points.sort(reverse=True)
    return [D(bp) / 100 for bp in basis_points]


def is_multiple(amount: Decimal, unit: Decimal) -> bool:
    return amount % unit == 0


@given(pool=pools, shares=share_lists(), unit=units)
def test_place_amounts_add_up_exactly_and_respect_the_unit(
    pool: Decimal, shares: list[Decimal], unit: Decimal
) -> None:
    split = split_prizes(pool=pool, shares=shares, unit=unit)
    assert split.total == pool
    assert len(split.awards) == len(shares)
    assert all(a.total >= 0 for a in split.awards)
    assert all(is_multiple(a.total, unit) for a in split.awards[1:])
    assert is_multiple(split.awards[0].total - pool % unit, unit)


@given(pool=pools, shares=share_lists(non_increasing=True), unit=units)
def test_higher_place_never_gets_less(pool: Decimal, shares: list[Decimal], unit: Decimal) -> None:
    totals = [a.total for a in split_prizes(pool=pool, shares=shares, unit=unit).awards]
    assert totals == sorted(totals, reverse=True)


@given(pool=pools, shares=share_lists(), unit=units)
def test_each_place_is_within_a_unit_of_its_exact_share(
    pool: Decimal, shares: list[Decimal], unit: Decimal
) -> None:
    split = split_prizes(pool=pool, shares=shares, unit=unit)
    for award, share in zip(split.awards[1:], shares[1:], strict=True):
        # At most one leftover unit on top of the rounded-down share.
        assert abs(award.total - pool * share / 100) <= unit


@st.composite
def standings(draw: st.DrawFn) -> list[tuple[int, int, Sequence[Hashable]]]:
    """Consecutive place groups from 1st, as after a bracket with shared places."""
    sizes = draw(st.lists(st.integers(1, 4), min_size=1, max_size=8))
    places: list[tuple[int, int, Sequence[Hashable]]] = []
    first = 1
    for size in sizes:
        last = first + size - 1
        places.append((first, last, [f"p{n}" for n in range(first, last + 1)]))
        first = last + 1
    return places


@given(
    pool=pools,
    shares=share_lists(non_increasing=True),
    unit=units,
    places=standings(),
)
def test_players_get_the_whole_pool_in_place_order(
    pool: Decimal,
    shares: list[Decimal],
    unit: Decimal,
    places: list[tuple[int, int, Sequence[Hashable]]],
) -> None:
    split = split_prizes(pool=pool, shares=shares, unit=unit, places=places)
    assert split.total == pool
    covered = places[-1][1]
    paid = sum(split.by_player.values(), D(0))
    unassigned = sum((a.total for a in split.awards if not a.players), D(0))
    assert paid + unassigned == pool
    if covered >= len(shares):
        assert paid == pool
    # Unit respected: only the sub-unit rest, on the first player, is off the grid.
    first_player = places[0][2][0]
    for player, amount in split.by_player.items():
        rest = pool % unit if player == first_player else D(0)
        assert is_multiple(amount - rest, unit)
    # A player never gets more than anyone placed above him.
    for above, below in itertools.pairwise(places):
        assert min(split.by_player[p] for p in above[2]) >= max(
            split.by_player[p] for p in below[2]
        )
    # Members of one group differ by at most one unit (plus the sub-unit rest).
    for award in split.awards:
        if award.players:
            assert sum(award.amounts, D(0)) == award.total
            assert max(award.amounts) - award.amount_each <= unit + pool % unit
            assert min(award.amounts) == award.amount_each


@given(
    pool=pools,
    shares=share_lists(non_increasing=True),
    unit=units,
    places=standings(),
    data=st.data(),
)
def test_partial_standings_never_raise_and_keep_the_pool(
    pool: Decimal,
    shares: list[Decimal],
    unit: Decimal,
    places: list[tuple[int, int, Sequence[Hashable]]],
    data: st.DataObject,
) -> None:
    # Any subset of the players known, any of them withheld: paid + pending + withheld = pool,
    # and a known player's amount is the one he has once everything is decided.
    full = split_prizes(pool=pool, shares=shares, unit=unit, places=places)
    partial = []
    for first, last, members in places:
        known = data.draw(st.integers(min_value=0, max_value=len(members)))
        if known:
            partial.append((first, last, list(members)[:known]))
    everyone = [p for _, _, members in partial for p in members]
    withheld = (
        set(data.draw(st.lists(st.sampled_from(everyone), unique=True))) if everyone else set()
    )
    split = split_prizes(pool=pool, shares=shares, unit=unit, places=partial, withheld=withheld)
    assert split.total == pool
    assert split.paid_total + split.pending_total + split.withheld_total == pool
    assert sum(split.by_player.values(), D(0)) == split.paid_total
    for player, amount in split.by_player.items():
        assert amount == full.by_player[player]
    assert not withheld & set(split.by_player)
