"""The pair's race: a stage's race set by the pair's ratings, as club regulations write it
(«при сумме рейтингов пары 1700 и меньше — до 2 побед, больше — до 3»).

Data: ``{"by": "sum" | "difference", "bands": [{"up_to": 1700, "frames_to_win": 2},
{"up_to": None, "frames_to_win": 3}]}``. Bands go up by ``up_to`` (inclusive); the last is
open (``None``); each sets ``frames_to_win`` and/or ``balls_to_win``. The first band whose
``up_to`` is at least the pair's figure applies.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["RACE_KEYS", "parse", "race_for"]

RACE_KEYS = ("frames_to_win", "balls_to_win")


def _int(value: object, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{where} must be a whole number from {low} to {high}")
    return value


def parse(data: Any) -> dict[str, Any]:
    """The canonical form of ``data``; ``ValueError`` says what is wrong."""
    if not isinstance(data, Mapping):
        raise ValueError("the pair's race must be an object with “by” and “bands”")
    unknown = set(data) - {"by", "bands"}
    if unknown:
        raise ValueError(f"unknown keys {sorted(map(str, unknown))}")
    by = data.get("by")
    if by not in ("sum", "difference"):
        raise ValueError("“by” must be “sum” or “difference”")
    bands = data.get("bands")
    if not isinstance(bands, list) or not 1 <= len(bands) <= 10:
        raise ValueError("“bands” must be a list of 1 to 10 bands")
    out: list[dict[str, Any]] = []
    last: int | None = None
    for i, band in enumerate(bands, start=1):
        if not isinstance(band, Mapping) or set(band) - {"up_to", *RACE_KEYS}:
            raise ValueError(f"band {i} must have “up_to” and a race (frames_to_win, balls_to_win)")
        up_to = band.get("up_to")
        if up_to is None:
            if i != len(bands):
                raise ValueError(f"band {i}: only the last band is open (no “up_to”)")
        else:
            up_to = _int(up_to, f"band {i}: up_to", 0, 10_000)
            if last is not None and up_to <= last:
                raise ValueError(f"band {i}: “up_to” must grow from band to band")
            last = up_to
        race = {k: _int(band[k], f"band {i}: {k}", 1, 200) for k in RACE_KEYS if k in band}
        if not race:
            raise ValueError(f"band {i} sets no race (frames_to_win or balls_to_win)")
        out.append({"up_to": up_to, **race})
    if out[-1]["up_to"] is not None:
        raise ValueError("the last band must be open (no “up_to”): every pair needs a race")
    return {"by": by, "bands": out}


def race_for(pair_race: Mapping[str, Any], *, rating_a: int, rating_b: int) -> dict[str, int]:
    """The race keys the pair plays to (a parsed ``pair_race``)."""
    figure = rating_a + rating_b if pair_race["by"] == "sum" else abs(rating_a - rating_b)
    for band in pair_race["bands"]:
        if band["up_to"] is None or figure <= band["up_to"]:
            return {k: band[k] for k in RACE_KEYS if k in band}
    return {}
