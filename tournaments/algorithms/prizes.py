"""Prize fund: the pool from paid fees, and its split between places and players.

Money is ``Decimal`` only (ints are accepted as exact; floats raise ``TypeError``).

Rounding rules:

* ``prize_pool``: the percentage of the collected fees is rounded DOWN to the unit,
  so the club never promises more than it collected; added money is then added as is.
* ``split_prizes``: each place's share is rounded DOWN to the unit; the whole units
  left over go one each to the places with a share, 1st place first; a sub-unit rest
  (a pool that is not a multiple of the unit) goes to 1st place. The place amounts
  therefore always add up exactly to the pool.
* Players sharing places (``places`` entries such as ``(3, 4, [p, q])``) pool those
  places' amounts and split them evenly in units; leftover units go one each to the
  members in the order given (and a sub-unit rest to the first member).
* A shared place only partly decided (``(3, 4, [p])`` between the two semi-finals)
  gives its known players the share they will have once it is complete (the first
  slots of the even split); the rest of the places' money is ``pending``: reserved,
  with no names, never redistributed.
* ``withheld`` players (withdrawn or disqualified, when the tournament withholds their
  prize) keep their place and their computed amount, which is not paid: it is counted
  in the award's ``withheld`` money instead. Nobody else's amount changes.

Every award therefore satisfies ``paid + pending + withheld == total``, and the award
totals add up exactly to the pool at every moment.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, localcontext
from itertools import pairwise

__all__ = ["PlaceAward", "PrizeSplit", "prize_pool", "split_prizes"]

HUNDRED = Decimal(100)
# Enough digits that sums and products of realistic amounts are exact.
_PRECISION = 60


def _money(value: object, name: str) -> Decimal:
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise ValueError(f"{name} must be a finite amount, got {value}")
        return value
    # Ints are exact; bool is an int subclass but never a sum of money.
    if isinstance(value, int) and not isinstance(value, bool):
        return Decimal(value)
    raise TypeError(f"{name} must be a Decimal, got {type(value).__name__}")


def _non_negative(value: object, name: str) -> Decimal:
    amount = _money(value, name)
    if amount < 0:
        raise ValueError(f"{name} must not be negative, got {amount}")
    return amount


def _unit(value: object) -> Decimal:
    unit = _money(value, "unit")
    if unit <= 0:
        raise ValueError(f"unit must be positive, got {unit}")
    return unit


def _units_down(amount: Decimal, unit: Decimal) -> Decimal:
    """How many whole units fit in a non-negative amount (an integral Decimal)."""
    return amount // unit


def prize_pool(
    *,
    paid_fees: Sequence[Decimal] | Decimal,
    percent: Decimal,
    added: Decimal = Decimal(0),
    unit: Decimal = Decimal(1),
) -> Decimal:
    """``percent``% of the paid fees, rounded down to ``unit``, plus ``added`` money.

    ``paid_fees`` is either each paid fee or their total.
    """
    unit = _unit(unit)
    pct = _non_negative(percent, "percent")
    if pct > HUNDRED:
        raise ValueError(f"percent must be between 0 and 100, got {pct}")
    extra = _non_negative(added, "added")
    with localcontext() as ctx:
        ctx.prec = _PRECISION
        if isinstance(paid_fees, Sequence):
            total = sum(
                (_non_negative(f, f"paid fee #{i + 1}") for i, f in enumerate(paid_fees)),
                Decimal(0),
            )
        else:
            total = _non_negative(paid_fees, "paid_fees")
        collected_share = _units_down(total * pct / HUNDRED, unit) * unit
        return collected_share + extra


@dataclass(frozen=True)
class PlaceAward:
    """Money for places ``first..last`` (one place when equal).

    ``amount_each`` is the even share per player (the smallest amount in the
    group); players listed earlier may get one unit more (and the first one a
    sub-unit rest): ``amounts``, aligned with ``players``, says what each place's
    player is due. With no players (places not decided yet, or ``places`` not
    given) ``amount_each`` equals ``total`` and ``amounts`` is empty.

    ``pending`` is the money of the places' players not known yet; ``paid``
    (aligned with ``players``) is False for a withheld player, whose amount is in
    ``withheld``.
    """

    first: int
    last: int
    players: tuple[Hashable, ...]
    amount_each: Decimal
    total: Decimal
    amounts: tuple[Decimal, ...] = ()
    pending: Decimal = Decimal(0)
    withheld: Decimal = Decimal(0)
    paid: tuple[bool, ...] = ()

    @property
    def paid_total(self) -> Decimal:
        """What the award's players are paid."""
        return self.total - self.pending - self.withheld


@dataclass(frozen=True)
class PrizeSplit:
    """The split: ``awards`` ordered by place; ``by_player`` maps a player to his money."""

    awards: list[PlaceAward]
    by_player: dict[Hashable, Decimal] = field(default_factory=dict)

    @property
    def total(self) -> Decimal:
        """Sum of all awards; always equals the pool."""
        return sum((a.total for a in self.awards), Decimal(0))

    @property
    def paid_total(self) -> Decimal:
        return sum((a.paid_total for a in self.awards), Decimal(0))

    @property
    def pending_total(self) -> Decimal:
        return sum((a.pending for a in self.awards), Decimal(0))

    @property
    def withheld_total(self) -> Decimal:
        return sum((a.withheld for a in self.awards), Decimal(0))


