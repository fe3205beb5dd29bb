"""The organiser's table board and one match's control: every action a POST form that calls
one service (tournaments.web.shared.panel)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views import View

from matches import selectors, services
from matches.models import Match, Table
from matches.selectors import winning_slot
from matches.web.panel import forms
from tournaments import services as tournament_services
from tournaments.errors import TournamentError
from tournaments.match_labels import match_label
from tournaments.models import Tournament
from tournaments.presentation import names_of, no_show_question, walkover_question
from tournaments.regulation import lateness_log, lateness_rule, no_show_words
from tournaments.selectors.audit import tournament_audit
from tournaments.web.shared.pages import live_response, tournament_live_etag, tournament_stream
from tournaments.web.shared.panel import PanelAction, PanelMixin, form_error_text
from tournaments.web.shared.scoreboard import (
    clock_view,
    described_events,
    score_view,
    scoreboard_context,
)

# --- what a scoreboard shows ------------------------------------------------------------------


# --- public pages ---------------------------------------------------------------------------


# --- the referee form ------------------------------------------------------------------------


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
                row.table.number
                for row in board.tables
                if row.match is None and row.table.is_active
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
                "active_tables": sum(1 for row in board.tables if row.table.is_active),
                "steps": [],
            }

        return live_response(
            request,
            etag=tournament_live_etag(tournament),
            page="panel/tables.html",
            fragment="panel/_tables.html",
            context=context,
            stream=tournament_stream(tournament.pk),
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
        # The match's audit entries and its log's (balls, undos) merged, newest first.
        audit = tournament_audit(tournament=match.tournament, match_id=match.pk)[:100]
        head = context["s"]["head"]
        return self.page(
            "panel/match.html",
            **context,
            audit=audit,
            tables=Table.objects.filter(tournament=match.tournament, is_active=True),
            walkover_form=forms.WalkoverForm(),
            no_show_questions={slot: no_show_question(match, slot) for slot in ("a", "b")},
            late_choices=[("a", context["names"]["a"]), ("b", context["names"]["b"])],
            lateness_rule=lateness_rule(match.tournament),
            lateness_log=lateness_log(match),
            no_show_rule=no_show_words(match.tournament),
            walkover_questions={slot: walkover_question(match, slot) for slot in ("a", "b")},
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
                    "balls_to_win": ((match.state or {}).get("ruleset") or match.ruleset or {}).get(
                        "balls_to_win"
                    ),
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
        winner = self.request.POST.get("winner", "")
        if winner not in ("a", "b"):
            return None  # the form's own error says what is missing
        return walkover_question(self.get_match(), winner)

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
