"""Raw data of matches and tables for superusers. The event log, the cached state and the
clock are read-only here: they change only through the services, which keep them consistent."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from matches.models import Match, MatchEvent, Table
from tournaments.web.shared.admin import ManagedTournamentsAdmin, MatchAdminForm


@admin.register(Table)
class TableAdmin(ManagedTournamentsAdmin[Table]):
    list_display = ["number", "tournament", "label", "is_active"]
    list_filter = ["is_active", ("tournament", admin.RelatedOnlyFieldListFilter)]
    list_select_related = ["tournament"]
    ordering = ["tournament", "number"]


_EVENT_FIELDS = ("seq", "kind", "payload", "undone", "source", "actor", "created_at")


class MatchEventInline(admin.TabularInline[MatchEvent, Match]):
    model = MatchEvent
    fk_name = "match"
    fields = _EVENT_FIELDS
    readonly_fields = _EVENT_FIELDS
    ordering = ["seq"]
    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Match)
class MatchAdmin(ManagedTournamentsAdmin[Match]):
    form = MatchAdminForm
    list_display = [
        "key",
        "tournament",
        "status",
        "player_a",
        "player_b",
        "table",
        "version",
        "result",
        "score_a",
        "score_b",
    ]
    list_filter = ["status", "result", "held", ("tournament", admin.RelatedOnlyFieldListFilter)]
    list_select_related = ["tournament", "player_a", "player_b", "table"]
    search_fields = ["key", "player_a__name", "player_b__name"]
    raw_id_fields = ["player_a", "player_b", "winner", "loser", "winner_to", "loser_to", "table"]
    filter_horizontal = ["referees"]
    readonly_fields = [
        "state",
        "version",
        "started_at",
        "finished_at",
        "called_at",
        "clock_elapsed_ms",
        "clock_running_since",
        "clock_deadline",
        "clock_generation",
        "clock_expired_at",
        "judge_called_at",
        "judge_called_by",
        "updated_at",
    ]
    inlines = [MatchEventInline]
