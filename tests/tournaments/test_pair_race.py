"""The pair's race: a stage sets its race by bands of the pair's rating sum or difference;
each match gets its own ruleset, shown on the bracket's data, the sheet and the regulation."""

from __future__ import annotations

import pytest

from matches.models import Match
from tests.factories import PlayerFactory
from tests.web.helpers import make_tournament
from tournaments import services
from tournaments.algorithms import pair_race
from tournaments.errors import TournamentError
from tournaments.regulation import regulation

pytestmark = pytest.mark.django_db

BANDS = {
    "by": "sum",
    "bands": [{"up_to": 1700, "frames_to_win": 2}, {"up_to": None, "frames_to_win": 3}],
}


def test_bands_are_checked() -> None:
    assert pair_race.race_for(pair_race.parse(BANDS), rating_a=800, rating_b=900) == {
        "frames_to_win": 2
    }
    assert pair_race.race_for(pair_race.parse(BANDS), rating_a=900, rating_b=900) == {
        "frames_to_win": 3
    }
    for bad in (
        {"by": "sum", "bands": [{"up_to": 1700, "frames_to_win": 2}]},  # no open band
        {"by": "avg", "bands": [{"up_to": None, "frames_to_win": 2}]},
        {"by": "sum", "bands": [{"up_to": None}]},
    ):
        with pytest.raises(ValueError):
            pair_race.parse(bad)


def test_each_pair_plays_its_own_race(organiser):
    t = make_tournament(
        organiser,
        format="single",
        handicap_scheme="none",
        ruleset={"discipline": "free_pyramid", "balls_to_win": 8},
        stage_rules={"playoff": {"pair_race": BANDS}},
    )
    for rating in (1000, 950, 800, 700):
        services.registration_add(
            tournament=t, player=PlayerFactory(rating=rating), actor=organiser
        )
    services.tournament_draw(tournament=t, actor=organiser, method="seeded", allow_unpaid=True)
    races = {
        m.player_a.rating + m.player_b.rating: m.ruleset["frames_to_win"]
        for m in Match.objects.filter(tournament=t, player_a__isnull=False, player_b__isnull=False)
    }
    # Seeded: 1000 v 700 (1700: to 2 frames), 950 v 800 (1750: to 3).
    assert races == {1700: 2, 1750: 3}
    words = dict(regulation(t))
    assert any("1700" in v for v in words.values())


def test_a_bad_pair_race_is_refused_with_its_reason(organiser):
    t = make_tournament(organiser)
    with pytest.raises(TournamentError) as refused:
        services.tournament_update(
            tournament=t,
            actor=organiser,
            data={"stage_rules": {"upper": {"pair_race": {"by": "sum", "bands": []}}}},
        )
    assert refused.value.params["field"] == "stage_rules.upper.pair_race"
