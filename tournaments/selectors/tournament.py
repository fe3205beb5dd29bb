"""The tournament itself and who may see which: the one-tournament read every page and poll
starts with (its SQL built once) and the list of tournaments a user may see."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db.models import Q, QuerySet

from matches.querycache import CompiledQuery
from tournaments.models import Tournament

if TYPE_CHECKING:
    from config.types import Actor


# Every public page and poll starts by loading its tournament: its SQL is built once.
_TOURNAMENT = CompiledQuery(lambda pk: Tournament.objects.filter(pk=pk).order_by()[:1])


def tournament_get(*, tournament_id: int) -> Tournament:
    """The tournament; Tournament.DoesNotExist if there is none."""
    found = _TOURNAMENT.fetch(tournament_id)
    if not found:
        raise Tournament.DoesNotExist
    return found[0]


def tournament_list(*, user: Actor) -> QuerySet[Tournament]:
    """Public tournaments, plus those the user organises or referees (all for a superuser)."""
    tournaments = Tournament.objects.all()
    if getattr(user, "is_superuser", False):
        return tournaments
    visible = Q(is_public=True, archived=False)
    if getattr(user, "is_authenticated", False):
        visible |= Q(organisers=user) | Q(referees=user)
    ids = Tournament.objects.filter(visible).values("pk")
    return tournaments.filter(pk__in=ids)
