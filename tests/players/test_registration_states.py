"""Registration open, closed by the organiser, reopened: the desk and online entry alike; and
/me/ keeps finished tournaments with place, prize and diploma."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from audit.models import AuditEntry
from tests.factories import PlayerFactory, UserFactory
from tests.world import build_finished
from tournaments.models import Registration

pytestmark = pytest.mark.django_db


def login(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_closed_registration_refuses_desk_and_online_entries_until_reopened(
    tournament, organiser, org_api
) -> None:
    tournament.online_entry = True
    tournament.save()
    base = f"/api/v1/tournaments/{tournament.pk}/"
    assert org_api.get(base).json()["registration_state"] == "open"
    closed = org_api.post(f"{base}close-registration/")
    assert closed.status_code == 200 and closed.json()["registration_state"] == "closed"
    again = org_api.post(f"{base}close-registration/")
    assert again.status_code == 409 and again.json()["params"]["state"] == "closed"

    desk = org_api.post(f"{base}registrations/", {"player_id": PlayerFactory().pk}, format="json")
    assert desk.status_code == 409
    assert desk.json()["code"] == "registration_closed"
    assert desk.json()["params"] == {"state": "closed"}
    user = UserFactory()
    PlayerFactory(user=user)
    home = APIClient()
    home.force_authenticate(user)
    online = home.post(f"{base}entry/")
    assert online.status_code == 409 and online.json()["params"]["state"] == "closed"
    assert not Registration.objects.filter(tournament=tournament).exists()

    # The panel says so and offers to reopen; the entry page tells the player.
    panel = login(organiser)
    page = panel.get(f"/panel/t/{tournament.pk}/registrations/").content.decode()
    assert 'data-registration-state="closed"' in page and "data-reopen-registration" in page
    refused = login(user).post(f"/t/{tournament.pk}/entry/", {"action": "enter"})
    assert refused.status_code == 409

    panel.post(f"/panel/t/{tournament.pk}/reopen-registration/")
    assert org_api.get(base).json()["registration_state"] == "reopened"
    assert home.post(f"{base}entry/").status_code == 201
    assert [e.action for e in AuditEntry.objects.filter(action__startswith="registration_r")] + [
        e.action for e in AuditEntry.objects.filter(action="registration_close")
    ] == ["registration_reopen", "registration_close"]
    page = panel.get(f"/panel/t/{tournament.pk}/registrations/").content.decode()
    assert "data-close-registration" in page


def test_the_panel_closes_registration(tournament, organiser) -> None:
    panel = login(organiser)
    panel.post(f"/panel/t/{tournament.pk}/close-registration/")
    tournament.refresh_from_db()
    assert tournament.registration_closed_at is not None
    response = panel.post(
        f"/panel/t/{tournament.pk}/registrations/add/", {"player": PlayerFactory().pk}, follow=True
    )
    assert "закрыта" in response.content.decode() or "closed" in response.content.decode()
    assert not Registration.objects.filter(tournament=tournament).exists()


def test_me_keeps_finished_tournaments_with_place_prize_and_diploma(organiser) -> None:
    finished = build_finished(organiser)
    winner = Registration.objects.get(tournament=finished, seed=1).player
    user = UserFactory()
    winner.user = user
    winner.save()
    client = login(user)
    me = client.get("/me/").content.decode()
    assert "data-finished" in me and finished.name in me
    assert "data-place" in me and "data-diploma" in me
    pdf = client.get(f"/me/t/{finished.pk}/diploma.pdf")
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    stranger = UserFactory()
    PlayerFactory(user=stranger)
    assert login(stranger).get(f"/me/t/{finished.pk}/diploma.pdf").status_code == 404
