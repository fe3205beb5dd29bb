"""The referee form (a JavaScript page over the JSON API: static/js/referee/main.js, ES
modules) with every word it shows, and the referee's home (every match he may score now)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.decorators import method_decorator
from django.utils.translation import gettext as _
from django.views import View
from django.views.decorators.csrf import ensure_csrf_cookie

import rules
from matches import access, selectors, services, wording
from matches.representation import match_data, translated
from matches.web.referee.pwa import form_renderers
from rules import describe
from tournaments import selectors_referee
from tournaments import services as tournament_services
from tournaments.errors import TournamentError
from tournaments.presentation import names_of
from tournaments.regulation import lateness_done, lateness_log, lateness_rule
from tournaments.web.shared.scoreboard import score_view

MAX_BALLS = 16


def referee_ui(ruleset: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Every word the referee form shows, in the user's language (gettext, not the JS
    catalogue, so one .po file holds the whole UI): the form's own, and the prompts of the
    match's discipline for its ruleset (Discipline.prompts: the scoring question, the break's
    criteria, the penalty...), the spotting hints, the fouls and the options, all worded for
    the rules in force (rules.rules_in_force). The log's sentences and how the match ended
    come with the match (its entries' `text`, its view's `end_label`)."""
    ruleset = dict(ruleset or {"discipline": rules.default().name})
    in_force = rules.rules_in_force(ruleset)
    discipline = selectors.discipline_of({}, ruleset)
    spot = {str(n): wording.spotting_hint(n, in_force) for n in range(1, MAX_BALLS + 1)}
    balls = {str(n): wording.say(describe.balls_text(n)) for n in range(MAX_BALLS + 1)}
    fools = {str(n): wording.say(describe.fools_text(n)) for n in range(MAX_BALLS + 1)}
    text = {
        "stale": _(
            "The match had moved on (another device?). This is the current state: check it and enter again."
        ),
        "forbidden": _("You may not score this match."),
        "rejected": _("Not possible now."),
        "offline": _("No connection. Retrying… the tap will be recorded once."),
        "no_clock": _("No time limit"),
        "start": _("Start clock"),
        "pause": _("Technical break"),
        "resume": _("Resume"),
        "clock_running": _("Net time left"),
        "clock_paused": _("Clock stopped"),
        "clock_not_started": _("Clock not started"),
        "clock_played": _("Net time played"),
        "winner": _("%(name)s wins"),
        "judge_coming": _(
            "The judge is on the way. Until the call is resolved, only the judge can act on "
            "this match."
        ),
        "concede_self": _("Concede the match"),
        "waiting": _("Waiting for the match to start."),
        "cancel": _("Cancel"),
        "undo": _("Undo last"),
        "last_events": _("Last events"),
        "call_judge": _("Call the judge"),
        "judge_called": _("The judge is called; the clock is stopped until play goes on."),
        "after_fool": _("Fool: accept the position or ask the opponent to continue?"),
        "fool_play": _("Accept the position"),
        "fool_hand_back": _("Ask the opponent to continue"),
        "off_table_pocketed": _("Also pocketed on the same shot (they are spotted):"),
        "meanwhile": _("Recorded meanwhile: %(what)s."),
        "reenter": _("Enter it again on top: %(what)s"),
        "lag_who": _("Who won the lag (rule 7.1)?"),
        "lag_won": _("%(name)s won"),
        "lag_choice": _("%(name)s won the lag: breaks or gives the break (rule 7.4)?"),
        "lag_breaks": _("%(name)s breaks"),
        "lag_gives": _("Gives the break: %(name)s breaks"),
        "rule_illegal_break": wording.rule_label(wording.foul_rule("illegal_break", in_force)),
        # The discipline's prompts for this ruleset (rules' msgids, declared there once).
        **translated(discipline.prompts(ruleset), {}),
    }
    options = list(
        dict.fromkeys(
            (*in_force["play_options"], *in_force["break_options"], *in_force["rerack_options"])
        )
    )
    return {
        "text": text,
        "trophy": static("img/trophy.svg"),
        "spot": spot,
        "balls": balls,
        "fools": fools,
        "options": {o: wording.option_label(o) for o in options},
        "option_hints": {o: wording.option_hint(o) for o in options},
        "shot_fouls": wording.foul_choices(in_force["shot_fouls"], in_force),
        "event_fouls": wording.foul_choices(in_force["event_fouls"], in_force),
        "foul_titles": {code: wording.foul_title(code, in_force) for code in rules.FOUL_CODES},
        # What the rules in force allow: the form shows the fool button only when a fool is a
        # separate thing (direct call); the rest is for the form to show or hide.
        # Who is at the table after each kind of tap, from the discipline's own description
        # (Discipline.turn_rules): offline, the form follows it instead of computing a rule.
        "turns": discipline.turn_rules(rules.validate_ruleset(ruleset)),
        "rules": {
            "fool_button": in_force["fools"],
            "discipline": in_force["discipline"],
            "break_rule": in_force["break_rule"],
            "penalty": in_force["penalty"],
            "continuation": in_force["continuation"],
        },
    }


