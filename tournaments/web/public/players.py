"""Pages of the players' side: the rating list, a player's page and head-to-head, online
entry, "my match" (/me/), club cups, and sign-up.

Reads go through tournaments.selectors_players, which shows only the tournaments the user
may see; a private tournament's entry page answers 404 to a stranger, as an unknown id."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login as auth_login
from django.contrib.auth import views as auth_views
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse, reverse_lazy
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views import View
from django.views.decorators.http import require_safe

from config.login_names import LoginTaken, fold_login
from config.write_limits import limited_response, write_spend
from tournaments import access, selectors_players, services
from tournaments.diplomas import diploma_entries, render_pdf
from tournaments.errors import TournamentError
from tournaments.models import Player, PlayerRequest, Registration, Series, Tournament
from tournaments.services.entries import own_registration
from tournaments.services.entry_rules import (
    entry_window_state,
    limits_text,
    reserve_list,
    reserve_position,
)
from tournaments.services.series import can_manage_series
from tournaments.services.setup import fee_for
from tournaments.web.public.forms import PlayerRequestForm, RatingListForm, SignupForm
from tournaments.web.shared.pages import live_response, tournament_stream, visible_tournament
from tournaments.web.shared.permissions import signed_in
from tournaments.web.shared.players import me_context

PAGE_SIZE = 50
MATCHES_PAGE = 30


def _page_number(request: HttpRequest) -> int:
    try:
        return max(1, min(int(request.GET.get("page", "1")), 10_000))
    except ValueError:
        return 1


# --- the rating list and a player's page ----------------------------------------------------


@require_safe
def rating_list(request: HttpRequest) -> HttpResponse:
    form = RatingListForm(request.GET)
    data = form.cleaned_data if form.is_valid() else {}
    sort = data.get("sort") or "rating"
    players = selectors_players.rating_list(
        search=data.get("q", ""), city=data.get("city", ""), club=data.get("club", ""), sort=sort
    )
    page = Paginator(players, PAGE_SIZE).get_page(_page_number(request))
    query = request.GET.copy()
    query.pop("page", None)
    sort_query = request.GET.copy()
    for key in ("page", "sort"):
        sort_query.pop(key, None)
    return render(
        request,
        "players/list.html",
        {
            "page": page,
            "form": form,
            "sort": sort,
            "query": query.urlencode(),
            "sort_query": sort_query.urlencode(),
            "filters": selectors_players.rating_filters(),
            "change_days": selectors_players.CHANGE_DAYS,
        },
    )


@require_safe
def player_page(request: HttpRequest, pk: int) -> HttpResponse:
    player = get_object_or_404(Player, pk=pk)
    user = request.user
    matches = Paginator(selectors_players.player_matches(player=player, user=user), MATCHES_PAGE)
    match_page = matches.get_page(_page_number(request))
    tournaments = selectors_players.player_tournaments(player=player, user=user)
    return render(
        request,
        "players/player.html",
        {
            "player": player,
            "place": selectors_players.rating_place(player=player),
            "chart": selectors_players.player_chart(player=player, user=user),
            "tournaments": tournaments,
            "prize_total": selectors_players.prize_total(tournaments),
            "match_page": match_page,
            "lines": selectors_players.match_lines(match_page.object_list, player),
            "opponents": selectors_players.opponents(player=player, user=user),
            "series": selectors_players.player_series(player=player, user=user),
            "is_me": user.is_authenticated and player.user_id == user.pk,
        },
    )


@require_safe
def head_to_head(request: HttpRequest, pk: int, other: int) -> HttpResponse:
    player = get_object_or_404(Player, pk=pk)
    opponent = get_object_or_404(Player, pk=other)
    if player.pk == opponent.pk:
        raise Http404
    return render(
        request,
        "players/vs.html",
        {
            "player": player,
            "opponent": opponent,
            "h2h": selectors_players.head_to_head(player=player, other=opponent, user=request.user),
        },
    )


# --- online entry ---------------------------------------------------------------------------


class EntryView(View):
    """/t/<id>/entry/: the entry form of a tournament (online entry on), the entrants and the
    numbered reserve list. A player enters, leaves, or (without a player record) asks to be
    added; everyone else reads."""

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        return self._page(request, visible_tournament(request, pk))

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        tournament = visible_tournament(request, pk)
        if not request.user.is_authenticated:
            return HttpResponseRedirect(f"{reverse('login')}?next={request.path}")
        action = request.POST.get("action", "enter")
        try:
            if action == "withdraw":
                reg = own_registration(tournament=tournament, user=request.user)
                services.entry_withdraw(registration=reg, user=request.user)
                messages.success(request, _("Your entry is withdrawn."))
            elif action == "request":
                form = PlayerRequestForm(request.POST)
                if not form.is_valid():
                    return self._page(request, tournament, request_form=form, status=400)
                services.player_request_create(
                    user=request.user, tournament=tournament, **form.cleaned_data
                )
                messages.success(
                    request, _("Your request is sent: the organiser will add you and enter you.")
                )
            else:
                reg = services.entry_submit(tournament=tournament, user=request.user)
                if reg.status == Registration.Status.RESERVE:
                    messages.warning(
                        request,
                        _("The tournament is full: you are number %(n)s on the reserve list.")
                        % {"n": reserve_position(reg)},
                    )
                else:
                    messages.success(request, _("You are entered."))
        except TournamentError as err:
            messages.error(request, err.message)
            return self._page(request, tournament, status=err.status)
        return HttpResponseRedirect(reverse("players-entry", args=[tournament.pk]))

    def _page(
        self,
        request: HttpRequest,
        tournament: Any,
        *,
        request_form: PlayerRequestForm | None = None,
        status: int = 200,
    ) -> HttpResponse:
        user = request.user
        player = Player.objects.filter(user=user).first() if user.is_authenticated else None
        mine = (
            Registration.objects.filter(tournament=tournament, player=player).first()
            if player is not None
            else None
        )
        entrants = list(
            Registration.objects.filter(tournament=tournament, status=Registration.Status.ACTIVE)
            .select_related("player")
            .order_by("created_at", "pk")
        )
        pending = (
            PlayerRequest.objects.filter(user=user, status=PlayerRequest.Status.PENDING).first()
            if user.is_authenticated and player is None
            else None
        )
        return render(
            request,
            "players/entry.html",
            {
                "tournament": tournament,
                "state": entry_window_state(tournament),
                "limits": limits_text(tournament),
                "player": player,
                "mine": mine,
                "position": reserve_position(mine) if mine is not None else None,
                "fee": fee_for(tournament, player.rating) if player is not None else None,
                "entrants": entrants,
                "reserves": reserve_list(tournament=tournament),
                "pending": pending,
                "request_form": request_form or PlayerRequestForm(),
                "can_manage": access.can_manage_tournament(user, tournament),
            },
            status=status,
        )


# --- "my match" -----------------------------------------------------------------------------


class MeView(LoginRequiredMixin, View):
    """/me/: his tournaments and his next match, live (static/js/live.js polls the fragment
    every 2 s with its ETag; an unchanged page costs a 304 after two small queries)."""

    def get(self, request: HttpRequest) -> HttpResponse:
        player = Player.objects.filter(user=signed_in(request)).first()
        if player is None:
            return render(request, "me.html", {"player": None})

        def context() -> dict[str, Any]:
            return me_context(player, request.user)

        return live_response(
            request,
            etag=selectors_players.my_etag(player=player, user=request.user),
            page="me.html",
            fragment="players/_me_live.html",
            context=context,
            stream=lambda: " ".join(
                tournament_stream(r.tournament_id)
                for r in selectors_players.my_registrations(player=player, user=request.user)
            ),
        )


class MyDiplomaView(LoginRequiredMixin, View):
    """/me/t/<id>/diploma.pdf: the player's own diploma of a finished tournament he may see;
    404 when he has none there."""

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        player = Player.objects.filter(user=signed_in(request)).first()
        tournament = visible_tournament(request, pk)
        if player is None or tournament.status != Tournament.Status.FINISHED:
            raise Http404(_("You have no diploma in this tournament."))
        entries = [e for e in diploma_entries(tournament) if e["player_id"] == player.pk]
        if not entries:
            raise Http404(_("You have no diploma in this tournament."))
        response = HttpResponse(
            render_pdf(tournament=tournament, entries=entries[:1]),
            content_type="application/pdf",
        )
        filename = f"diploma-{tournament.pk}-{entries[0]['place']}-{player.pk}.pdf"
        response["Content-Disposition"] = f'inline; filename="{filename}"'
        return response


# --- club cups ------------------------------------------------------------------------------


@require_safe
def series_page(request: HttpRequest, pk: int) -> HttpResponse:
    series = get_object_or_404(selectors_players.series_visible(user=request.user), pk=pk)
    try:
        after = int(request.GET["after"]) if request.GET.get("after") else None
    except ValueError:
        after = None
    table = selectors_players.series_table(series=series, user=request.user, after=after)
    return render(
        request,
        "series/series.html",
        {
            "series": series,
            "table": table,
            "after": after,
            "can_manage": services_series_can_manage(request.user, series),
        },
    )


def services_series_can_manage(user: Any, series: Series) -> bool:
    return can_manage_series(user, series)


# --- sign-up and password reset -------------------------------------------------------------


def _safe_next(request: HttpRequest) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return reverse("me")


class SignupView(View):
    """A player makes his own login (username and password; e-mail optional). He then links
    his player record with a claim code, or asks to be added on a tournament's entry page."""

    def get(self, request: HttpRequest) -> HttpResponse:
        if request.user.is_authenticated:
            return HttpResponseRedirect(reverse("me"))
        return self._page(request, SignupForm())

    def post(self, request: HttpRequest) -> HttpResponse:
        if request.user.is_authenticated:
            return HttpResponseRedirect(reverse("me"))
        # Each try is counted (the answer must say when a name is taken, so the budget is what
        # keeps a list of names from being checked).
        spent = write_spend(
            request, action="signup", target=fold_login(request.POST.get("username", ""))
        )
        if spent is not None:
            return limited_response(request, spent.wait)
        form = SignupForm(request.POST)
        if not form.is_valid():
            return self._page(request, form, status=400)
        try:
            user = form.save()
        except LoginTaken as err:
            form.add_error("username", str(err))
            return self._page(request, form, status=409)
        services.account_signup_audit(user=user)
        auth_login(request, user, backend="config.login_limit.FoldedLoginBackend")
        messages.success(request, _("Your login is made. Link it to your player record."))
        return HttpResponseRedirect(_safe_next(request))

    def _page(self, request: HttpRequest, form: SignupForm, status: int = 200) -> HttpResponse:
        return render(
            request,
            "players/signup.html",
            {"form": form, "next": request.GET.get("next", ""), "mail": mail_configured()},
            status=status,
        )


