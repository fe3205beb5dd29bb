"""Factories and builders for the tournaments tests."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from django.utils import timezone

from tests.factories import PlayerFactory, RegistrationFactory
from tournaments.models import Registration, Tournament


def register(
    tournament: Tournament,
    count: int,
    *,
    paid: bool = True,
    ratings: Sequence[int] | None = None,
    fee: Decimal = Decimal("1000"),
) -> list[Registration]:
    """``count`` active registrations (ratings 1200, 1190, … unless given), fee ``fee`` each."""
    regs = []
    for i in range(count):
        rating = ratings[i] if ratings is not None else 1200 - 10 * i
        player = PlayerFactory(rating=rating)
        regs.append(
            RegistrationFactory(
                tournament=tournament,
                player=player,
                fee_due=fee,
                paid=paid,
                paid_at=timezone.now() if paid else None,
            )
        )
    return regs