@method_decorator(ensure_csrf_cookie, name="dispatch")
class RefereeView(LoginRequiredMixin, View):
    """The scoring form; who may write is decided by the API (the same access rule)."""

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        match = get_object_or_404(selectors.match_queryset(), pk=pk)
        role = access.match_scoring_role(request.user, match)
        if role is None:
            if not access.can_view_match(request.user, match):
                raise Http404  # a private tournament's match does not exist for strangers
            return render(request, "matches/referee_denied.html", {"match": match}, status=403)
        return render(
            request,
            "matches/referee.html",
            {
                "match": match,
                "names": names_of(match),
                "match_data": match_data(match, entry=True),
                "ui": referee_ui((match.state or {}).get("ruleset") or match.ruleset),
                # Who scores: a self-scoring player concedes only for themselves and waits
                # while the judge is called (the API enforces both).
                "me": {"role": role, "slot": services.player_slot(match, request.user)},
                "api_url": reverse("match-detail", args=[match.pk]),
                "renderers": " ".join(form_renderers()),
                "can_manage": access.can_manage_tournament(request.user, match.tournament),
                "is_referee": role != "player",
                **_lateness(match, role),
            },
        )


def _lateness(match: Any, role: str) -> dict[str, Any]:
    """The lateness taps for the referee (not a self-scoring player): while the called
    match has not begun and the tournament has a lateness rule; and what lateness cost."""
    t = match.tournament
    if role == access.MATCH_PLAYER or not (t.lateness_step_minutes or t.lateness_walkover_minutes):
        return {}
    log = lateness_log(match)
    can_tap = (
        match.called_at is not None
        and match.status in selectors.NOT_STARTED
        and match.version == 0
        and match.player_a_id is not None
        and match.player_b_id is not None
    )
    if not (can_tap or log):
        return {}
    names = names_of(match)
    return {
        "lateness": {
            "rule": lateness_rule(t),
            "log": log,
            "choices": [("a", names["a"]), ("b", names["b"])] if can_tap else [],
        }
    }


class RefereeLatenessView(LoginRequiredMixin, View):
    """One tap at the table: the player is late; the same service (and audit) as the desk's."""

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        match = get_object_or_404(selectors.match_queryset(), pk=pk)
        role = access.match_scoring_role(request.user, match)
        if role is None or role == access.MATCH_PLAYER:
            if not access.can_view_match(request.user, match):
                raise Http404
            return render(request, "matches/referee_denied.html", {"match": match}, status=403)
        try:
            done = tournament_services.match_lateness(
                match=match, late_slot=request.POST.get("late", ""), actor=request.user
            )
        except TournamentError as err:
            messages.error(request, err.message)
        else:
            messages.success(request, lateness_done(done))
        return redirect("referee-match", match.pk)


class RefereeHomeView(LoginRequiredMixin, View):
    def get(self, request: HttpRequest) -> HttpResponse:
        assert request.user.is_authenticated  # LoginRequiredMixin sent anyone else to log in
        groups = selectors_referee.referee_live_matches(user=request.user)
        for group in groups:
            group["live"] = [
                {"match": m, "names": names_of(m), "s": score_view(m)} for m in group["live"]
            ]
            group["ready"] = [{"match": m, "names": names_of(m)} for m in group["ready"]]
        return render(request, "matches/referee_home.html", {"groups": groups})
