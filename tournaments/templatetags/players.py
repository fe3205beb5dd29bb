"""Template tags of the players' side: a tournament's club cups and online entry link."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.inclusion_tag("players/_tournament_extras.html", takes_context=True)
def tournament_extras(context: Any, tournament: Any) -> dict[str, Any]:
    from tournaments.selectors_players import series_visible
    from tournaments.services.entries import entry_window_state

    user = context["request"].user
    return {
        "tournament": tournament,
        "series": list(series_visible(user=user).filter(stages__tournament=tournament).distinct()),
        "entry_state": entry_window_state(tournament),
    }
