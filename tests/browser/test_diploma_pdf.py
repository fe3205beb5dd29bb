"""The organiser prints the diplomas: the PDF carries the winner's Cyrillic name."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from matches.models import Match
from tests.browser.conftest import LAPTOP
from tests.web.helpers import drawn_tournament, finish_tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_diploma_pdf_names_the_winner(open_page, live_server, organiser, referee, screenshot):
    tournament = drawn_tournament(
        organiser, 4, referee=referee, format="single", third_place="match", entry_fee="2000"
    )
    finish_tournament(tournament, referee)
    winner = Match.objects.get(tournament=tournament, stage="single", round=2).winner

    page = open_page(LAPTOP, user=organiser)
    page.goto(f"{live_server.url}/panel/t/{tournament.pk}/prizes/")
    screenshot(page, "panel-prizes")
    href = page.get_attribute("a[href$='/diplomas.pdf']", "href")
    response = page.request.get(f"{live_server.url}{href}")
    assert response.ok and response.headers["content-type"] == "application/pdf"
    pages = PdfReader(io.BytesIO(response.body())).pages
    text = " ".join(" ".join(p.extract_text() for p in pages).split())  # a long name wraps
    assert winner.name in text

    page.click("a[href$='/diplomas/']")
    page.wait_for_selector(".diploma")
    screenshot(page, "diplomas-printable")
    assert page.locator(".diploma").count() == 3
    assert page.errors == []
