"""The panel's base views, shared by every panel page (the tournaments' and the matches'):
one tournament's page for its organisers, a POST action that calls one service and redirects
back, the confirmation of a destructive action, and a service's refusal in words."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.views import View

from config.errors import ApiError
from tournaments import access
from tournaments.models import Tournament
from tournaments.web.shared import permissions

STEPS = [
    (Tournament.Status.DRAFT, Tournament.Status.DRAFT.label),
    (Tournament.Status.REGISTRATION, Tournament.Status.REGISTRATION.label),
    (Tournament.Status.DRAWN, Tournament.Status.DRAWN.label),
    (Tournament.Status.RUNNING, Tournament.Status.RUNNING.label),
    (Tournament.Status.FINISHED, Tournament.Status.FINISHED.label),
]


def error_text(err: Exception) -> str:
    """A refusal of any service, as one sentence in the user's language."""
    if isinstance(err, ApiError):
        return err.render_message()
    return str(err)


def service_errors() -> tuple[type[Exception], ...]:
    """What the services refuse with: one family (TournamentError, MatchError and its
    RuleRefusal, the engine's refusal said for the players)."""
    return (ApiError,)


class PanelMixin(permissions.OrganiserRequiredMixin):
    """A panel page of one tournament (`pk` in the URL); its organisers only."""

    tab = ""
    kwargs: dict[str, Any]
    request: HttpRequest

    def get_tournament(self) -> Tournament:
        if not hasattr(self, "_tournament"):
            self._tournament = get_object_or_404(Tournament, pk=self.kwargs["pk"])
        return self._tournament

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
        # A private tournament the user may not even see does not exist for him (404, as the
        # API answers); one he may see but not manage is a 403 (OrganiserRequiredMixin).
        if request.user.is_authenticated and not access.can_view_tournament(
            request.user, self.get_tournament()
        ):
            raise Http404
        return super().dispatch(request, *args, **kwargs)

    def page(self, template: str, **context: Any) -> HttpResponse:
        tournament = self.get_tournament()
        return render(
            self.request,
            template,
            {"tournament": tournament, "tab": self.tab, "steps": STEPS, **context},
        )


class PanelAction(PanelMixin, View, ABC):
    """POST one action, then back to where the organiser was (or `default_next`)."""

    http_method_names = ["post"]
    default_next = "panel-tournament"

    @abstractmethod
    def act(self, request: HttpRequest) -> str | None:
        """The action itself; a message for the organiser, or None."""

    def next_url(self) -> str:
        wanted = self.request.POST.get("next", "")
        if wanted and url_has_allowed_host_and_scheme(
            wanted, allowed_hosts={self.request.get_host()}, require_https=self.request.is_secure()
        ):
            return wanted
        return reverse(self.default_next, args=[self.get_tournament().pk])

    def confirm_text(self) -> str | None:
        """A question to confirm before a destructive action (None: it needs none)."""
        return None

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        question = self.confirm_text()
        if question and request.POST.get("confirmed") != "1":
            return confirm_page(self, question)
        try:
            done = self.act(request)
        except service_errors() as err:
            messages.error(request, error_text(err))
        else:
            if done:
                messages.success(request, done)
        return HttpResponseRedirect(self.next_url())


class NothingToPrint(Exception):
    """A printout with nothing on it yet: its panel page says why and where to go instead."""

    def __init__(
        self, message: str, *, where: str, pk: int | None = None, status: int = 200
    ) -> None:
        super().__init__(message)
        self.message = message
        self.where = where
        self.pk = pk
        # 200 for a printout the panel links that has nothing on it yet; 404 for one that
        # will never exist (a diploma of a player without a place that earns one).
        self.status = status


# Where a printout with nothing to print sends the organiser, by URL name: the tab's words.
_WHERE = {
    "panel-draw": _lazy("Draw"),
    "panel-tables": _lazy("Tables"),
    "panel-prizes": _lazy("Prizes and diplomas"),
    "panel-match": _lazy("Match"),
}


def nothing_to_print(view: PanelMixin, nothing: NothingToPrint) -> HttpResponse:
    """The panel page of an empty printout (a link the panel shows is never a 404)."""
    tournament = view.get_tournament()
    response = view.page(
        "panel/nothing_to_print.html",
        message=nothing.message,
        where=reverse(nothing.where, args=[nothing.pk or tournament.pk]),
        where_label=_WHERE[nothing.where],
    )
    response.status_code = nothing.status
    return response


def confirm_page(view: PanelAction, question: str) -> HttpResponse:
    """The second page of a destructive action without JavaScript: the question, the form's
    fields carried over, "Yes" and "Cancel" (with JavaScript a dialog asks instead)."""
    fields = [
        (key, value)
        for key, values in view.request.POST.lists()
        if key not in {"csrfmiddlewaretoken", "confirmed"}
        for value in values
    ]
    return view.page(
        "panel/confirm.html",
        question=question,
        fields=fields,
        action=view.request.path,
        cancel=view.next_url(),
    )


def form_error_text(form: Any) -> str:
    """The form's errors as one message; each names its field by its label («Счёт А:
    обязательное поле.»), so a message shown away from the form still says what to fix."""
    parts = []
    for name, errors in form.errors.items():
        field = form.fields.get(name)
        label = str(field.label) if field is not None and field.label else ""
        for error in errors:
            text = str(error)
            if label:
                text = _("%(field)s: %(error)s") % {
                    "field": label,
                    "error": text[:1].lower() + text[1:],
                }
            parts.append(text)
    return " ".join(parts)
