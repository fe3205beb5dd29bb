"""The prize fund: the pool made of the fees kept, and its split by the place shares over the
standings decided so far (pending, withheld and paid money)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.db.models import Sum

from tournaments.algorithms import prizes
from tournaments.models import Registration, Tournament
from tournaments.selectors.standings import place_label, tournament_standings


def fees_pool(*, tournament: Tournament, paid: Decimal) -> Decimal:
    """The prize pool made of ``paid`` (the fees kept) by the tournament's settings."""
    return prizes.prize_pool(
        paid_fees=paid,
        percent=tournament.pool_percent,
        added=tournament.added_money,
        unit=tournament.prize_unit,
    )


def tournament_prizes(
    *, tournament: Tournament, standings: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The prize fund: pool percent of the fees kept (rounded down to the unit) plus added
    money, split by the place shares; the awards add up exactly to the pool at every moment.
    Players sharing places pool those places' money and split it evenly. Players appear as
    places are decided; a place (or part of a shared place) not decided yet is ``pending``:
    its money reserved, no names. A withdrawn or disqualified player keeps his place; with
    ``withdrawn_prize = "withhold"`` his money is ``withheld`` (shown as not paid). Once the
    tournament is finished a place nobody took (fewer players than paid places) is withheld
    too, so then ``paid + withheld == pool``. ``standings``: ``tournament_standings``'s answer,
    when the caller has it already."""
    # The fees kept: a refunded fee is not in the pool, a forfeited one is.
    paid = Registration.objects.filter(tournament=tournament).aggregate(total=Sum("fee_paid"))[
        "total"
    ] or Decimal(0)
    pool = fees_pool(tournament=tournament, paid=paid)
    shares = [Decimal(s) for s in tournament.place_shares]
    if standings is None:
        standings = tournament_standings(tournament=tournament)
    complete = standings["complete"]
    entries = [
        (p["first"], p["last"], [pl["id"] for pl in p["players"]])
        for p in standings["places"]
        if p["first"] <= len(shares)
    ]
    people = {pl["id"]: pl for p in standings["places"] for pl in p["players"]}
    withhold = tournament.withdrawn_prize == Tournament.WithdrawnPrize.WITHHOLD
    withheld_players = {
        pid for pid, pl in people.items() if withhold and (pl["withdrawn"] or pl["disqualified"])
    }
    split = prizes.split_prizes(
        pool=pool,
        shares=shares,
        unit=tournament.prize_unit,
        places=entries,
        withheld=withheld_players,
    )
    awards: list[dict[str, Any]] = []
    for award in split.awards:
        pending, withheld = award.pending, award.withheld
        if complete:
            # Finished: nobody is left to take it.
            pending, withheld = Decimal(0), withheld + pending
        awards.append(
            {
                "first": award.first,
                "last": award.last,
                "label": place_label(award.first, award.last),
                "share_percent": sum(shares[award.first - 1 : award.last], Decimal(0)),
                "total": award.total,
                "amount_each": award.amount_each,
                "pending": pending,
                "pending_places": award.last - award.first + 1 - len(award.players),
                "withheld": withheld,
                "paid_total": award.paid_total,
                "players": [
                    {
                        "id": pid,
                        "name": people[pid]["name"],
                        "amount": amount if is_paid else Decimal(0),
                        "due": amount,
                        "paid": is_paid,
                        "withdrawn": people[pid]["withdrawn"],
                        "disqualified": people[pid]["disqualified"],
                    }
                    for pid, amount, is_paid in zip(
                        award.players, award.amounts, award.paid, strict=True
                    )
                ],
            }
        )
    return {
        "tournament": tournament.pk,
        "complete": complete,
        "paid_fees": paid,
        "pool_percent": tournament.pool_percent,
        "added_money": tournament.added_money,
        "unit": tournament.prize_unit,
        "pool": pool,
        "withdrawn_prize": tournament.withdrawn_prize,
        "awarded": sum((a["paid_total"] for a in awards), Decimal(0)),
        "pending": sum((a["pending"] for a in awards), Decimal(0)),
        "withheld": sum((a["withheld"] for a in awards), Decimal(0)),
        "awards": awards,
    }
