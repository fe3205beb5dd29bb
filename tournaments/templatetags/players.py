"""Template tags of the players' side: a tournament's club cups and online entry link."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments import access
from tournaments.models import Series
from tournaments.selectors_players import series_visible
from tournaments.services.entry_rules import entry_window_state

register = template.Library()


@register.inclusion_tag("players/_tournament_extras.html", takes_context=True)
def tournament_extras(context: Any, tournament: Any) -> dict[str, Any]:
    user = context["request"].user
    return {
        "tournament": tournament,
        "series": list(series_visible(user=user).filter(stages__tournament=tournament).distinct()),
        "entry_state": entry_window_state(tournament),
    }


@register.inclusion_tag("players/_panel_series.html", takes_context=True)
def panel_series(context: Any) -> dict[str, Any]:
    """The organiser's club cups on his panel home, with the link to make one."""
    user = context["request"].user
    if not access.is_organiser_role(user):
        return {"show": False}
    mine = Series.objects.all() if user.is_superuser else Series.objects.filter(organisers=user)
    return {"show": True, "series": list(mine.order_by("-created_at", "-pk")[:50])}
