"""Round-robin groups feeding a single-elimination play-off, and group tables."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import NamedTuple

from ._builder import Flow, Rec, knockout, materialize, new_source, play_third_place
from .model import Bracket
from .seeding import seed_order, snake_groups

__all__ = [
    "GroupResult",
    "GroupRow",
    "circle_rounds",
    "group_table",
    "playoff_seeds",
    "round_robin_groups",
]


def circle_rounds(members: Sequence[int]) -> list[list[tuple[int, int]]]:
    """Round-robin rounds by the circle method; pairs are (better seed, worse seed).

    The first member stays fixed and the others rotate. With an odd count one
    member sits out each round (the bye is simply no match).
    """
    players: list[int | None] = list(members)
    if len(players) % 2:
        players.append(None)
    k = len(players)
    rounds: list[list[tuple[int, int]]] = []
    for _ in range(k - 1):
        pairs = []
        for i in range(k // 2):
            x, y = players[i], players[k - 1 - i]
            if x is not None and y is not None:
                pairs.append((x, y) if x < y else (y, x))
        rounds.append(pairs)
        players = [players[0], players[-1], *players[1:-1]]
    return rounds


def playoff_seeds(groups: int, advance: int) -> list[tuple[int, int]]:
    """(group, rank) for play-off seeds 1..groups*advance.

    Group winners are seeds 1..G in group order (snake seeding puts seed g in
    group g, so group 1 is the strongest); runners-up follow, then thirds, and so
    on. Within each rank, every play-off seed in turn takes the group whose already
    placed players it would meet latest in the seeded bracket, so group winners
    meet runners-up of other groups and players of one group stay apart as long
    as the bracket allows (two per group: until the final). Ties go to the group
    whose player of that rank had the better seed (the snake), so the strongest
    group winners meet the weakest runners-up they may meet.
    """
    qualifiers = groups * advance
    size = 1 << max(qualifiers - 1, 1).bit_length()
    position = {seed: p for p, seed in enumerate(seed_order(size))}
    placed: list[list[int]] = [[] for _ in range(groups)]
    seeds: list[tuple[int, int]] = []
    for rank in range(1, advance + 1):
        # Snake seed of the rank-th member of each group (0-based group index).
        snake = [(rank - 1) * groups + (g + 1 if rank % 2 else groups - g) for g in range(groups)]
        free = list(range(groups))
        for q in range((rank - 1) * groups + 1, rank * groups + 1):
            p = position[q]

            def apart(g: int, p: int = p) -> int:
                # Round in which position p could meet the group's nearest placed player.
                return min(((p ^ other).bit_length() for other in placed[g]), default=size)

            best = max(free, key=lambda g: (apart(g), -snake[g]))
            free.remove(best)
            placed[best].append(p)
            seeds.append((best + 1, rank))
    return seeds


def round_robin_groups(
    n: int,
    *,
    group_size: int | None = None,
    groups: int | None = None,
    advance: int,
    third_place: bool = False,
) -> Bracket:
    """Snake-seeded round-robin groups, then a play-off of the top ``advance`` of each.

    Give exactly one of ``group_size`` (groups = ceil(n / group_size)) or ``groups``.
    Group matches are "G{g}-R{r}-{m}" (circle method); the play-off is a seeded
    single elimination "P{r}-{m}" (+ "3RD") over ``Source("group", (g, rank))``
    slots (see ``playoff_seeds``); byes go to the best play-off seeds. A single
    qualifier (one group, advance 1) means no play-off.
    """
    if (group_size is None) == (groups is None):
        raise ValueError("give exactly one of group_size or groups")
    if n < 2:
        raise ValueError(f"need at least 2 entrants, got {n}")
    if groups is None:
        assert group_size is not None
        if group_size < 2:
            raise ValueError(f"group_size must be at least 2, got {group_size}")
        groups = -(-n // group_size)
    if groups < 1 or n < 2 * groups:
        raise ValueError(f"{n} entrants cannot make {groups} groups of at least 2")
    members = snake_groups(n, groups)
    smallest = min(len(m) for m in members)
    if not 1 <= advance <= smallest:
        raise ValueError(
            f"advance must be between 1 and {smallest} (smallest group), got {advance}"
        )

    recs: list[Rec] = []
    group_rounds: list[int] = []
    for g, group in enumerate(members, start=1):
        rounds = circle_rounds(group)
        group_rounds.append(len(rounds))
        for r, pairs in enumerate(rounds, start=1):
            for m, (x, y) in enumerate(pairs, start=1):
                recs.append(
                    [
                        f"G{g}-R{r}-{m}",
                        "group",
                        r,
                        m,
                        new_source("seed", x),
                        new_source("seed", y),
                        None,
                        None,
                        g,
                        False,
                        r,
                    ]
                )

    qualifiers = groups * advance
    if qualifiers > 1:
        seeds = playoff_seeds(groups, advance)
        size = 1 << (qualifiers - 1).bit_length()
        # A group's placings are known once its last round is played.
        entries: list[Flow | None] = [
            (new_source("group", gr), None, 0, group_rounds[gr[0] - 1]) for gr in seeds
        ]
        slots = [entries[s - 1] if s <= qualifiers else None for s in seed_order(size)]
        playoff_rounds = size.bit_length() - 1
        _, played = knockout(recs, slots, "P", "playoff", playoff_rounds)
        if third_place and playoff_rounds >= 2:
            play_third_place(recs, played[-2])

    options = {
        "groups": groups,
        "advance": advance,
        "third_place": third_place,
        "members": tuple(tuple(m) for m in members),
    }
    if group_size is not None:
        options["group_size"] = group_size
    return Bracket("groups_playoff", n, materialize(recs), MappingProxyType(options))


# ------------------------------------------------------------------ group tables


class GroupResult(NamedTuple):
    """One finished group match; ``winner`` is seed_a or seed_b."""

    seed_a: int
    seed_b: int
    balls_a: int
    balls_b: int
    winner: int


@dataclass(frozen=True, slots=True)
class GroupRow:
    rank: int
    seed: int
    played: int
    wins: int
    losses: int
    balls_for: int
    balls_against: int

    @property
    def ball_difference(self) -> int:
        return self.balls_for - self.balls_against


def group_table(
    results: Iterable[GroupResult | tuple[int, int, int, int, int]],
    *,
    players: Iterable[int] = (),
) -> list[GroupRow]:
    """Ranks a group: wins, then head-to-head wins among the tied players, then ball
    difference, then balls for, then the better (lower) seed.

    Head-to-head is applied again inside any subset it separates (as long as it
    separates); players it cannot separate go on to the overall ball figures.
    ``players`` adds members without a finished match yet.
    """
    stats: dict[int, list[int]] = {
        p: [0, 0, 0, 0, 0] for p in players
    }  # played, w, l, for, against
    wins_over: dict[tuple[int, int], int] = {}
    for res in results:
        a, b, balls_a, balls_b, winner = res
        if a == b or winner not in (a, b):
            raise ValueError(f"bad group result {tuple(res)}")
        loser = b if winner == a else a
        for seed, got, conceded in ((a, balls_a, balls_b), (b, balls_b, balls_a)):
            row = stats.setdefault(seed, [0, 0, 0, 0, 0])
            row[0] += 1
            row[3] += got
            row[4] += conceded
        stats[winner][1] += 1
        stats[loser][2] += 1
        wins_over[winner, loser] = wins_over.get((winner, loser), 0) + 1

    def overall(seed: int) -> tuple[int, int, int]:
        s = stats[seed]
        return (-(s[3] - s[4]), -s[3], seed)

    def resolve(tied: list[int]) -> list[int]:
        if len(tied) == 1:
            return tied
        h2h = {p: sum(wins_over.get((p, q), 0) for q in tied if q != p) for p in tied}
        levels = sorted(set(h2h.values()), reverse=True)
        if len(levels) == 1:
            return sorted(tied, key=overall)
        return [p for level in levels for p in resolve([q for q in tied if h2h[q] == level])]

    by_wins: dict[int, list[int]] = {}
    for seed, s in stats.items():
        by_wins.setdefault(s[1], []).append(seed)
    ranked = [p for w in sorted(by_wins, reverse=True) for p in resolve(by_wins[w])]
    return [GroupRow(i, p, *stats[p]) for i, p in enumerate(ranked, start=1)]
