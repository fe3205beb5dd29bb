"""Printouts: PDFs with the right paper, Cyrillic text, and QR codes of the right URLs."""

from __future__ import annotations

import io

import pytest
import segno
from django.utils import translation
from pypdf import PdfReader

from matches import services as match_services
from matches.models import Match
from tests.conftest import require_service
from tests.web.helpers import drawn_tournament, first_ready, nothing_to_print
from tournaments.match_labels import match_label
from tournaments.printouts import layout

pytestmark = pytest.mark.django_db

A4 = (595, 842)
A3 = (842, 1191)


def pdf(response) -> tuple[PdfReader, str]:
    assert response.status_code == 200, response.status_code
    assert response["Content-Type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(response.content))
    text = " ".join(" ".join(p.extract_text() for p in reader.pages).split())
    return reader, text


def size(page) -> tuple[int, int]:
    box = page.mediabox
    return round(float(box.width)), round(float(box.height))


def test_bracket_pdf_a4_landscape_with_names(organiser_client, drawn):
    reader, text = pdf(organiser_client.get(f"/panel/t/{drawn.pk}/print/bracket.pdf"))
    assert size(reader.pages[0]) == (A4[1], A4[0])  # landscape
    first = first_ready(drawn)
    labels = set()
    for language in ("ru", "en"):  # the match number as the club writes it, in the page's language
        with translation.override(language):
            labels.add(match_label(first.key))
    assert first.player_a.name in text and any(label in text for label in labels)


def test_bracket_of_40_players_is_a3(organiser_client, organiser, referee):
    t = drawn_tournament(organiser, 40, referee=referee, format="double")
    reader, text = pdf(organiser_client.get(f"/panel/t/{t.pk}/print/bracket.pdf"))
    assert size(reader.pages[0]) == (A3[1], A3[0])
    assert len(reader.pages) >= 2  # upper and lower brackets, one sheet each at least
    assert first_ready(t).player_b.name in text


def test_bracket_layout_cuts_a_big_stage_into_parts():
    rounds = [
        {"title": f"R{n}", "matches": [{"key": f"{n}-{i}"} for i in range(64 >> n)]}
        for n in range(7)
    ]
    sheets = layout.stage_sheets({"title": "Upper", "rounds": rounds}, "a3")
    assert [s["part"] for s in sheets] == [1, 2, 3]
    assert len(sheets[0]["rounds"][0]["matches"]) == 32
    assert layout.paper_for(32) == "a4" and layout.paper_for(33) == "a3"


def test_match_sheets_with_a_qr_code_of_the_score_form(organiser_client, drawn):
    reader, text = pdf(organiser_client.get(f"/panel/t/{drawn.pk}/print/sheets.pdf"))
    ready = first_ready(drawn)
    assert size(reader.pages[0]) == A4
    assert ready.player_a.name in text and ready.player_b.name in text
    html = organiser_client.get(f"/panel/m/{ready.pk}/print/sheet/")
    sheet = html.context["sheets"][0]
    assert sheet["url"] == f"http://testserver/m/{ready.pk}/score/"
    assert sheet["qr"] == segno.make(sheet["url"], error="m").svg_data_uri(scale=4, border=2)
    one, text = pdf(organiser_client.get(f"/panel/m/{ready.pk}/print/sheet.pdf"))
    assert len(one.pages) == 1 and ready.player_b.name in text


def test_table_cards_with_the_table_page_s_qr(organiser_client, drawn, organiser):
    match_services.tables_ensure(tournament=drawn, count=3, actor=organiser)
    html = organiser_client.get(f"/panel/t/{drawn.pk}/print/tables/")
    urls = [c["url"] for c in html.context["cards"]]
    assert urls == [f"http://testserver/t/{drawn.pk}/tables/{n}/" for n in (1, 2, 3)]
    for card in html.context["cards"]:
        assert card["qr"] == segno.make(card["url"], error="m").svg_data_uri(scale=4, border=2)
    reader, text = pdf(organiser_client.get(f"/panel/t/{drawn.pk}/print/tables.pdf"))
    assert len(reader.pages) == 3 and size(reader.pages[0]) == A4
    assert f"/t/{drawn.pk}/tables/2/" in text


def test_final_protocol_with_places_prizes_and_fees(organiser_client, finished):
    reader, text = pdf(organiser_client.get(f"/panel/t/{finished.pk}/print/protocol.pdf"))
    assert size(reader.pages[0]) == A4
    assert "2 520 ₽" in text  # first prize: 45% of 70% of 8 fees of 1000
    assert "8 000 ₽" in text  # fees paid
    assert "А. В. Сергеев" in text


def test_printouts_are_for_the_organisers(client, drawn, user, referee):
    client.force_login(user)
    assert client.get(f"/panel/t/{drawn.pk}/print/bracket.pdf").status_code == 403
    client.force_login(referee)
    assert client.get(f"/panel/t/{drawn.pk}/print/protocol.pdf").status_code == 403


def test_before_the_draw_the_bracket_and_the_table_cards_say_so(organiser_client, open_tournament):
    t = open_tournament.pk
    for suffix in ("/", ".pdf"):
        nothing_to_print(
            organiser_client.get(f"/panel/t/{t}/print/bracket{suffix}"),
            "The bracket appears after the draw.",
            f"/panel/t/{t}/draw/",
        )
        nothing_to_print(
            organiser_client.get(f"/panel/t/{t}/print/tables{suffix}"),
            "The tournament has no tables yet.",
            f"/panel/t/{t}/tables/",
        )
        # The final protocol always has something: the tournament's head and its fees.
        assert organiser_client.get(f"/panel/t/{t}/print/protocol{suffix}").status_code == 200


def test_after_the_final_the_match_sheets_say_so(organiser_client, finished):
    for suffix in ("/", ".pdf"):
        nothing_to_print(
            organiser_client.get(f"/panel/t/{finished.pk}/print/sheets{suffix}"),
            "No match is ready or called to a table.",
            f"/panel/t/{finished.pk}/tables/",
        )


def test_a_match_sheet_before_its_players_are_known_says_so(organiser_client, drawn):
    later = Match.objects.filter(tournament=drawn, player_a=None).first()
    for suffix in ("/", ".pdf"):
        nothing_to_print(
            organiser_client.get(f"/panel/m/{later.pk}/print/sheet{suffix}"),
            "The match's players are not known yet.",
            f"/panel/m/{later.pk}/",
        )


def decoded_qr_codes(content: bytes, tmp_path) -> list[str]:
    """The QR codes of a PDF as a phone reads them: the pages rasterised (poppler's pdftoppm),
    then decoded (zbar)."""
    import shutil
    import subprocess

    if not (shutil.which("pdftoppm") and shutil.which("zbarimg")):
        require_service("pdftoppm and zbarimg (scripts/system-deps.sh test)")
    tmp_path.mkdir(parents=True, exist_ok=True)
    source = tmp_path / "printout.pdf"
    source.write_bytes(content)
    subprocess.run(["pdftoppm", "-r", "110", "-png", str(source), str(tmp_path / "p")], check=True)
    found = []
    for image in sorted(tmp_path.glob("p*.png")):
        out = subprocess.run(
            ["zbarimg", "--quiet", "--raw", str(image)], capture_output=True, text=True
        )
        found += out.stdout.split()
    return found


def test_qr_codes_decode_to_the_table_pages_and_the_score_forms(
    organiser_client, drawn, organiser, tmp_path
):
    match_services.tables_ensure(tournament=drawn, count=2, actor=organiser)
    tables = organiser_client.get(f"/panel/t/{drawn.pk}/print/tables.pdf").content
    assert decoded_qr_codes(tables, tmp_path / "t") == [
        f"http://testserver/t/{drawn.pk}/tables/{n}/" for n in (1, 2)
    ]
    ready = first_ready(drawn)
    sheet = organiser_client.get(f"/panel/m/{ready.pk}/print/sheet.pdf").content
    assert decoded_qr_codes(sheet, tmp_path / "s") == [f"http://testserver/m/{ready.pk}/score/"]


def test_bracket_rows_put_each_match_between_the_two_it_follows():
    rounds = [
        {"matches": ["a1", "a2", "a3", "a4"]},
        {"matches": ["b1", "b2"]},
        {"matches": ["c1"]},
    ]
    rows = layout.table_rows(rounds)
    assert [[(c["match"], c["span"]) for c in row] for row in rows] == [
        [("a1", 1), ("b1", 2), ("c1", 4)],
        [("a2", 1)],
        [("a3", 1), ("b2", 2)],
        [("a4", 1)],
    ]
