"""The panel's diplomas: the printable page and the PDFs (tournaments.diplomas renders them)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views import View

from tournaments.diplomas import diploma_context, diploma_entries, render_pdf
from tournaments.web.shared.panel import NothingToPrint, PanelMixin, nothing_to_print


def _pdf_response(data: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


class DiplomasHtmlView(PanelMixin, View):
    tab = "prizes"

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        tournament = self.get_tournament()
        # The diploma's language is the tournament's, not the viewer's.
        with translation.override(tournament.diploma_language):
            response = self.page(
                "diplomas/diplomas.html",
                entries=diploma_entries(tournament),
                pdf=False,
                **diploma_context(tournament),
            )
        return response


class DiplomasPdfView(PanelMixin, View):
    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        tournament = self.get_tournament()
        entries = diploma_entries(tournament)
        if not entries:
            nothing = NothingToPrint(
                _("No place with a diploma is decided yet."), where="panel-prizes"
            )
            return nothing_to_print(self, nothing)
        return _pdf_response(
            render_pdf(tournament=tournament, entries=entries),
            f"diplomas-{tournament.pk}.pdf",
        )


class DiplomaPdfView(PanelMixin, View):
    def get(self, request: HttpRequest, pk: int, player: int) -> HttpResponse:
        tournament = self.get_tournament()
        entries = [e for e in diploma_entries(tournament) if e["player_id"] == player]
        if not entries:
            nothing = NothingToPrint(
                _("This player has no diploma in this tournament."),
                where="panel-prizes",
                status=404,
            )
            return nothing_to_print(self, nothing)
        return _pdf_response(
            render_pdf(tournament=tournament, entries=entries[:1]),
            f"diploma-{tournament.pk}-{entries[0]['place']}-{player}.pdf",
        )
