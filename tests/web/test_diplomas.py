"""Diplomas: A4 PDFs with the Cyrillic names embedded, and a printable page."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from matches.models import Match
from tests.web.helpers import nothing_to_print
from tournaments.diplomas import initials_first, roman

pytestmark = pytest.mark.django_db


def pdf_text(content: bytes) -> tuple[PdfReader, str]:
    """The pages' text with every run of white space as one space (a long name wraps)."""
    reader = PdfReader(io.BytesIO(content))
    return reader, " ".join(" ".join(page.extract_text() for page in reader.pages).split())


def podium(tournament):
    final = Match.objects.get(tournament=tournament, key__startswith="S3")
    third = Match.objects.get(tournament=tournament, stage="third_place")
    return final.winner, final.loser, third.winner


def test_no_diplomas_before_the_places_are_decided(organiser_client, drawn):
    nothing_to_print(
        organiser_client.get(f"/panel/t/{drawn.pk}/diplomas.pdf"),
        "No place with a diploma is decided yet.",
        f"/panel/t/{drawn.pk}/prizes/",
    )
    page = organiser_client.get(f"/panel/t/{drawn.pk}/diplomas/").content.decode()
    assert "места, за которые они вручаются" in page  # the diplomas' language, Russian


def test_all_diplomas_in_one_a4_pdf_with_embedded_fonts(organiser_client, finished):
    response = organiser_client.get(f"/panel/t/{finished.pk}/diplomas.pdf")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    reader, text = pdf_text(response.content)
    assert len(reader.pages) == 3
    box = reader.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (595, 842)  # A4 in points
    for player in podium(finished):
        assert player.name in text  # Cyrillic, from the embedded DejaVu font
    # In the tournament's language (Russian), whatever the organiser's screen speaks.
    assert "«Кубок „Луза“»" in text and "по свободной пирамиде" in text
    assert "диплом" in text.lower() and "награждается" in text and "за I место" in text
    assert "5 декабря 2026 г." in text
    assert "Главный судья" in text and "А. В. Сергеев" in text
    assert "Luza" not in text and "₽" not in text  # no brand, no amount unless asked
    fonts = {
        str(font.get_object()["/BaseFont"])
        for font in reader.pages[0]["/Resources"]["/Font"].values()
    }
    assert any("DejaVu" in name for name in fonts)


def test_one_diploma_per_winner_with_the_prize(organiser_client, finished):
    finished.diploma_amount = True
    finished.diploma_language = "en"
    finished.save()
    winner, _, _ = podium(finished)
    response = organiser_client.get(f"/panel/t/{finished.pk}/diplomas/{winner.pk}.pdf")
    reader, text = pdf_text(response.content)
    assert len(reader.pages) == 1
    assert winner.name in text
    assert "Prize: 2 520 ₽" in text  # 45% of 70% of 8 fees of 1000
    loser = Match.objects.get(tournament=finished, key="S1-4").loser
    nothing_to_print(
        organiser_client.get(f"/panel/t/{finished.pk}/diplomas/{loser.pk}.pdf"),
        "This player has no diploma in this tournament.",
        f"/panel/t/{finished.pk}/prizes/",
        status=404,
    )


def test_printable_page_uses_the_same_sheets(organiser_client, finished):
    page = organiser_client.get(f"/panel/t/{finished.pk}/diplomas/").content.decode()
    assert page.count('class="diploma place-') == 3
    assert "css/diploma.css" in page and "js/print.js" in page


def test_diplomas_are_for_the_organisers(client, finished, user):
    client.force_login(user)
    assert client.get(f"/panel/t/{finished.pk}/diplomas.pdf").status_code == 403


def test_diplomas_for_every_place_with_degrees_and_the_club(organiser_client, finished):
    finished.diploma_places = "all"
    finished.diploma_degree = True
    finished.organiser_name = "Бильярдный клуб «Пирамида»"
    finished.save()
    response = organiser_client.get(f"/panel/t/{finished.pk}/diplomas.pdf")
    reader, text = pdf_text(response.content)
    assert len(reader.pages) == 8
    assert "диплом i степени" in text.lower() and "диплом v степени" in text.lower()
    assert "бильярдный клуб «пирамида»" in text.lower()
    assert "«Кубок „Луза“»" in text  # quotes inside quotes, as Russian prints them


def test_diploma_helpers():
    assert [roman(n) for n in (1, 2, 3, 4, 9, 14, 40, 99)] == [
        "I",
        "II",
        "III",
        "IV",
        "IX",
        "XIV",
        "XL",
        "XCIX",
    ]
    assert initials_first("Сидоров С. С.") == "С. С. Сидоров"
    assert initials_first("Сидоров С.С.") == "С. С. Сидоров"
    assert initials_first("Сидоров Сергей Сергеевич") == "С. С. Сидоров"
    assert initials_first("Сергей Сидоров") == "Сергей Сидоров"
