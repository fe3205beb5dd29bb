"""A discipline is a plug-in on every page (issue 15.2): the made-up ones of tests/rules,
registered only here, are set up as tournaments, scored through the API to their end, worded
by the log, shown by the scoreboard, the overlay, the table board, the bracket and the panel
from their own state view, their results recorded and their own keys offered by the settings,
without any module outside rules/ and tests/ knowing their names."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.utils import translation
from rest_framework.test import APIClient

import rules
from matches import services as match_services
from matches import wording
from matches.models import Match
from rules.words import text
from tests.matches.conftest import post_event
from tests.rules import samples
from tests.rules.toy_discipline import ToyRace
from tests.web.helpers import drawn_tournament, make_tournament
from tests.web.test_settings_page import form_data
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

TOY = {"discipline": "toy_race", "balls_to_win": 3}


@pytest.fixture
def toy() -> Iterator[None]:
    """The made-up disciplines registered for the test (the live pages see the registry)."""
    with samples.made_up_registered():
        yield


def _text(html: str) -> str:
    """The page's words without tags, spaces collapsed."""
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def _pages(client: Any, match: Match) -> dict[str, str]:
    t = match.tournament_id
    return {
        "scoreboard": _text(client.get(f"/m/{match.pk}/").content.decode()),
        "overlay": _text(client.get(f"/t/{t}/tables/1/overlay/").content.decode()),
        "table": _text(client.get(f"/t/{t}/tables/1/").content.decode()),
        "bracket": client.get(f"/t/{t}/bracket/").content.decode(),
    }


def test_a_discipline_registered_at_test_time_is_played_and_shown_everywhere(
    toy, client, organiser, referee
) -> None:
    t = drawn_tournament(
        organiser,
        2,
        referee=referee,
        discipline="toy_race",
        ruleset=dict(TOY),
        handicap_scheme="none",
        format="single",
    )
    match_services.tables_ensure(tournament=t, count=1, actor=organiser)
    match_services.table_assign_next(tournament=t, actor=organiser)
    match = Match.objects.get(tournament=t, table__number=1)
    assert match.ruleset["discipline"] == "toy_race"
    assert match.state["awaiting"] == "coin_toss"
    assert match.clock_limit_seconds is None  # the toy has no time-limit rule
    scorer = APIClient()
    scorer.force_login(referee)

    def send(event: dict[str, Any]) -> dict[str, Any]:
        response = post_event(scorer, match, event)
        assert response.status_code == 201, response.content
        return response.json()

    send({"type": "coin_toss", "player": "a", "winner": "b"})
    send({"type": "shot", "player": "b", "pocketed": 2})
    body = send({"type": "shot", "player": "b", "pocketed": 0})
    assert body["state"]["turn"] == "a"
    assert body["score"]["score"] == {"a": 0, "b": 2}

    match.refresh_from_db()
    view = rules.state_view(match.state)
    assert view["discipline"] == "toy_race" and view["score"] == {"a": 0, "b": 2}
    pages = _pages(client, match)
    a, b = match.player_a.name, match.player_b.name
    # The scoreboard: its numbers and its own line ("race to 3"), from its view.
    assert re.search(r'data-score="a">0<', client.get(f"/m/{match.pk}/").content.decode())
    assert "race to 3" in pages["scoreboard"]
    assert a in pages["overlay"] and "race to 3" in pages["overlay"]
    assert f"{a} 0:2 {b}" in pages["table"] and "race to 3" in pages["table"]
    assert '<span class="live-score" data-live-score="b">2</span>' in pages["bracket"]
    panel = APIClient()
    panel.force_login(organiser)
    control = panel.get(f"/panel/m/{match.pk}/")
    assert control.status_code == 200
    control_text = _text(control.content.decode())
    assert "race to 3" in control_text
    assert "Override the head start" not in control_text  # the toy has no head start

    send({"type": "shot", "player": "a", "pocketed": 1})
    send({"type": "shot", "player": "a", "pocketed": 0})
    body = send({"type": "shot", "player": "b", "pocketed": 1})
    assert body["status"] == "finished"

    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.winner == match.player_b
    assert (match.score_a, match.score_b) == (1, 3)
    assert match.result == Match.Result.RACE
    t.refresh_from_db()
    assert t.status == "finished"  # the final's result moved the tournament on
    pages = _pages(client, match)
    assert f"{b} wins" in pages["scoreboard"]
    assert "final score" in pages["overlay"] and b in pages["overlay"]
    bracket = pages["bracket"]
    assert re.search(r'class="side won[^"]*">.*?<span class="score">3</span>', bracket, re.S)
    control = panel.get(f"/panel/m/{match.pk}/")
    assert control.status_code == 200 and f"{b} wins" in _text(control.content.decode())


def test_once_removed_the_discipline_is_unknown_again(organiser) -> None:
    with rules.registered(ToyRace()):
        assert "toy_race" in rules.rulesets()
    assert "toy_race" not in rules.rulesets()


