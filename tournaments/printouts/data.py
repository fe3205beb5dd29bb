"""What each printout shows, read from the selectors."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.urls import reverse
from django.utils.translation import gettext as _

from matches.models import Match, Table
from matches.selectors import QUEUE_ORDER, discipline_of, match_queryset
from tournaments.models import Registration, Tournament
from tournaments.names import collation_key, paper_name, signature_name
from tournaments.presentation import bracket_shown, names_of, stage_label
from tournaments.printouts.layout import bracket_sheets
from tournaments.printouts.qr import qr_data_uri
from tournaments.regulation import paper_heading, race_words
from tournaments.selectors.bracket import tournament_bracket
from tournaments.selectors.desk import registration_list, registration_totals, table_time
from tournaments.selectors.prizes import tournament_prizes
from tournaments.selectors.standings import tournament_standings

SHEET_STATUSES = ("ready", "on_table")
# Racks a match sheet has rows for in each frame's grid; frames beyond the grid's columns are
# written on the back (a race to 8 frames has 15 at most).
SHEET_RACKS = 12
SHEET_FRAMES = 5


def bracket_data(tournament: Tournament) -> dict[str, Any]:
    """The bracket's sheets; each match also with the time it was called or started (a club's
    wall sheet says when a match was played)."""
    bracket = bracket_shown(tournament_bracket(tournament=tournament))
    times = {
        pk: started or called
        for pk, started, called in Match.objects.filter(tournament=tournament).values_list(
            "pk", "started_at", "called_at"
        )
    }
    for stage in bracket["stages"]:
        for rnd in stage["rounds"]:
            for match in rnd["matches"]:
                match["time"] = times.get(match.get("id"))
    players = Registration.objects.filter(tournament=tournament, seed__isnull=False).count()
    paper, sheets = bracket_sheets(bracket["stages"], players)
    return {"paper": paper, "sheets": sheets, "players": players}


def match_sheet(request: HttpRequest, match: Match) -> dict[str, Any]:
    """One match sheet: players, head start, race, time limit, the grid, and the QR code of
    its score form."""
    ruleset = dict((match.state or {}).get("ruleset") or match.ruleset or {})
    ruleset.setdefault("discipline", match.tournament.discipline)
    frames = int(ruleset.get("frames_to_win") or 1)
    url = request.build_absolute_uri(reverse("referee-match", args=[match.pk]))
    head = ruleset.get("head_start") or {}
    # Frames credited before the match (a lateness penalty): already won, written beside him.
    credit = ruleset.get("frames_credit") or {}
    # The discipline names its sheet (Discipline.paper_sheet); each sheet is a template.
    layout = discipline_of({}, ruleset).paper_sheet(ruleset)
    return {
        "breaks": _sheet_breaks(match, ruleset),
        "match": match,
        "names": {slot: paper_name(name) for slot, name in names_of(match).items()},
        "stage": stage_label(match),
        "head": {"a": head.get("a", 0), "b": head.get("b", 0)},
        "credit": {"a": credit.get("a", 0), "b": credit.get("b", 0)},
        "balls_to_win": ruleset.get("balls_to_win"),
        "frames_to_win": frames,
        "race": race_words(ruleset),
        "minutes": match.clock_limit_seconds // 60 if match.clock_limit_seconds else None,
        "layout": layout,
        "template": f"print/sheet/{layout}.html",
        "grid_frames": range(1, min(2 * frames - 1, SHEET_FRAMES) + 1),
        "frame_rows": range(1, 2 * frames),
        "racks": range(1, SHEET_RACKS + 1),
        "qr": qr_data_uri(url),
        "url": url,
    }


def _sheet_breaks(match: Match, ruleset: dict[str, Any]) -> dict[str, str]:
    """The break column of a match sheet, per slot (G7.1, G7.4): the lag as recorded; before
    it, boxes to tick where the lag decides, else who breaks frame 1 by the ruleset."""
    lag = (match.state or {}).get("lag")
    if isinstance(lag, dict):
        return {
            p: ", ".join(
                str(w)
                for w, on in (
                    (_("won the lag"), lag.get("winner") == p),
                    (_("broke first"), lag.get("breaker") == p),
                )
                if on
            )
            for p in ("a", "b")
        }
    if match.tournament.break_by_lag:
        box = "☐ " + str(_("won the lag")) + "  ☐ " + str(_("broke first"))
        return {"a": box, "b": box}
    first = ruleset.get("first_break", "a")
    return {p: str(_("broke first")) if p == first else "" for p in ("a", "b")}


def sheet_matches(tournament: Tournament) -> list[Any]:
    return list(
        match_queryset()
        .filter(tournament=tournament, status__in=SHEET_STATUSES)
        .exclude(player_a__isnull=True)
        .exclude(player_b__isnull=True)
        .order_by(*QUEUE_ORDER)
    )


def table_cards(request: HttpRequest, tournament: Tournament) -> list[dict[str, Any]]:
    cards = []
    for table in Table.objects.filter(tournament=tournament, is_active=True).order_by("number"):
        url = request.build_absolute_uri(
            reverse("public-table", args=[tournament.pk, table.number])
        )
        cards.append({"table": table, "url": url, "qr": qr_data_uri(url)})
    return cards


def protocol_data(tournament: Tournament) -> dict[str, Any]:
    standings = tournament_standings(tournament=tournament)
    prizes = tournament_prizes(tournament=tournament)
    amounts = {p["id"]: p["amount"] for award in prizes["awards"] for p in award["players"]}
    places = []
    for place in standings["places"]:
        for player in place["players"]:
            places.append(
                {
                    "label": place["label"],
                    "name": paper_name(player["name"]),
                    "city": player.get("city", ""),
                    "club": player.get("club", ""),
                    "amount": amounts.get(player["id"]),
                }
            )
    # Who gave each refund is on the fee sheet.
    fees = list(registration_list(tournament=tournament).select_related("refunded_by"))
    # On paper the fee sheet reads in Russian alphabetical order («Ё» among the «Е»).
    fees.sort(key=lambda r: collation_key(r.player.name))
    table = table_time(tournament=tournament)
    by_player = {p["player"].pk: p for p in table["players"]}
    for reg in fees:
        reg.table_time = by_player.get(reg.player_id)  # type: ignore[attr-defined]
    paid_out = sum((a for a in amounts.values() if a), start=prizes["pool"] * 0)
    return {
        "places": places,
        "prizes": prizes,
        "paid_out": paid_out,
        "withheld": prizes.get("withheld"),
        "fees": fees,
        "totals": registration_totals(tournament=tournament),
        "table_time": table,
        "heading": paper_heading(tournament),
        "signature": signature_name(tournament.chief_judge),
    }
