"""Match pages: the public scoreboard, the table overlay for a stream or a TV, the referee
form, and the organiser's table board and match control.

The referee form is a JavaScript page over the JSON API (static/js/referee/main.js, ES modules); everything
else is server-rendered and refreshed by static/js/live.js. Writes go through the services of
matches and tournaments; their refusals come back as messages in the user's language.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.mixins import LoginRequiredMixin
from django.db.models import Max
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.decorators import method_decorator
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views import View
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_GET

import rules
from audit.models import AuditEntry
from matches import access, forms, selectors, services, wording
from matches.models import Match, Table
from matches.selectors import LIVE
from matches.serializers import winning_slot
from tournaments import http_cache
from tournaments import presentation as tournament_presentation
from tournaments import services as tournament_services
from tournaments.match_labels import match_label
from tournaments.models import Tournament
from tournaments.views import live_response, tournament_live_etag, visible_tournament
from tournaments.views_panel import PanelAction, PanelMixin, form_error_text

SCOREBOARD_EVENTS = 8
MAX_BALLS = 16


# --- what a scoreboard shows ------------------------------------------------------------------


def names_of(match: Match) -> dict[str, str]:
    return {
        "a": match.player_a.name if match.player_a else _("to be decided"),
        "b": match.player_b.name if match.player_b else _("to be decided"),
    }


def clock_view(match: Match, now: Any = None) -> dict[str, Any]:
    """The clock as a page draws it (static/js/clock.js counts down from `remaining`)."""
    reading = selectors.match_clock(match=match, now=now)
    started = match.status not in (
        Match.Status.SCHEDULED,
        Match.Status.READY,
        Match.Status.ON_TABLE,
    )
    return {
        "limit": reading.limit_seconds,
        "remaining": reading.remaining_seconds,
        "elapsed": reading.elapsed_seconds,
        "running": reading.running,
        "paused": match.status == Match.Status.PAUSED,
        "expired": reading.expired,
        "warning": reading.warning,
        "started": started,
    }


def score_view(match: Match) -> dict[str, Any]:
    """Scores for a scoreboard: the current frame (head start included) and frames won;
    the final score once finished."""
    # Once there is a result, the state shown is that result (selectors.result_state): a
    # corrected score or a walkover, not what the table's log folds to.
    state = selectors.result_state(match)
    summary = selectors.match_score_summary(match, state)
    score = summary["score"] or {"a": match.score_a, "b": match.score_b}
    ruleset = state.get("ruleset") or match.ruleset or {}
    head = ruleset.get("head_start") or {}
    frames_to_win = ruleset.get("frames_to_win", 1)
    if frames_to_win and frames_to_win > 1 and summary["frames"] and winning_slot(match):
        # A match of frames that is over reads as the frames won, as the bracket shows it.
        score = summary["frames"]
    return {
        "score": score,
        "frames": summary["frames"] if frames_to_win and frames_to_win > 1 else None,
        "frames_to_win": frames_to_win,
        "balls_to_win": ruleset.get("balls_to_win"),
        "head": {"a": head.get("a", 0), "b": head.get("b", 0)},
        "duplex": state.get("discipline") == "duplex",
        "turn": state.get("turn"),
        "golden_ball": state.get("golden_ball", False),
        "on_table": state.get("balls_on_table"),
        "frame": state.get("frame"),
        "rack": state.get("rack"),
    }


def match_rules(match: Match) -> rules.RulesInForce:
    """The rules in force for this match, from its ruleset (the form and the log follow it)."""
    ruleset = (match.state or {}).get("ruleset") or match.ruleset or {}
    return rules.rules_in_force(ruleset)


def described_events(match: Match, names: dict[str, str], limit: int) -> list[dict[str, Any]]:
    """The newest `limit` log entries in words, newest first: from the match row's last
    events when they reach that far (a scoreboard), else from the log."""
    if limit <= selectors.LAST_EVENTS:
        entries = match.recent_log[-limit:]
    else:
        entries = [
            selectors.log_entry_data(entry)
            for entry in selectors.match_last_events(match=match, limit=limit)
        ]
    out = []
    in_force = match_rules(match)
    for entry in reversed(entries):
        if entry["kind"] == "undo":
            text = _("Undo of #%(seq)s") % {"seq": entry["undoes"]}
        else:
            text = wording.describe_event(entry["event"], names, in_force)
        at = parse_datetime(entry["created_at"])
        out.append({"seq": entry["seq"], "text": text, "undone": entry["undone"], "at": at})
    return out


STAGES = {
    "single": gettext_lazy("Bracket"),
    "upper": gettext_lazy("Upper bracket"),
    "lower": gettext_lazy("Lower bracket"),
    "playoff": gettext_lazy("Play-off"),
    "group": gettext_lazy("Group"),
    "grand_final": gettext_lazy("Grand final"),
    "grand_final_reset": gettext_lazy("Grand final, reset"),
    "third_place": gettext_lazy("Third place"),
}


def stage_label(match: Match) -> str:
    """Where the match is played, named as the bracket names it (the same round is «Полуфинал»
    on the scoreboard and in the bracket)."""
    stage = str(STAGES.get(match.stage, match.stage))
    if match.stage in ("grand_final", "grand_final_reset", "third_place"):
        return stage
    if match.stage == "group":
        return _("Group %(g)s, round %(r)s") % {"g": match.group, "r": match.round}
    if match.stage in ("single", "playoff"):
        last = (
            Match.objects.filter(tournament_id=match.tournament_id, stage=match.stage)
            .aggregate(last=Max("round"))
            .get("last")
        ) or match.round
        title = tournament_presentation.round_title(match.stage, match.round, last)
        if match.stage == "single":
            return title
        return _("%(stage)s: %(round)s") % {"stage": stage, "round": title[:1].lower() + title[1:]}
    return _("%(stage)s, round %(r)s") % {"stage": stage, "r": match.round}


def match_title(match: Match) -> str:
    """The match's heading: its stage and its number, each said once («Финал», not
    «Финал · Финал»)."""
    stage, label = stage_label(match), match_label(match.key)
    return label if stage == label or not stage else f"{stage} · {label}"


def scoreboard_context(match: Match) -> dict[str, Any]:
    names = names_of(match)
    mark = selectors.match_result_mark(match)
    return {
        "mark": mark,
        "mark_label": wording.result_mark_label(mark, match.corrected_from),
        "match": match,
        "stage_label": stage_label(match),
        "match_title": match_title(match),
        "names": names,
        "s": score_view(match),
        "clock": clock_view(match),
        "winner": winning_slot(match),
        "events": described_events(match, names, SCOREBOARD_EVENTS),
        "to_spot": (match.state or {}).get("to_spot", 0),
    }


# --- public pages ---------------------------------------------------------------------------


def _visible_match(request: HttpRequest, pk: int) -> Match:
    try:
        match = selectors.match_get(match_id=pk)
    except Match.DoesNotExist:
        raise Http404 from None
    if not access.can_view_match(request.user, match):
        raise Http404
    return match


@require_GET
def scoreboard(request: HttpRequest, pk: int) -> HttpResponse:
    match = _visible_match(request, pk)

    def context() -> dict[str, Any]:
        data = scoreboard_context(match)
        data["tournament"] = match.tournament
        if request.user.is_authenticated and not request.GET.get("fragment"):
            data["can_score"] = access.match_scoring_role(request.user, match) is not None
            data["can_manage"] = access.can_manage_tournament(request.user, match.tournament)
        return data

    return live_response(
        request,
        etag=http_cache.match_tag(match),
        page="matches/scoreboard.html",
        fragment="matches/_scoreboard.html",
        context=context,
    )


@require_GET
def table_overlay(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    tournament = visible_tournament(request, pk)
    table = get_object_or_404(Table, tournament=tournament, number=number)
    match = (
        selectors.match_queryset()
        .filter(table=table, status__in=LIVE)
        .order_by("-called_at", "-pk")
        .first()
    )
    if match is None:
        # Between matches the broadcast shows the table's last result, and how it ended.
        match = (
            selectors.match_queryset()
            .filter(table=table, status__in=selectors.WITH_RESULT)
            .order_by("-finished_at", "-pk")
            .first()
        )
    etag = f"o{table.pk}-" + (http_cache.match_tag(match) if match else "free")

    def context() -> dict[str, Any]:
        data: dict[str, Any] = {"tournament": tournament, "table": table}
        if match is not None:
            data.update(scoreboard_context(match))
        return data

    return live_response(
        request,
        etag=etag,
        page="matches/overlay.html",
        fragment="matches/_overlay.html",
        context=context,
    )


# --- the referee form ------------------------------------------------------------------------


def referee_ui(in_force: rules.RulesInForce | None = None) -> dict[str, Any]:
    """Every word the referee form shows, in the user's language (gettext, not the JS
    catalogue, so one .po file holds the whole UI), worded for the rules in force: the
    spotting hints, the scoring question and the fool button, the break's criteria, the
    fouls and the options come from the match's ruleset (rules.rules_in_force)."""
    if in_force is None:
        in_force = rules.rules_in_force({"discipline": "free_pyramid"})
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
        "retry": _("Retry now"),
        "golden_ball": _("Time is up with equal scores: the next legally pocketed ball wins."),
        "head_start": _("head start %(n)s"),
        "debt": _("owes %(n)s"),
        "minus": _("minus %(n)s"),
        "frame_of": _("frame %(n)s of 3"),
        "duplex_table": _("on the table: %(a)s / %(b)s"),
        "frames": _("frames %(a)s:%(b)s"),
        "to_win": _("to %(n)s"),
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
        "legal_break": _("Legal break"),
        "illegal_break": _("Illegal break"),
        "break_pocketed": wording.break_prompt(in_force),
        "illegal_break_balls": _("Balls that fell on the illegal break (they are spotted):"),
        "shoots": _("to shoot"),
        "miss": _("0 · Miss"),
        "record_shot": _("Record the shot"),
        "pocketed_legally": wording.pocketed_prompt(in_force),
        "pocketed_colour": _("Balls of %(name)s pocketed:"),
        "chooses": _("chooses"),
        "after_foul_of": _("After the foul or fool of %(name)s:"),
        "rerack_prompt": _("2 balls left — chooses:"),
        "removes": _("takes a penalty ball off the table"),
        "colour_of": _("a ball of %(name)s"),
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
        from matches.api import render_match

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
                "match_data": render_match(match),
                "ui": referee_ui(match_rules(match)),
                # Who scores: a self-scoring player concedes only for themselves and waits
                # while the judge is called (the API enforces both).
                "me": {"role": role, "slot": services.player_slot(match, request.user)},
                "api_url": reverse("match-detail", args=[match.pk]),
                "can_manage": access.can_manage_tournament(request.user, match.tournament),
                "is_referee": role != "player",
            },
        )


