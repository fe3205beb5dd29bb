"""The Django admin: raw data for superusers (config.admin keeps everybody else out). The
rating history and the audit log are read-only here; ratings change through matches or a
superuser's adjustment on the player's card (recorded); every change made here is audited."""

from __future__ import annotations

from typing import Any, TypeVar

from django import forms
from django.contrib import admin
from django.contrib.auth import admin as auth_admin
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db import models, transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from audit.models import AuditEntry
from config.login_names import LoginTaken, lock_login_name, login_clash, login_refusal, shape_login
from tournaments import access, services
from tournaments.models import Player, RatingChange, Registration, Tournament
from tournaments.selectors.tournament import tournament_list
from tournaments.services.common import visibility_announce
from tournaments.web.shared.admin import AuditedAdmin, ManagedTournamentsAdmin

_M = TypeVar("_M", bound=models.Model)


class ReadOnlyAdmin(admin.ModelAdmin[_M]):
    def has_add_permission(self, request: Any) -> bool:
        return False

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: Any, obj: Any = None) -> bool:
        return False


@admin.register(Player)
class PlayerAdmin(AuditedAdmin[Player]):
    """Name, city and club through the players' service (his history, his tournaments'
    pages); the rating and the login on the player's card in the panel and the API, where a
    rating adjustment is recorded and a linked login is never replaced silently."""

    list_display = ["name", "city", "club", "rating", "user"]
    search_fields = ["name", "name_folded", "city", "club"]
    list_filter = ["city", "club"]
    readonly_fields = ["rating", "user"]

    def save_model(self, request: Any, obj: Any, form: Any, change: bool) -> None:
        if not change:
            super().save_model(request, obj, form, change)
            return
        data = {f: form.cleaned_data[f] for f in form.changed_data if f in ("name", "city", "club")}
        if data:
            services.player_update(player=obj, actor=request.user, data=data)


class RegistrationInline(admin.TabularInline[Registration, Tournament]):
    model = Registration
    extra = 0
    raw_id_fields = ["player"]
    fields = ["player", "rating_at_entry", "seed", "fee_due", "paid", "paid_at", "status"]


@admin.register(Tournament)
class TournamentAdmin(ManagedTournamentsAdmin[Tournament]):
    tournament_path = ""
    list_display = ["name", "date", "status", "format", "discipline", "is_public"]
    list_filter = ["status", "format", "discipline", "is_public"]
    search_fields = ["name", "venue"]
    date_hierarchy = "date"
    filter_horizontal = ["organisers", "referees"]
    readonly_fields = ["public_version", "drawn_at", "finished_at", "created_at", "updated_at"]
    inlines = [RegistrationInline]

    def save_model(self, request: Any, obj: Tournament, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        if change and "is_public" in form.changed_data:
            visibility_announce(tournament=obj)  # the live streams follow at once


@admin.register(Registration)
class RegistrationAdmin(ManagedTournamentsAdmin[Registration]):
    list_display = ["player", "tournament", "seed", "fee_due", "paid", "status"]
    list_filter = ["status", "paid"]
    search_fields = ["player__name", "tournament__name"]
    raw_id_fields = ["player", "tournament"]


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin[RatingChange]):
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
        visible = tournament_list(user=request.user).values("pk")
        rows = super().get_queryset(request)
        return rows.filter(Q(tournament__isnull=True) | Q(tournament__in=visible))


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin[AuditEntry]):
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


# --- logins: one folding of names (config.login_names) -----------------------------------------


class _FoldedUsername:
    """A name another login already has once folded (ＯＲＧＢ beside orgb) is a form error."""

    cleaned_data: dict[str, Any]
    instance: Any

    def clean_username(self) -> str:
        name = shape_login(self.cleaned_data.get("username"))
        refusal = login_refusal(name)
        if refusal:
            raise forms.ValidationError(refusal)
        if login_clash(name, exclude_pk=self.instance.pk) is not None:
            raise forms.ValidationError(
                _("The login “%(login)s” is taken: choose another.") % {"login": name}
            )
        return name


class LoginCreationForm(_FoldedUsername, AdminUserCreationForm[User]):
    pass


class LoginChangeForm(_FoldedUsername, UserChangeForm[User]):
    pass


class LoginAdmin(auth_admin.UserAdmin):  # type: ignore[type-arg]
    add_form = LoginCreationForm
    form = LoginChangeForm

    def save_model(self, request: Any, obj: Any, form: Any, change: bool) -> None:
        with transaction.atomic():
            lock_login_name(obj.username)
            if login_clash(obj.username, exclude_pk=obj.pk) is not None:
                raise PermissionDenied(str(LoginTaken(obj.username)))
            super().save_model(request, obj, form, change)


admin.site.unregister(get_user_model())
admin.site.register(get_user_model(), LoginAdmin)
