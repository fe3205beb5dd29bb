"""The tournament follows matches played through the matches app's real services."""

from __future__ import annotations

import pytest

from matches import services as match_services
from tests.tournaments.factories import register
from tests.tournaments.helpers import match
from tournaments import services
from tournaments.models import RatingChange

pytestmark = pytest.mark.django_db


def test_a_played_match_starts_the_tournament_and_moves_the_winner_on(tournament, organiser):
    register(tournament, 4)
    services.tournament_draw(tournament=tournament, actor=organiser, method="seeded")
    first = match(tournament, "U1-1")
    match_services.match_submit_event(
        match_id=first.pk,
        event={"type": "break", "player": "a", "legal": True, "pocketed": 3},
        expected_version=0,
        actor=organiser,
    )
    tournament.refresh_from_db()
    assert tournament.status == "running"
    match_services.match_submit_event(
        match_id=first.pk, event={"type": "time_expired"}, expected_version=1, actor=organiser
    )
    first.refresh_from_db()
    assert first.status == "finished" and first.result == "time"
    assert match(tournament, "U2-1").player_a_id == first.player_a_id
    assert RatingChange.objects.filter(match=first, reason="match").count() == 2


def test_a_forfeit_moves_players_on_but_is_not_rated(tournament, organiser):
    register(tournament, 4)
    services.tournament_draw(tournament=tournament, actor=organiser, method="seeded")
    first = match(tournament, "U1-1")
    match_services.match_submit_event(
        match_id=first.pk,
        event={"type": "break", "player": "a", "legal": True, "pocketed": 2},
        expected_version=0,
        actor=organiser,
    )
    match_services.match_walkover(match=first, winner_slot="b", actor=organiser, reason="ушёл")
    first.refresh_from_db()
    assert first.result == "forfeit" and first.winner_id == first.player_b_id
    assert match(tournament, "U2-1").player_a_id == first.player_b_id
    assert not RatingChange.objects.filter(match=first).exists()
