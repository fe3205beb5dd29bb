"""Public pages: the tournament list, a tournament, its bracket, standings and prizes.

No login is needed for a public tournament; a private one is shown to its organisers and
referees only (tournaments.access). Live pages are server-rendered, so they show the current
state without JavaScript; static/js/live.js swaps in a fresh fragment (`?fragment=1`) every
2 seconds, and an unchanged page costs a 304 (the ETag is built before any rendering).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db.models import Count, Max, Q
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.cache import patch_cache_control
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext_lazy, ngettext, pgettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from tournaments import access, http_cache, selectors
from tournaments.algorithms import handicap
from tournaments.models import Registration, Tournament

FRAGMENT_PARAM = "fragment"

# The handicap presets' titles are English data; these marks let the UI translate them.
HANDICAP_TITLES = {
    "race_2_per_50": gettext_lazy("Race: 2 balls per 50 rating points, at most 12"),
    "llb_1": gettext_lazy("LLB scheme 1: frames to 8, a pair per 50 rating points"),
    "llb_4": gettext_lazy("LLB scheme 4: frames to 8, a pair per 100 rating points"),
    "none": gettext_lazy("No handicap"),
}
DISCIPLINES = {
    "free_pyramid": gettext_lazy("Free pyramid"),
    "duplex": gettext_lazy("Duplex"),
}
STAGE_NAMES = {
    "upper": gettext_lazy("Upper bracket"),
    "lower": gettext_lazy("Lower bracket"),
    "playoff": gettext_lazy("Play-off"),
    "grand_final": gettext_lazy("Final"),
    "group": gettext_lazy("Groups"),
}


# --- live responses ------------------------------------------------------------------------


def is_fragment(request: HttpRequest) -> bool:
    return request.GET.get(FRAGMENT_PARAM) == "1"


def etag_matches(request: HttpRequest, etag: str) -> bool:
    given = request.headers.get("If-None-Match", "")
    return bool(given) and etag in [tag.strip() for tag in given.split(",")]


def live_response(
    request: HttpRequest,
    *,
    etag: str,
    page: str,
    fragment: str,
    context: Callable[[], dict[str, Any]],
    cache: http_cache.FragmentCache | None = None,
    page_context: Callable[[], dict[str, Any]] | None = None,
) -> HttpResponse:
    """The page, or its live fragment, or 304 if the poller already has this version.

    `context` is called only when something is rendered: a poll of an unchanged page runs
    just the queries that built the ETag. Only fragments are conditional: a full page also
    carries the user's flash messages, which a 304 would swallow. With `cache` (its keys must
    name everything the fragment shows) the fragment is rendered once into the shared cache
    for all pollers (tournaments.http_cache), and the full page is that fragment inside the
    page's frame, built from `page_context` alone (the cheap part: no bracket, no standings)."""
    etag = f'W/"{etag}-{get_language()}"'
    fragment_wanted = is_fragment(request)
    if fragment_wanted and etag_matches(request, etag):
        response: HttpResponse = HttpResponseNotModified()
    elif fragment_wanted and cache is not None:
        text, current = http_cache.cached_render(
            cache, lambda: render_to_string(fragment, context(), request)
        )
        response = HttpResponse(text)
        if not current:
            etag = ""  # the last version while this one renders: no ETag, asked again next poll
    elif cache is not None and page_context is not None:
        text, current = http_cache.cached_render(
            cache, lambda: render_to_string(fragment, context(), request)
        )
        data = page_context()
        data["live_html"] = mark_safe(text)  # noqa: S308 - our own template's output
        data["live_etag"] = etag if current else ""
        data["live_url"] = f"{request.path}?{FRAGMENT_PARAM}=1"
        response = render(request, page, data)
    else:
        data = context()
        data["live_etag"] = etag
        data["live_url"] = f"{request.path}?{FRAGMENT_PARAM}=1"
        response = render(request, fragment if fragment_wanted else page, data)
    if fragment_wanted:
        if etag:
            response["ETag"] = etag
        response["Vary"] = "Accept-Language, Cookie"
    # Revalidate every time: the ETag answers cheaply, and a stale score is worse than a 304.
    patch_cache_control(response, no_cache=True, private=True)
    return response


