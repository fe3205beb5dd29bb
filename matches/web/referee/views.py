"""The referee form (a JavaScript page over the JSON API: static/js/referee/main.js, ES
modules) with every word it shows, and the referee's home (every match he may score now)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.mixins import LoginRequiredMixin
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.decorators import method_decorator
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views import View
from django.views.decorators.csrf import ensure_csrf_cookie

import rules
from matches import access, selectors, services, wording
from matches.representation import match_data
from matches.web.referee.pwa import form_renderers
from tournaments import selectors_referee
from tournaments.presentation import names_of
from tournaments.web.shared.scoreboard import match_rules, score_view

MAX_BALLS = 16


def referee_ui(in_force: rules.RulesInForce | None = None) -> dict[str, Any]:
    """Every word the referee form shows, in the user's language (gettext, not the JS
    catalogue, so one .po file holds the whole UI), worded for the rules in force: the
    spotting hints, the scoring question and the fool button, the break's criteria, the
    fouls and the options come from the match's ruleset (rules.rules_in_force)."""
    if in_force is None:
        in_force = rules.rules_in_force({"discipline": rules.default().name})
    spot = {str(n): wording.spotting_hint(n, in_force) for n in range(1, MAX_BALLS + 1)}
    balls = {
        str(n): ngettext("%(n)d ball", "%(n)d balls", n) % {"n": n} for n in range(MAX_BALLS + 1)
    }
    fools = {
        str(n): ngettext("%(n)d fool", "%(n)d fools", n) % {"n": n} for n in range(MAX_BALLS + 1)
    }
    break_rule = wording.rule_label(wording.foul_rule("illegal_break", in_force))
    text = {
        "stale": _(
            "The match had moved on (another device?). This is the current state: check it and enter again."
        ),
        "break_criteria": wording.break_criteria(in_force),
        "penalty": wording.penalty_text(in_force),
        "forbidden": _("You may not score this match."),
        "rejected": _("Not possible now."),
        "offline": _("No connection. Retrying… the tap will be recorded once."),
        "frames": _("frames %(a)s:%(b)s"),
        "on_table": _("%(n)s on the table"),
        "no_clock": _("No time limit"),
        "start": _("Start clock"),
        "pause": _("Technical break"),
        "resume": _("Resume"),
        "clock_running": _("Net time left"),
        "clock_paused": _("Clock stopped"),
        "clock_not_started": _("Clock not started"),
        "clock_played": _("Net time played"),
        "winner": _("%(name)s wins"),
        "end_frames": _("Race won"),
        "end_game": _("Game won"),
        "end_time": _("Won on time"),
        "end_golden_ball": _("Won by the golden ball"),
        "end_forfeit": _("Won by forfeit"),
        "end_walkover": _("Walkover"),
        "end_corrected": _("Result corrected by the organiser"),
        "judge_coming": _(
            "The judge is on the way. Until the call is resolved, only the judge can act on "
            "this match."
        ),
        "concede_self": _("Concede the match"),
        "breaks": _("breaks"),
        "illegal_break": _("Illegal break"),
        "break_pocketed": wording.break_prompt(in_force),
        "illegal_break_balls": _("Balls that fell on the illegal break (they are spotted):"),
        "shoots": _("to shoot"),
        "miss": _("0 · Miss"),
        "pocketed_legally": wording.pocketed_prompt(in_force),
        "chooses": _("chooses"),
        "after_foul_of": _("After the foul or fool of %(name)s:"),
        "rerack_prompt": _("2 balls left — chooses:"),
        "choose_breaker": _("leads and chooses who breaks frame 3"),
        "waiting": _("Waiting for the match to start."),
        "fool": _("Fool"),
        "fool_legal_too": _("Also pocketed legally in the same shot (optional):"),
        "fool_count": _("Fools (fell not directly) — tap to record:"),
        "foul": _("Foul"),
        "foul_outside": _("Foul outside a shot"),
        "cancel": _("Cancel"),
        "off_table_count": _("How many balls left the table?"),
        "foul_balls": _("Balls that fell on the foul shot (they are spotted):"),
        "who_fouled": _("Who committed it?"),
        "undo": _("Undo last"),
        "forfeit": _("Concede…"),
        "who_concedes": _("Who concedes the match?"),
        "last_events": _("Last events"),
        "call_judge": _("Call the judge"),
        "judge_called": _("The judge is called; the clock is stopped until play goes on."),
        "ev_break": _("%(who)s: break, %(balls)s"),
        "ev_break_none": _("%(who)s: break, nothing pocketed"),
        "ev_break_illegal": _("%(who)s: illegal break (%(rule)s)")
        % {"who": "%(who)s", "rule": break_rule},  # %(who)s: filled by the form
        "rule_illegal_break": break_rule,
        "ev_foul": _("%(who)s: foul — %(foul)s"),
        "ev_miss": _("%(who)s: miss"),
        "ev_removal": _("%(who)s removes a ball of %(colour)s"),
        "ev_breaker": _("%(who)s chooses the breaker: %(breaker)s"),
        "ev_time": _("Time is up"),
        "ev_forfeit": _("%(who)s concedes the match"),
        "ev_undo": _("Undo of #%(seq)s"),
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
        "option_events": {o: wording.option_event(o, "%(who)s") for o in options},
        "shot_fouls": wording.foul_choices(in_force["shot_fouls"], in_force),
        "event_fouls": wording.foul_choices(in_force["event_fouls"], in_force),
        "foul_titles": {code: wording.foul_title(code, in_force) for code in rules.FOUL_CODES},
        # What the rules in force allow: the form shows the fool button only when a fool is a
        # separate thing (direct call); the rest is for the form to show or hide.
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
                "ui": referee_ui(match_rules(match)),
                # Who scores: a self-scoring player concedes only for themselves and waits
                # while the judge is called (the API enforces both).
                "me": {"role": role, "slot": services.player_slot(match, request.user)},
                "api_url": reverse("match-detail", args=[match.pk]),
                "renderers": " ".join(form_renderers()),
                "can_manage": access.can_manage_tournament(request.user, match.tournament),
                "is_referee": role != "player",
            },
        )


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
