"""The organiser's desk: the registrations in desk order, the running totals of players and
money (fees collected, refunded, kept; the pool) and the table time each player owes."""

from __future__ import annotations

from decimal import Decimal
from typing import Any, Literal

from django.db.models import Count, DecimalField, Q, QuerySet, Sum, Value
from django.db.models.functions import Coalesce

from matches.models import Match
from tournaments.algorithms import table_time as tt
from tournaments.match_labels import match_label
from tournaments.models import Registration, TableTimePayment, Tournament
from tournaments.selectors.prizes import fees_pool

ACTIVE = Registration.Status.ACTIVE
WITHDRAWN = Registration.Status.WITHDRAWN
DISQUALIFIED = Registration.Status.DISQUALIFIED


def registration_list(*, tournament: Tournament) -> QuerySet[Registration]:
    """The desk's list: seeded order after the draw, registration order before it."""
    return (
        Registration.objects.filter(tournament=tournament)
        .select_related("player")
        .order_by("seed", "created_at", "pk")
    )


def registration_totals(*, tournament: Tournament) -> dict[str, Any]:
    """Running totals of the desk: players, fees due (active players), the money: collected
    (every payment taken), refunded (given back to players who left) and kept (collected less
    refunded: the fees the pool is a share of; ``fees_paid`` is the same figure under its
    older name), what is still to collect, and the pool. One query."""
    active = Q(status=ACTIVE)
    zero = Value(Decimal(0), output_field=DecimalField())
    row = Registration.objects.filter(tournament=tournament).aggregate(
        players=Count("pk", filter=active),
        paid_players=Count("pk", filter=active & Q(paid=True)),
        withdrawn=Count("pk", filter=Q(status=WITHDRAWN)),
        disqualified=Count("pk", filter=Q(status=DISQUALIFIED)),
        refunds=Count("pk", filter=Q(fee_refunded__gt=0)),
        fees_due=Coalesce(Sum("fee_due", filter=active), zero),
        fees_collected=Coalesce(Sum("fee_collected"), zero),
        fees_refunded=Coalesce(Sum("fee_refunded"), zero),
        fees_kept=Coalesce(Sum("fee_paid"), zero),
        fees_outstanding=Coalesce(Sum("fee_due", filter=active & Q(paid=False)), zero),
    )
    row["fees_paid"] = row["fees_kept"]
    return {**row, "pool": fees_pool(tournament=tournament, paid=row["fees_kept"])}


def table_time(*, tournament: Tournament) -> dict[str, Any]:
    """Table time by the tournament's settings: each played match (walkovers took no table)
    with its minutes, cost and what each player owes and has paid; per player totals; and
    the totals (`due`, `paid`, `owed`). `enabled` is False while the price is 0 or nobody
    pays. Three queries."""
    enabled = tournament.table_hour_price > 0 and tournament.table_time_payer != "nobody"
    zero = Decimal("0.00")
    out: dict[str, Any] = {
        "enabled": enabled,
        "rows": [],
        "players": [],
        "due": zero,
        "paid": zero,
        "owed": zero,
    }
    if not enabled:
        return out
    paid = {
        (p.match_id, p.player_id): p
        for p in TableTimePayment.objects.filter(tournament=tournament).select_related("paid_by")
    }
    matches = (
        Match.objects.filter(
            tournament=tournament,
            status=Match.Status.FINISHED,
            started_at__isnull=False,
            player_a__isnull=False,
            player_b__isnull=False,
        )
        .select_related("player_a", "player_b", "table")
        .order_by("finished_at", "pk")
    )
    people: dict[int, dict[str, Any]] = {}
    for match in matches:
        minutes = tt.table_minutes(
            called_at=match.called_at,
            started_at=match.started_at,
            finished_at=match.finished_at,
            net_ms=match.clock_elapsed_ms,
            breaks_included=tournament.table_time_breaks == "included",
        )
        winner: Literal["a", "b"] | None = None
        if match.winner_id is not None and match.winner_id == match.player_a_id:
            winner = "a"
        elif match.winner_id is not None and match.winner_id == match.player_b_id:
            winner = "b"
        bill = tt.charge(
            minutes=minutes,
            price_per_hour=tournament.table_hour_price,
            payer=tournament.table_time_payer,
            discount_percent=tournament.table_time_discount,
            winner=winner,
        )
        sides = []
        for slot in ("a", "b"):
            player = getattr(match, f"player_{slot}")
            payment = paid.get((match.pk, player.pk))
            due = bill.due[slot]
            sides.append(
                {
                    "slot": slot,
                    "player": player,
                    "due": due,
                    "paid": payment.amount if payment else zero,
                    "payment": payment,
                }
            )
            person = people.setdefault(
                player.pk, {"player": player, "due": zero, "paid": zero, "owed": zero}
            )
            person["due"] += due
            if payment:
                person["paid"] += payment.amount
            elif due:
                person["owed"] += due
        out["rows"].append(
            {
                "match": match,
                "label": match_label(match.key),
                "minutes": minutes,
                "cost": bill.cost,
                "sides": [s for s in sides if s["due"] or s["payment"]],
            }
        )
    out["players"] = sorted(people.values(), key=lambda p: (-p["owed"], p["player"].name))
    out["due"] = sum((p["due"] for p in people.values()), zero)
    out["paid"] = sum((p["paid"] for p in people.values()), zero)
    out["owed"] = sum((p["owed"] for p in people.values()), zero)
    return out
