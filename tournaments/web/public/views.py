"""Public pages: the tournament list, a tournament, its bracket, standings and prizes.

No login is needed for a public tournament; a private one is shown to its organisers and
referees only (tournaments.access). Each page is live (tournaments.web.shared.pages)."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_safe

from matches import selectors as match_selectors
from matches.models import Match
from matches.representation import translated
from matches.selectors import discipline_of, group_results
from tournaments import access
from tournaments.models import Registration, Tournament
from tournaments.presentation import bracket_shown, group_results_shown, names_of, standings_shown
from tournaments.regulation import fee_lines, regulation
from tournaments.selectors import bracket as bracket_selectors
from tournaments.selectors import desk as desk_selectors
from tournaments.selectors import prizes as prizes_selectors
from tournaments.selectors import standings as standings_selectors
from tournaments.selectors.tournament import tournament_list
from tournaments.web.shared import http_cache
from tournaments.web.shared.pages import (
    live_response,
    tournament_live_etag,
    tournament_stream,
    visible_tournament,
)
from tournaments.web.shared.scoreboard import clock_view, score_view

# --- live responses ------------------------------------------------------------------------


def live_matches(tournament: Tournament) -> list[dict[str, Any]]:
    """The matches being played now, by table, with what a list of scores shows."""
    board = match_selectors.table_board(tournament=tournament)
    playing = [row.match for row in board.tables if row.match is not None]
    playing += board.playing_elsewhere
    return [
        {"match": m, "names": names_of(m), "s": score_view(m), "clock": clock_view(m, board.now)}
        for m in playing
    ]


def with_live_scores(tournament: Tournament, bracket: dict[str, Any]) -> None:
    """The bracket's cards of matches being played show their current score and frame, as
    the discipline's view has them (one query)."""
    live = {
        pk: translated(discipline_of(state).state_view(state), {})
        for pk, state in Match.objects.filter(
            tournament=tournament, status__in=(Match.Status.RUNNING, Match.Status.PAUSED)
        ).values_list("pk", "state")
        if state
    }
    if not live:
        return
    for stage in bracket["stages"]:
        for rnd in stage["rounds"]:
            for m in rnd["matches"]:
                view = live.get(m["id"])
                if view is None or (view["score"]["a"] is None and view["score"]["b"] is None):
                    continue
                m["live_score"] = view["score"]
                m["live_label"] = view["score_label"]
                m["live_frame"] = view["frame"]["text"]
                m["live_line"] = " · ".join(view["lines"])


# --- the regulation in words ---------------------------------------------------------------


# --- pages ---------------------------------------------------------------------------------


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    tournaments = list(
        tournament_list(user=request.user)
        .annotate(
            players=Count(
                "registrations", filter=Q(registrations__status=Registration.Status.ACTIVE)
            )
        )
        .order_by("-date", "-pk")[:100]
    )
    groups = [
        (_("Playing now"), [t for t in tournaments if t.status in ("drawn", "running")]),
        (_("Registration open"), [t for t in tournaments if t.status in ("registration", "draft")]),
        (pgettext("tournaments", "Finished"), [t for t in tournaments if t.status == "finished"]),
    ]
    return render(
        request,
        "public/home.html",
        {"groups": [(title, items) for title, items in groups if items], "any": bool(tournaments)},
    )


def _base_context(request: HttpRequest, tournament: Tournament, tab: str) -> dict[str, Any]:
    return {
        "tournament": tournament,
        "tab": tab,
        "can_manage": access.can_manage_tournament(request.user, tournament),
    }


@require_safe
def tournament_detail(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = visible_tournament(request, pk)

    def players() -> str:
        registrations = [
            r
            for r in desk_selectors.registration_list(tournament=tournament)
            if r.status == Registration.Status.ACTIVE
        ]
        data = {"tournament": tournament, "registrations": registrations}
        return render_to_string("public/_players.html", data, request)

    def context() -> dict[str, Any]:
        # The players' list changes with the public version only, the rest with every ball:
        # the list (a thousand rows in a big tournament) is rendered once per version.
        place = http_cache.page_cache(tournament, http_cache.tournament_etag(tournament), "players")
        return {
            **_base_context(request, tournament, "overview"),
            "regulation": regulation(tournament),
            "fees": fee_lines(tournament),
            "totals": desk_selectors.registration_totals(tournament=tournament),
            "players_html": mark_safe(http_cache.cached_render(place, players)[0]),  # noqa: S308
            "shares": tournament.place_shares,
            "live_matches": live_matches(tournament),
        }

    return live_response(
        request,
        etag=tournament_live_etag(tournament),
        page="public/tournament.html",
        fragment="public/_tournament_live.html",
        context=context,
        stream=tournament_stream(tournament.pk),
    )


@require_safe
def tournament_bracket(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = visible_tournament(request, pk)

    def page_context() -> dict[str, Any]:
        return _base_context(request, tournament, "bracket")

    def context() -> dict[str, Any]:
        bracket = bracket_shown(bracket_selectors.tournament_bracket(tournament=tournament))
        with_live_scores(tournament, bracket)
        return {**page_context(), "bracket": bracket}

    # Results show at once (the public version), live scores within a live window.
    etag = http_cache.bracket_etag(tournament)
    return live_response(
        request,
        etag=etag,
        page="public/bracket.html",
        fragment="public/_bracket.html",
        context=context,
        stream=tournament_stream(tournament.pk),
        cache=http_cache.bracket_cache(tournament, etag),
        page_context=page_context,
    )


@require_safe
def tournament_standings(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = visible_tournament(request, pk)

    def page_context() -> dict[str, Any]:
        return _base_context(request, tournament, "standings")

    def context() -> dict[str, Any]:
        standings = standings_shown(standings_selectors.tournament_standings(tournament=tournament))
        return {
            **page_context(),
            "standings": standings,
            # The group matches played, each marked with how it ended (no query without groups).
            "group_results": group_results_shown(group_results(tournament_id=tournament.pk))
            if standings["groups"]
            else {},
        }

    return live_response(
        request,
        etag=http_cache.tournament_etag(tournament),  # results only: nothing live
        page="public/standings.html",
        fragment="public/_standings.html",
        context=context,
        stream=tournament_stream(tournament.pk),
        cache=http_cache.page_cache(
            tournament, http_cache.tournament_etag(tournament), "standings"
        ),
        page_context=page_context,
    )


@require_safe
def tournament_prizes(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = visible_tournament(request, pk)

    def page_context() -> dict[str, Any]:
        return _base_context(request, tournament, "prizes")

    def context() -> dict[str, Any]:
        return {
            **page_context(),
            "prizes": prizes_selectors.tournament_prizes(tournament=tournament),
        }

    return live_response(
        request,
        etag=http_cache.tournament_etag(tournament),  # fees and results only: nothing live
        page="public/prizes.html",
        fragment="public/_prizes.html",
        context=context,
        stream=tournament_stream(tournament.pk),
        cache=http_cache.page_cache(tournament, http_cache.tournament_etag(tournament), "prizes"),
        page_context=page_context,
    )
