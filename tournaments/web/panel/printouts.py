"""Printout pages of the panel: each an HTML page to print from the browser and a PDF."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.views import View

from matches.selectors import match_queryset
from tournaments.diplomas import html_to_pdf
from tournaments.printouts import data
from tournaments.regulation import regulation_document
from tournaments.web.shared.panel import NothingToPrint, PanelMixin, nothing_to_print

STYLESHEET = "css/print.css"


class PrintView(PanelMixin, View, ABC):
    """GET the printout; `pdf` (set in the URL conf) answers it as a PDF."""

    template = ""
    name = ""
    pdf = False

    @abstractmethod
    def context(self) -> dict[str, Any]:
        """What the printout's template shows."""

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        tournament = self.get_tournament()
        try:
            context = {"tournament": tournament, "pdf": self.pdf, **self.context()}
        except NothingToPrint as nothing:
            return nothing_to_print(self, nothing)
        if not self.pdf:
            return render(request, self.template, context)
        html = render_to_string(self.template, context, request)
        response = HttpResponse(html_to_pdf(html, STYLESHEET), content_type="application/pdf")
        response["Content-Disposition"] = f'inline; filename="{self.name}-{tournament.pk}.pdf"'
        return response


class BracketPrintView(PrintView):
    template = "print/bracket.html"
    name = "bracket"

    def context(self) -> dict[str, Any]:
        bracket = data.bracket_data(self.get_tournament())
        if not bracket["sheets"]:
            raise NothingToPrint(_("The bracket appears after the draw."), where="panel-draw")
        return bracket


class SheetsPrintView(PrintView):
    template = "print/sheets.html"
    name = "sheets"

    def context(self) -> dict[str, Any]:
        matches = data.sheet_matches(self.get_tournament())
        if not matches:
            raise NothingToPrint(_("No match is ready or called to a table."), where="panel-tables")
        return {"sheets": [data.match_sheet(self.request, m) for m in matches]}


class MatchSheetPrintView(SheetsPrintView):
    """One match's sheet (`pk` is the match)."""

    name = "sheet"

    def get_tournament(self) -> Any:
        return self.get_match().tournament

    def get_match(self) -> Any:
        if not hasattr(self, "_match"):
            self._match = get_object_or_404(match_queryset(), pk=self.kwargs["pk"])
        return self._match

    def context(self) -> dict[str, Any]:
        match = self.get_match()
        if match.player_a_id is None or match.player_b_id is None:
            raise NothingToPrint(
                _("The match's players are not known yet."), where="panel-match", pk=match.pk
            )
        return {"sheets": [data.match_sheet(self.request, match)]}


class TablesPrintView(PrintView):
    template = "print/tables.html"
    name = "tables"

    def context(self) -> dict[str, Any]:
        cards = data.table_cards(self.request, self.get_tournament())
        if not cards:
            raise NothingToPrint(_("The tournament has no tables yet."), where="panel-tables")
        return {"cards": cards}


class RegulationPrintView(PrintView):
    """The regulation the club prints and posts before the day: every setting in words, then
    the organiser's own text."""

    template = "print/regulation.html"
    name = "regulation"

    def context(self) -> dict[str, Any]:
        return {"sections": regulation_document(self.get_tournament())}


class ProtocolPrintView(PrintView):
    template = "print/protocol.html"
    name = "protocol"

    def context(self) -> dict[str, Any]:
        return data.protocol_data(self.get_tournament())
