"""The audit log's sentences in templates: {% audit_rows entries tournament as rows %}."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments.audit_text import audit_rows as build_rows

register = template.Library()


@register.simple_tag
def audit_rows(entries: Any, tournament: Any = None) -> list[dict[str, Any]]:
    return build_rows(entries, tournament if tournament else None)
