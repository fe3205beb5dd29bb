"""The pair's race on the organiser's settings page (per stage: bands of the pair's rating
sum or difference) and on the bracket (each match's own race)."""

from __future__ import annotations

import pytest

from tests.factories import PlayerFactory
from tests.web.helpers import make_tournament
from tests.web.test_settings_page import form_data
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

BANDS = {
    "by": "sum",
    "bands": [{"up_to": 1700, "frames_to_win": 2}, {"up_to": None, "frames_to_win": 3}],
}


def test_the_settings_page_sets_the_pairs_race(organiser_client, open_tournament):
    url = f"/panel/t/{open_tournament.pk}/settings/"
    data = form_data(organiser_client, open_tournament)
    data.update({"pair__upper__mode": "sum:frames_to_win", "pair__upper__bands": "1700: 2\n*: 3"})
    response = organiser_client.post(url, data)
    assert response.status_code == 302, response.context["form"].errors
    t = Tournament.objects.get(pk=open_tournament.pk)
    assert t.stage_rules["upper"]["pair_race"] == BANDS
    # Shown back as written; an unchanged form keeps it.
    form = organiser_client.get(url).context["form"]
    assert form["pair__upper__bands"].value() == "1700: 2\n*: 3"
    assert organiser_client.post(url, form_data(organiser_client, t)).status_code == 302
    assert Tournament.objects.get(pk=t.pk).stage_rules["upper"]["pair_race"] == BANDS
    # Cleared: the stage plays the tournament's race again.
    data = form_data(organiser_client, t)
    data.update({"pair__upper__mode": "", "pair__upper__bands": ""})
    assert organiser_client.post(url, data).status_code == 302
    assert "upper" not in (Tournament.objects.get(pk=t.pk).stage_rules or {})


@pytest.mark.parametrize(
    ("bands", "says"),
    [
        ("1700: 2\n1800: 3", "последн"),
        ("1700 2\n*: 3", "Строка 1"),
        ("1800: 2\n1700: 3\n*: 4", "возрастать"),
    ],
)
def test_a_bad_pairs_race_is_refused_in_russian_on_its_field(
    organiser_client, open_tournament, bands, says, settings
):
    settings.LANGUAGE_CODE = "ru"
    data = form_data(organiser_client, open_tournament)
    data.update({"pair__upper__mode": "sum:frames_to_win", "pair__upper__bands": bands})
    response = organiser_client.post(f"/panel/t/{open_tournament.pk}/settings/", data)
    assert response.status_code == 400
    assert says in " ".join(response.context["form"].errors["pair__upper__bands"])
    assert not (Tournament.objects.get(pk=open_tournament.pk).stage_rules or {}).get("upper")


def test_the_bracket_shows_each_pairs_race(client, organiser, settings):
    settings.LANGUAGE_CODE = "ru"
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
    page = client.get(f"/t/{t.pk}/bracket/").content.decode()
    # 1000 v 700 (sum 1700) plays to 2 wins, 950 v 800 (1750) to 3.
    assert "до 2 побед" in page and "до 3 побед" in page
