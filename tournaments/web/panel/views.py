"""The organiser panel: set-up, the registration desk, the draw, prizes and the audit log.

Every action is a POST form with CSRF that works without JavaScript, calls one service and
redirects back (post/redirect/get); a service's refusal becomes a message in the user's
language (tournaments.web.shared.panel). The table board and match control are
matches.web.panel's."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views import View

from matches.models import Match
from tournaments import access, selectors_people, selectors_players, services
from tournaments.audit_text import KINDS
from tournaments.diplomas import diploma_entries
from tournaments.errors import TournamentError
from tournaments.models import Player, Registration, Tournament
from tournaments.presentation import bracket_shown, no_show_question, standings_shown
from tournaments.regulation import fee_lines, lateness_done, regulation
from tournaments.selectors.audit import tournament_audit_filtered
from tournaments.selectors.desk import registration_list, registration_totals, table_time
from tournaments.selectors.prizes import tournament_prizes
from tournaments.selectors.standings import tournament_standings
from tournaments.services.entry_rules import registration_state
from tournaments.web.panel import forms
from tournaments.web.shared.panel import PanelAction, PanelMixin, form_error_text
from tournaments.web.shared.permissions import signed_in

# --- home and creation -----------------------------------------------------------------------


class PanelHomeView(LoginRequiredMixin, View):
    def get(self, request: HttpRequest) -> HttpResponse:
        user = signed_in(request)
        if user.is_superuser:
            mine = Tournament.objects.all()
        else:
            mine = Tournament.objects.filter(Q(organisers=user) | Q(referees=user)).distinct()
        tournaments = list(mine.order_by("-date", "-pk")[:200])
        organised = (
            set(Tournament.objects.filter(organisers=user).values_list("pk", flat=True))
            if not user.is_superuser
            else {t.pk for t in tournaments}
        )
        return render(
            request,
            "panel/home.html",
            {
                "tournaments": tournaments,
                "organised": organised,
                "can_create": access.is_organiser_role(user),
            },
        )


class TournamentCreateView(LoginRequiredMixin, View):
    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
        if request.user.is_authenticated and not access.is_organiser_role(request.user):
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)

    def get(self, request: HttpRequest) -> HttpResponse:
        return render(request, "panel/create.html", {"form": forms.TournamentCreateForm()})

    def post(self, request: HttpRequest) -> HttpResponse:
        form = forms.TournamentCreateForm(request.POST)
        if form.is_valid():
            try:
                tournament = services.tournament_create(
                    actor=request.user,
                    data=form.service_data(),
                    preset=form.cleaned_data["preset"],
                )
                if form.cleaned_data["open_registration"]:
                    services.tournament_open_registration(tournament=tournament, actor=request.user)
            except TournamentError as err:
                forms.add_service_error(form, err)
            else:
                messages.success(request, _("Tournament created."))
                target = (
                    "panel-registrations"
                    if form.cleaned_data["open_registration"]
                    else "panel-tournament"
                )
                return redirect(target, tournament.pk)
        return render(request, "panel/create.html", {"form": form}, status=400)


# --- the tournament --------------------------------------------------------------------------


class TournamentPanelView(PanelMixin, View):
    tab = "overview"

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        tournament = self.get_tournament()
        return self.page(
            "panel/tournament.html",
            totals=registration_totals(tournament=tournament),
            regulation=regulation(tournament),
            fees=fee_lines(tournament),
            referees=tournament.referees.order_by("username"),
        )


class OpenRegistrationView(PanelAction):
    default_next = "panel-registrations"

    def act(self, request: HttpRequest) -> str | None:
        services.tournament_open_registration(tournament=self.get_tournament(), actor=request.user)
        return _("Registration is open.")


class CloseRegistrationView(PanelAction):
    default_next = "panel-registrations"

    def act(self, request: HttpRequest) -> str | None:
        services.tournament_close_registration(tournament=self.get_tournament(), actor=request.user)
        return _("Registration is closed: nobody can enter at the desk or online.")


class ReopenRegistrationView(PanelAction):
    default_next = "panel-registrations"

    def act(self, request: HttpRequest) -> str | None:
        services.tournament_reopen_registration(
            tournament=self.get_tournament(), actor=request.user
        )
        return _("Registration is open again.")


class RefereeAddView(PanelAction):
    def act(self, request: HttpRequest) -> str | None:
        user = services.tournament_referee_add(
            tournament=self.get_tournament(),
            username=request.POST.get("username", ""),
            actor=request.user,
        )
        return _("%(login)s referees this tournament.") % {"login": user.get_username()}


class RefereeRemoveView(PanelAction):
    def act(self, request: HttpRequest) -> str | None:
        services.tournament_referee_remove(
            tournament=self.get_tournament(), user_id=self.kwargs["user_id"], actor=request.user
        )
        return _("The referee is taken off this tournament.")


class StartView(PanelAction):
    def act(self, request: HttpRequest) -> str | None:
        services.tournament_start(tournament=self.get_tournament(), actor=request.user)
        return _("The tournament has started.")


# --- registration desk -------------------------------------------------------------------------


class RegistrationDeskView(PanelMixin, View):
    tab = "registrations"

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        tournament = self.get_tournament()
        search = forms.PlayerSearchForm(request.GET)
        q = search.cleaned_data["q"].strip() if search.is_valid() else ""
        registrations = list(registration_list(tournament=tournament))
        found = []
        if q:
            found = selectors_people.player_search_with_status(search=q, tournament=tournament)
        # Back from a refused new player (a possible duplicate): his form again, to confirm.
        again = request.GET.get("new") == "1"
        initial = {"name": q} if q and not found else None
        if again:
            initial = {f: request.GET.get(f, "") for f in ("name", "city", "club", "rating")}
        new_player = forms.NewPlayerForm(initial=initial)
        return self.page(
            "panel/registrations.html",
            registrations=registrations,
            totals=registration_totals(tournament=tournament),
            search=search,
            q=q,
            found=found,
            new_player=new_player,
            confirming=again,
            open=tournament.status == Tournament.Status.REGISTRATION,
            registration_state=registration_state(tournament),
            table_time=table_time(tournament=tournament),
            can_tick=tournament.status != Tournament.Status.FINISHED,
            entry_desk=selectors_players.desk_entry(tournament=tournament),
        )


class RegistrationAddView(PanelAction):
    default_next = "panel-registrations"

    def act(self, request: HttpRequest) -> str | None:
        form = forms.RegisterExistingForm(request.POST)
        if not form.is_valid():
            raise TournamentError("invalid", form_error_text(form))
        player = get_object_or_404(Player, pk=form.cleaned_data["player"])
        services.registration_add(
            tournament=self.get_tournament(), player=player, actor=request.user
        )
        return _("%(name)s is registered.") % {"name": player.name}


class RegistrationNewPlayerView(PanelAction):
    default_next = "panel-registrations"

    def act(self, request: HttpRequest) -> str | None:
        form = forms.NewPlayerForm(request.POST)
        if not form.is_valid():
            raise TournamentError("invalid", form_error_text(form))
        data = form.cleaned_data
        try:
            reg = services.registration_add_new_player(
                tournament=self.get_tournament(),
                actor=request.user,
                name=data["name"],
                city=data["city"],
                club=data["club"],
                rating=data["rating"],
                confirm_duplicate=data["confirm_duplicate"],
            )
        except TournamentError as err:
            if err.code == "possible_duplicate":
                # Back to the desk showing the namesakes found, with his form to confirm.
                self.duplicate_of = data
            raise
        return _("%(name)s is registered.") % {"name": reg.player.name}

    def next_url(self) -> str:
        data = getattr(self, "duplicate_of", None)
        if data is None:
            return super().next_url()
        query = urlencode(
            {
                "q": data["name"],
                "new": "1",
                "name": data["name"],
                "city": data["city"],
                "club": data["club"],
                "rating": "" if data["rating"] is None else data["rating"],
            }
        )
        return f"{reverse('panel-registrations', args=[self.get_tournament().pk])}?{query}"


class _RegistrationAction(PanelAction):
    default_next = "panel-registrations"

    def registration(self) -> Registration:
        return get_object_or_404(
            Registration.objects.select_related("player"),
            pk=self.kwargs["reg"],
            tournament=self.get_tournament(),
        )

    def next_url(self) -> str:
        # Back to the row that was ticked, not to the top of a 64-player list.
        return f"{super().next_url()}#reg-{self.kwargs['reg']}"


class RegistrationPaidView(_RegistrationAction):
    def act(self, request: HttpRequest) -> str | None:
        form = forms.PaidForm(request.POST)
        if not form.is_valid():
            raise TournamentError("invalid", form_error_text(form))
        reg = self.registration()
        services.registration_set_paid(
            registration=reg, paid=form.cleaned_data["paid"], actor=request.user
        )
        return None  # the tick itself is the feedback


class RegistrationWithdrawView(_RegistrationAction):
    def confirm_text(self) -> str | None:
        return _("Withdraw %(name)s from the tournament?") % {
            "name": self.registration().player.name
        }

    def act(self, request: HttpRequest) -> str | None:
        form = forms.ReasonForm(request.POST)
        reason = form.cleaned_data["reason"] if form.is_valid() else ""
        reg = self.registration()
        services.registration_withdraw(registration=reg, actor=request.user, reason=reason)
        return _("%(name)s has withdrawn.") % {"name": reg.player.name}


class RegistrationRefundView(_RegistrationAction):
    def act(self, request: HttpRequest) -> str | None:
        reg = self.registration()
        services.registration_refund(registration=reg, actor=request.user)
        return _("%(name)s's fee is refunded.") % {"name": reg.player.name}


class MatchLatenessView(PanelAction):
    """One tap on the match's page: the player is late; the rule says what it costs."""

    default_next = "panel-tables"

    def act(self, request: HttpRequest) -> str | None:
        match = get_object_or_404(Match, pk=self.kwargs["match"], tournament=self.get_tournament())
        slot = request.POST.get("late", "")
        done = services.match_lateness(match=match, late_slot=slot, actor=request.user)
        return lateness_done(done)