# --- organiser: table board -------------------------------------------------------------------


class TableBoardView(PanelMixin, View):
    tab = "tables"

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        tournament = self.get_tournament()

        def context() -> dict[str, Any]:
            board = selectors.table_board(tournament=tournament)
            rows = []
            for row in board.tables:
                m = row.match
                rows.append(
                    {
                        "table": row.table,
                        "match": m,
                        "names": names_of(m) if m else None,
                        "s": score_view(m) if m else None,
                        "clock": clock_view(m, board.now) if m else None,
                    }
                )
            free_tables = [
                r["table"].number for r in rows if r["match"] is None and r["table"].is_active
            ]
            elsewhere = [
                {
                    "match": m,
                    "names": names_of(m),
                    "s": score_view(m),
                    "clock": clock_view(m, board.now),
                }
                for m in board.playing_elsewhere
            ]
            return {
                "tournament": tournament,
                "tab": self.tab,
                "rows": rows,
                "queue": board.queue,
                "elsewhere": elsewhere,
                "judge_calls": board.judge_calls,
                "free_tables": free_tables,
                "active_tables": sum(1 for r in rows if r["table"].is_active),
                "steps": [],
            }

        return live_response(
            request,
            etag=tournament_live_etag(tournament),
            page="panel/tables.html",
            fragment="panel/_tables.html",
            context=context,
        )


