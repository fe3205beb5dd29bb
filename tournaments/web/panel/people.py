"""People in the panel: a tournament's referees and players' logins (slips with a password or
a claim code, printable, with a QR code), a player's card with his history, the superuser's
merge, the player's claim page and everyone's own password change.

A slip carries a secret shown once: it is the answer to the POST that made it (never stored,
never cached), and printing it is the browser's print of that page.
"""

from __future__ import annotations

from typing import Any

import segno
from axes.handlers.proxy import AxesProxyHandler
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth import login as auth_login
from django.contrib.auth import views as auth_views
from django.contrib.auth.mixins import LoginRequiredMixin
from django.contrib.auth.signals import user_login_failed
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse, reverse_lazy
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.views import View

from config.login_limit import lockout_response
from config.write_limits import limited_response, write_spend
from tournaments import access, selectors_people, services
from tournaments.diplomas import html_to_pdf
from tournaments.errors import TournamentError
from tournaments.models import Player, PlayerChange, Registration
from tournaments.services.accounts import password_changed
from tournaments.services.claims import normalise_code, player_claim_peek
from tournaments.web.panel import forms_people
from tournaments.web.shared.panel import PanelMixin
from tournaments.web.shared.permissions import signed_in

HISTORY_PAGE = 50
SLIP_STYLESHEET = "css/slip.css"


def qr_svg(data: str) -> SafeString:
    """The QR code of `data` as inline SVG (no image request: the slip prints offline)."""
    svg = segno.make(data, error="m").svg_inline(scale=4, border=2, omitsize=True)
    return format_html("{}", SafeString(svg))


def slip_context(
    request: HttpRequest,
    *,
    tournament: Any,
    kind: str,
    name: str,
    secret: str,
    username: str = "",
    expires_at: Any = None,
) -> dict[str, Any]:
    """What a slip shows. The address (and its QR code) is always built here, from the secret:
    a slip never points anywhere but this site's login or claim page."""
    if kind == "referee":
        url = request.build_absolute_uri(reverse("login"))
        secrets_shown = {"password": secret}
        title = _("Referee's login")
    else:
        url = request.build_absolute_uri(f"{reverse('people-claim')}?code={secret}")
        secrets_shown = {"code": secret}
        title = _("Your login to Luza")
    return {
        "tournament": tournament,
        "kind": kind,
        "title": title,
        "name": name,
        "username": username,
        "expires_at": expires_at,
        "url": url,
        "qr": qr_svg(url),
        **secrets_shown,
    }


def slip(request: HttpRequest, context: dict[str, Any]) -> HttpResponse:
    response = render(request, "panel/people/slip.html", context)
    response["Cache-Control"] = "no-store"
    return response


def slip_pdf(context: dict[str, Any]) -> bytes:
    return html_to_pdf(render_to_string("panel/people/slip_pdf.html", context), SLIP_STYLESHEET)


# --- a tournament's people ---------------------------------------------------------------------


class PeopleView(PanelMixin, View):
    tab = "people"

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        tournament = self.get_tournament()
        registrations = (
            Registration.objects.filter(tournament=tournament)
            .select_related("player__user")
            .order_by("player__name_folded", "player__name", "pk")
        )
        return self.page(
            "panel/people/people.html",
            referees=selectors_people.tournament_referees(tournament=tournament),
            registrations=registrations,
            new_referee=forms_people.RefereeLoginForm(),
        )


class _RefereeSlipMixin(PanelMixin):
    http_method_names = ["post"]

    def _slip(self, user: Any, password: str) -> HttpResponse:
        context = slip_context(
            self.request,
            tournament=self.get_tournament(),
            kind="referee",
            name=user.get_full_name() or user.get_username(),
            username=user.get_username(),
            secret=password,
        )
        return slip(self.request, context)


