"""The lag through the API (G7.1, G7.4): it sets who breaks frame 1, the log words it and the
board shows it; stored states gain the engine's new fields with their first breaker kept
(matches/migrations/0008)."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from matches.models import Match
from tests.matches.conftest import play, post_event
from tests.matches.factories import MatchFactory

pytestmark = pytest.mark.django_db

LAG = {"type": "lag", "winner": "b", "breaker": "a"}


def test_the_lag_sets_the_first_breaker_and_is_worded_in_the_log(scorer, match) -> None:
    response = post_event(scorer, match, LAG, query="?referee=1")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["state"]["first_breaker"] == "a" and body["state"]["turn"] == "a"
    assert "розыгрыш начального удара и уступает" in body["last_events"][-1]["text"]
    facts = {p: [f["key"] for f in body["view"]["players"][p]["facts"]] for p in "ab"}
    assert "lag" in facts["b"] and "first_break" in facts["a"]
    # A lag once play has begun is refused, in words.
    play(scorer, match, [{"type": "break", "player": "a", "legal": True, "pocketed": 0}])
    late = post_event(scorer, match, LAG)
    assert late.status_code == 422 and late.json()["code"] == "unexpected_event"


def test_stored_states_gain_the_new_fields_and_keep_their_first_breaker(tournament) -> None:
    ruleset = {"discipline": "free_pyramid", "balls_to_win": 8, "first_break": "b"}
    old = MatchFactory(tournament=tournament, ruleset=ruleset)
    stored = {
        k: v
        for k, v in old.state.items()
        if k not in ("first_breaker", "lag", "shelf", "last_penalty")
    }
    Match.objects.filter(pk=old.pk).update(state=stored)
    finished = MatchFactory(tournament=tournament, ruleset=ruleset, status=Match.Status.FINISHED)
    Match.objects.filter(pk=finished.pk).update(state={**stored, "score": {"a": 8, "b": 3}})
    migration = importlib.import_module("matches.migrations.0008_states_keep_their_first_breaker")
    migration.add_fields(apps, None)
    old.refresh_from_db()
    finished.refresh_from_db()
    assert old.state["first_breaker"] == "b" and old.state["turn"] == "b"
    assert old.state["shelf"] == {"a": 0, "b": 0} and old.state["lag"] is None
    assert finished.state["first_breaker"] == "b"
    assert finished.state["score"] == {"a": 8, "b": 3}  # a finished match keeps its figures
