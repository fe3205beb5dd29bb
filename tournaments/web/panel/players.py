"""The organiser's side of online entry and club cups: check-in at the desk, removing those
not checked in, approving a login's request to be added, the entry settings, and series."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views import View

from tournaments import access, services
from tournaments.errors import TournamentError
from tournaments.models import PlayerRequest, Registration, Series
from tournaments.selectors_players import series_visible
from tournaments.services import entries
from tournaments.services import series as series_services
from tournaments.web.panel.forms_players import EntrySettingsForm, SeriesForm
from tournaments.web.shared.panel import PanelAction, PanelMixin, form_error_text


class CheckInView(PanelAction):
    """One tap at the desk: present (or the tick taken back)."""

    default_next = "panel-registrations"

    def act(self, request: HttpRequest) -> str | None:
        reg = get_object_or_404(
            Registration.objects.select_related("player"),
            pk=self.kwargs["reg"],
            tournament=self.get_tournament(),
        )
        present = request.POST.get("present", "1") != "0"
        services.registration_check_in(registration=reg, actor=request.user, present=present)
        return None

    def next_url(self) -> str:
        return f"{super().next_url()}#reg-{self.kwargs['reg']}"


class RemoveAbsentView(PanelAction):
    default_next = "panel-registrations"

    def act(self, request: HttpRequest) -> str | None:
        result = services.registration_remove_absent(
            tournament=self.get_tournament(), actor=request.user
        )
        removed, promoted = len(result["removed"]), len(result["promoted"])
        return " ".join(
            [
                ngettext(
                    "%(n)s player not checked in is removed.",
                    "%(n)s players not checked in are removed.",
                    removed,
                )
                % {"n": removed},
                ngettext("%(n)s reserve moved up.", "%(n)s reserves moved up.", promoted)
                % {"n": promoted},
            ]
        )


class PlayerRequestDecideView(PanelAction):
    default_next = "panel-registrations"

    def act(self, request: HttpRequest) -> str | None:
        player_request = get_object_or_404(
            PlayerRequest, pk=self.kwargs["req"], tournament=self.get_tournament()
        )
        approve = request.POST.get("approve") == "1"
        decided = services.player_request_decide(
            request=player_request, actor=request.user, approve=approve
        )
        if approve:
            return _("%(name)s is added and linked to his login.") % {"name": decided.name}
        return _("The request of %(name)s is declined.") % {"name": decided.name}


class EntrySettingsView(PanelMixin, View):
    tab = "registrations"

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        tournament = self.get_tournament()
        form = EntrySettingsForm(initial={f: getattr(tournament, f) for f in entries.ENTRY_FIELDS})
        return self.page("players/panel_entry_settings.html", form=form)

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        tournament = self.get_tournament()
        form = EntrySettingsForm(request.POST)
        if form.is_valid():
            try:
                entries.tournament_entry_settings(
                    tournament=tournament, actor=request.user, data=form.cleaned_data
                )
            except TournamentError as err:
                form.add_error(None, err.message)
            else:
                messages.success(request, _("Online entry settings are saved."))
                return HttpResponseRedirect(reverse("panel-registrations", args=[pk]))
        response = self.page("players/panel_entry_settings.html", form=form)
        response.status_code = 400
        return response


# --- club cups ------------------------------------------------------------------------------


def _form_values(form: SeriesForm) -> tuple[dict[str, Any], list[Any]]:
    data = dict(form.cleaned_data)
    chosen = sorted(data.pop("tournaments") or [], key=lambda t: (t.date, t.pk))
    return data, chosen


class SeriesCreateView(LoginRequiredMixin, View):
    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
        if request.user.is_authenticated and not access.is_organiser_role(request.user):
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)

    def get(self, request: HttpRequest) -> HttpResponse:
        form = SeriesForm(
            tournaments=access.managed_tournaments(request.user),
            initial={"points_table": "25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1"},
        )
        return render(request, "series/form.html", {"form": form, "series": None})

    def post(self, request: HttpRequest) -> HttpResponse:
        form = SeriesForm(request.POST, tournaments=access.managed_tournaments(request.user))
        if form.is_valid():
            data, chosen = _form_values(form)
            try:
                series = series_services.series_create(
                    actor=request.user, data=data, tournaments=chosen
                )
            except TournamentError as err:
                form.add_error(None, err.message)
            else:
                messages.success(request, _("The series is created."))
                return HttpResponseRedirect(reverse("series", args=[series.pk]))
        return render(request, "series/form.html", {"form": form, "series": None}, status=400)


class SeriesEditView(LoginRequiredMixin, View):
    def _series(self, request: HttpRequest, pk: int) -> Series:
        series = get_object_or_404(series_visible(user=request.user), pk=pk)
        if not series_services.can_manage_series(request.user, series):
            raise PermissionDenied
        return series

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        series = self._series(request, pk)
        form = SeriesForm(
            tournaments=access.managed_tournaments(request.user),
            initial={
                "name": series.name,
                "description": series.description,
                "points_table": ", ".join(str(p) for p in series.points_table),
                "participation_points": series.participation_points,
                "best_of": series.best_of,
                "is_public": series.is_public,
                "tournaments": list(series.tournaments.values_list("pk", flat=True)),
            },
        )
        return render(request, "series/form.html", {"form": form, "series": series})

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        series = self._series(request, pk)
        form = SeriesForm(request.POST, tournaments=access.managed_tournaments(request.user))
        if form.is_valid():
            data, chosen = _form_values(form)
            try:
                series_services.series_update(
                    series=series, actor=request.user, data=data, tournaments=chosen
                )
            except TournamentError as err:
                form.add_error(None, err.message)
            else:
                messages.success(request, _("The series is saved."))
                return HttpResponseRedirect(reverse("series", args=[series.pk]))
        if form.errors and not form.non_field_errors():
            messages.error(request, form_error_text(form))
        return render(request, "series/form.html", {"form": form, "series": series}, status=400)