def tournament_live_etag(tournament: Tournament) -> str:
    """Changes with anything a tournament page shows: the public version (results, the draw,
    registrations) and the latest change to any of its matches (tables, clocks, scores)."""
    from matches.models import Match

    latest = Match.objects.filter(tournament=tournament).aggregate(m=Max("updated_at"))["m"]
    stamp = int(latest.timestamp() * 1000) if latest else 0
    return f"t{tournament.pk}-{tournament.public_version}-{stamp}"


def live_matches(tournament: Tournament) -> list[dict[str, Any]]:
    """The matches being played now, by table, with what a list of scores shows."""
    from matches import selectors as match_selectors
    from matches.views import clock_view, names_of, score_view

    board = match_selectors.table_board(tournament=tournament)
    playing = [row.match for row in board.tables if row.match is not None]
    playing += board.playing_elsewhere
    return [
        {"match": m, "names": names_of(m), "s": score_view(m), "clock": clock_view(m, board.now)}
        for m in playing
    ]


def with_live_scores(tournament: Tournament, bracket: dict[str, Any]) -> None:
    """The bracket's cards of matches being played show their current score (one query)."""
    from matches.models import Match
    from matches.selectors import score_summary

    live = {
        pk: score_summary(state).get("score") or {}
        for pk, state in Match.objects.filter(
            tournament=tournament, status__in=(Match.Status.RUNNING, Match.Status.PAUSED)
        ).values_list("pk", "state")
    }
    if not live:
        return
    for stage in bracket["stages"]:
        for rnd in stage["rounds"]:
            for m in rnd["matches"]:
                score = live.get(m["id"])
                if score:
                    m["live_score"] = score


def visible_tournament(request: HttpRequest, pk: int) -> Tournament:
    try:
        tournament = selectors.tournament_get(tournament_id=pk)
    except Tournament.DoesNotExist:
        raise Http404 from None
    if not access.can_view_tournament(request.user, tournament):
        # A private tournament does not exist for strangers.
        raise Http404
    return tournament


# --- the regulation in words ---------------------------------------------------------------


def _race(ruleset: dict[str, Any]) -> str:
    if ruleset.get("discipline") == "duplex":
        return _("A game of three frames (plus and minus points)")
    balls = int(ruleset.get("balls_to_win", 30))
    frames = int(ruleset.get("frames_to_win", 1))
    if frames > 1:
        return ", ".join(
            (
                ngettext("To %(n)d frame won", "To %(n)d frames won", frames) % {"n": frames},
                ngettext("a frame to %(n)d ball", "a frame to %(n)d balls", balls) % {"n": balls},
            )
        )
    return ngettext("Race to %(n)d ball", "Race to %(n)d balls", balls) % {"n": balls}


def regulation(tournament: Tournament) -> list[tuple[str, str]]:
    """The tournament's rules as (label, value) lines for the public page."""
    ruleset = dict(tournament.ruleset or {})
    lines: list[tuple[str, str]] = [
        (_("Discipline"), str(DISCIPLINES.get(tournament.discipline, tournament.discipline))),
        (_("Race"), _race(ruleset)),
    ]
    for stage, overrides in (tournament.stage_rules or {}).items():
        if overrides.get("balls_to_win") or overrides.get("frames_to_win"):
            lines.append((str(STAGE_NAMES.get(stage, stage)), _race({**ruleset, **overrides})))
    if ruleset.get("discipline", tournament.discipline) == "free_pyramid":
        terms = []
        if ruleset.get("continuation", True):
            terms.append(_("with continuation"))
        if ruleset.get("direct_call", True):
            terms.append(_("direct call, fools do not count"))
        if ruleset.get("strict_break", True):
            terms.append(_("strict break"))
        if ruleset.get("penalty", "shelf_to_table") == "shelf_to_table":
            terms.append(_("a foul costs a ball from the shelf"))
        else:
            terms.append(_("after a foul the opponent takes a ball"))
        lines.append((_("Rules"), ", ".join(terms)))
    if tournament.time_limit_minutes:
        hours, minutes = divmod(tournament.time_limit_minutes, 60)
        value = (
            _("%(h)s h %(m)02d min of net playing time") % {"h": hours, "m": minutes}
            if hours
            else _("%(m)s min of net playing time") % {"m": minutes}
        )
        lines.append((_("Match time limit"), value))
    else:
        lines.append((_("Match time limit"), _("none")))
    fmt = str(tournament.get_format_display())
    if tournament.format == Tournament.Format.DOUBLE_TO_SINGLE and tournament.playoff_size:
        # The format's own name already says "then single elimination": say it once.
        fmt = ngettext(
            "Double elimination until %(n)d player is left, then single elimination",
            "Double elimination until %(n)d players are left, then single elimination",
            tournament.playoff_size,
        ) % {"n": tournament.playoff_size}
    if tournament.format == Tournament.Format.GROUPS_PLAYOFF and tournament.group_size:
        fmt = ", ".join(
            (
                fmt,
                ngettext("groups of %(n)d player", "groups of %(n)d players", tournament.group_size)
                % {"n": tournament.group_size},
                ngettext(
                    "%(n)d advances from each group",
                    "%(n)d advance from each group",
                    tournament.group_advance or 0,
                )
                % {"n": tournament.group_advance or 0},
            )
        )
    lines.append((_("Format"), fmt))
    scheme = tournament.handicap_scheme
    preset = handicap.SCHEMES.get(scheme)
    lines.append(
        (_("Handicap"), str(HANDICAP_TITLES.get(scheme) or (preset.title if preset else scheme)))
    )
    lines.append((_("No-show"), str(tournament.get_no_show_rule_display())))
    lines.append(
        (
            _("Prize of a withdrawn or disqualified player"),
            str(tournament.get_withdrawn_prize_display()),
        )
    )
    return lines