class TableTimePaidView(PanelAction):
    """The desk ticks a player's table time for a match paid (or takes the tick back)."""

    default_next = "panel-registrations"

    def act(self, request: HttpRequest) -> str | None:
        match = get_object_or_404(Match, pk=self.kwargs["match"], tournament=self.get_tournament())
        try:
            player_id = int(request.POST.get("player", ""))
        except ValueError:
            raise TournamentError("invalid", _("Choose the player.")) from None
        paid = request.POST.get("paid") == "1"
        services.table_time_set_paid(
            match=match, player_id=player_id, paid=paid, actor=request.user
        )
        return None

    def next_url(self) -> str:
        return f"{super().next_url()}#table-time"


class RegistrationDisqualifyView(_RegistrationAction):
    def act(self, request: HttpRequest) -> str | None:
        form = forms.ReasonForm(request.POST)
        reason = form.cleaned_data["reason"] if form.is_valid() else ""
        reg = self.registration()
        services.registration_disqualify(registration=reg, actor=request.user, reason=reason)
        return _("%(name)s is disqualified.") % {"name": reg.player.name}


class MatchNoShowView(PanelAction):
    """From the match control page: the player who did not come loses by walkover."""

    default_next = "panel-tables"

    def confirm_text(self) -> str | None:
        absent = self.request.POST.get("absent", "")
        if absent not in ("a", "b"):
            return None  # the form's own error says what is missing
        match = get_object_or_404(Match, pk=self.kwargs["match"], tournament=self.get_tournament())
        return no_show_question(match, absent)

    def act(self, request: HttpRequest) -> str | None:
        form = forms.NoShowForm(request.POST)
        if not form.is_valid():
            raise TournamentError("invalid", form_error_text(form))
        match = get_object_or_404(Match, pk=self.kwargs["match"], tournament=self.get_tournament())
        services.match_no_show(
            match=match, absent_slot=form.cleaned_data["absent"], actor=request.user
        )
        return _("No-show recorded: the match is a walkover.")


