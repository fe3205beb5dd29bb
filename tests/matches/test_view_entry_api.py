"""The match API carries the discipline's description, translated: `view` for everyone and
`entry` (what may be entered now) for those who score, for every registered discipline, a
made-up one included."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from rest_framework.test import APIClient

import rules
from matches.web.api.serializers.match import MatchDetailSerializer
from tests.matches.conftest import post_event
from tests.matches.factories import MatchFactory
from tests.rules.toy_discipline import ToyRace

pytestmark = pytest.mark.django_db

DUPLEX = {"discipline": "duplex"}
TOY = {"discipline": "toy_race", "balls_to_win": 3}


@pytest.fixture
def toy() -> Iterator[rules.Discipline]:
    with rules.registered(ToyRace()) as d:
        yield d


def _read(client: Any, match: Any, query: str = "", lang: str = "ru") -> dict[str, Any]:
    response = client.get(f"/api/v1/matches/{match.pk}/{query}", HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 200
    return response.json()


def _strings_only(value: Any) -> None:
    """No Text (msgid + params) is left: every word is a string."""
    if isinstance(value, dict):
        assert "msgid" not in value, value
        for item in value.values():
            _strings_only(item)
    elif isinstance(value, list):
        for item in value:
            _strings_only(item)


def test_a_duplex_match_shows_its_view_to_anyone_and_its_entry_to_the_scorer(
    scorer, tournament
) -> None:
    match = MatchFactory(tournament=tournament, ruleset=DUPLEX, state=rules.initial_state(DUPLEX))
    public = _read(APIClient(), match, "?referee=1")
    assert public["entry"] is None  # a spectator asking gets no entry
    view = public["view"]
    assert view["renderer"] == "duplex"
    assert view["frame"]["text"] == "партия 1 из 3"
    assert view["table"]["colours"] == {"a": 8, "b": 8}
    _strings_only(view)

    assert _read(scorer, match)["entry"] is None  # not asked for
    entry = _read(scorer, match, "?referee=1")["entry"]
    _strings_only(entry)
    assert entry["awaiting"] == "break" and entry["player"] == "a"
    keys = [k["key"] for k in entry["kinds"]]
    assert keys[:2] == ["break", "illegal_break"] and "forfeit" in keys
    fields = entry["kinds"][0]["fields"]
    name_a = match.player_a.name
    assert [f["name"] for f in fields] == ["pocketed.a", "pocketed.b"]
    assert fields[0]["max"] == 8 and name_a in fields[0]["prompt"]
    forfeit = next(k for k in entry["kinds"] if k["key"] == "forfeit")
    confirm = forfeit["fields"][0]["choices"][0]["confirm"]
    assert name_a in confirm and "Подтвердить" in confirm


def test_a_write_answers_with_the_entry_and_the_provisional_view(scorer, tournament) -> None:
    match = MatchFactory(tournament=tournament, ruleset=DUPLEX, state=rules.initial_state(DUPLEX))
    response = post_event(
        scorer,
        match,
        {"type": "break", "player": "a", "legal": True, "pocketed": {"a": 2, "b": 0}},
        query="?referee=1",
    )
    assert response.status_code == 201
    body = response.json()
    assert body["view"]["table"]["colours"] == {"a": 6, "b": 8}
    assert body["entry"]["awaiting"] == "shot"
    assert body["entry"]["kinds"][0]["fields"][0]["max"] == 6
    assert set(body) == set(MatchDetailSerializer().fields)


def test_a_free_pyramid_match_in_english(scorer, match) -> None:
    body = _read(scorer, match, "?referee=1", lang="en")
    assert body["view"]["renderer"] == "free_pyramid"
    assert body["view"]["label"] == "Free pyramid"
    kinds = {k["key"]: k for k in body["entry"]["kinds"]}
    assert kinds["break"]["label"] == "Legal break"
    assert kinds["break"]["fields"][0]["name"] == "pocketed"


def test_a_registered_discipline_is_described_too(scorer, tournament, toy) -> None:
    match = MatchFactory(tournament=tournament, ruleset=TOY, state=rules.initial_state(TOY))
    body = _read(scorer, match, "?referee=1", lang="en")
    assert body["view"]["renderer"] == "toy_race"
    assert body["view"]["lines"] == ["race to 3"]
    toss = body["entry"]["kinds"][0]
    assert toss["type"] == "coin_toss"
    assert [c["player"] for c in toss["fields"][0]["choices"]] == ["a", "b"]
    response = post_event(
        scorer, match, {"type": "coin_toss", "player": "a", "winner": "b"}, query="?referee=1"
    )
    assert response.status_code == 201
    assert response.json()["entry"]["player"] == "b"
    assert response.json()["entry"]["kinds"][0]["key"] == "shot"


def test_the_entry_has_its_own_etag(scorer, match) -> None:
    plain = scorer.get(f"/api/v1/matches/{match.pk}/")
    asked = scorer.get(f"/api/v1/matches/{match.pk}/?referee=1")
    assert plain["ETag"] != asked["ETag"]
    again = scorer.get(f"/api/v1/matches/{match.pk}/?referee=1", HTTP_IF_NONE_MATCH=asked["ETag"])
    assert again.status_code == 304


def test_a_write_not_asking_for_the_entry_answers_without_it(scorer, match) -> None:
    """An integrator posting events does not pay for the entry (the form asks, ?referee=1)."""
    response = post_event(
        scorer, match, {"type": "break", "player": "a", "legal": True, "pocketed": 1}
    )
    assert response.status_code == 201
    body = response.json()
    assert body["entry"] is None and body["view"]["renderer"] == "free_pyramid"