def _place_amounts(pool: Decimal, shares: Sequence[Decimal], unit: Decimal) -> list[Decimal]:
    """Per-place amounts (place 1 first) that add up exactly to ``pool``."""
    units = [_units_down(pool * s, HUNDRED * unit) for s in shares]
    leftover_units = int(_units_down(pool, unit) - sum(units, Decimal(0)))
    # Each place lost less than one unit, so one pass over the paid places suffices.
    for i, share in enumerate(shares):
        if leftover_units == 0:
            break
        if share > 0:
            units[i] += 1
            leftover_units -= 1
    amounts = [u * unit for u in units]
    if amounts:
        amounts[0] += pool - _units_down(pool, unit) * unit
    return amounts


def _check_shares(shares: Sequence[Decimal]) -> list[Decimal]:
    checked = [_non_negative(s, f"share for place {i + 1}") for i, s in enumerate(shares)]
    total = sum(checked, Decimal(0))
    if total != HUNDRED:
        raise ValueError(f"shares must add up to 100 (percent), got {total}")
    return checked


def _check_places(
    places: Sequence[tuple[int, int, Sequence[Hashable]]],
) -> list[tuple[int, int, tuple[Hashable, ...]]]:
    checked: list[tuple[int, int, tuple[Hashable, ...]]] = []
    seen_players: set[Hashable] = set()
    for first, last, players in places:
        for value in (first, last):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"place numbers must be ints, got {value!r}")
        if first < 1 or last < first:
            raise ValueError(f"invalid place range {first}-{last}")
        members = tuple(players)
        if len(members) > last - first + 1:
            raise ValueError(
                f"places {first}-{last} span {last - first + 1} place(s) "
                f"but list {len(members)} player(s)"
            )
        for player in members:
            if player in seen_players:
                raise ValueError(f"player {player!r} is listed in more than one place")
            seen_players.add(player)
        checked.append((first, last, members))
    checked.sort(key=lambda entry: entry[0])
    for (f1, l1, _), (f2, l2, _) in pairwise(checked):
        if f2 <= l1:
            raise ValueError(f"place ranges {f1}-{l1} and {f2}-{l2} overlap")
    return checked


def _share_evenly(total: Decimal, count: int, unit: Decimal) -> tuple[Decimal, ...]:
    """Split ``total`` between ``count`` players in units, leftovers to the first ones."""
    whole_units = _units_down(total, unit)
    each_units, extra_units = divmod(whole_units, count)
    amounts = [(each_units + (1 if i < extra_units else 0)) * unit for i in range(count)]
    amounts[0] += total - whole_units * unit
    return tuple(amounts)


def split_prizes(
    *,
    pool: Decimal,
    shares: Sequence[Decimal],
    unit: Decimal = Decimal(1),
    places: Sequence[tuple[int, int, Sequence[Hashable]]] | None = None,
    withheld: Collection[Hashable] = (),
) -> PrizeSplit:
    """Split ``pool`` by ``shares`` (percent for places 1..k, adding up to 100).

    Without ``places`` one award per share is returned, with no players. With
    ``places`` (``(first, last, players)``, at most as many players as places
    spanned: fewer while a shared place is partly decided) the given entries are
    returned, plus any place with a share that no entry covers (with no players,
    all pending), so the award totals always add up to ``pool``. Places beyond the
    shares get 0. ``withheld`` players are not paid (``by_player`` leaves them out).
    """
    unit = _unit(unit)
    pool = _non_negative(pool, "pool")
    with localcontext() as ctx:
        ctx.prec = _PRECISION
        amounts = _place_amounts(pool, _check_shares(shares), unit)

        def place_total(first: int, last: int) -> Decimal:
            return sum(amounts[first - 1 : last], Decimal(0))

        if places is None:
            awards = [
                PlaceAward(n, n, (), amount, amount) for n, amount in enumerate(amounts, start=1)
            ]
            return PrizeSplit(awards=awards)

        awards = []
        by_player: dict[Hashable, Decimal] = {}
        covered: set[int] = set()
        for first, last, members in _check_places(places):
            total = place_total(first, last)
            slots = _share_evenly(total, last - first + 1, unit)
            # The last slot never gets a leftover (there are fewer than the slots).
            each = slots[-1]
            member_amounts = slots[: len(members)]
            paid = tuple(member not in withheld for member in members)
            kept = sum(
                (a for a, ok in zip(member_amounts, paid, strict=True) if not ok), Decimal(0)
            )
            pending = sum(slots[len(members) :], Decimal(0))
            awards.append(
                PlaceAward(first, last, members, each, total, member_amounts, pending, kept, paid)
            )
            by_player.update(
                (m, a) for m, a, ok in zip(members, member_amounts, paid, strict=True) if ok
            )
            covered.update(range(first, last + 1))
        for n, amount in enumerate(amounts, start=1):
            if n not in covered:
                awards.append(PlaceAward(n, n, (), amount, amount, pending=amount))
        awards.sort(key=lambda award: award.first)
        return PrizeSplit(awards=awards, by_player=by_player)