class TablesCountView(PanelAction):
    default_next = "panel-tables"

    def act(self, request: HttpRequest) -> str | None:
        form = forms.TablesCountForm(request.POST)
        if not form.is_valid():
            return _fail(form)
        services.tables_ensure(
            tournament=self.get_tournament(), count=form.cleaned_data["count"], actor=request.user
        )
        return _("Tables in use: %(n)s.") % {"n": form.cleaned_data["count"]}


class AssignNextView(PanelAction):
    default_next = "panel-tables"

    def act(self, request: HttpRequest) -> str | None:
        assigned = services.table_assign_next(tournament=self.get_tournament(), actor=request.user)
        if not assigned:
            return _("No free table or no ready match.")
        return ngettext(
            "%(n)d match sent to a table.", "%(n)d matches sent to tables.", len(assigned)
        ) % {"n": len(assigned)}


class TableFreeView(PanelAction):
    default_next = "panel-tables"

    def confirm_text(self) -> str | None:
        return _("Free table %(n)s? Its match goes back to the queue.") % {
            "n": self.kwargs["number"]
        }

    def act(self, request: HttpRequest) -> str | None:
        table = get_object_or_404(
            Table, tournament=self.get_tournament(), number=self.kwargs["number"]
        )
        match = services.table_free(table=table, actor=request.user)
        return _("Table %(n)s is free; %(key)s is back in the queue.") % {
            "n": table.number,
            "key": match_label(match.key),
        }


