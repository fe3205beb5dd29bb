"""Playing a bracket through with a chosen winner per match (chalk by default).

For tests, demos and benchmarks: produces the ``outcomes`` mapping that
``final_standings`` reads, following the bracket's links and its rules (the GF
reset is played only after an upset in GF-1; group placings come from the group
results, ranked by wins, head-to-head, seed).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from .groups import group_table
from .model import Bracket, MatchSpec, Source

__all__ = ["chalk", "play_out"]

Outcome = tuple[int, int]
# (match, side-a seed, side-b seed) -> the winner's seed
Chooser = Callable[[MatchSpec, int, int], int]


def chalk(match: MatchSpec, a: int, b: int) -> int:
    """The better (lower) seed always wins."""
    return a if a < b else b


def play_out(bracket: Bracket, choose: Chooser = chalk) -> dict[str, Outcome]:
    """Outcomes (key -> (winner, loser)) of every match that gets played."""
    outcomes: dict[str, Outcome] = {}
    ranks: dict[int, Sequence[int]] = {}
    group_keys: dict[int, list[str]] = {}
    for m in bracket.matches:
        if m.stage == "group" and m.group is not None:
            group_keys.setdefault(m.group, []).append(m.key)

    by_key = {m.key: m for m in bracket.matches}
    for m in bracket.matches:
        if m.stage != "group" and group_keys and not ranks:
            ranks = _rank_groups(group_keys, outcomes)
        if m.conditional and m.b is not None:
            gf1 = by_key[str(m.b.ref)]
            if outcomes[gf1.key][0] == _seed(gf1.a, outcomes, ranks):
                continue  # the upper-bracket player won GF-1: no reset
        a = _seed(m.a, outcomes, ranks)
        b = _seed(m.b, outcomes, ranks)
        winner = choose(m, a, b)
        if winner not in (a, b):
            raise ValueError(f"{m.key}: winner {winner} is neither {a} nor {b}")
        outcomes[m.key] = (winner, b if winner == a else a)
    return outcomes


def _rank_groups(
    group_keys: Mapping[int, list[str]], outcomes: Mapping[str, Outcome]
) -> dict[int, Sequence[int]]:
    return {
        g: [
            row.seed
            for row in group_table((w, lo, 0, 0, w) for w, lo in (outcomes[k] for k in keys))
        ]
        for g, keys in group_keys.items()
    }


def _seed(
    src: Source | None, outcomes: Mapping[str, Outcome], ranks: Mapping[int, Sequence[int]]
) -> int:
    if src is None:
        raise ValueError("a match without a side")
    if src.kind == "seed":
        return src.seed()
    if src.kind == "group":
        g, rank = src.group_rank()
        return ranks[g][rank - 1]
    won, lost = outcomes[str(src.ref)]
    return won if src.kind == "winner" else lost