class RefereeLoginCreateView(_RefereeSlipMixin, View):
    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        tournament = self.get_tournament()
        form = forms_people.RefereeLoginForm(request.POST)
        try:
            if not form.is_valid():
                raise TournamentError("invalid", forms_people.error_text_of(form))
            user, password = services.referee_login_create(
                tournament=tournament,
                actor=request.user,
                username=form.cleaned_data["username"],
                full_name=form.cleaned_data["name"],
            )
        except TournamentError as err:
            messages.error(request, err.message)
            return redirect("panel-people", tournament.pk)
        return self._slip(user, password)


class RefereePasswordResetView(_RefereeSlipMixin, View):
    def post(self, request: HttpRequest, pk: int, user_id: int) -> HttpResponse:
        tournament = self.get_tournament()
        user = get_object_or_404(tournament.referees.all(), pk=user_id)
        try:
            password = services.referee_password_reset(
                tournament=tournament, user=user, actor=request.user
            )
        except TournamentError as err:
            messages.error(request, err.message)
            return redirect("panel-people", tournament.pk)
        return self._slip(user, password)


class PlayerSlipView(PanelMixin, View):
    """A claim code for a player of this tournament, on his slip."""

    http_method_names = ["post"]

    def post(self, request: HttpRequest, pk: int, player_id: int) -> HttpResponse:
        tournament = self.get_tournament()
        reg = get_object_or_404(
            Registration.objects.select_related("player"), tournament=tournament, player=player_id
        )
        try:
            claim, code = services.player_claim_issue(
                player=reg.player, actor=request.user, tournament=tournament
            )
        except TournamentError as err:
            messages.error(request, err.message)
            return redirect("panel-people", tournament.pk)
        context = slip_context(
            request,
            tournament=tournament,
            kind="player",
            name=reg.player.name,
            secret=code,
            expires_at=claim.expires_at,
        )
        return slip(request, context)


class SlipPdfView(PanelMixin, View):
    """The slip just shown, as a PDF: the page posts back what it shows (nothing is kept on
    the server to print it again)."""

    http_method_names = ["post"]

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        form = forms_people.SlipPdfForm(request.POST)
        if not form.is_valid():
            messages.error(request, forms_people.error_text_of(form))
            return redirect("panel-people", pk)
        data = form.cleaned_data
        context = slip_context(
            request,
            tournament=self.get_tournament(),
            kind=data["kind"],
            name=data["name"],
            username=data["username"],
            secret=data["secret"],
            expires_at=data["expires"],
        )
        response = HttpResponse(slip_pdf(context), content_type="application/pdf")
        response["Content-Disposition"] = 'inline; filename="slip.pdf"'
        response["Cache-Control"] = "no-store"
        return response


# --- a player's card ---------------------------------------------------------------------------


class PlayerCardView(LoginRequiredMixin, View):
    """Every organiser sees any player (the registry is shared); the edit form is shown to
    those who may edit, the rating and the merge to superusers."""

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
        if request.user.is_authenticated and not access.is_organiser_role(request.user):
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)

    def player(self) -> Player:
        return get_object_or_404(Player.objects.select_related("user"), pk=self.kwargs["player_id"])

    def get(self, request: HttpRequest, player_id: int) -> HttpResponse:
        player = self.player()
        user = request.user
        history = selectors_people.player_history(player=player, user=user)
        page = Paginator(history, HISTORY_PAGE).get_page(request.GET.get("page"))
        can_edit = access.can_edit_player_identity(user, player)
        initial = {"name": player.name, "city": player.city, "club": player.club}
        return render(
            request,
            "panel/people/player.html",
            {
                "player": player,
                "registrations": selectors_people.player_registrations(player=player, user=user),
                "ratings": selectors_people.player_ratings(player=player, user=user)[:20],
                "page": page,
                "can_edit": can_edit,
                "is_superuser": user.is_superuser,
                "form": forms_people.PlayerEditForm(
                    initial={
                        "name": player.name,
                        "city": player.city,
                        "club": player.club,
                        "rating": player.rating,
                    },
                    with_rating=user.is_superuser,
                ),
                "merge_form": forms_people.MergeForm(),
                "can_propose": not can_edit and access.can_propose_player_change(user, player),
                "change_form": forms_people.PlayerChangeForm(initial=initial),
                "changes": list(selectors_people.player_changes_pending(player=player)),
                "can_decide": access.can_decide_player_change(user, player),
            },
        )


