"""The referee's home (/referee/: every match he may score now, one tap to each form) and a
table's page (/t/<id>/tables/<n>/: the match on it now, its form for those who may score;
the QR code on the table's card leads here, and the form sends the referee here after a
match for the next one at that table)."""

from __future__ import annotations

from django.contrib.auth.mixins import LoginRequiredMixin
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views import View
from django.views.decorators.http import require_GET

from matches import access, selectors
from matches.models import Table
from matches.views import names_of, score_view
from tournaments import selectors_referee
from tournaments.views import visible_tournament


class RefereeHomeView(LoginRequiredMixin, View):
    def get(self, request: HttpRequest) -> HttpResponse:
        groups = selectors_referee.referee_live_matches(user=request.user)
        for group in groups:
            group["live"] = [
                {"match": m, "names": names_of(m), "s": score_view(m)} for m in group["live"]
            ]
            group["ready"] = [{"match": m, "names": names_of(m)} for m in group["ready"]]
        return render(request, "matches/referee_home.html", {"groups": groups})


@require_GET
def table_page(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    tournament = visible_tournament(request, pk)
    table = get_object_or_404(Table, tournament=tournament, number=number)
    match = selectors.table_now(table=table)
    context = {"tournament": tournament, "table": table, "match": match}
    if match is not None:
        context.update(
            names=names_of(match),
            s=score_view(match),
            can_score=access.can_score_match(request.user, match),
        )
    else:
        context["last"] = selectors.table_last_finished(table=table)
    return render(request, "matches/table.html", context)
