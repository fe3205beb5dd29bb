"""Club cups (series): points per stage from the places, and the standings over the stages.

Plain data, no Django. Rules (docs/tournaments.md, "Club cups"):

- Place p earns ``points_table[p-1]``; a place past the table earns ``participation``.
- Players sharing places first..last (e.g. 5–8) each get the average of those places' points,
  rounded half up to 0.01: 5–8 with 11, 10, 9, 8 → 9.50 each.
- With ``best_of`` = K, a player's total is the sum of his K best stages (all of them when
  K is None or he played fewer); his other stages are shown but do not count.
- Ties of the total are broken by: the sum over all stages; then countback (more 1st places,
  then more 2nd places, ...); then the better place in the latest stage in which either of
  them played where their places differ. Players still equal share the place.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")


@dataclass(frozen=True)
class StagePlace:
    """Places first..last of one stage, shared by `players` (ids)."""

    first: int
    last: int
    players: tuple[int, ...]


@dataclass(frozen=True)
class StageScore:
    points: Decimal
    place: int  # the first of the shared places
    label: str  # "3" or "5–8"
    counted: bool


@dataclass
class SeriesRow:
    player: int
    total: Decimal
    all_total: Decimal
    stages: dict[int, StageScore] = field(default_factory=dict)  # stage index → score
    place: int = 0
    shared: bool = False


def place_points(*, first: int, last: int, table: Sequence[int], participation: int = 0) -> Decimal:
    """The points each player sharing places first..last earns (their average)."""
    if first < 1 or last < first:
        raise ValueError("places start at 1 and last >= first")
    values = [
        Decimal(table[p - 1]) if p <= len(table) else Decimal(participation)
        for p in range(first, last + 1)
    ]
    return (sum(values, Decimal(0)) / len(values)).quantize(CENT, rounding=ROUND_HALF_UP)


def _best(points: list[tuple[int, Decimal]], best_of: int | None) -> set[int]:
    """The stage indexes that count: the K best, earlier stage first among equal points."""
    ordered = sorted(points, key=lambda item: (-item[1], item[0]))
    chosen = ordered if best_of is None else ordered[:best_of]
    return {stage for stage, _ in chosen}


def _sort_key(row: SeriesRow, max_place: int) -> tuple[object, ...]:
    places = [score.place for score in row.stages.values()]
    # Countback: "how many times place p", best place first, one length for everyone.
    countback = tuple(-places.count(p) for p in range(1, max_place + 1))
    return (-row.total, -row.all_total, countback)


def _latest_key(row: SeriesRow, stage_count: int) -> tuple[int, ...]:
    """Places from the latest stage back (not playing a stage is worse than any place):
    compared in order, the first stage where two players differ decides."""
    missing = 10**9
    return tuple(
        row.stages[s].place if s in row.stages else missing for s in range(stage_count - 1, -1, -1)
    )


def series_standings(
    *,
    stages: Sequence[Sequence[StagePlace]],
    table: Sequence[int],
    best_of: int | None = None,
    participation: int = 0,
) -> list[SeriesRow]:
    """The standings after `stages` (each the places of one finished stage), best first."""
    if best_of is not None and best_of < 1:
        raise ValueError("best_of must be at least 1")
    rows: dict[int, SeriesRow] = {}
    for index, places in enumerate(stages):
        for place in places:
            points = place_points(
                first=place.first, last=place.last, table=table, participation=participation
            )
            label = str(place.first) if place.first == place.last else f"{place.first}–{place.last}"
            for player in place.players:
                row = rows.setdefault(player, SeriesRow(player, Decimal(0), Decimal(0)))
                row.stages[index] = StageScore(points, place.first, label, counted=False)
    for row in rows.values():
        counted = _best([(s, score.points) for s, score in row.stages.items()], best_of)
        row.stages = {
            s: StageScore(score.points, score.place, score.label, counted=s in counted)
            for s, score in row.stages.items()
        }
        row.total = sum(
            (score.points for score in row.stages.values() if score.counted), Decimal(0)
        )
        row.all_total = sum((score.points for score in row.stages.values()), Decimal(0))
    count = len(stages)
    top = max((p.last for places in stages for p in places), default=0)

    def key(row: SeriesRow) -> tuple[object, ...]:
        return (*_sort_key(row, top), _latest_key(row, count))

    result = sorted(rows.values(), key=lambda r: (key(r), r.player))
    for i, row in enumerate(result):
        previous = result[i - 1] if i else None
        if previous is not None and key(previous) == key(row):
            row.place = previous.place
            row.shared = previous.shared = True
        else:
            row.place = i + 1
    return result
