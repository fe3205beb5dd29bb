"""Diplomas for places 1–3: a printable HTML page and A4 PDFs (one per player, or all in one).

The PDF is the same template rendered by WeasyPrint with static/css/diploma.css, whose
@font-face points at the DejaVu TTFs in static/fonts: WeasyPrint embeds them, so Cyrillic
names print on any machine, whatever fonts it has.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import Http404, HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views import View

from tournaments import selectors
from tournaments.models import Tournament
from tournaments.views import DISCIPLINES
from tournaments.views_panel import PanelMixin

DIPLOMA_PLACES = 3
PLACE_TITLES = {
    1: gettext_lazy("first place"),
    2: gettext_lazy("second place"),
    3: gettext_lazy("third place"),
}
STYLESHEET = "css/diploma.css"


def diploma_entries(
    tournament: Tournament,
    *,
    standings: dict[str, Any] | None = None,
    prizes: dict[str, Any] | None = None,
) -> list[dict[str, Any]]:
    """One entry per player whose place 1–3 is decided; players sharing a place (e.g. two
    third places) each get the diploma of the better place of the range. A withdrawn or
    disqualified player keeps his place but gets no diploma while the tournament withholds
    their prizes (``withdrawn_prize``). ``standings`` and ``prizes``: the selectors' answers,
    when the caller has them already."""
    if standings is None:
        standings = selectors.tournament_standings(tournament=tournament)
    if prizes is None:
        prizes = selectors.tournament_prizes(tournament=tournament, standings=standings)
    amounts = {p["id"]: p["amount"] for award in prizes["awards"] for p in award["players"]}
    withhold = tournament.withdrawn_prize == Tournament.WithdrawnPrize.WITHHOLD
    entries = []
    for place in standings["places"]:
        if place["first"] > DIPLOMA_PLACES:
            continue
        for player in place["players"]:
            if withhold and (player["withdrawn"] or player["disqualified"]):
                continue
            entries.append(
                {
                    "place": place["first"],
                    "place_title": str(PLACE_TITLES[place["first"]]),
                    "player_id": player["id"],
                    "name": player["name"],
                    "city": player.get("city", ""),
                    "club": player.get("club", ""),
                    "amount": amounts.get(player["id"]) or None,
                }
            )
    return entries


def _stylesheet_path() -> str:
    found = finders.find(STYLESHEET)
    if found:
        return str(found)
    return staticfiles_storage.path(STYLESHEET)  # collected static files in production


def render_pdf(*, tournament: Tournament, entries: list[dict[str, Any]]) -> bytes:
    from weasyprint import CSS, HTML  # heavy: loaded only when a PDF is asked for

    html = render_to_string(
        "diplomas/diplomas.html",
        {
            "tournament": tournament,
            "entries": entries,
            "pdf": True,
            "discipline": DISCIPLINES.get(tournament.discipline, tournament.discipline),
        },
    )
    stylesheet = _stylesheet_path()
    document = HTML(string=html, base_url=str(Path(stylesheet).parent))
    return bytes(document.write_pdf(stylesheets=[CSS(filename=stylesheet)]))


def _pdf_response(data: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


class DiplomasHtmlView(PanelMixin, View):
    tab = "prizes"

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        tournament = self.get_tournament()
        return self.page(
            "diplomas/diplomas.html",
            entries=diploma_entries(tournament),
            pdf=False,
            discipline=DISCIPLINES.get(tournament.discipline, tournament.discipline),
        )


class DiplomasPdfView(PanelMixin, View):
    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        tournament = self.get_tournament()
        entries = diploma_entries(tournament)
        if not entries:
            raise Http404(_("No place 1–3 is decided yet."))
        return _pdf_response(
            render_pdf(tournament=tournament, entries=entries),
            f"diplomas-{tournament.pk}.pdf",
        )


class DiplomaPdfView(PanelMixin, View):
    def get(self, request: HttpRequest, pk: int, player: int) -> HttpResponse:
        tournament = self.get_tournament()
        entries = [e for e in diploma_entries(tournament) if e["player_id"] == player]
        if not entries:
            raise Http404(_("This player has no diploma in this tournament."))
        return _pdf_response(
            render_pdf(tournament=tournament, entries=entries[:1]),
            f"diploma-{tournament.pk}-{entries[0]['place']}-{player}.pdf",
        )
