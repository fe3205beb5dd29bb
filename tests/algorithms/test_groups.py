"""Round-robin groups, their play-off and group tables (pure)."""

from __future__ import annotations

from itertools import combinations

import pytest

from tournaments.algorithms.brackets import Source
from tournaments.algorithms.groups import (
    GroupResult,
    circle_rounds,
    group_table,
    playoff_seeds,
    round_robin_groups,
)
from tournaments.algorithms.seeding import snake_groups
from tournaments.algorithms.simulation import play_out


def test_snake_groups() -> None:
    assert snake_groups(16, 4) == [[1, 8, 9, 16], [2, 7, 10, 15], [3, 6, 11, 14], [4, 5, 12, 13]]
    assert snake_groups(10, 3) == [[1, 6, 7], [2, 5, 8], [3, 4, 9, 10]]


@pytest.mark.parametrize("size", range(2, 13))
def test_circle_rounds_play_every_pair_once(size: int) -> None:
    members = [3 * i + 1 for i in range(size)]
    rounds = circle_rounds(members)
    assert len(rounds) == (size if size % 2 else size - 1)
    pairs = [p for r in rounds for p in r]
    assert sorted(pairs) == sorted(combinations(members, 2))
    for r in rounds:
        players = [s for p in r for s in p]
        assert len(players) == len(set(players))  # nobody twice in a round
        assert len(r) == size // 2  # odd: one bye, i.e. one player without a match
    assert all(a < b for a, b in pairs)


def test_circle_rounds_top_seeds_meet_last() -> None:
    assert circle_rounds([1, 2, 3, 4]) == [[(1, 4), (2, 3)], [(1, 3), (2, 4)], [(1, 2), (3, 4)]]


def test_playoff_seeds_standard_crossing() -> None:
    # A1-B2, D1-C2, B1-A2, C1-D2: winners meet runners-up of other groups.
    assert playoff_seeds(4, 2) == [(1, 1), (2, 1), (3, 1), (4, 1), (3, 2), (4, 2), (1, 2), (2, 2)]
    assert playoff_seeds(2, 2) == [(1, 1), (2, 1), (1, 2), (2, 2)]


def test_groups_16_in_4_with_2_advancing() -> None:
    b = round_robin_groups(16, groups=4, advance=2, third_place=True)
    group_matches = [m for m in b.matches if m.stage == "group"]
    assert len(group_matches) == 4 * 6
    assert group_matches[0].key == "G1-R1-1"
    assert (group_matches[0].a, group_matches[0].b) == (Source("seed", 1), Source("seed", 16))
    p1 = [(m.a.ref, m.b.ref) for m in b.matches if m.stage == "playoff" and m.round == 1]  # type: ignore[union-attr]
    assert p1 == [((1, 1), (2, 2)), ((4, 1), (3, 2)), ((2, 1), (1, 2)), ((3, 1), (4, 2))]
    playoff = [m for m in b.matches if m.stage in ("playoff", "third_place")]
    assert [m.key for m in playoff] == [
        "P1-1",
        "P1-2",
        "P1-3",
        "P1-4",
        "P2-1",
        "P2-2",
        "P3-1",
        "3RD",
    ]
    assert {m.schedule_round for m in playoff if m.round == 1 and m.stage == "playoff"} == {4}
    assert all(m.winner_to is None for m in group_matches)


