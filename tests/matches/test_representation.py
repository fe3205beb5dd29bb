"""The match as every read and write answers it: built directly for speed, it must stay what
MatchDetailSerializer declares, and its last events must stay the newest entries of the log."""

from __future__ import annotations

import random
from datetime import UTC, timedelta

import pytest
from django.utils import timezone
from rest_framework import serializers

import rules
from matches import selectors, services
from matches.models import Match
from matches.representation import entry_data, log_event_data, match_data
from matches.web.api.serializers.log import MatchEventSerializer
from matches.web.api.serializers.match import MatchDetailSerializer
from rules import simulate
from rules.simulate import random_event
from tests.matches.conftest import post_event
from tests.matches.factories import MatchFactory, TableFactory

pytestmark = pytest.mark.django_db


def declared(match: Match) -> dict:
    """The DRF rendering of the declared fields (what to_representation short-cuts)."""
    serializer = MatchDetailSerializer()
    return serializers.Serializer.to_representation(serializer, match)


def fresh(match: Match) -> Match:
    return selectors.match_get(match_id=match.pk)


def test_a_match_in_every_shape_renders_as_its_serializer_declares(
    scorer, match, organiser, tournament, monkeypatch
) -> None:
    shapes = [fresh(match)]  # ready, no table, no events
    table = TableFactory(tournament=tournament, label="У окна")
    services.match_assign_table(match=match, table=table, actor=organiser)
    services.match_clock(match_id=match.pk, action="start", actor=organiser)
    post_event(scorer, match, {"type": "break", "player": "a", "legal": True, "pocketed": 1})
    shapes.append(fresh(match))  # running, on a table, clock running
    services.match_clock(match_id=match.pk, action="pause", actor=organiser)
    shapes.append(fresh(match))  # technical break
    services.match_walkover(match=fresh(match), winner_slot="b", actor=organiser)
    shapes.append(fresh(match))  # finished by forfeit
    pending = MatchFactory(tournament=tournament, player_b=None, status=Match.Status.SCHEDULED)
    shapes.append(fresh(pending))  # a slot still empty
    now = timezone.now()
    monkeypatch.setattr(timezone, "now", lambda: now)  # the clock's server_time, in both
    for shape in shapes:
        with timezone.override(UTC):  # as the API answers (config.middleware.ApiInUtc)
            assert match_data(shape) == declared(shape)


def test_the_api_answer_keys_are_the_declared_fields(scorer, match) -> None:
    response = post_event(scorer, match, {"type": "break", "player": "a", "legal": True})
    assert response.status_code == 201
    assert set(response.json()) == set(MatchDetailSerializer().fields)
    entry = response.json()["last_events"][0]
    assert set(entry) == set(MatchEventSerializer().fields)


def _from_the_log(match: Match) -> list[dict]:
    """The newest entries read from the log, each worded now (log_event_data), in UTC as the
    API answers (config.middleware.ApiInUtc)."""
    names = {"a": "—", "b": "—", **selectors.match_player_names(match=match)}
    with timezone.override(UTC):
        entries = selectors.match_last_events(match=match)
        return [log_event_data(e, match, names) for e in entries]


def test_last_events_are_the_newest_log_entries_through_events_undos_and_the_clock(
    scorer, organiser_api, match
) -> None:
    """Random legal events and undos, then the clock's end of time: after each write the
    answer's last events equal the log read back from the database."""
    rng = random.Random(7)
    for step in range(40):
        match.refresh_from_db()
        if match.state.get("finished"):
            break
        if step % 6 == 5:
            response = organiser_api.post(
                f"/api/v1/matches/{match.pk}/undo/", {"expected_version": match.version}
            )
        else:
            event = random_event(match.state, rng)
            if event["type"] == "time_expired":
                continue
            response = post_event(scorer, match, event)
        assert response.status_code == 201, response.json()
        assert response.json()["last_events"] == _from_the_log(fresh(match))
    assert match.version > selectors.LAST_EVENTS  # the window did slide
    running = fresh(match)
    if not running.state.get("finished"):
        Match.objects.filter(pk=match.pk).update(
            clock_limit_seconds=60,
            clock_running_since=timezone.now() - timedelta(minutes=5),
            clock_deadline=timezone.now() - timedelta(minutes=4),
            status=Match.Status.RUNNING,
        )
        assert services.match_clock_expire(match_id=match.pk)
    stored = fresh(match)
    assert stored.recent_log == selectors.match_recent_log(match=stored)
    assert len(stored.recent_log) == selectors.LAST_EVENTS


