"""Results read at a glance: the bracket, the scoreboard and the broadcast overlay mark how a
match ended (walkover, forfeit, time, golden ball, corrected), in the user's language."""

from __future__ import annotations

import re

import pytest

from matches import services as match_services
from matches.models import Match
from tests.matches.factories import MatchFactory, TableFactory
from tests.tournaments.factories import register
from tests.tournaments.helpers import finish, match
from tests.tournaments.record_helpers import TEN_ONE, bracket_card, correct, event, play
from tournaments import services

pytestmark = pytest.mark.django_db

BREAK_EMPTY = {"type": "break", "player": "a", "legal": True, "pocketed": 0}
MARKS_RU = {
    "walkover": "техническая победа",
    "forfeit": "сдача матча",
    "time": "по времени",
    "golden_ball": "до первого забитого шара",
    "corrected": "исправлено: было 10:1",
}


@pytest.fixture
def ended(bracket, scorer, org_api):
    """One first-round match ended each way, and a second-round result corrected."""
    keys = {}
    walkover = match(bracket, "U1-1")
    org_api.post(f"/api/v1/matches/{walkover.pk}/walkover/", {"winner": "a"}, format="json")
    keys["walkover"] = walkover

    forfeit = match(bracket, "U1-2")
    play(scorer, forfeit, [BREAK_EMPTY, {"type": "forfeit", "player": "b"}])
    keys["forfeit"] = forfeit

    on_time = match(bracket, "U1-3")
    play(scorer, on_time, [{**BREAK_EMPTY, "pocketed": 3}])
    assert event(org_api, on_time, {"type": "time_expired"}).status_code == 201
    keys["time"] = on_time

    golden = match(bracket, "U1-4")
    play(scorer, golden, [BREAK_EMPTY])
    assert event(org_api, golden, {"type": "time_expired"}).status_code == 201
    play(scorer, golden, [{"type": "shot", "player": "b", "pocketed": 1}])
    keys["golden_ball"] = golden

    corrected = match(bracket, "U2-1")
    play(scorer, corrected, TEN_ONE)
    assert correct(org_api, corrected, "b", 7, 10).status_code == 200
    keys["corrected"] = corrected
    return keys


def test_the_bracket_marks_how_each_match_ended(ended, bracket, api) -> None:
    page = api.get(f"/t/{bracket.pk}/bracket/").content.decode()
    marks = dict(re.findall(r'data-mark="(\w+)">([^<]+)<', page))
    assert marks == MARKS_RU
    for mark, m in ended.items():
        card = bracket_card(api, m)
        assert card["mark"] == mark, m.key
    assert bracket_card(api, match(bracket, "U1-1"))["mark_label"]


def test_a_race_won_has_no_mark(bracket, scorer, api) -> None:
    first = match(bracket, "U1-1")
    play(scorer, first, TEN_ONE)
    card = bracket_card(api, first)
    assert card["mark"] is None and card["mark_label"] == ""
    page = api.get(f"/m/{first.pk}/").content.decode()
    assert "data-mark" not in page


def test_the_scoreboard_marks_how_the_match_ended(ended, api) -> None:
    for mark, m in ended.items():
        page = api.get(f"/m/{m.pk}/").content.decode()
        assert f'data-mark="{mark}">{MARKS_RU[mark]}<' in page, mark


def test_the_scoreboard_speaks_english_too(ended, api, settings) -> None:
    api.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"  # the page's language switch
    page = api.get(f"/m/{ended['corrected'].pk}/").content.decode()
    assert "corrected: was 10:1" in page
    page = api.get(f"/m/{ended['golden_ball'].pk}/").content.decode()
    assert "decided by the golden ball" in page


def test_the_overlay_shows_the_last_result_at_its_table(tournament, organiser, api) -> None:
    tournament.status = "running"
    tournament.save(update_fields=["status"])
    table = TableFactory(tournament=tournament, number=1)
    m = MatchFactory(tournament=tournament)
    match_services.match_assign_table(match=m, table=table, actor=organiser)
    url = f"/t/{tournament.pk}/tables/1/overlay/"
    assert "data-mark" not in api.get(url).content.decode()

    match_services.match_walkover(match=m, winner_slot="b", actor=organiser, reason="нет")

    page = api.get(url).content.decode()
    assert 'data-mark="walkover">техническая победа<' in page
    assert m.player_b.name in page and "pl b won" in page


def test_the_standings_mark_how_each_group_match_ended(tournament, organiser, org_api, api):
    tournament.format = "groups_playoff"
    tournament.group_size = 4
    tournament.group_advance = 2
    tournament.handicap_scheme = "none"
    tournament.save()
    register(tournament, 8)
    services.tournament_draw(tournament=tournament, actor=organiser, method="seeded")
    first, second = Match.objects.filter(tournament=tournament, group=1).order_by("pk")[:2]
    org_api.post(f"/api/v1/matches/{first.pk}/walkover/", {"winner": "b"}, format="json")
    finish(second, "a", (30, 20))
    assert correct(org_api, second, "a", 30, 25).status_code == 200

    page = api.get(f"/t/{tournament.pk}/standings/").content.decode()
    results = page.split('class="group-results"')[1].split("</ul>")[0]
    assert 'data-mark="walkover">техническая победа<' in results
    assert "30:25" in results and 'data-mark="corrected">исправлено: было 30:20<' in results
    assert first.player_b.name in results
