"""Table time: what a match's players owe for the table, as a club's regulation says it
(«игровое время: с проигравшего со скидкой», «проигравший платит за время 50 %»).

Money is ``Decimal`` only. The table time of a match is whole minutes (started minutes
count); its cost is the table-hour price × minutes / 60, less the discount, in kopecks
(half up). Who pays: the loser all of it, both half each (the odd kopeck on the loser), or
nobody.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal
from typing import Literal

__all__ = ["PAYERS", "TableCharge", "charge", "table_minutes"]

PAYERS = ("loser", "split", "nobody")
KOPECK = Decimal("0.01")
HUNDRED = Decimal(100)


@dataclass(frozen=True)
class TableCharge:
    """What each slot owes for one match's table time."""

    minutes: int
    cost: Decimal  # the table's price for those minutes, before the discount
    due: dict[str, Decimal]  # {"a": …, "b": …}

    @property
    def total(self) -> Decimal:
        return self.due["a"] + self.due["b"]


def table_minutes(
    *,
    called_at: datetime | None,
    started_at: datetime | None,
    finished_at: datetime | None,
    net_ms: int,
    breaks_included: bool,
) -> int:
    """The match's table time in whole minutes (a started minute counts): from the call to
    the table (else the start) to the finish; with ``breaks_included`` False the clock's
    pauses (technical breaks: started → finished less the net clock time) are left out. A
    match never started (a walkover) took no table time."""
    if started_at is None or finished_at is None:
        return 0
    begin = called_at if called_at is not None and called_at <= started_at else started_at
    seconds = max(0.0, (finished_at - begin).total_seconds())
    if not breaks_included:
        played = max(0.0, (finished_at - started_at).total_seconds())
        paused = max(0.0, played - max(0, net_ms) / 1000)
        seconds = max(0.0, seconds - paused)
    whole, rest = divmod(int(seconds), 60)
    return whole + (1 if rest or seconds > int(seconds) else 0)


def charge(
    *,
    minutes: int,
    price_per_hour: Decimal,
    payer: str,
    discount_percent: Decimal = Decimal(0),
    winner: Literal["a", "b"] | None,
) -> TableCharge:
    """Who owes what for ``minutes`` of table time."""
    if not isinstance(price_per_hour, Decimal) or not isinstance(discount_percent, Decimal):
        raise TypeError("money must be Decimal")
    if payer not in PAYERS:
        raise ValueError(f"payer must be one of {PAYERS}, got {payer!r}")
    if price_per_hour < 0 or not 0 <= discount_percent <= HUNDRED or minutes < 0:
        raise ValueError("price, discount (0-100) and minutes must not be negative")
    cost = (price_per_hour * minutes / 60).quantize(KOPECK, ROUND_HALF_UP)
    owed = (cost * (HUNDRED - discount_percent) / HUNDRED).quantize(KOPECK, ROUND_HALF_UP)
    due = {"a": Decimal("0.00"), "b": Decimal("0.00")}
    loser = None if winner is None else ("b" if winner == "a" else "a")
    if payer == "loser" and loser is not None:
        due[loser] = owed
    elif payer == "split" or (payer == "loser" and loser is None):
        first = loser or "a"
        other = "b" if first == "a" else "a"
        due[other] = (owed / 2).quantize(KOPECK, ROUND_DOWN)
        due[first] = owed - due[other]
    return TableCharge(minutes=minutes, cost=cost, due=due)
