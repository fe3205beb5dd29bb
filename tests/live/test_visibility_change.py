"""Every way a tournament is made private or public tells the change feed (the live streams
follow it at once, tests/live/test_stream.py): the API before the draw, the panel's settings
after it, the admin; a save that leaves it as it was tells nothing."""

from __future__ import annotations

from collections.abc import Iterator
from types import SimpleNamespace

import pytest
from django.contrib import admin
from django.test import RequestFactory
from rest_framework.test import APIClient

from config import changes
from config.changes import Change
from tests.factories import UserFactory
from tests.web.helpers import drawn_tournament, make_tournament
from tournaments.models import Tournament
from tournaments.services.settings_live import tournament_settings_update

pytestmark = pytest.mark.django_db


@pytest.fixture
def heard() -> Iterator[list[Change]]:
    got: list[Change] = []

    def in_transaction(change: Change) -> None:
        if change.kind == "tournament.visibility":
            got.append(change)

    changes.change_subscribe(in_transaction, when="transaction")
    yield got
    changes.change_unsubscribe(in_transaction)


def test_the_api_before_the_draw_tells_the_feed(organiser, heard) -> None:
    tournament = make_tournament(organiser)
    api = APIClient()
    api.force_login(organiser)
    url = f"/api/v1/tournaments/{tournament.pk}/"
    assert api.patch(url, {"is_public": False}, format="json").status_code == 200
    assert api.patch(url, {"venue": "Клуб «Шар»"}, format="json").status_code == 200
    assert api.patch(url, {"is_public": True}, format="json").status_code == 200
    assert [(c.tournament_id, dict(c.data)) for c in heard] == [
        (tournament.pk, {"public": False}),
        (tournament.pk, {"public": True}),
    ]


def test_the_settings_after_the_draw_and_the_admin_tell_the_feed(organiser, heard) -> None:
    tournament = drawn_tournament(organiser, 4, format="single")
    tournament_settings_update(tournament=tournament, actor=organiser, data={"is_public": False})
    tournament_settings_update(tournament=tournament, actor=organiser, data={"is_public": False})
    assert [dict(c.data) for c in heard] == [{"public": False}]

    # The admin's change form: its save tells the feed when "public" was among the changes.
    site_admin = admin.site._registry[Tournament]
    request = RequestFactory().post("/admin/")
    request.user = UserFactory(is_superuser=True, is_staff=True)
    tournament.is_public = True
    site_admin.save_model(request, tournament, SimpleNamespace(changed_data=["is_public"]), True)
    tournament.venue = "Клуб «Шар»"
    site_admin.save_model(request, tournament, SimpleNamespace(changed_data=["venue"]), True)
    assert [dict(c.data) for c in heard] == [{"public": False}, {"public": True}]