class PlayerEditView(PlayerCardView):
    http_method_names = ["post"]

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
        user = request.user
        if user.is_authenticated and not access.can_edit_player_identity(user, self.player()):
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)

    def post(self, request: HttpRequest, player_id: int) -> HttpResponse:
        player = self.player()
        form = forms_people.PlayerEditForm(request.POST, with_rating=request.user.is_superuser)
        try:
            if not form.is_valid():
                raise TournamentError("invalid", forms_people.error_text_of(form))
            data = {k: v for k, v in form.cleaned_data.items() if v is not None}
            services.player_update(player=player, actor=request.user, data=data)
        except TournamentError as err:
            messages.error(request, err.message)
        else:
            messages.success(request, _("The player's record is saved."))
        return redirect("panel-player", player.pk)


class PlayerChangeProposeView(PlayerCardView):
    """An organiser who may not change the record asks for the change (the service decides
    who may ask; the player or a superuser approves)."""

    http_method_names = ["post"]

    def post(self, request: HttpRequest, player_id: int) -> HttpResponse:
        player = self.player()
        form = forms_people.PlayerChangeForm(request.POST)
        try:
            if not form.is_valid():
                raise TournamentError("invalid", forms_people.error_text_of(form))
            data = dict(form.cleaned_data)
            note = data.pop("note", "")
            services.player_change_propose(player=player, actor=request.user, data=data, note=note)
        except TournamentError as err:
            if err.status == 403:
                raise PermissionDenied from err
            messages.error(request, err.message)
        else:
            messages.success(
                request, _("The change is proposed: it is made once the player approves it.")
            )
        return redirect("panel-player", player.pk)


class PlayerChangesView(LoginRequiredMixin, View):
    """Changes of his record organisers proposed, for the player to approve or decline (a
    superuser sees every pending one)."""

    def get(self, request: HttpRequest) -> HttpResponse:
        changes = list(selectors_people.player_changes_to_decide(user=request.user)[:100])
        return render(request, "panel/people/changes.html", {"changes": changes})


class PlayerChangeDecideView(LoginRequiredMixin, View):
    http_method_names = ["post"]

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        # Only a change its reader decides is found: anyone else's answer is an unknown id's.
        change: PlayerChange = get_object_or_404(
            selectors_people.player_changes_to_decide(user=request.user), pk=pk
        )
        approve = request.POST.get("approve") == "1"
        try:
            services.player_change_decide(change=change, actor=request.user, approve=approve)
        except TournamentError as err:
            messages.error(request, err.message)
        else:
            messages.success(
                request, _("The change is made.") if approve else _("The change is declined.")
            )
        if request.POST.get("back") == "card" and access.is_organiser_role(request.user):
            return redirect("panel-player", change.player_id)
        return redirect("player-changes")


class _SuperuserPlayerAction(PlayerCardView):
    http_method_names = ["post"]

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
        if request.user.is_authenticated and not request.user.is_superuser:
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)


class PlayerMergeView(_SuperuserPlayerAction):
    def post(self, request: HttpRequest, player_id: int) -> HttpResponse:
        keep = self.player()
        form = forms_people.MergeForm(request.POST)
        try:
            if not form.is_valid():
                raise TournamentError("invalid", forms_people.error_text_of(form))
            drop = Player.objects.filter(pk=form.cleaned_data["drop"]).first()
            if drop is None:
                raise TournamentError("invalid", _("No player with this number."))
            services.player_merge(keep=keep, drop=drop, actor=request.user)
        except TournamentError as err:
            messages.error(request, err.message)
        else:
            messages.success(request, _("The two records are merged into this one."))
        return redirect("panel-player", keep.pk)


