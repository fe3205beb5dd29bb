"""Final and partial standings (pure)."""

from __future__ import annotations

import random

import pytest

from tests.algorithms.peer import peer_output
from tournaments.algorithms.brackets import (
    Bracket,
    double_elimination,
    double_to_single,
    single_elimination,
)
from tournaments.algorithms.groups import round_robin_groups
from tournaments.algorithms.model import MatchSpec, Place
from tournaments.algorithms.simulation import play_out
from tournaments.algorithms.standings import final_standings


def ranges(places: list[Place]) -> list[tuple[int, int, tuple[int, ...]]]:
    return [(p.first, p.last, p.seeds) for p in places]


def assert_complete(places: list[Place], n: int) -> None:
    """Every seed placed once; the ranges tile 1..n and match their sizes."""
    expected_first = 1
    seeds: list[int] = []
    for p in places:
        assert p.first == expected_first
        assert p.last - p.first + 1 == len(p.seeds)
        assert list(p.seeds) == sorted(p.seeds)
        expected_first = p.last + 1
        seeds += p.seeds
    assert expected_first == n + 1
    assert sorted(seeds) == list(range(1, n + 1))


def test_double_16_chalk() -> None:
    b = double_elimination(16)
    assert ranges(final_standings(b, play_out(b))) == [
        (1, 1, (1,)), (2, 2, (2,)), (3, 3, (3,)), (4, 4, (4,)), (5, 6, (5, 6)), (7, 8, (7, 8)),
        (9, 12, (9, 10, 11, 12)), (13, 16, (13, 14, 15, 16)),
    ]  # fmt: skip


def test_double_13_places_count_the_players_still_in() -> None:
    b = double_elimination(13)
    assert ranges(final_standings(b, play_out(b)))[-2:] == [
        (9, 12, (9, 10, 11, 12)),
        (13, 13, (13,)),
    ]


def test_double_64_matches_the_peer_rank_groups() -> None:
    groups = peer_output("double_64_sim.json")["simulation"]["rankGroups"]
    b = double_elimination(64)
    ours = [set(p.seeds) for p in final_standings(b, play_out(b))]
    assert ours == [set(groups[str(rank)]) for rank in range(1, len(groups) + 1)]


def test_grand_final_reset_decides_after_an_upset() -> None:
    b = double_elimination(16)
    outcomes = play_out(b, lambda m, a, c: c if m.key == "GF-1" else min(a, c))
    assert outcomes["GF-1"] == (2, 1) and outcomes["GF-2"] == (1, 2)
    assert ranges(final_standings(b, outcomes))[:2] == [(1, 1, (1,)), (2, 2, (2,))]
    partial = {k: v for k, v in outcomes.items() if k != "GF-2"}
    assert [p.first for p in final_standings(b, partial)][:1] == [3]  # 1st and 2nd still open


def test_no_grand_final_upper_winner_first_lower_winner_second() -> None:
    for n in (2, 3, 16, 13):
        b = double_elimination(n, grand_final="none")
        places = final_standings(b, play_out(b))
        assert_complete(places, n)
        assert ranges(places)[:2] == [(1, 1, (1,)), (2, 2, (2,))]


def test_single_16_with_and_without_third_place() -> None:
    b = single_elimination(16)
    assert ranges(final_standings(b, play_out(b))) == [
        (1, 1, (1,)), (2, 2, (2,)), (3, 4, (3, 4)), (5, 8, (5, 6, 7, 8)),
        (9, 16, tuple(range(9, 17))),
    ]  # fmt: skip
    b = single_elimination(16, third_place=True)
    assert ranges(final_standings(b, play_out(b)))[:4] == [
        (1, 1, (1,)), (2, 2, (2,)), (3, 3, (3,)), (4, 4, (4,)),
    ]  # fmt: skip


def test_16x8_places() -> None:
    b = double_to_single(16, remaining=8, third_place=True)
    assert ranges(final_standings(b, play_out(b))) == [
        (1, 1, (1,)), (2, 2, (2,)), (3, 3, (3,)), (4, 4, (4,)), (5, 8, (5, 6, 7, 8)),
        (9, 12, (9, 10, 11, 12)), (13, 16, (13, 14, 15, 16)),
    ]  # fmt: skip


def random_chooser(seed: int):  # type: ignore[no-untyped-def]
    rng = random.Random(seed)

    def choose(m: MatchSpec, a: int, b: int) -> int:
        return a if rng.random() < 0.5 else b

    return choose


