"""Template helpers of the Luza pages: money, clocks, bracket sides."""

from __future__ import annotations

import json
from typing import Any

from django import template
from django.utils.dateformat import format as date_format
from django.utils.translation import gettext_lazy, pgettext

from tournaments import names
from tournaments.audit_text import AUDIT_ACTIONS
from tournaments.match_labels import match_label
from tournaments.presentation import money

register = template.Library()
register.filter("money", money)
# Names on paper: typed in capitals, shown in title case; a signature line, initials first.
register.filter("paper_name", names.paper_name)
register.filter("signature_name", names.signature_name)


@register.filter
def paper_date(value: Any) -> str:
    """A date as paper writes it: «5 декабря 2026 г.» (the diplomas' words, on every sheet)."""
    if not value:
        return ""
    return pgettext("diploma date", "%(date)s") % {"date": date_format(value, "j E Y")}


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
    return match_label(None if key is None else str(key))


@register.filter
def actor_label(name: Any) -> str:
    """Who acted, for the audit log: the match clock acts as "system", read «система»."""
    if name == "system":
        return str(gettext_lazy("system"))
    return str(name or "")
