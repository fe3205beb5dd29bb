"""The regulation printed (HTML and PDF) and on the public page, from the settings in the
club's words, with the organiser's own text."""

from __future__ import annotations

import pytest

from tests.web.helpers import make_tournament

pytestmark = pytest.mark.django_db

CLUB_TEXT = "Форма одежды: тёмные брюки.\nНачало в 11:00, регистрация с 10:00."


@pytest.fixture
def club(organiser):
    t = make_tournament(
        organiser,
        entry_fee="1500",
        chief_judge="Сергеев А. В.",
        organiser_name="Бильярдный клуб «Луза»",
        regulation_text=CLUB_TEXT,
    )
    return t


def test_the_print_has_every_section_and_the_clubs_text(organiser_client, club):
    page = organiser_client.get(f"/panel/t/{club.pk}/print/regulation/")
    assert page.status_code == 200
    html = page.content.decode().replace("\u202f", " ").replace("\xa0", " ")
    for words in (
        "Discipline",
        "Race",
        "Match time limit",
        "Format",
        "Handicap",
        "1 500 ₽",
        "70% of the entry fees kept",
        "1: 45% · 2: 30% · 3: 25%",
        "Check-in",
        "No-show",
        "Fee of a player who withdraws",
        "Prize of a withdrawn or disqualified player",
        "Форма одежды: тёмные брюки.",
        "Сергеев А. В.",
        "Бильярдный клуб «Луза»",
    ):
        assert words in html, words
    pdf = organiser_client.get(f"/panel/t/{club.pk}/print/regulation.pdf")
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    assert pdf.content.startswith(b"%PDF")


def test_the_public_page_shows_the_whole_regulation(client, club, organiser):
    html = client.get(f"/t/{club.pk}/").content.decode()
    assert "data-regulation-text" in html and "Форма одежды" in html
    assert "Fee of a player who withdraws" in html and "Check-in" in html
    panel = client
    panel.force_login(organiser)
    assert "/print/regulation/" in panel.get(f"/panel/t/{club.pk}/").content.decode()


@pytest.fixture
def org_api(organiser):
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_authenticate(organiser)
    return client


def test_the_text_is_bounded(org_api, club):
    response = org_api.patch(
        f"/api/v1/tournaments/{club.pk}/", {"regulation_text": "я" * 10_001}, format="json"
    )
    assert response.status_code == 400
    ok = org_api.patch(
        f"/api/v1/tournaments/{club.pk}/", {"regulation_text": "Свой текст"}, format="json"
    )
    assert ok.status_code == 200 and ok.json()["regulation_text"] == "Свой текст"
