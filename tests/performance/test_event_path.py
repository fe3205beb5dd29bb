"""The scoring write's short cuts keep its guarantees: the match is loaded once under its lock
(permissions are checked on that row), the idempotency lookup is skipped when the request
expects the current version, and the answer is rendered by reused serializers."""

from __future__ import annotations

import uuid

import pytest
from rest_framework.test import APIClient

from audit.models import AuditEntry
from matches.models import IdempotencyRecord, Match, MatchEvent
from matches.services import locks
from tests.factories import UserFactory
from tests.matches.factories import MatchFactory
from tournaments.models import Tournament
from tournaments.selectors.audit import tournament_audit

pytestmark = pytest.mark.django_db

BREAK = {"type": "break", "player": "a", "legal": True, "pocketed": 0}
SHOT_B = {"type": "shot", "player": "b", "pocketed": 1}


@pytest.fixture
def match(tournament):
    return MatchFactory(tournament=tournament, ruleset={"discipline": "free_pyramid"})


@pytest.fixture
def scorer(referee):
    client = APIClient()
    client.force_login(referee)
    return client


def post(client, match, event, version, key=None, query=""):
    body = {"event": event, "expected_version": version, "idempotency_key": key or uuid.uuid4().hex}
    return client.post(f"/api/v1/matches/{match.pk}/events/{query}", body, format="json")


def test_a_retry_gets_the_first_answer(scorer, match) -> None:
    first = post(scorer, match, BREAK, 0, key="tap")
    retry = post(scorer, match, BREAK, 0, key="tap")

    assert first.status_code == retry.status_code == 201
    assert retry.json() == first.json()
    assert MatchEvent.objects.filter(match=match).count() == 1


def test_a_key_reused_for_another_event_is_refused_and_nothing_is_written(scorer, match) -> None:
    post(scorer, match, BREAK, 0, key="same")
    audit = AuditEntry.objects.filter(match=match).count()

    reused = post(scorer, match, SHOT_B, 1, key="same")  # the current version: not a retry

    assert reused.status_code == 422
    assert reused.json()["code"] == "idempotency_key_reused"
    assert MatchEvent.objects.filter(match=match).count() == 1
    assert Match.objects.get(pk=match.pk).version == 1
    assert AuditEntry.objects.filter(match=match).count() == audit
    assert IdempotencyRecord.objects.filter(match=match).count() == 1


def test_every_event_is_audited_with_its_version(scorer, match) -> None:
    post(scorer, match, BREAK, 0)
    post(scorer, match, SHOT_B, 1)

    entries = [
        e
        for e in tournament_audit(tournament=match.tournament, match_id=match.pk)
        if e.action == "match.event"
    ]
    assert [e.data["version"] for e in reversed(entries)] == [1, 2]  # newest first


def test_a_user_who_may_not_score_is_refused_before_anything_is_written(match) -> None:
    stranger = APIClient()
    stranger.force_login(UserFactory())

    assert post(stranger, match, BREAK, 0).status_code == 403
    assert MatchEvent.objects.filter(match=match).count() == 0
    assert not AuditEntry.objects.filter(match=match).exists()


def test_a_private_match_and_an_unknown_one_look_the_same(match) -> None:
    Tournament.objects.filter(pk=match.tournament_id).update(is_public=False)
    stranger = APIClient()
    stranger.force_login(UserFactory())

    private = post(stranger, match, BREAK, 0)
    unknown = stranger.post(
        "/api/v1/matches/99999999/events/",
        {"event": BREAK, "expected_version": 0},
        format="json",
    )
    not_a_number = stranger.post(
        "/api/v1/matches/abc/events/", {"event": BREAK, "expected_version": 0}, format="json"
    )

    assert private.status_code == unknown.status_code == not_a_number.status_code == 404
    assert private.json() == unknown.json() == not_a_number.json()
    assert MatchEvent.objects.filter(match=match).count() == 0


def test_the_answer_is_the_match_as_a_read_shows_it(scorer, match) -> None:
    written = post(scorer, match, BREAK, 0, query="?referee=1").json()
    read = APIClient().get(f"/api/v1/matches/{match.pk}/").json()
    # The scorer's own read carries what he may enter, as his write's answer does when asked.
    scorers = scorer.get(f"/api/v1/matches/{match.pk}/?referee=1").json()

    for body in (written, read, scorers):
        body["clock"].pop("server_time")
    assert written == scorers
    assert read["entry"] is None
    assert {**written, "entry": None} == read


def test_the_lock_statement_stays_within_the_drivers_statement_cache(scorer, match) -> None:
    """psycopg keeps the parsed form of a statement up to 4096 bytes: past that, the lock's
    SQL (a hundred columns) would be parsed again on every scored ball."""
    assert post(scorer, match, BREAK, 0).status_code == 201
    assert len(locks._LOCKED_MATCH_AND_ROLE.sql().encode()) <= 4096
