"""Dates are bounded where they enter (config.moments: 2000-01-01 to 2100-12-31) and every read
tolerates what is already stored: the probe's year-1 entry opening (a BC timestamp in UTC)
broke the home page, the tournament page and the API's list for everybody."""

from __future__ import annotations

import base64

import pytest
from django.db import connection
from django.test import Client
from rest_framework.test import APIClient

from tournaments.exchange import import_logins, tournament_export
from tournaments.exchange_validation import document_problems
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def setup(require_postgres, desk):
    return desk.organiser, desk.tournament, desk.api, desk.page


def _fingerprint(tournament: Tournament) -> tuple:
    row = Tournament.objects.values_list("entry_opens_at", "entry_closes_at", "date").get(
        pk=tournament.pk
    )
    return tuple(row)


@pytest.mark.parametrize(
    ("value", "code"),
    [
        ("0001-01-01T00:00:00+03:00", "out_of_window"),
        ("9999-12-31T23:59:59-12:00", "out_of_window"),
        ("1999-12-31T23:00:00Z", "out_of_window"),
        ("2101-01-01T00:00:00+00:00", "out_of_window"),
        ("2026-12-05T10:00:00", "naive"),
        ("0001-01-01T00:00", "naive"),
    ],
)
def test_the_api_refuses_a_moment_out_of_the_window_or_without_offset(setup, value, code):
    _, tournament, api, _ = setup
    before = _fingerprint(tournament)
    response = api.patch(
        f"/api/v1/tournaments/{tournament.pk}/entry-settings/",
        {"entry_opens_at": value},
        format="json",
    )
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["params"]["field"] == "entry_opens_at"
    assert body["fields"]["entry_opens_at"][0]["code"] == code
    assert _fingerprint(tournament) == before


def test_the_api_takes_a_moment_with_its_offset(setup):
    _, tournament, api, _ = setup
    response = api.patch(
        f"/api/v1/tournaments/{tournament.pk}/entry-settings/",
        {"entry_opens_at": "2026-12-01T10:00:00+03:00"},
        format="json",
    )
    assert response.status_code == 200, response.content
    # Answered in UTC, whatever the offset sent or the server's zone.
    assert response.json()["entry_opens_at"] == "2026-12-01T07:00:00Z"


def test_the_api_refuses_a_tournament_date_out_of_the_window(setup):
    _, tournament, api, _ = setup
    for value in ("0001-01-01", "9999-12-31"):
        response = api.patch(
            f"/api/v1/tournaments/{tournament.pk}/", {"date": value}, format="json"
        )
        assert response.status_code == 400
        assert response.json()["params"]["field"] == "date"


def test_the_panel_refuses_the_probes_year_one(setup):
    _, tournament, _, page = setup
    before = _fingerprint(tournament)
    response = page.post(
        f"/panel/t/{tournament.pk}/entry-settings/",
        {"online_entry": "on", "entry_opens_at": "0001-01-01T00:00"},
    )
    assert response.status_code == 400
    form = response.context["form"]
    assert "entry_opens_at" in form.errors
    assert "2000" in response.content.decode()
    assert _fingerprint(tournament) == before


def test_a_bad_row_already_stored_breaks_no_page_or_list(setup):
    """Stored by hand (or before the bound): a BC timestamp, +infinity, year 1 as a date."""
    _, tournament, api, page = setup
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE tournaments_tournament SET entry_opens_at = %s::timestamptz, "
            "entry_closes_at = 'infinity', online_entry = true, date = '0001-01-01' "
            "WHERE id = %s",
            ["0001-01-01 00:00:00+03", tournament.pk],
        )
    anonymous = Client()
    for client, url in (
        (anonymous, "/"),
        (anonymous, f"/t/{tournament.pk}/"),
        (anonymous, f"/t/{tournament.pk}/entry/"),
        (page, "/panel/"),
        (page, f"/panel/t/{tournament.pk}/"),
        (page, f"/panel/t/{tournament.pk}/entry-settings/"),
    ):
        response = client.get(url)
        assert response.status_code in (200, 302), (url, response.status_code)
    for url in (
        "/api/v1/tournaments/",
        f"/api/v1/tournaments/{tournament.pk}/",
        f"/api/v1/tournaments/{tournament.pk}/entry/",
    ):
        assert APIClient().get(url).status_code == 200, url
        assert api.get(url).status_code == 200, url
    # The organiser repairs it through the same form that refuses a new bad value.
    response = page.post(
        f"/panel/t/{tournament.pk}/entry-settings/",
        {"online_entry": "on", "entry_opens_at": "2026-11-01T10:00", "entry_closes_at": ""},
    )
    assert response.status_code == 302


def test_an_import_refuses_a_date_out_of_the_window_and_a_hostile_logo(setup):
    _, tournament, _, _ = setup
    dated = tournament_export(tournament=tournament)
    dated["tournament"]["date"] = "0001-01-01"
    dated["tournament"]["entry_opens_at"] = "0001-01-01T00:00:00+03:00"
    problems = " ".join(document_problems(document=dated, logins=import_logins()))
    assert "tournament.date" in problems and "tournament.entry_opens_at" in problems
    logo = tournament_export(tournament=tournament)
    svg = b"<svg xmlns='http://www.w3.org/2000/svg'><image href='file:///etc/passwd'/></svg>"
    logo["tournament"]["organiser_logo"] = "data:image/png;base64," + base64.b64encode(svg).decode()
    problems = " ".join(document_problems(document=logo, logins=import_logins()))
    assert "organiser_logo" in problems
