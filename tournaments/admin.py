"""The Django admin: raw data for organisers. The rating history and the audit log are
read-only here; ratings change through matches (or a player's edit in the API, recorded)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin

from tournaments.models import AuditEntry, Player, RatingChange, Registration, Tournament


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: Any) -> bool:
        return False

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: Any, obj: Any = None) -> bool:
        return False


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "city", "club", "rating", "user"]
    search_fields = ["name", "city", "club"]
    list_filter = ["city", "club"]
    raw_id_fields = ["user"]


class RegistrationInline(admin.TabularInline):
    model = Registration
    extra = 0
    raw_id_fields = ["player"]
    fields = ["player", "rating_at_entry", "seed", "fee_due", "paid", "paid_at", "status"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "date", "status", "format", "discipline", "is_public"]
    list_filter = ["status", "format", "discipline", "is_public"]
    search_fields = ["name", "venue"]
    date_hierarchy = "date"
    filter_horizontal = ["organisers", "referees"]
    readonly_fields = ["public_version", "drawn_at", "finished_at", "created_at", "updated_at"]
    inlines = [RegistrationInline]


@admin.register(Registration)
class RegistrationAdmin(admin.ModelAdmin):
    list_display = ["player", "tournament", "seed", "fee_due", "paid", "status"]
    list_filter = ["status", "paid"]
    search_fields = ["player__name", "tournament__name"]
    raw_id_fields = ["player", "tournament"]


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin):
    list_display = [
        "player",
        "rating_before",
        "rating_after",
        "delta",
        "reason",
        "tournament",
        "created_at",
    ]
    list_filter = ["reason"]
    search_fields = ["player__name"]
    list_select_related = ["player", "tournament"]


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "actor_name", "action", "tournament", "match"]
    list_filter = ["action"]
    search_fields = ["actor_name", "action"]
    list_select_related = ["tournament", "match"]