def brackets(n: int) -> list[Bracket]:
    out = [
        single_elimination(n),
        single_elimination(n, third_place=True),
        double_elimination(n, grand_final="none"),
        double_elimination(n, grand_final="single"),
        double_elimination(n, grand_final="reset"),
    ]
    if n >= 3:
        out.append(double_to_single(n, remaining=2 if n <= 4 else 4, third_place=True))
    if n >= 5:
        out.append(double_to_single(n, remaining=4 if n <= 8 else 8))
    if n >= 4:
        out.append(round_robin_groups(n, groups=2, advance=2, third_place=True))
    if n >= 9:
        out.append(round_robin_groups(n, group_size=4, advance=1))
    return out


@pytest.mark.parametrize("n", [*range(2, 70), 100, 127, 128, 129, 200, 255, 256, 257, 333])
def test_random_runs_place_everybody_once(n: int) -> None:
    for i, b in enumerate(brackets(n)):
        outcomes = play_out(b, random_chooser(n * 100 + i))
        places = final_standings(b, outcomes)
        assert_complete(places, n)
        # Partial standings while running: a prefix of the matches, places only grow.
        keys = list(outcomes)
        final_by_seed = {s: (p.first, p.last) for p in places for s in p.seeds}
        for cut in (0, len(keys) // 3, len(keys) // 2, len(keys) - 1):
            partial = final_standings(b, {k: outcomes[k] for k in keys[:cut]})
            for p in partial:
                for s in p.seeds:
                    assert final_by_seed[s] == (p.first, p.last), (b.format, n, s)
            # With the pending places: the same ranges as at the end, tiling 1..n.
            pending = final_standings(b, {k: outcomes[k] for k in keys[:cut]}, include_pending=True)
            assert [(p.first, p.last) for p in pending] == [(p.first, p.last) for p in places]
            assert [p for p in pending if p.seeds] == partial


def test_nothing_decided_before_the_first_match() -> None:
    assert final_standings(double_elimination(8), {}) == []


def test_pending_places_before_the_first_match() -> None:
    places = final_standings(single_elimination(8), {}, include_pending=True)
    assert ranges(places) == [(1, 1, ()), (2, 2, ()), (3, 4, ()), (5, 8, ())]


def test_groups_playoff_places_non_qualifiers_by_group_rank() -> None:
    b = round_robin_groups(16, groups=4, advance=2)
    places = final_standings(b, play_out(b))
    assert ranges(places) == [
        (1, 1, (1,)), (2, 2, (2,)), (3, 4, (3, 4)), (5, 8, (5, 6, 7, 8)),
        (9, 12, (9, 10, 11, 12)), (13, 16, (13, 14, 15, 16)),
    ]  # fmt: skip


def test_group_ranks_can_be_given() -> None:
    b = round_robin_groups(8, groups=2, advance=1)
    outcomes = play_out(b)
    members = b.options["members"]
    assert members == ((1, 4, 5, 8), (2, 3, 6, 7))
    # The tables (with balls) say otherwise than chalk for the lower ranks.
    ranks = {1: [1, 5, 4, 8], 2: [2, 3, 7, 6]}
    places = final_standings(b, outcomes, group_ranks=ranks)
    assert ranges(places) == [
        (1, 1, (1,)),
        (2, 2, (2,)),
        (3, 4, (3, 5)),
        (5, 6, (4, 7)),
        (7, 8, (6, 8)),
    ]


def test_single_group_without_playoff() -> None:
    b = round_robin_groups(5, groups=1, advance=1)
    assert not any(m.stage == "playoff" for m in b.matches)
    places = final_standings(b, play_out(b))
    assert ranges(places) == [(p, p, (p,)) for p in range(1, 6)]


def test_outcome_errors() -> None:
    b = double_elimination(8)
    outcomes = play_out(b)
    with pytest.raises(ValueError, match="unknown"):
        final_standings(b, {**outcomes, "X9": (1, 2)})
    with pytest.raises(ValueError, match="U1-1"):
        final_standings(b, {**outcomes, "U1-1": (1, 7)})
    with pytest.raises(ValueError, match="GF-2"):
        final_standings(b, {**outcomes, "GF-2": (1, 2)})
    with pytest.raises(ValueError, match="L2-1"):
        final_standings(b, {"L2-1": (5, 6)})  # players not known yet