def mail_configured() -> bool:
    """Password reset by e-mail only where the deployment sends mail (EMAIL_HOST set)."""
    return bool(getattr(settings, "LUZA_MAIL_ENABLED", False))


class _MailOnly:
    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
        if not mail_configured():
            raise Http404
        return super().dispatch(request, *args, **kwargs)  # type: ignore[misc]


class PasswordResetView(_MailOnly, auth_views.PasswordResetView):
    """Django's answer is the same whether the address is known or not; on top of it, a
    budget per client address (429) and per e-mail address: past it, the same answer and no
    e-mail (at most one per address per interval, LUZA_WRITE_RATES)."""

    http_method_names = ["get", "post"]
    template_name = "players/password_reset.html"
    email_template_name = "players/password_reset_email.txt"
    subject_template_name = "players/password_reset_subject.txt"
    success_url = reverse_lazy("password-reset-done")

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        target = fold_login(request.POST.get("email", ""))
        spent = write_spend(request, action="password_reset", target=target)
        if spent is not None and "address" in spent.scopes:
            return limited_response(request, spent.wait)
        if spent is not None:
            return HttpResponseRedirect(self.get_success_url())
        return super().post(request, *args, **kwargs)


class PasswordResetDoneView(_MailOnly, auth_views.PasswordResetDoneView):
    http_method_names = ["get"]
    template_name = "players/password_reset_done.html"


class PasswordResetConfirmView(_MailOnly, auth_views.PasswordResetConfirmView):
    http_method_names = ["get", "post"]
    template_name = "players/password_reset_confirm.html"
    success_url = reverse_lazy("login")
