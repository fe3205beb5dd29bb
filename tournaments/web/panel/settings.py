"""The settings page of the panel: every setting, a preview of the matches a race change
re-makes after the draw, archive and delete (each asks for confirmation first)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views import View

from tournaments.errors import TournamentError
from tournaments.services import settings_live
from tournaments.web.panel import forms
from tournaments.web.panel.forms_settings import SettingsForm
from tournaments.web.shared.panel import PanelAction, PanelMixin


class SettingsView(PanelMixin, View):
    tab = "settings"

    def form(self, data: Any = None, files: Any = None) -> SettingsForm:
        tournament = self.get_tournament()
        return SettingsForm(
            data,
            files,
            tournament=tournament,
            editable=settings_live.settings_editable(tournament),
        )

    def render_form(
        self, form: SettingsForm, *, changes: Any = None, status: int = 200
    ) -> HttpResponse:
        tournament = self.get_tournament()
        response = self.page(
            "panel/settings.html",
            form=form,
            groups=[(key, [form[name] for name in names]) for key, names in form.groups.items()],
            changes=changes,
            drawn=tournament.status not in ("draft", "registration"),
            blockers=settings_live.tournament_delete_blockers(tournament=tournament),
        )
        response.status_code = status
        return response

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        return self.render_form(self.form())

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        tournament = self.get_tournament()
        form = self.form(request.POST, request.FILES)
        if not form.is_valid():
            return self.render_form(form, status=400)
        data = form.service_data()
        try:
            if "preview" in request.POST:
                changes = settings_live.tournament_settings_preview(
                    tournament=tournament, data=data
                )
                return self.render_form(form, changes=changes)
            _updated, changes = settings_live.tournament_settings_update(
                tournament=tournament, actor=request.user, data=data
            )
        except TournamentError as err:
            forms.add_service_error(form, _with_prefix(form, err))
            return self.render_form(form, status=400)
        if not data:
            messages.info(request, _("Nothing changed."))
        elif changes:
            messages.success(
                request,
                _("Settings saved; the race changed in: %(keys)s.")
                % {"keys": ", ".join(c["match"].key for c in changes)},
            )
        else:
            messages.success(request, _("Settings saved."))
        return redirect("panel-settings", tournament.pk)


def _with_prefix(form: SettingsForm, err: TournamentError) -> TournamentError:
    """A service error about a ruleset or stage key, shown on the field of this page."""
    field = str(err.params.get("field", ""))
    key = str(err.params.get("key", ""))
    if field == "ruleset" and f"ruleset__{key}" in form.fields:
        err.params["field"] = f"ruleset__{key}"
    elif field.startswith("stage_rules."):
        stage = field.split(".")[1]
        # The stage's field of that key, else its first (the stage's own keys vary).
        own = [name for name in form.fields if name.startswith(f"stage__{stage}__")]
        named = f"stage__{stage}__{key}"
        if named in own or own:
            err.params["field"] = named if named in own else own[0]
    return err


class ArchiveView(PanelAction):
    default_next = "panel-settings"

    def confirm_text(self) -> str | None:
        if self.request.POST.get("archived") == "0":
            return None  # showing it again breaks nothing
        return _("Archive «%(name)s»? It disappears from the public lists.") % {
            "name": self.get_tournament().name
        }

    def act(self, request: HttpRequest) -> str | None:
        archived = request.POST.get("archived", "1") != "0"
        settings_live.tournament_archive(
            tournament=self.get_tournament(), actor=request.user, archived=archived
        )
        if archived:
            return _("The tournament is archived: it is no longer in the public lists.")
        return _("The tournament is back in the public lists.")


class DeleteView(PanelAction):
    default_next = "panel-settings"

    def confirm_text(self) -> str | None:
        return _("Delete «%(name)s» for good? This cannot be undone.") % {
            "name": self.get_tournament().name
        }

    deleted = False

    def act(self, request: HttpRequest) -> str | None:
        settings_live.tournament_delete(tournament=self.get_tournament(), actor=request.user)
        self.deleted = True
        return _("The tournament is deleted.")

    def next_url(self) -> str:
        # The tournament's own pages are gone with it.
        return reverse("panel-home") if self.deleted else super().next_url()