def _fail(form: Any) -> str | None:
    from tournaments.errors import TournamentError

    raise TournamentError("invalid", form_error_text(form))


# --- organiser: one match --------------------------------------------------------------------


class MatchPanelMixin(PanelMixin):
    """A panel page or action of one match (`pk` is the match)."""

    def get_match(self) -> Match:
        if not hasattr(self, "_match"):
            self._match = get_object_or_404(selectors.match_queryset(), pk=self.kwargs["pk"])
        return self._match

    def get_tournament(self) -> Tournament:
        return self.get_match().tournament


class MatchAction(MatchPanelMixin, PanelAction):
    def next_url(self) -> str:
        wanted = self.request.POST.get("next", "")
        if wanted:
            return super().next_url()
        return reverse("panel-match", args=[self.get_match().pk])


class MatchControlView(MatchPanelMixin, View):
    tab = "tables"

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        match = self.get_match()
        context = scoreboard_context(match)
        context["events"] = described_events(match, context["names"], 30)
        audit = AuditEntry.objects.filter(match=match).order_by("-created_at", "-pk")[:100]
        head = context["s"]["head"]
        return self.page(
            "panel/match.html",
            **context,
            audit=audit,
            tables=Table.objects.filter(tournament=match.tournament, is_active=True),
            walkover_form=forms.WalkoverForm(),
            correct_form=forms.CorrectResultForm(
                initial={
                    "winner": winning_slot(match),
                    "score_a": match.score_a,
                    "score_b": match.score_b,
                }
            ),
            handicap_form=forms.HandicapForm(
                initial={
                    "head_a": head["a"],
                    "head_b": head["b"],
                    "balls_to_win": context["s"]["balls_to_win"],
                }
            ),
            adjust_form=forms.ClockAdjustForm(
                initial={"minutes": (context["clock"]["remaining"] or 0) // 60 or None}
            ),
            closed=match.status
            in (Match.Status.FINISHED, Match.Status.WALKOVER, Match.Status.VOID),
            now=timezone.now(),
        )


class MatchClockView(MatchAction):
    def act(self, request: HttpRequest) -> str | None:
        form = forms.ClockForm(request.POST)
        if not form.is_valid():
            return _fail(form)
        services.match_clock(
            match_id=self.get_match().pk, action=form.cleaned_data["action"], actor=request.user
        )
        return {
            "start": _("The clock is running."),
            "pause": _("Technical break: the clock is stopped."),
            "resume": _("The clock is running again."),
        }[form.cleaned_data["action"]]


class MatchClockAdjustView(MatchAction):
    def act(self, request: HttpRequest) -> str | None:
        form = forms.ClockAdjustForm(request.POST)
        if not form.is_valid():
            return _fail(form)
        minutes = form.cleaned_data["minutes"]
        services.match_clock(
            match_id=self.get_match().pk,
            action="adjust",
            actor=request.user,
            remaining_seconds=None if minutes is None else minutes * 60,
        )
        return _("The time left is set.")


class MatchWalkoverView(MatchAction):
    def confirm_text(self) -> str | None:
        names = names_of(self.get_match())
        winner = names.get(self.request.POST.get("winner", ""), "")
        return _("Record a walkover in %(key)s: %(name)s goes on? This ends the match.") % {
            "key": self.get_match().key,
            "name": winner,
        }

    def act(self, request: HttpRequest) -> str | None:
        form = forms.WalkoverForm(request.POST)
        if not form.is_valid():
            return _fail(form)
        match = self.get_match()
        services.match_walkover(
            match=match,
            winner_slot=form.cleaned_data["winner"],
            actor=request.user,
            reason=form.cleaned_data["reason"],
        )
        return _("Walkover recorded: %(name)s goes on.") % {
            "name": names_of(match)[form.cleaned_data["winner"]]
        }


class MatchCorrectView(MatchAction):
    def confirm_text(self) -> str | None:
        post = self.request.POST
        return _("Correct the result of %(key)s to %(a)s:%(b)s? The bracket follows it.") % {
            "key": self.get_match().key,
            "a": post.get("score_a", ""),
            "b": post.get("score_b", ""),
        }

    def act(self, request: HttpRequest) -> str | None:
        form = forms.CorrectResultForm(request.POST)
        if not form.is_valid():
            return _fail(form)
        tournament_services.match_correct_result(
            match=self.get_match(),
            winner_slot=form.cleaned_data["winner"],
            score_a=form.cleaned_data["score_a"],
            score_b=form.cleaned_data["score_b"],
            reason=form.cleaned_data["reason"],
            actor=request.user,
        )
        return _("The result is corrected.")


class MatchHandicapView(MatchAction):
    def act(self, request: HttpRequest) -> str | None:
        form = forms.HandicapForm(request.POST)
        if not form.is_valid():
            return _fail(form)
        tournament_services.match_set_handicap(
            match=self.get_match(),
            head_start={"a": form.cleaned_data["head_a"], "b": form.cleaned_data["head_b"]},
            balls_to_win=form.cleaned_data["balls_to_win"],
            actor=request.user,
        )
        return _("The head start is set.")


class MatchAssignView(MatchAction):
    def act(self, request: HttpRequest) -> str | None:
        form = forms.TableNumberForm(request.POST)
        if not form.is_valid():
            return _fail(form)
        match = services.match_assign_table(
            match=self.get_match(), table=form.cleaned_data["table"], actor=request.user
        )
        return _("%(key)s goes to table %(n)s.") % {
            "key": match_label(match.key),
            "n": form.cleaned_data["table"],
        }


class MatchMoveView(MatchAction):
    def act(self, request: HttpRequest) -> str | None:
        form = forms.TableNumberForm(request.POST)
        if not form.is_valid():
            return _fail(form)
        match = services.match_move(
            match=self.get_match(), table=form.cleaned_data["table"], actor=request.user
        )
        return _("%(key)s moved to table %(n)s.") % {
            "key": match_label(match.key),
            "n": form.cleaned_data["table"],
        }


class MatchHoldView(MatchAction):
    def act(self, request: HttpRequest) -> str | None:
        form = forms.HoldForm(request.POST)
        if not form.is_valid():
            return _fail(form)
        held = form.cleaned_data["held"]
        services.match_hold(match=self.get_match(), held=held, actor=request.user)
        return _("Held back from the queue.") if held else _("Back in the queue.")


class MatchJudgeResolveView(MatchAction):
    def act(self, request: HttpRequest) -> str | None:
        form = forms.JudgeResolveForm(request.POST)
        note = form.cleaned_data["note"] if form.is_valid() else ""
        services.match_judge_resolve(match_id=self.get_match().pk, actor=request.user, note=note)
        return _("The judge call is resolved.")
