"""The admin shows matches with their read-only log, and tables."""

from __future__ import annotations

import html

import pytest

from tests.factories import UserFactory
from tests.matches.conftest import b_pockets, play
from tests.matches.factories import TableFactory

pytestmark = pytest.mark.django_db


def test_the_admin_shows_a_match_and_its_log(client, scorer, match) -> None:
    play(scorer, match, b_pockets(2))
    TableFactory(tournament=match.tournament)
    admin = UserFactory(is_staff=True, is_superuser=True)
    client.force_login(admin)

    assert client.get("/admin/matches/match/").status_code == 200
    page = client.get(f"/admin/matches/match/{match.pk}/change/")
    assert page.status_code == 200
    assert '"pocketed": 2' in html.unescape(page.content.decode())
    assert client.get("/admin/matches/table/").status_code == 200