@pytest.mark.parametrize(
    ("n", "groups", "advance"),
    [
        (n, g, a)
        for n in range(4, 41)
        for g in range(1, n // 2 + 1)
        for a in (1, 2, 3)
        if a <= n // g
    ],
)
def test_same_group_players_meet_as_late_as_possible(n: int, groups: int, advance: int) -> None:
    b = round_robin_groups(n, groups=groups, advance=advance)
    outcomes = play_out(b)
    qualifiers = groups * advance
    assert len(b.matches) == sum(len(m) * (len(m) - 1) // 2 for m in b.options["members"]) + max(  # type: ignore[attr-defined]
        qualifiers - 1, 0
    )
    assert len(outcomes) == len(b.matches)
    if advance == 2 and groups >= 2:
        # Two players of one group can meet only in the final.
        final = next(m for m in b.matches if m.stage == "playoff" and m.winner_to is None)
        group_of = {s: g for g, ms in enumerate(b.options["members"]) for s in ms}  # type: ignore[attr-defined]
        for m in b.matches:
            if m.stage == "playoff" and m is not final:
                w, lo = outcomes[m.key]
                assert group_of[w] != group_of[lo], (n, groups, m.key)


def test_group_size_option_and_errors() -> None:
    b = round_robin_groups(10, group_size=4, advance=2)
    assert b.options["groups"] == 3
    assert [len(m) for m in b.options["members"]] == [3, 3, 4]  # type: ignore[attr-defined]
    with pytest.raises(ValueError):
        round_robin_groups(10, advance=1)
    with pytest.raises(ValueError):
        round_robin_groups(10, groups=2, group_size=5, advance=1)
    with pytest.raises(ValueError):
        round_robin_groups(10, groups=6, advance=1)  # groups of fewer than 2
    with pytest.raises(ValueError):
        round_robin_groups(10, groups=3, advance=4)  # more than the smallest group


def test_group_table_wins_then_head_to_head() -> None:
    results = [
        GroupResult(1, 2, 8, 5, 2),  # 2 beats 1
        GroupResult(1, 3, 8, 0, 1),
        GroupResult(2, 3, 2, 8, 3),
        GroupResult(1, 4, 8, 1, 1),
        GroupResult(2, 4, 8, 1, 2),
        GroupResult(3, 4, 1, 8, 4),
    ]
    table = group_table(results)
    # 1 and 2 have two wins each and 2 won their match; 3 and 4 one each and 4 won
    # theirs.
    assert [(r.rank, r.seed, r.wins) for r in table] == [(1, 2, 2), (2, 1, 2), (3, 4, 1), (4, 3, 1)]


def test_group_table_circle_of_three_goes_to_ball_difference() -> None:
    results = [
        (1, 2, 8, 6, 1),
        (2, 3, 8, 2, 2),
        (3, 1, 8, 7, 3),
    ]
    table = group_table(results)
    # Each won once and beat one of the others: head-to-head cannot split them.
    diffs = {r.seed: r.ball_difference for r in table}
    assert diffs == {1: 1, 2: 4, 3: -5}
    assert [r.seed for r in table] == [2, 1, 3]


def test_group_table_balls_for_then_seed() -> None:
    results = [(1, 2, 8, 5, 1), (2, 3, 8, 5, 2), (3, 1, 8, 5, 3), (4, 5, 0, 0, 4)]
    table = group_table(results, players=[6])
    # 1, 2, 3: one win each, cyclic h2h, equal difference (+3 -3) and balls for: seed.
    assert [r.seed for r in table] == [1, 2, 3, 4, 5, 6]
    assert table[-1].played == 0


def test_group_table_head_to_head_inside_a_split_subset() -> None:
    # 1, 2, 3, 4 all win twice (5 loses all); among 1..4: 1 and 2 have two h2h wins,
    # 3 and 4 one; 2 beat 1, and 4 beat 3.
    results = [
        (2, 1, 8, 0, 2),
        (1, 3, 8, 0, 1),
        (1, 4, 0, 8, 4),
        (2, 3, 0, 8, 3),
        (2, 4, 8, 0, 2),
        (3, 4, 0, 8, 4),
        (1, 5, 8, 0, 1),
        (2, 5, 8, 0, 2),
        (3, 5, 8, 0, 3),
        (4, 5, 8, 0, 4),
    ]
    wins = {r.seed: r.wins for r in group_table(results)}
    assert wins == {4: 3, 2: 3, 1: 2, 3: 2, 5: 0}
    assert [r.seed for r in group_table(results)] == [2, 4, 1, 3, 5]


def test_group_table_rejects_bad_results() -> None:
    with pytest.raises(ValueError):
        group_table([(1, 2, 8, 5, 3)])
    with pytest.raises(ValueError):
        group_table([(1, 1, 8, 5, 1)])
