"""The top bar's links by role: the organiser panel for organisers, "My matches" for referees;
a referee does not see a panel that is not for him."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments import access

register = template.Library()


@register.simple_tag(takes_context=True)
def nav_roles(context: Any) -> dict[str, bool]:
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"organiser": False, "referee": False}
    cached = getattr(user, "_luza_nav_roles", None)
    if cached is None:
        organiser = access.is_organiser_role(user) or user.organised_tournaments.exists()
        referee = (
            user.is_superuser
            or access.is_referee_role(user)
            or user.refereed_tournaments.exists()
            or user.refereed_matches.exists()
        )
        cached = {"organiser": organiser, "referee": referee}
        user._luza_nav_roles = cached
    return cached
