"""Club cup scoring (pure, no database)."""

from decimal import Decimal

import pytest

from tournaments.algorithms.series import StagePlace, place_points, series_standings

D = Decimal
TABLE = [25, 20, 16, 13, 11, 10, 9, 8]


def test_a_single_place_earns_its_points() -> None:
    assert place_points(first=1, last=1, table=TABLE) == D(25)
    assert place_points(first=9, last=9, table=TABLE, participation=2) == D(2)


def test_shared_places_get_the_average_of_their_points() -> None:
    assert place_points(first=3, last=4, table=TABLE) == D("14.50")
    assert place_points(first=5, last=8, table=TABLE) == D("9.50")
    # Part of the shared places past the table: those earn the participation points.
    assert place_points(first=7, last=10, table=TABLE, participation=1) == D("4.75")
    assert place_points(first=1, last=3, table=[10, 5, 5]) == D("6.67")


def test_bad_places_are_refused() -> None:
    with pytest.raises(ValueError):
        place_points(first=0, last=1, table=TABLE)
    with pytest.raises(ValueError):
        series_standings(stages=[], table=TABLE, best_of=0)


def test_best_k_of_n_counts_only_the_best_stages() -> None:
    stages = [
        [StagePlace(1, 1, (1,)), StagePlace(2, 2, (2,))],
        [StagePlace(1, 1, (2,)), StagePlace(2, 2, (1,))],
        [StagePlace(1, 1, (2,)), StagePlace(2, 2, (3,))],
    ]
    rows = series_standings(stages=stages, table=TABLE, best_of=2)
    by_player = {r.player: r for r in rows}
    assert by_player[2].total == D(50)  # 25 + 25, his 20 does not count
    assert by_player[2].all_total == D(70)
    assert [s.counted for _, s in sorted(by_player[2].stages.items())] == [False, True, True]
    assert by_player[1].total == D(45)
    assert [r.player for r in rows] == [2, 1, 3]
    assert [r.place for r in rows] == [1, 2, 3]


def test_without_best_of_every_stage_counts() -> None:
    stages = [[StagePlace(1, 1, (1,))], [StagePlace(1, 1, (1,))]]
    (row,) = series_standings(stages=stages, table=TABLE)
    assert row.total == row.all_total == D(50)


def test_equal_best_k_is_broken_by_the_sum_of_all_stages() -> None:
    stages = [
        [StagePlace(1, 1, (1,)), StagePlace(2, 2, (2,))],
        [StagePlace(1, 1, (2,)), StagePlace(3, 3, (1,))],
    ]
    rows = series_standings(stages=stages, table=TABLE, best_of=1)
    assert rows[0].total == rows[1].total == D(25)
    assert [r.player for r in rows] == [2, 1]  # 45 against 41 over both stages


def test_then_by_countback_of_places() -> None:
    # 1: 1st + 4th (25 + 13 = 38); 2: 2nd + 3rd... 20 + 16 = 36: not equal. Build a real tie:
    table = [10, 6, 4, 0]
    stages = [
        [StagePlace(1, 1, (1,)), StagePlace(2, 2, (2,)), StagePlace(4, 4, (3,))],
        [StagePlace(2, 2, (3,)), StagePlace(3, 3, (2,)), StagePlace(4, 4, (1,))],
        [StagePlace(1, 1, (3,))],
    ]
    rows = series_standings(stages=stages, table=table)
    totals = {r.player: r.total for r in rows}
    assert totals == {1: D(10), 2: D(10), 3: D(16)}
    assert [r.player for r in rows] == [3, 1, 2]  # 1 has a first place, 2 has none


def test_then_by_the_latest_stage_and_else_a_shared_place() -> None:
    stages = [
        [StagePlace(1, 1, (1,)), StagePlace(2, 2, (2,))],
        [StagePlace(1, 1, (2,)), StagePlace(2, 2, (1,))],
    ]
    rows = series_standings(stages=stages, table=TABLE)
    assert [r.player for r in rows] == [2, 1]  # better in the latest stage
    assert [r.place for r in rows] == [1, 2]
    shared = series_standings(stages=[[StagePlace(3, 4, (7, 8))]], table=TABLE)
    assert [r.place for r in shared] == [1, 1]
    assert all(r.shared for r in shared)
    assert shared[0].stages[0].label == "3–4"