class PlayerLoginView(_SuperuserPlayerAction):
    """A superuser links a login to the player by its name, or unlinks it (never replacing a
    linked one: the service refuses)."""

    def post(self, request: HttpRequest, player_id: int) -> HttpResponse:
        player = self.player()
        username = request.POST.get("username", "").strip()
        try:
            if request.POST.get("unlink"):
                services.player_update(player=player, actor=request.user, data={"user": None})
                done = _("The login is unlinked.")
            else:
                user = get_user_model().objects.filter(username__iexact=username).first()
                if not username or user is None:
                    raise TournamentError(
                        "unknown_user", _("No login “%(login)s”.") % {"login": username}
                    )
                services.player_update(player=player, actor=request.user, data={"user": user})
                done = _("The login is linked.")
        except TournamentError as err:
            messages.error(request, err.message)
        else:
            messages.success(request, done)
        return redirect("panel-player", player.pk)


# --- the player's claim and everyone's password ---------------------------------------------------


class ClaimView(View):
    """The link on a player's slip: logged in, he links his login to his player record; not
    logged in, he creates his login with the code (the invite)."""

    def get(self, request: HttpRequest) -> HttpResponse:
        code = request.GET.get("code", "")
        form = forms_people.ClaimForm(
            initial={"code": code}, signup=not request.user.is_authenticated
        )
        return self._page(request, form, code)

    def post(self, request: HttpRequest) -> HttpResponse:
        spent = write_spend(
            request, action="claim", target=normalise_code(request.POST.get("code", ""))
        )
        if spent is not None:
            return limited_response(request, spent.wait)
        form = forms_people.ClaimForm(request.POST, signup=not request.user.is_authenticated)
        code = request.POST.get("code", "")
        if not form.is_valid():
            return self._page(request, form, code, status=400)
        data = form.cleaned_data
        try:
            if request.user.is_authenticated:
                player = services.player_claim_redeem(code=data["code"], user=request.user)
            else:
                user, player = services.player_claim_signup(
                    code=data["code"], username=data["username"], password=data["password1"]
                )
                auth_login(request, user, backend="config.login_limit.FoldedLoginBackend")
        except TournamentError as err:
            form.add_error(None, err.message)
            return self._page(request, form, code, status=err.status)
        messages.success(
            request, _("Your login is linked to the player %(name)s.") % {"name": player.name}
        )
        return HttpResponseRedirect(reverse("me"))

    def _page(self, request: HttpRequest, form: Any, code: str, status: int = 200) -> HttpResponse:
        player, problem = None, ""
        if code:
            try:
                player = player_claim_peek(code=code)
            except TournamentError as err:
                problem = err.message if not form.is_bound else ""
        return render(
            request,
            "panel/people/claim.html",
            {"form": form, "player": player, "problem": problem},
            status=status,
        )


class PasswordChangeView(auth_views.PasswordChangeView):
    """A wrong old password is a failed login (django-axes counts it under the user's name and
    the address, as the login form's): a stolen session cannot guess the password here without
    the limit the login page has."""

    http_method_names = ["get", "post"]
    template_name = "panel/people/password_change.html"
    success_url = reverse_lazy("password-change-done")

    def _credentials(self) -> dict[str, str]:
        return {"username": self.request.user.get_username()}

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not AxesProxyHandler.is_allowed(request, self._credentials()):
            return lockout_response(request, None, self._credentials())
        return super().post(request, *args, **kwargs)

    def form_invalid(self, form: Any) -> HttpResponse:
        if form.has_error("old_password"):
            user_login_failed.send(
                sender=__name__, credentials=self._credentials(), request=self.request
            )
            if getattr(self.request, "axes_locked_out", False):
                return lockout_response(self.request, None, self._credentials())
        return super().form_invalid(form)

    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)
        password_changed(user=signed_in(self.request))
        return response


class PasswordChangeDoneView(auth_views.PasswordChangeDoneView):
    http_method_names = ["get"]
    template_name = "panel/people/password_change_done.html"
