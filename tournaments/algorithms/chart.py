"""A rating history chart drawn server-side as SVG: plain numbers in, coordinates out.

The template draws a polyline and one marker per point (a tournament's net change, or a
hand adjustment). The viewBox is fixed and the SVG scales to the width of the screen, so a
375-px phone shows the same chart, smaller; the labels stay few (the first, the last, the
lowest and the highest rating) so that they do not collide.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

WIDTH = 600
HEIGHT = 220
PAD_LEFT = 44
PAD_RIGHT = 12
PAD_TOP = 14
PAD_BOTTOM = 24


@dataclass(frozen=True)
class ChartPoint:
    rating: int  # after this change
    delta: int
    label: str  # what a hover or tap shows: the tournament and its date


@dataclass(frozen=True)
class Marker:
    x: float
    y: float
    rating: int
    delta: int
    label: str


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    polyline: str
    markers: list[Marker]
    ticks: list[tuple[float, int]]  # (y, rating) of the horizontal grid lines
    baseline_y: float


def _round(value: float) -> float:
    return round(value, 1)


def rating_chart(*, start: int, points: Sequence[ChartPoint]) -> Chart | None:
    """The chart of a rating that began at `start` and moved by `points` (oldest first); None
    without any change (nothing to draw)."""
    if not points:
        return None
    ratings = [start, *(p.rating for p in points)]
    low, high = min(ratings), max(ratings)
    if high - low < 20:  # a flat line in the middle rather than noise blown up
        middle = (high + low) / 2
        low, high = int(middle - 10), int(middle + 10)
    span = high - low
    inner_w = WIDTH - PAD_LEFT - PAD_RIGHT
    inner_h = HEIGHT - PAD_TOP - PAD_BOTTOM
    step = inner_w / len(points)

    def y_of(rating: float) -> float:
        return _round(PAD_TOP + (high - rating) / span * inner_h)

    coords = [(float(PAD_LEFT), y_of(start))]
    markers = []
    for i, point in enumerate(points, start=1):
        x = _round(PAD_LEFT + i * step)
        y = y_of(point.rating)
        coords.append((x, y))
        markers.append(Marker(x, y, point.rating, point.delta, point.label))
    ticks = sorted({(y_of(r), r) for r in (low, (low + high) // 2, high)})
    return Chart(
        width=WIDTH,
        height=HEIGHT,
        polyline=" ".join(f"{x},{y}" for x, y in coords),
        markers=markers,
        ticks=ticks,
        baseline_y=float(HEIGHT - PAD_BOTTOM),
    )
