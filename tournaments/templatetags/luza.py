"""Template helpers of the Luza pages: money, clocks, bracket sides."""

from __future__ import annotations

import json
from decimal import Decimal, InvalidOperation
from typing import Any

from django import template
from django.utils.translation import gettext_lazy

from tournaments.audit_players import PLAYERS_AUDIT_ACTIONS

register = template.Library()

CURRENCY = "₽"
NARROW_NBSP = "\u202f"


@register.filter
def money(value: Any) -> str:
    """1500.00 -> "1 500 ₽"; kopecks only when there are any."""
    if value in (None, ""):
        return ""
    try:
        amount = Decimal(str(value))
    except InvalidOperation:
        return str(value)
    text = f"{amount:,.0f}" if amount == amount.to_integral() else f"{amount:,.2f}"
    return text.replace(",", NARROW_NBSP) + "\u00a0" + CURRENCY


@register.filter
def clock(seconds: Any) -> str:
    """Seconds -> "1:19:05" or "9:05", like static/js/clock.js."""
    if seconds is None or seconds == "":
        return "—"
    s = max(0, int(seconds))
    h, rest = divmod(s, 3600)
    m, sec = divmod(rest, 60)
    return f"{h}:{m:02d}:{sec:02d}" if h else f"{m}:{sec:02d}"


@register.filter
def get(mapping: Any, key: Any) -> Any:
    """mapping[key] in a template (dicts keyed by "a"/"b")."""
    if mapping is None:
        return None
    try:
        return mapping.get(key)
    except AttributeError:
        return None


AUDIT_ACTIONS = {
    "tournament_create": gettext_lazy("Tournament created"),
    "tournament_update": gettext_lazy("Settings changed"),
    "tournament_status": gettext_lazy("Status changed"),
    "tournament_draw": gettext_lazy("Draw made"),
    "tournament_referee_add": gettext_lazy("Referee added"),
    "tournament_referee_remove": gettext_lazy("Referee removed"),
    "player_create": gettext_lazy("Player created"),
    "player_update": gettext_lazy("Player changed"),
    "registration_add": gettext_lazy("Player registered"),
    "registration_paid": gettext_lazy("Fee marked paid"),
    "registration_unpaid": gettext_lazy("Fee marked unpaid"),
    "registration_withdraw": gettext_lazy("Player withdrew"),
    "registration_disqualify": gettext_lazy("Player disqualified"),
    "match.event": gettext_lazy("Event entered"),
    "match.undo": gettext_lazy("Event undone"),
    "match.clock_start": gettext_lazy("Clock started"),
    "match.clock_pause": gettext_lazy("Technical break"),
    "match.clock_resume": gettext_lazy("Clock resumed"),
    "match.clock_adjust": gettext_lazy("Time left changed"),
    "match.clock_expired": gettext_lazy("Time expired"),
    "match.finished": gettext_lazy("Match finished"),
    "match.walkover": gettext_lazy("Walkover"),
    "match.hold": gettext_lazy("Held back / released"),
    "match.judge_called": gettext_lazy("Judge called"),
    "match.judge_resolved": gettext_lazy("Judge call resolved"),
    "match.table_assigned": gettext_lazy("Sent to a table"),
    "match.table_moved": gettext_lazy("Moved to another table"),
    "match_correct_result": gettext_lazy("Result corrected"),
    "match_set_handicap": gettext_lazy("Head start overridden"),
    "table.freed": gettext_lazy("Table freed"),
    "tables.ensure": gettext_lazy("Tables in use set"),
    "referee_login_create": gettext_lazy("Referee login created"),
    "referee_password_reset": gettext_lazy("Referee's password reset"),
    "login_create": gettext_lazy("Login created"),
    "password_change": gettext_lazy("Own password changed"),
    "player_claim_issue": gettext_lazy("Login slip printed"),
    "player_link_login": gettext_lazy("Login linked"),
    "player_unlink_login": gettext_lazy("Login unlinked"),
    "player_rating_adjust": gettext_lazy("Rating adjusted"),
    "player_merge": gettext_lazy("Players merged"),
    "admin_change": gettext_lazy("Changed in the administration"),
}
AUDIT_ACTIONS.update(PLAYERS_AUDIT_ACTIONS)
AUDIT_DATA_CHARS = 240


@register.filter
def audit_action(action: str) -> str:
    return str(AUDIT_ACTIONS.get(action, action))


@register.filter
def audit_data(data: Any) -> str:
    """The entry's data, compact: the log is for checking what happened, not for reading."""
    if not data:
        return ""
    text = json.dumps(data, ensure_ascii=False, separators=(", ", ": "), default=str)
    return text if len(text) <= AUDIT_DATA_CHARS else text[: AUDIT_DATA_CHARS - 1] + "…"


@register.filter(name="match_label")
def match_label_filter(key: Any) -> str:
    """A match's key as a club writes it («В1-1», «Финал»): tournaments.match_labels."""
    from tournaments.match_labels import match_label

    return match_label(None if key is None else str(key))


@register.filter
def actor_label(name: Any) -> str:
    """Who acted, for the audit log: the match clock acts as "system", read «система»."""
    if name == "system":
        return str(gettext_lazy("system"))
    return str(name or "")