# --- the draw ------------------------------------------------------------------------------


def _seeds(preview: dict[str, Any]) -> list[dict[str, Any]]:
    """The seeded players of a draw preview, by seed."""
    found: dict[int, dict[str, Any]] = {}
    for stage in preview["stages"]:
        for rnd in stage["rounds"]:
            for m in rnd["matches"]:
                for side in ("player_a", "player_b"):
                    player = m[side]
                    if player and player.get("seed"):
                        found.setdefault(player["seed"], player)
    return [found[s] for s in sorted(found)]


def _pairs(preview: dict[str, Any]) -> list[dict[str, Any]]:
    """The pairs a draw preview already knows (both players), each with its race and head
    start: what the handicap scheme gives at the stage's race."""
    pairs = []
    for stage in preview["stages"]:
        for rnd in stage["rounds"]:
            for m in rnd["matches"]:
                a, b = m["player_a"], m["player_b"]
                if not (a and b):
                    continue
                head = m.get("head_start") or {}
                pairs.append(
                    {
                        "a": a,
                        "b": b,
                        "race": {
                            "balls_to_win": m.get("balls_to_win"),
                            "frames_to_win": m.get("frames_to_win"),
                        },
                        "head_a": head.get("a", 0),
                        "head_b": head.get("b", 0),
                    }
                )
    return pairs


