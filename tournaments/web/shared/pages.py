"""Live pages for every face: the page, its fragment or 304, built after the ETag; the
tournament a request may see.

Live pages are server-rendered, so they show the current state without JavaScript;
static/js/live.js swaps in a fresh fragment (`?fragment=1`) every 2 seconds, and an unchanged
page costs a 304 (the ETag is built before any rendering)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db.models import Max
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.cache import patch_cache_control
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from matches.models import Match
from tournaments import access
from tournaments.models import Tournament
from tournaments.selectors.tournament import tournament_get
from tournaments.web.shared import http_cache

FRAGMENT_PARAM = "fragment"


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
    stream: str | Callable[[], str] = "",
) -> HttpResponse:
    """The page, or its live fragment, or 304 if the poller already has this version.

    `context` is called only when something is rendered: a poll of an unchanged page runs
    just the queries that built the ETag. Only fragments are conditional: a full page also
    carries the user's flash messages, which a 304 would swallow. With `cache` (its keys must
    name everything the fragment shows) the fragment is rendered once into the shared cache
    for all pollers (tournaments.web.shared.http_cache), and the full page is that fragment inside the
    page's frame, built from `page_context` alone (the cheap part: no bracket, no standings).
    `stream`: the push channel(s) whose events make the page fetch its fragment at once
    (space-separated URLs, `tournament_stream` / `match_stream`, or a function giving them,
    called only for a full page); polling stays the fallback."""
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
        data["live_stream"] = stream if isinstance(stream, str) else stream()
        response = render(request, page, data)
    else:
        data = context()
        data["live_etag"] = etag
        data["live_url"] = f"{request.path}?{FRAGMENT_PARAM}=1"
        data["live_stream"] = stream if isinstance(stream, str) else stream()
        response = render(request, fragment if fragment_wanted else page, data)
    if fragment_wanted:
        if etag:
            response["ETag"] = etag
        response["Vary"] = "Accept-Language, Cookie"
    # Revalidate every time: the ETag answers cheaply, and a stale score is worse than a 304.
    patch_cache_control(response, no_cache=True, private=True)
    return response


def tournament_stream(tournament_id: int) -> str:
    """The push channel of a tournament's changes (tournaments.web.stream)."""
    return f"/api/v1/tournaments/{tournament_id}/stream/"


def match_stream(match_id: int) -> str:
    """The push channel of one match's changes."""
    return f"/api/v1/matches/{match_id}/stream/"


def tournament_live_etag(tournament: Tournament) -> str:
    """Changes with anything a tournament page shows: the public version (results, the draw,
    registrations) and the latest change to any of its matches (tables, clocks, scores)."""
    latest = Match.objects.filter(tournament=tournament).aggregate(m=Max("updated_at"))["m"]
    stamp = int(latest.timestamp() * 1000) if latest else 0
    return f"t{tournament.pk}-{tournament.public_version}-{stamp}"


def visible_tournament(request: HttpRequest, pk: int) -> Tournament:
    try:
        tournament = tournament_get(tournament_id=pk)
    except Tournament.DoesNotExist:
        raise Http404 from None
    if not access.can_view_tournament(request.user, tournament):
        # A private tournament does not exist for strangers.
        raise Http404
    return tournament
