"""Rematch avoidance in the lower bracket, checked with "possible players" sets.

Every upper match has the set of seeds that could play in it; every lower slot the
set of seeds that could arrive there. A loser dropping from the upper bracket must
first meet someone whose set is disjoint from his own: then they cannot have met.
This is checked at every size from 4 to 1024, and the exceptions are reported:

* the last drop (the upper final's loser into the lower final): always, one block left;
* the semi-final drop when n < 3/4 of the bracket size, where upper round 1 is
  sparse: at most two meetings, the price of keeping every earlier round clean
  (see tournaments/algorithms/_lower.py);

and a brute force over every L1 pairing and drop order shows that 5, 9, 10 and 11
players cannot do with fewer such meetings.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator

import pytest

from tests.algorithms.test_brackets import check_links
from tournaments.algorithms.brackets import Bracket, Source, double_elimination
from tournaments.algorithms.seeding import bracket_size, seed_order
from tournaments.algorithms.simulation import play_out


def first_meetings(b: Bracket) -> Iterator[tuple[str, str, bool]]:
    """(upper match, lower match, sets disjoint) for every dropped loser's first lower match."""
    sets: dict[str, int] = {}

    def bits(src: Source) -> int:
        return (1 << int(src.ref)) if src.kind == "seed" else sets[str(src.ref)]  # type: ignore[call-overload]

    for m in b.matches:
        assert m.a is not None and m.b is not None
        a, c = bits(m.a), bits(m.b)
        sets[m.key] = a | c
        if m.stage != "lower":
            continue
        for side in (m.a, m.b):
            if side.kind == "loser" and str(side.ref).startswith("U"):
                yield str(side.ref), m.key, not a & c


def upper_round(key: str) -> int:
    return int(key[1:].split("-")[0])


def _drops_meet_disjoint_sets(b: Bracket, n: int, report: Counter[str]) -> None:
    size = bracket_size(n)
    rounds = size.bit_length() - 1
    overlaps: Counter[str] = Counter()
    meetings = 0
    for upper, lower, disjoint in first_meetings(b):
        meetings += 1
        if disjoint:
            continue
        r = upper_round(upper)
        where = "final drop" if r == rounds else "semi-final drop" if r == rounds - 1 else lower
        overlaps[where] += 1
        report[f"{where} (size {size})"] += 1
    assert meetings == n - 1  # everybody but the champion drops once (the final's loser too)
    assert overlaps["final drop"] == 1, n
    if n < 3 * size // 4:
        assert 1 <= overlaps["semi-final drop"] <= 2, (n, overlaps)
        assert set(overlaps) == {"final drop", "semi-final drop"}, (n, overlaps)
    else:
        assert set(overlaps) == {"final drop"}, (n, overlaps)


def _chalk_runs_rematch_only_in_the_lower_final_and_grand_final(b: Bracket, n: int) -> None:
    outcomes = play_out(b)
    met: dict[tuple[int, int], str] = {}
    rematches = []
    for key, (w, lo) in outcomes.items():
        pair = (min(w, lo), max(w, lo))
        if pair in met:
            rematches.append((pair, met[pair], key))
        met[pair] = key
    lower_final = f"L{2 * (bracket_size(n).bit_length() - 2)}-1"
    assert sorted((pair, again) for pair, _, again in rematches) == [
        ((1, 2), "GF-1"),
        ((2, 3), lower_final),
    ], (n, rematches)


@pytest.mark.slow  # every size up to the largest: the full suite's, not make check's
def test_double_elimination_at_every_size() -> None:
    """Each size's bracket is built once (building is most of the time) and checked for:
    its match count and links, the dropped losers' first meetings, and the rematches of a
    chalk run (only the lower final and the grand final)."""
    report: Counter[str] = Counter()
    for n in range(2, 1025):
        b = double_elimination(n, grand_final="reset")
        assert len(b.matches) == 2 * n - 1
        assert sum(m.conditional for m in b.matches) == 1
        check_links(b)
        if n < 4:
            continue
        _drops_meet_disjoint_sets(b, n, report)
        _chalk_runs_rematch_only_in_the_lower_final_and_grand_final(b, n)
    print("\noverlapping first meetings of dropped losers, n = 4..1024:")
    for where, count in sorted(report.items()):
        print(f"  {where}: {count}")


# ---------------------------------------------------------------- brute force


def _pairings(items: list[int]) -> Iterator[list[tuple[int, int]]]:
    if not items:
        yield []
        return
    for i in range(1, len(items)):
        rest = items[1:i] + items[i + 1 :]
        for tail in _pairings(rest):
            yield [(items[0], items[i]), *tail]


def _overlaps(n: int, l1: list[tuple[int, int]], orders: tuple[tuple[int, ...], ...]) -> int:
    """Overlapping first meetings (final drop excluded) for one L1 pairing and drop orders."""
    size = bracket_size(n)
    rounds = size.bit_length() - 1
    slots = [(1 << s) if s <= n else 0 for s in seed_order(size)]
    losers = []
    for _ in range(rounds):
        pairs = [(slots[2 * i], slots[2 * i + 1]) for i in range(len(slots) // 2)]
        losers.append([x | y if x and y else 0 for x, y in pairs])
        slots = [x | y for x, y in pairs]
    bad = 0

    def meet(x: tuple[int, int], y: tuple[int, int]) -> tuple[int, int]:
        nonlocal bad
        if not x[0] or not y[0]:
            return x if x[0] else y
        for p, q in ((x, y), (y, x)):
            if 0 < p[1] < rounds and p[0] & q[0]:
                bad += 1
        return x[0] | y[0], 0

    pods = [meet((losers[0][a], 1), (losers[0][c], 1)) for a, c in l1]
    for d in range(2, rounds + 1):
        order = orders[d - 2]
        pods = [meet((losers[d - 1][order[j]], d), pod) for j, pod in enumerate(pods)]
        if d < rounds:
            pods = [meet(pods[2 * j], pods[2 * j + 1]) for j in range(len(pods) // 2)]
    return bad


def test_brute_force_cannot_do_better_for_small_sparse_brackets() -> None:
    for n in (5, 9, 10, 11):
        size = bracket_size(n)
        rounds = size.bit_length() - 1
        ours = sum(
            not disjoint
            for upper, _, disjoint in first_meetings(double_elimination(n))
            if upper_round(upper) < rounds
        )
        orders = [list(itertools.permutations(range(size >> d))) for d in range(2, rounds + 1)]
        best = min(
            _overlaps(n, l1, choice)
            for l1 in _pairings(list(range(size // 2)))
            for choice in itertools.product(*orders)
        )
        assert ours == best == 1, (n, ours, best)