def test_an_undo_marks_the_entry_it_cancels_in_the_last_events(scorer, match) -> None:
    post_event(scorer, match, {"type": "break", "player": "a", "legal": True, "pocketed": 0})
    post_event(scorer, match, {"type": "shot", "player": "b", "pocketed": 1})
    match.refresh_from_db()
    response = scorer.post(f"/api/v1/matches/{match.pk}/undo/", {}, format="json")
    entries = response.json()["last_events"]
    assert [(e["seq"], e["kind"], e["undone"], e["undoes"]) for e in entries] == [
        (1, "event", False, None),
        (2, "event", True, None),
        (3, "undo", False, 2),
    ]
    # Each entry in one sentence, its discipline's, in the request's language: kept in every
    # language when it was appended, so no answer words it again.
    a, b = match.player_a.name, match.player_b.name
    said = [f"{a}: разбой, ничего не забито", f"{b}: 1 шар", "Отмена #2"]
    assert [e["text"] for e in entries] == said
    english = scorer.get(f"/api/v1/matches/{match.pk}/", HTTP_ACCEPT_LANGUAGE="en").json()
    assert [e["text"] for e in english["last_events"]] == [
        f"{a}: break, nothing pocketed",
        f"{b}: 1 ball",
        "Undo of #2",
    ]
    match.refresh_from_db()
    assert [item["texts"]["ru"] for item in match.recent_log] == said
    log = scorer.get(f"/api/v1/matches/{match.pk}/events/").json()["events"]
    assert [e["text"] for e in log] == said  # the log's pages, worded as they are read


@pytest.mark.parametrize("zone", ["Europe/Moscow", "UTC", "Asia/Vladivostok"])
def test_timestamps_are_written_as_drf_writes_them(settings, zone) -> None:
    """In UTC, as the API answers (config.middleware.ApiInUtc), whatever the server's zone."""
    from datetime import datetime

    settings.TIME_ZONE = zone
    drf = serializers.DateTimeField()
    for value in (
        datetime(2026, 11, 30, 15, 4, 5, tzinfo=UTC),
        datetime(2026, 3, 29, 0, 59, 59, 123456, tzinfo=UTC),
        timezone.now(),
    ):
        with timezone.override(UTC):
            assert selectors.timestamp(value) == drf.to_representation(value)
        assert selectors.timestamp(value).endswith("Z")
    assert selectors.timestamp(None) is None


def test_an_entry_kept_before_the_log_had_sentences_is_worded_when_read(scorer, match) -> None:
    post_event(scorer, match, {"type": "break", "player": "a", "legal": True, "pocketed": 2})
    match.refresh_from_db()
    old = [{k: v for k, v in item.items() if k != "texts"} for item in match.recent_log]
    Match.objects.filter(pk=match.pk).update(recent_log=old)
    entries = scorer.get(f"/api/v1/matches/{match.pk}/").json()["last_events"]
    assert [e["text"] for e in entries] == [f"{match.player_a.name}: разбой, 2 шара"]


@pytest.mark.parametrize("discipline", ["free_pyramid", "duplex"])
def test_each_finishing_value_comes_with_the_result_it_leaves(discipline: str) -> None:
    """The form's end-of-match question says the result: the answer gives, per finishing
    combination, the score and winner the engine leaves (none made up in the browser)."""
    ruleset = {"discipline": discipline}
    state = rules.initial_state(ruleset)
    seen = 0
    for event in simulate.random_game(ruleset, random.Random(3), rare=0):
        entry = entry_data(state, {"a": "A", "b": "B"})
        for raw, kind in zip(rules.entry(state)["kinds"], entry["kinds"], strict=True):
            assert len(kind["results"]) == len(kind["finishing"])
            for values, result in zip(kind["finishing"], kind["results"], strict=True):
                after = rules.apply(state, rules.build_event(raw, values))
                score = after[rules.of_state(after).result_field(after)]
                assert result == {"a": score["a"], "b": score["b"], "winner": after["winner"]}
                assert result["winner"] in ("a", "b")
                seen += 1
        state = rules.apply(state, event)
    assert seen
