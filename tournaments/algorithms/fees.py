"""Entry-fee schemes: a flat fee, or fees banded by rating (as in the LLB league).

Money is ``Decimal`` only; a float anywhere raises ``TypeError``. Band bounds are
inclusive, and ``None`` leaves a band open-ended below or above.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

__all__ = [
    "FeeBand",
    "InvalidFeeBands",
    "bands_from_json",
    "bands_to_json",
    "fee_for_rating",
    "validate_bands",
]


class InvalidFeeBands(ValueError):
    """The bands contradict each other; ``problems`` lists every issue found."""

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems: list[str] = list(problems)
        super().__init__("; ".join(self.problems))


def _check_rating_bound(value: object, field: str) -> None:
    # bool is an int subclass, but True as a rating is always a bug.
    if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
        raise TypeError(f"{field} must be an int or None, got {type(value).__name__}")


def _check_money(value: object, field: str) -> Decimal:
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise ValueError(f"{field} must be a finite amount, got {value}")
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return Decimal(value)
    raise TypeError(f"{field} must be a Decimal, got {type(value).__name__}")


@dataclass(frozen=True)
class FeeBand:
    """Fee for ratings ``min_rating..max_rating`` inclusive; ``None`` is open-ended."""

    min_rating: int | None
    max_rating: int | None
    fee: Decimal

    def __post_init__(self) -> None:
        _check_rating_bound(self.min_rating, "min_rating")
        _check_rating_bound(self.max_rating, "max_rating")
        # Ints are exact, so they are accepted and stored as Decimal.
        object.__setattr__(self, "fee", _check_money(self.fee, "fee"))

    def contains(self, rating: int) -> bool:
        """True if ``rating`` falls inside this band."""
        above_min = self.min_rating is None or rating >= self.min_rating
        below_max = self.max_rating is None or rating <= self.max_rating
        return above_min and below_max

    @property
    def label(self) -> str:
        """Human-readable rating range, e.g. ``700-849``, ``up to 699``, ``1000 and above``."""
        if self.min_rating is None and self.max_rating is None:
            return "any rating"
        if self.min_rating is None:
            return f"up to {self.max_rating}"
        if self.max_rating is None:
            return f"{self.min_rating} and above"
        return f"{self.min_rating}-{self.max_rating}"


def _name(index: int, band: FeeBand) -> str:
    return f"band {index + 1} ({band.label}, fee {_money_str(band.fee)})"


def _overlap(a: FeeBand, b: FeeBand) -> tuple[int | None, int | None] | None:
    """The common rating range of two well-formed bands, or None if disjoint."""
    lows = [x for x in (a.min_rating, b.min_rating) if x is not None]
    highs = [x for x in (a.max_rating, b.max_rating) if x is not None]
    low = max(lows) if lows else None
    high = min(highs) if highs else None
    if low is not None and high is not None and low > high:
        return None
    return low, high


def validate_bands(bands: Sequence[FeeBand]) -> None:
    """Raise ``InvalidFeeBands`` for min > max, negative fees or overlapping bands.

    Gaps between bands are allowed: a rating in a gap has no banded fee.
    """
    problems: list[str] = []
    well_formed: list[tuple[int, FeeBand]] = []
    for i, band in enumerate(bands):
        if not isinstance(band, FeeBand):
            raise TypeError(f"band {i + 1} must be a FeeBand, got {type(band).__name__}")
        ok = True
        if (
            band.min_rating is not None
            and band.max_rating is not None
            and band.min_rating > band.max_rating
        ):
            problems.append(
                f"{_name(i, band)}: min_rating {band.min_rating} is greater than "
                f"max_rating {band.max_rating}"
            )
            ok = False
        if band.fee < 0:
            problems.append(f"{_name(i, band)}: fee must not be negative")
        if ok:
            well_formed.append((i, band))
    for n, (i, a) in enumerate(well_formed):
        for j, b in well_formed[n + 1 :]:
            common = _overlap(a, b)
            if common is not None:
                shared = FeeBand(common[0], common[1], Decimal(0)).label
                problems.append(f"{_name(i, a)} and {_name(j, b)} overlap: {shared}")
    if problems:
        raise InvalidFeeBands(problems)


def fee_for_rating(
    *,
    rating: int,
    flat_fee: Decimal | None = None,
    bands: Sequence[FeeBand] = (),
) -> Decimal:
    """The entry fee for a player with ``rating``.

    Bands win when present; a rating outside every band falls back to ``flat_fee``
    if one is given, else raises ``ValueError``.
    """
    if isinstance(rating, bool) or not isinstance(rating, int):
        raise TypeError(f"rating must be an int, got {type(rating).__name__}")
    flat = None if flat_fee is None else _check_money(flat_fee, "flat_fee")
    if flat is not None and flat < 0:
        raise ValueError(f"flat_fee must not be negative, got {flat}")
    if bands:
        validate_bands(bands)
        for band in bands:
            if band.contains(rating):
                return band.fee
        if flat is None:
            covered = ", ".join(b.label for b in bands)
            raise ValueError(
                f"rating {rating} is outside every fee band ({covered}) and there is no flat fee"
            )
        return flat
    if flat is None:
        raise ValueError("no fee scheme: give a flat fee or rating bands")
    return flat


def _money_str(value: Decimal) -> str:
    # Plain notation: str(Decimal("1E+3")) would give "1E+3".
    return format(value, "f")


def bands_to_json(bands: Sequence[FeeBand]) -> list[dict[str, int | str | None]]:
    """Serialise bands to JSON-able dicts; money becomes a string."""
    return [
        {"min_rating": b.min_rating, "max_rating": b.max_rating, "fee": _money_str(b.fee)}
        for b in bands
    ]


def _parse_fee(raw: object, where: str) -> Decimal:
    if isinstance(raw, float):
        raise TypeError(f"{where}: fee must be a string or Decimal, not a float")
    if isinstance(raw, str):
        try:
            value = Decimal(raw.strip())
        except InvalidOperation:
            raise ValueError(f"{where}: fee {raw!r} is not a number") from None
        return _check_money(value, f"{where}: fee")
    return _check_money(raw, f"{where}: fee")


def bands_from_json(data: Any) -> list[FeeBand]:
    """Parse and validate bands from ``bands_to_json`` output (e.g. a JSONField).

    Raises ``ValueError`` (``InvalidFeeBands`` for contradictory bands) or
    ``TypeError`` for malformed data.
    """
    if not isinstance(data, Sequence) or isinstance(data, str | bytes):
        raise TypeError(f"fee bands must be a list, got {type(data).__name__}")
    bands: list[FeeBand] = []
    for i, item in enumerate(data):
        where = f"band {i + 1}"
        if not isinstance(item, Mapping):
            raise TypeError(f"{where} must be an object, got {type(item).__name__}")
        unknown = set(item) - {"min_rating", "max_rating", "fee"}
        if unknown:
            raise ValueError(f"{where}: unknown keys {sorted(map(str, unknown))}")
        if "fee" not in item:
            raise ValueError(f"{where}: fee is missing")
        bounds: dict[str, int | None] = {}
        for key in ("min_rating", "max_rating"):
            value = item.get(key)
            try:
                _check_rating_bound(value, key)
            except TypeError as exc:
                raise TypeError(f"{where}: {exc}") from None
            bounds[key] = value
        bands.append(
            FeeBand(bounds["min_rating"], bounds["max_rating"], _parse_fee(item["fee"], where))
        )
    validate_bands(bands)
    return bands
