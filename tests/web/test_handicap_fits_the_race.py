"""A handicap scheme made for a race to 30 applied to a race to 8: scaled, said in the
regulation, and shown pair by pair in the draw preview."""

from __future__ import annotations

import pytest

from tests.factories import PlayerFactory
from tests.web.helpers import make_tournament
from tournaments import services
from tournaments.regulation import regulation

pytestmark = pytest.mark.django_db


def test_a_race_to_8_gets_a_scaled_head_start_in_the_preview(organiser_client, organiser):
    t = make_tournament(
        organiser,
        ruleset={"discipline": "free_pyramid", "balls_to_win": 8},
        handicap_scheme="race_2_per_50",
    )
    for rating in (1300, 700, 1000, 960):
        services.registration_add(
            tournament=t, player=PlayerFactory(rating=rating), actor=organiser
        )
    page = organiser_client.get(f"/panel/t/{t.pk}/draw/", {"preview": "1", "method": "seeded"})
    pairs = page.context["pairs"]
    assert pairs and all(p["race"]["balls_to_win"] == 8 for p in pairs)
    by_ratings = {(p["a"]["rating"], p["b"]["rating"]): (p["head_a"], p["head_b"]) for p in pairs}
    # 1300 against 700: 12 balls in a race to 30, 3 in a race to 8 (never half the race).
    assert by_ratings[(1300, 700)] == (0, 3)
    # 1000 against 960: under one step, nothing.
    assert by_ratings[(1000, 960)] == (0, 0)
    html = page.content.decode()
    assert "data-draw-pairs" in html and "+3" in html
    handicap_line = dict(regulation(t))["Handicap"]
    assert "race to 30" in handicap_line and "race to 8" in handicap_line
    assert "at most 3" in handicap_line
