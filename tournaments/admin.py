"""The Django admin: raw data for organisers. The rating history and the audit log are
read-only here; ratings change through matches (or a player's edit in the API, recorded)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import Q

from tournaments import access, selectors
from tournaments.models import AuditEntry, Player, RatingChange, Registration, Tournament


class ManagedTournamentsAdmin(admin.ModelAdmin):
    """An organiser (staff) sees and picks only the tournaments he organises, and their rows:
    the same rule as the panel (tournaments.access); a superuser sees everything."""

    tournament_path = "tournament"  # how a row reaches its tournament; "" for Tournament

    def get_queryset(self, request: Any) -> Any:
        managed = access.managed_tournaments(request.user)
        rows = super().get_queryset(request)
        if request.user.is_superuser:
            return rows
        if not self.tournament_path:
            return rows.filter(pk__in=managed.values("pk"))
        return rows.filter(**{f"{self.tournament_path}__in": managed.values("pk")})

    def formfield_for_foreignkey(self, db_field: Any, request: Any, **kwargs: Any) -> Any:
        if db_field.name == "tournament":
            kwargs["queryset"] = access.managed_tournaments(request.user)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


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
class TournamentAdmin(ManagedTournamentsAdmin):
    tournament_path = ""
    list_display = ["name", "date", "status", "format", "discipline", "is_public"]
    list_filter = ["status", "format", "discipline", "is_public"]
    search_fields = ["name", "venue"]
    date_hierarchy = "date"
    filter_horizontal = ["organisers", "referees"]
    readonly_fields = ["public_version", "drawn_at", "finished_at", "created_at", "updated_at"]
    inlines = [RegistrationInline]


@admin.register(Registration)
class RegistrationAdmin(ManagedTournamentsAdmin):
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

    def get_queryset(self, request: Any) -> Any:
        # Ratings are public, a private tournament's games are not (as in the API).
        visible = selectors.tournament_list(user=request.user).values("pk")
        rows = super().get_queryset(request)
        return rows.filter(Q(tournament__isnull=True) | Q(tournament__in=visible))


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "actor_name", "action", "tournament", "match"]
    list_filter = ["action"]
    search_fields = ["actor_name", "action"]
    list_select_related = ["tournament", "match"]

    def get_queryset(self, request: Any) -> Any:
        # The log of his own tournaments, and of the players all organisers share.
        managed = access.managed_tournaments(request.user).values("pk")
        rows = super().get_queryset(request)
        if request.user.is_superuser:
            return rows
        return rows.filter(Q(tournament__isnull=True) | Q(tournament__in=managed))