class DrawView(PanelMixin, View):
    """GET: the form, and with `preview` the bracket the draw would make; POST: draw it."""

    tab = "draw"

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        tournament = self.get_tournament()
        preview = None
        form = forms.DrawForm(request.GET if "preview" in request.GET else None)
        if (
            tournament.status == Tournament.Status.REGISTRATION
            and form.is_bound
            and form.is_valid()
        ):
            try:
                preview = bracket_shown(
                    services.tournament_draw_preview(
                        tournament=tournament,
                        method=form.cleaned_data["method"],
                        random_seed=form.cleaned_data["random_seed"],
                    )
                )
            except TournamentError as err:
                forms.add_service_error(form, err)
        return self.page(
            "panel/draw.html",
            form=form,
            preview=preview,
            seeds=_seeds(preview) if preview else [],
            pairs=_pairs(preview) if preview else [],
            totals=registration_totals(tournament=tournament),
        )

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        tournament = self.get_tournament()
        form = forms.DrawForm(request.POST)
        if not form.is_valid():
            messages.error(request, form_error_text(form))
            return redirect("panel-draw", tournament.pk)
        try:
            services.tournament_draw(
                tournament=tournament,
                actor=request.user,
                method=form.cleaned_data["method"],
                random_seed=form.cleaned_data["random_seed"],
                allow_unpaid=form.cleaned_data["allow_unpaid"],
            )
        except TournamentError as err:
            messages.error(request, err.message)
            return redirect("panel-draw", tournament.pk)
        messages.success(request, _("The draw is made. Send the first matches to the tables."))
        return redirect("panel-tables", tournament.pk)


# --- prizes and audit -------------------------------------------------------------------------


class PrizesPanelView(PanelMixin, View):
    tab = "prizes"

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        tournament = self.get_tournament()
        standings = standings_shown(tournament_standings(tournament=tournament))
        prizes = tournament_prizes(tournament=tournament, standings=standings)
        return self.page(
            "panel/prizes.html",
            prizes=prizes,
            standings=standings,
            diplomas=diploma_entries(tournament, standings=standings, prizes=prizes),
        )


AUDIT_PAGE = 100


class AuditView(PanelMixin, View):
    tab = "audit"

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        tournament = self.get_tournament()
        filters = {k: request.GET.get(k, "").strip()[:100] for k in ("kind", "match", "person")}
        entries = tournament_audit_filtered(
            tournament=tournament,
            actions=KINDS[filters["kind"]][1] if filters["kind"] in KINDS else None,
            match_key=filters["match"],
            person=filters["person"],
        )  # entries and balls merged; each page loads its matches (tournaments.selectors.audit.AuditLog)
        page = Paginator(entries, AUDIT_PAGE).get_page(request.GET.get("page"))
        query = urlencode({k: v for k, v in filters.items() if v})
        return self.page(
            "panel/audit.html",
            page=page,
            filters=filters,
            kinds=[(k, label) for k, (label, _actions) in KINDS.items()],
            query=query,
        )
