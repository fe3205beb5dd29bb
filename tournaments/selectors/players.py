"""The player registry's reads: the folded name search, a player's rating history (as one
reader may see it) and a match's Elo changes. A player's own pages read tournaments.selectors_players."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.db.models import Count, Q, QuerySet, Sum

from matches.models import Match
from tournaments.models import Player, RatingChange
from tournaments.names import fold_words
from tournaments.selectors.tournament import tournament_list

if TYPE_CHECKING:
    from config.types import Actor


def player_list(*, search: str = "") -> QuerySet[Player]:
    """Players, by name. Every word of ``search`` must match the start of a word of the name,
    in any order, folded (case, ё/е and spaces do not matter: tournaments.names)."""
    players = Player.objects.all()
    for word in fold_words(search):
        players = players.filter(
            Q(name_folded__startswith=word) | Q(name_folded__contains=f" {word}")
        )
    # Russian alphabetical order: the folded name puts «Ё» among the «Е» (tournaments.names).
    return players.order_by("name_folded", "name", "pk")


def player_rating_history(*, player: Player) -> QuerySet[RatingChange]:
    """The player's rating changes, newest first, with tournament and opponent."""
    return (
        RatingChange.objects.filter(player=player)
        .select_related("tournament", "opponent")
        .order_by("-created_at", "-pk")
    )


@dataclass(frozen=True)
class RatingHistory:
    """A player's rating history as one reader may see it: the changes of tournaments he may
    see (and manual ones), newest first, and the sum and count of all the others."""

    visible: list[RatingChange]
    private_delta: int
    private_count: int


def player_rating_history_for(*, player: Player, user: Actor) -> RatingHistory:
    changes = player_rating_history(player=player)
    hidden = Q(tournament__isnull=False) & ~Q(tournament__in=tournament_list(user=user))
    totals = changes.filter(hidden).aggregate(delta=Sum("delta"), count=Count("pk"))
    return RatingHistory(
        visible=list(changes.exclude(hidden)),
        private_delta=totals["delta"] or 0,
        private_count=totals["count"],
    )


def match_rating_changes(*, match: Match) -> dict[str, dict[str, int]]:
    """The match's current Elo change per slot: {"a": {"before", "after", "delta"}, ...};
    empty when the match was not rated (walkover, unrated tournament, not finished)."""
    out: dict[str, dict[str, int]] = {}
    slots = {match.player_a_id: "a", match.player_b_id: "b"}
    for change in RatingChange.objects.filter(match=match, reason="match"):
        slot = slots.get(change.player_id)
        if slot is not None:
            out[slot] = {
                "before": change.rating_before,
                "after": change.rating_after,
                "delta": change.delta,
            }
    return out
