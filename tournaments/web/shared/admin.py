"""The admin's base classes, for the tournaments' and the matches' admin alike: what a superuser
changes in the Django admin is audited too, a staff organiser sees only the rows of the
tournaments he organises, and a match's links are checked: they stay inside its tournament, and
a next match always names its slot."""

from __future__ import annotations

from typing import Any, TypeVar

from django import forms
from django.contrib import admin
from django.db import models
from django.utils.translation import gettext as _

from audit.services import audit_record
from config.moments import validate_window
from matches.models import Match
from tournaments import access
from tournaments.models import Player, Registration, Tournament

_M = TypeVar("_M", bound=models.Model)


def _jsonable(value: Any) -> Any:
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return getattr(value, "pk", None) if hasattr(value, "pk") else str(value)


class AuditedAdmin(admin.ModelAdmin[_M]):
    """Every save and delete in the admin is an audit entry (action "admin_change"); its date
    fields take dates within config.moments' window, as every other path does."""

    def formfield_for_dbfield(self, db_field: Any, request: Any, **kwargs: Any) -> Any:
        field = super().formfield_for_dbfield(db_field, request, **kwargs)
        if isinstance(db_field, models.DateField) and field is not None:
            field.validators.append(validate_window)
        return field

    def _audit(self, request: Any, obj: Any, what: str, fields: list[str]) -> None:
        tournament = obj if isinstance(obj, Tournament) else getattr(obj, "tournament", None)
        audit_record(
            actor=request.user,
            action="admin_change",
            tournament=tournament if isinstance(tournament, Tournament) else None,
            player=obj if isinstance(obj, Player) and what != "delete" else None,
            data={
                "model": obj._meta.label_lower,
                "id": obj.pk,
                "what": what,
                "changed": {f: _jsonable(getattr(obj, f, None)) for f in fields},
            },
        )

    def save_model(self, request: Any, obj: Any, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        fields = [f for f in form.changed_data if f in {x.name for x in obj._meta.fields}]
        self._audit(request, obj, "change" if change else "add", fields)

    def delete_model(self, request: Any, obj: Any) -> None:
        self._audit(request, obj, "delete", [])
        super().delete_model(request, obj)

    def delete_queryset(self, request: Any, queryset: Any) -> None:
        for obj in queryset:
            self._audit(request, obj, "delete", [])
        super().delete_queryset(request, queryset)


class MatchAdminForm(forms.ModelForm[Match]):
    """A match's next matches and table belong to its own tournament; a next match needs the
    slot (a or b) the player goes to, or finishing the match could not move him on."""

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        tournament = data.get("tournament") or getattr(self.instance, "tournament", None)
        if tournament is None:
            return data
        for field in ("winner_to", "loser_to", "table"):
            target = data.get(field)
            if target is not None and target.tournament_id != tournament.pk:
                self.add_error(field, _("It must belong to the same tournament."))
        for link, slot in (("winner_to", "winner_slot"), ("loser_to", "loser_slot")):
            if data.get(link) is not None and data.get(slot) not in ("a", "b"):
                self.add_error(slot, _("Give the slot in the next match: a or b."))
            if data.get(link) is None and data.get(slot):
                self.add_error(slot, _("No next match: leave the slot empty."))
        for field in ("winner_to", "loser_to"):
            target = data.get(field)
            if target is not None and self.instance.pk and target.pk == self.instance.pk:
                self.add_error(field, _("A match cannot lead to itself."))
        players = [data.get(f) for f in ("player_a", "player_b", "winner", "loser")]
        ids = {p.pk for p in players if p is not None}
        if ids:
            registered = set(
                Registration.objects.filter(tournament=tournament, player__in=ids).values_list(
                    "player_id", flat=True
                )
            )
            if ids - registered:
                raise forms.ValidationError(
                    _("Every player of the match must be registered in its tournament.")
                )
        return data


class ManagedTournamentsAdmin(AuditedAdmin[_M]):
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