def fee_lines(tournament: Tournament) -> list[tuple[str, Any]]:
    bands = tournament.fee_bands or []
    if not bands:
        return [(_("Entry fee"), tournament.entry_fee)]
    lines = []
    for band in bands:
        low, high = band.get("min_rating"), band.get("max_rating")
        if low is None:
            label = _("rating up to %(high)s") % {"high": high}
        elif high is None:
            label = _("rating %(low)s and above") % {"low": low}
        else:
            label = _("rating %(low)s–%(high)s") % {"low": low, "high": high}
        lines.append((label, band.get("fee")))
    return lines


# --- pages ---------------------------------------------------------------------------------


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    tournaments = list(
        selectors.tournament_list(user=request.user)
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


@require_GET
def tournament_detail(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = visible_tournament(request, pk)

    def players() -> str:
        registrations = [
            r
            for r in selectors.registration_list(tournament=tournament)
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
            "totals": selectors.registration_totals(tournament=tournament),
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
    )


@require_GET
def tournament_bracket(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = visible_tournament(request, pk)

    def page_context() -> dict[str, Any]:
        return _base_context(request, tournament, "bracket")

    def context() -> dict[str, Any]:
        bracket = selectors.tournament_bracket(tournament=tournament)
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
        cache=http_cache.bracket_cache(tournament, etag),
        page_context=page_context,
    )


@require_GET
def tournament_standings(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = visible_tournament(request, pk)

    def page_context() -> dict[str, Any]:
        return _base_context(request, tournament, "standings")

    def context() -> dict[str, Any]:
        from matches.selectors import group_results

        standings = selectors.tournament_standings(tournament=tournament)
        return {
            **page_context(),
            "standings": standings,
            # The group matches played, each marked with how it ended (no query without groups).
            "group_results": group_results(tournament_id=tournament.pk)
            if standings["groups"]
            else {},
        }

    return live_response(
        request,
        etag=http_cache.tournament_etag(tournament),  # results only: nothing live
        page="public/standings.html",
        fragment="public/_standings.html",
        context=context,
        cache=http_cache.page_cache(
            tournament, http_cache.tournament_etag(tournament), "standings"
        ),
        page_context=page_context,
    )


@require_GET
def tournament_prizes(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = visible_tournament(request, pk)

    def page_context() -> dict[str, Any]:
        return _base_context(request, tournament, "prizes")

    def context() -> dict[str, Any]:
        return {**page_context(), "prizes": selectors.tournament_prizes(tournament=tournament)}

    return live_response(
        request,
        etag=http_cache.tournament_etag(tournament),  # fees and results only: nothing live
        page="public/prizes.html",
        fragment="public/_prizes.html",
        context=context,
        cache=http_cache.page_cache(tournament, http_cache.tournament_etag(tournament), "prizes"),
        page_context=page_context,
    )
