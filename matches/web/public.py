"""The public match pages: the scoreboard, a table's page (the QR code on its card leads
there) and the table overlay for a stream or a TV. Each is live (tournaments.web.shared.pages)."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from matches import access, selectors
from matches.models import Match, Table
from matches.selectors import LIVE
from tournaments.presentation import names_of
from tournaments.web.shared import http_cache
from tournaments.web.shared.pages import (
    live_response,
    match_stream,
    tournament_stream,
    visible_tournament,
)
from tournaments.web.shared.scoreboard import score_view, scoreboard_context


def _visible_match(request: HttpRequest, pk: int) -> Match:
    try:
        match = selectors.match_get(match_id=pk)
    except Match.DoesNotExist:
        raise Http404 from None
    if not access.can_view_match(request.user, match):
        raise Http404
    return match


@require_safe
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
        stream=match_stream(match.pk),
    )


def overlay_matches(table: Table) -> tuple[Match | None, Match | None]:
    """(the match the overlay shows, the one called next). The last result stays on the
    broadcast until the next match at the table begins: the table is refilled in the same
    transaction as the last ball, so a bug that followed the call would drop the winner at
    its next poll, before the stream ever showed him."""
    called = (
        selectors.match_queryset()
        .filter(table=table, status__in=LIVE)
        .order_by("-called_at", "-pk")
        .first()
    )
    if called is not None and (called.status != Match.Status.ON_TABLE or called.version):
        return called, None
    last = (
        selectors.match_queryset()
        .filter(table=table, status__in=selectors.WITH_RESULT)
        .order_by("-finished_at", "-pk")
        .first()
    )
    if last is None:
        return called, None
    return last, called


# Facts the overlay's bug shows itself (the head start beside the name, frames won).
_IN_THE_BUG = ("head_start", "frames")


def overlay_sub_line(s: dict[str, Any], mark: str | None, names: dict[str, str]) -> list[str]:
    """The overlay's line under the names, from the discipline's view (s["view"]): frames
    won, the race or the frame (Duplex: «партия 2 из 3»), each player's facts the bug does not
    show (balls of his colour on the table, plus and minus, a debt), the notices; how it ended
    and the next match follow in the template."""
    view = s["view"]
    parts = []
    if s["frames"]:
        parts.append(_("frames %(a)s:%(b)s") % s["frames"])
    parts.extend(view["lines"][:1])
    for slot in ("a", "b"):
        facts = [f["text"] for f in view["players"][slot]["facts"] if f["key"] not in _IN_THE_BUG]
        if facts:
            parts.append(
                _("%(name)s: %(facts)s") % {"name": names[slot], "facts": ", ".join(facts)}
            )
    if not mark:
        parts.extend(view["notices"])
    return parts


@require_safe
def table_overlay(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    tournament = visible_tournament(request, pk)
    table = get_object_or_404(Table, tournament=tournament, number=number)
    match, following = overlay_matches(table)
    etag = f"o{table.pk}-" + (http_cache.match_tag(match) if match else "free")
    if following is not None:
        etag += "-" + http_cache.match_tag(following)

    def context() -> dict[str, Any]:
        data: dict[str, Any] = {"tournament": tournament, "table": table}
        if match is not None:
            data.update(scoreboard_context(match))
            data["sub_line"] = overlay_sub_line(data["s"], data["mark"], data["names"])
            data["following"] = names_of(following) if following is not None else None
        return data

    return live_response(
        request,
        etag=etag,
        page="matches/overlay.html",
        fragment="matches/_overlay.html",
        context=context,
        stream=tournament_stream(tournament.pk),
    )


@require_safe
def table_page(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    tournament = visible_tournament(request, pk)
    table = get_object_or_404(Table, tournament=tournament, number=number)
    match = selectors.table_now(table=table)
    context: dict[str, Any] = {"tournament": tournament, "table": table, "match": match}
    if match is not None:
        context.update(
            names=names_of(match),
            s=score_view(match, names_of(match)),
            can_score=access.can_score_match(request.user, match),
        )
    else:
        context["last"] = selectors.table_last_finished(table=table)
    return render(request, "matches/table.html", context)