@pytest.mark.parametrize("name", samples.names())
def test_every_page_answers_for_every_discipline_before_during_and_after(
    toy, client, organiser, referee, name
) -> None:
    """No state of any discipline breaks a page: none yet, the first one, a match under way,
    a walkover laid over a state."""
    t = drawn_tournament(
        organiser,
        4,
        referee=referee,
        discipline=name,
        ruleset=samples.ruleset_of(name),
        handicap_scheme="none",
        format="single",
    )
    panel = APIClient()
    panel.force_login(organiser)
    first, second = Match.objects.filter(tournament=t, round=1).order_by("pk")[:2]
    final = Match.objects.get(tournament=t, round=2)
    assert final.state == {} or final.state is None or "discipline" in final.state
    match_services.tables_ensure(tournament=t, count=1, actor=organiser)
    match_services.table_assign_next(tournament=t, actor=organiser)
    on_table = Match.objects.get(tournament=t, table__number=1)
    event = rules.entry(on_table.state)["kinds"][0]
    match_services.match_submit_event(
        match_id=on_table.pk,
        event=rules.build_event(event),
        expected_version=on_table.version,
        actor=referee,
    )
    other = second if on_table.pk == first.pk else first
    match_services.match_walkover(match=other, winner_slot="b", actor=organiser)
    for m in (first, second, final):
        for url in (f"/m/{m.pk}/", f"/m/{m.pk}/?fragment=1"):
            assert client.get(url).status_code == 200, url
        assert panel.get(f"/panel/m/{m.pk}/").status_code == 200
    for url in (f"/t/{t.pk}/bracket/", f"/t/{t.pk}/tables/1/", f"/t/{t.pk}/tables/1/overlay/"):
        assert client.get(url).status_code == 200, url
    page = client.get(f"/t/{t.pk}/")
    assert page.status_code == 200
    # The regulation names the discipline and its race as the rules describe them.
    regulation = rules.discipline(name).regulation(t.ruleset)["race"][0]
    assert rules.discipline(name).label in page.content.decode()
    assert rules.render(regulation) in _text(page.content.decode())


@pytest.mark.parametrize("name", [d.name for d in samples.MADE_UP])
def test_a_made_up_discipline_is_played_to_its_end_in_its_own_words(
    toy, client, organiser, referee, name
) -> None:
    """Random legal events of the discipline through the API to the end of the match: every
    answer's newest log entry is the discipline's sentence for it, the scoreboard lists it, and
    the end is worded by the discipline and recorded as the result it says."""
    d = rules.discipline(name)
    ruleset = d.sample_rulesets()["defaults"]
    t = drawn_tournament(
        organiser, 2, referee=referee, discipline=name, ruleset=ruleset, handicap_scheme="none"
    )
    match_services.tables_ensure(tournament=t, count=1, actor=organiser)
    match_services.table_assign_next(tournament=t, actor=organiser)
    match = Match.objects.get(tournament=t, table__number=1)
    names = {"a": match.player_a.name, "b": match.player_b.name}
    scorer = APIClient()
    scorer.force_login(referee)
    rng = random.Random(5)
    body: dict[str, Any] = {"state": match.state}
    while not body["state"]["finished"]:
        event = d.random_event(body["state"], rng, 0.6, 0.0)
        response = post_event(scorer, match, event)
        assert response.status_code == 201, response.content
        body = response.json()
        language = response["Content-Language"]
        with translation.override(language):
            said = wording.say(d.describe_event(event, body["state"]["ruleset"]), names)
        assert body["last_events"][-1]["text"] == said
        match.refresh_from_db()
    label = d.end_label(body["state"]["end_reason"])
    assert label is not None
    with translation.override(language):
        assert body["view"]["end_label"] == wording.say(label)
    assert match.result == d.result_kind(match.state["end_reason"])
    page = _text(client.get(f"/m/{match.pk}/").content.decode())
    assert _text(said) in page


@pytest.mark.parametrize("name", samples.names())
def test_the_settings_offer_and_save_the_disciplines_own_keys(
    toy, organiser, organiser_client, name
) -> None:
    """The ruleset's fields are the discipline's keys in their own words, and a stage may set
    the keys it declares per stage (and the time limit where it has one): saved for each."""
    d = rules.discipline(name)
    t = make_tournament(
        organiser, discipline=name, ruleset=samples.ruleset_of(name), handicap_scheme="none"
    )
    form = organiser_client.get(f"/panel/t/{t.pk}/settings/").context["form"]
    shown = {key: spec for spec in d.ruleset_keys if spec["type"] != "per_player_int"
             for key in [f"ruleset__{spec['key']}"]}  # fmt: skip
    assert {k for k in form.fields if k.startswith("ruleset__")} == set(shown)
    for key, spec in shown.items():
        assert str(form.fields[key].label) == wording.say(text(spec["label"]))
    own = [*d.stage_keys, *(["time_limit_minutes"] if d.has_time_limit else [])]
    assert [k for k in form.fields if k.startswith("stage__upper__")] == [
        f"stage__upper__{k}" for k in own
    ]
    specs = {spec["key"]: spec for spec in d.ruleset_keys}
    values = {k: min(specs[k]["max"], specs[k]["default"] + 1) if k in specs else 45 for k in own}
    data = form_data(organiser_client, t)
    data.update({f"stage__upper__{k}": str(v) for k, v in values.items()})
    response = organiser_client.post(f"/panel/t/{t.pk}/settings/", data)
    assert response.status_code == 302, response.context["form"].errors
    assert Tournament.objects.get(pk=t.pk).stage_rules == ({"upper": values} if values else {})
