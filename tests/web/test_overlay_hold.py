"""The overlay keeps a table's last result until the next match there begins: the table is
refilled with the last ball, so following the call would drop the winner at once."""

from __future__ import annotations

import pytest

from matches import services as match_services
from matches.models import Match
from tests.web.helpers import drawn_tournament, play_to_win

pytestmark = pytest.mark.django_db


def test_the_last_result_stays_until_the_next_match_at_the_table_begins(client, organiser, referee):
    t = drawn_tournament(organiser, 3, referee=referee, format="single", handicap_scheme="none")
    match_services.tables_ensure(tournament=t, count=1, actor=organiser)
    match_services.table_assign_next(tournament=t, actor=organiser)
    first = Match.objects.get(tournament=t, table__number=1)
    url = f"/t/{t.pk}/tables/1/overlay/"
    assert "bug final" not in client.get(url).content.decode()

    play_to_win(first, "b", referee)
    following = Match.objects.get(tournament=t, table__number=1, status="on_table")
    page = client.get(url).content.decode()
    assert "bug final" in page and "pl b won" in page and first.player_b.name in page
    assert f"next: {following.player_a.name} — {following.player_b.name}" in page
    # A poll with the ETag it was given answers 304 until something changes.
    fragment = client.get(url, {"fragment": "1"})
    again = client.get(url, {"fragment": "1"}, HTTP_IF_NONE_MATCH=fragment["ETag"])
    assert again.status_code == 304

    match_services.match_clock(match_id=following.pk, action="start", actor=referee)
    page = client.get(url).content.decode()
    assert "bug final" not in page and f'data-match="{following.pk}"' in page
    assert (
        client.get(url, {"fragment": "1"}, HTTP_IF_NONE_MATCH=fragment["ETag"]).status_code == 200
    )
