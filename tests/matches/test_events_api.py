"""Scoring a match through the API: events, versions, errors in words, idempotency, rights."""

from __future__ import annotations

import pytest
from django.db import connection

from config.changes import Change, change_subscribe, change_unsubscribe
from matches.models import IdempotencyRecord, Match, MatchEvent
from matches.selectors import live_figures
from tests.factories import PlayerFactory, UserFactory
from tests.matches.conftest import b_pockets, play, post_event
from tests.matches.factories import MatchFactory
from tournaments.selectors.audit import tournament_audit

pytestmark = pytest.mark.django_db

BREAK_A = {"type": "break", "player": "a", "legal": True, "pocketed": 0}


def audit_of(match, action: str) -> list:
    """The match's audit log as its readers see it (entries and balls merged), of one action."""
    return [
        e
        for e in tournament_audit(tournament=match.tournament, match_id=match.pk)
        if e.action == action
    ]


def test_an_event_is_applied_and_answered_with_the_new_match(scorer, match, referee) -> None:
    response = post_event(scorer, match, BREAK_A)

    assert response.status_code == 201
    body = response.json()
    assert body["version"] == 1
    assert body["state"]["turn"] == "b" and body["state"]["awaiting"] == "shot"
    assert body["status"] == "running"
    assert body["started_at"] is not None
    assert body["clock"]["running"] is True  # the first event starts the clock
    assert body["last_events"][-1]["event"] == BREAK_A
    assert body["last_events"][-1]["source"] == "referee"
    # The log entry is the ball's audit (no audit entry is written): the audit log reads it.
    (entry,) = audit_of(match, "match.event")
    assert entry.actor == referee
    assert entry.data["event"] == BREAK_A and entry.data["version"] == 1


def test_the_score_counts_the_head_start(scorer, match) -> None:
    play(scorer, match, b_pockets(3))
    body = scorer.get(f"/api/v1/matches/{match.pk}/").json()
    assert body["state"]["score"] == {"a": 0, "b": 5}
    assert body["head_start"] == {"a": 0, "b": 2}
    assert body["version"] == 2


def test_a_stale_version_is_a_conflict_with_the_current_match(scorer, match) -> None:
    play(scorer, match, [BREAK_A])

    response = post_event(scorer, match, {"type": "shot", "player": "b", "pocketed": 1}, version=0)

    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "stale_version"
    assert body["params"] == {"current": 1, "expected": 0}
    assert body["match"]["version"] == 1  # the client refreshes from this
    assert MatchEvent.objects.filter(match=match).count() == 1


def test_an_impossible_event_is_explained_in_the_users_language(scorer, match) -> None:
    play(scorer, match, [BREAK_A])
    url = f"/api/v1/matches/{match.pk}/events/"
    body = {"event": {"type": "shot", "player": "a", "pocketed": 1}, "expected_version": 1}

    response = scorer.post(url, body, format="json", headers={"Accept-Language": "en"})

    assert response.status_code == 422
    error = response.json()
    assert error["code"] == "out_of_turn"
    assert error["params"] == {"player": "a", "turn": "b"}
    assert error["message"] == (
        f"{match.player_a.name} cannot act now: it is {match.player_b.name}'s turn."
    )
    match.refresh_from_db()
    assert match.version == 1  # nothing was written


def test_russian_is_the_default_language_of_messages(scorer, match) -> None:
    url = f"/api/v1/matches/{match.pk}/events/"
    body = {"event": {"type": "shot", "player": "a"}, "expected_version": 0}

    russian = scorer.post(url, body, format="json").json()
    english = scorer.post(url, body, format="json", headers={"Accept-Language": "en"}).json()

    assert russian["code"] == english["code"] == "unexpected_event"
    assert english["message"] == "Cannot enter a shot now: the match is waiting for a break."
    assert russian["message"]


def test_unknown_keys_of_an_event_are_the_engines_business(scorer, match) -> None:
    response = post_event(scorer, match, {**BREAK_A, "spin": "left"})
    assert response.status_code == 422
    assert response.json()["code"] == "invalid_event"
    assert response.json()["params"]["field"] == "spin"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"event": [1], "expected_version": 0}, "event"),
        ({"event": "shot", "expected_version": 0}, "event"),
        ({"event": {"type": "shot"}, "expected_version": "one"}, "expected_version"),
        ({"event": {"type": "shot"}, "expected_version": -1}, "expected_version"),
        ({"event": {"type": "shot"}}, "expected_version"),
        ({"expected_version": 0}, "event"),
        ({"event": {}, "expected_version": 0, "idempotency_key": ""}, "idempotency_key"),
    ],
)
def test_malformed_bodies_are_field_errors(scorer, match, body, field) -> None:
    response = scorer.post(f"/api/v1/matches/{match.pk}/events/", body, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"
    assert field in response.json()["fields"]


def test_the_same_idempotency_key_is_applied_once(scorer, match) -> None:
    first = post_event(scorer, match, BREAK_A, version=0, key="tap-1")
    again = post_event(scorer, match, BREAK_A, version=0, key="tap-1")

    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert MatchEvent.objects.filter(match=match).count() == 1
    assert IdempotencyRecord.objects.filter(match=match, key="tap-1").count() == 1


def test_an_idempotency_key_of_another_request_kind_is_refused(scorer, match) -> None:
    post_event(scorer, match, BREAK_A, key="k")
    response = scorer.post(
        f"/api/v1/matches/{match.pk}/undo/", {"idempotency_key": "k"}, format="json"
    )
    assert response.status_code == 422
    assert response.json()["code"] == "idempotency_key_reused"


def test_nobody_else_may_score(api, match, login) -> None:
    assert post_event(api, match, BREAK_A).status_code == 403  # anonymous
    stranger = login(UserFactory())
    assert post_event(stranger, match, BREAK_A).status_code == 403
    assert Match.objects.get(pk=match.pk).version == 0


def test_players_score_only_with_self_scoring(match, login) -> None:
    user = UserFactory()
    match.player_a.user = user
    match.player_a.save(update_fields=["user"])
    player = login(user)

    assert post_event(player, match, BREAK_A).status_code == 403

    match.tournament.self_scoring = True
    match.tournament.save(update_fields=["self_scoring"])
    response = post_event(player, match, BREAK_A)
    assert response.status_code == 201
    assert response.json()["last_events"][-1]["source"] == "player"


def test_a_player_of_another_match_may_not_score_it(match, login) -> None:
    match.tournament.self_scoring = True
    match.tournament.save(update_fields=["self_scoring"])
    other = PlayerFactory(user=UserFactory())
    assert post_event(login(other.user), match, BREAK_A).status_code == 403


def test_the_matchs_own_referee_and_the_organiser_may_score(match, login, organiser) -> None:
    table_referee = UserFactory()
    match.referees.add(table_referee)
    assert post_event(login(table_referee), match, BREAK_A).status_code == 201
    response = post_event(login(organiser), match, {"type": "shot", "player": "b"})
    assert response.status_code == 201
    assert response.json()["last_events"][-1]["source"] == "organiser"


def test_only_the_clock_or_an_organiser_ends_the_time(scorer, match, login, organiser) -> None:
    play(scorer, match, b_pockets(1))
    assert post_event(scorer, match, {"type": "time_expired"}).status_code == 403

    response = post_event(login(organiser), match, {"type": "time_expired"})
    assert response.status_code == 201
    body = response.json()
    assert body["status"] == "finished" and body["winner"] == "b" and body["result"] == "time"
    assert body["clock"]["expired"] is True and body["clock"]["running"] is False


def test_a_match_without_its_players_cannot_be_scored(scorer, tournament) -> None:
    pending = MatchFactory(tournament=tournament, player_b=None, status=Match.Status.SCHEDULED)
    response = post_event(scorer, pending, BREAK_A)
    assert response.status_code == 409
    assert response.json()["code"] == "match_not_ready"


def test_events_after_the_end_are_refused(scorer, match) -> None:
    play(scorer, match, b_pockets(6))  # b: 2 + 6 = 8 wins
    response = post_event(scorer, match, {"type": "shot", "player": "a"})
    # Refused for the match's status, before the engine: a match finished, walked over or
    # corrected takes nothing more, whatever its log folds to.
    assert response.status_code == 409
    assert response.json()["code"] == "match_finished"


def test_the_log_lists_every_entry(scorer, match, api) -> None:
    play(scorer, match, b_pockets(2))
    scorer.post(f"/api/v1/matches/{match.pk}/undo/", {}, format="json")

    log = api.get(f"/api/v1/matches/{match.pk}/events/").json()

    assert log["version"] == 3
    assert [(e["seq"], e["kind"], e["undone"]) for e in log["events"]] == [
        (1, "event", False),
        (2, "event", True),
        (3, "undo", False),
    ]
    assert log["events"][2]["undoes"] == 2
    tail = api.get(f"/api/v1/matches/{match.pk}/events/?after=2").json()["events"]
    assert [e["seq"] for e in tail] == [3]
    assert api.get(f"/api/v1/matches/{match.pk}/events/?after=x").status_code == 400


def test_the_log_is_typed_as_engine_events_and_undone_entries(scorer, match, api) -> None:
    # The schema's log entry (LogEntryEvent) holds what the log gives: events, and undos.
    from jsonschema import Draft202012Validator

    play(scorer, match, b_pockets(2))
    scorer.post(f"/api/v1/matches/{match.pk}/undo/", {}, format="json")
    log = api.get(f"/api/v1/matches/{match.pk}/events/").json()
    schema = api.get("/api/v1/schema/?format=json").json()
    entry = schema["components"]["schemas"]["MatchEvent"]["properties"]["event"]
    assert entry["$ref"] == "#/components/schemas/LogEntryEvent"
    union = schema["components"]["schemas"]["LogEntryEvent"]["oneOf"]
    assert {"$ref": "#/components/schemas/EngineEvent"} in union

    validator = Draft202012Validator({"components": schema["components"], **entry})
    for item in log["events"]:
        assert validator.is_valid(item["event"]), item
    assert not validator.is_valid({"type": "shot", "player": "c"})
    assert not validator.is_valid({"seq": 1, "extra": 1})


def test_posting_an_event_takes_a_handful_of_queries(
    scorer, match, django_assert_max_num_queries
) -> None:
    play(scorer, match, [BREAK_A])  # the start (tournament hooks) is not the hot path
    shot = {"type": "shot", "player": "b", "pocketed": 1}
    # Session and user; the write: lock (the match with its tournament, players, table and
    # the writer's role), then one statement with the log entry, the match (its last events
    # too), the audit entry and the idempotency record = 4; no idempotency lookup, since the
    # request expects the current version (not a retry); plus SAVEPOINT/RELEASE because the
    # test runs inside a transaction. (Other databases than PostgreSQL: a statement per row.)
    with django_assert_max_num_queries(6 if connection.vendor == "postgresql" else 9):
        response = post_event(scorer, match, shot, version=1)
    assert response.status_code == 201


def test_a_balls_push_after_commit_reads_nothing_more(
    scorer, match, django_assert_max_num_queries, django_capture_on_commit_callbacks
) -> None:
    """The push of a ball (config.push) carries the score from the row the write leaves, not
    from a second read after the commit: the hot path's count holds with the hooks run."""
    play(scorer, match, [BREAK_A])
    pushed: list[dict[str, object]] = []

    def listen(change: Change) -> None:
        pushed.append(dict(change.figures() if change.figures else {}))

    change_subscribe(listen)
    try:
        with (
            django_assert_max_num_queries(6 if connection.vendor == "postgresql" else 9),
            django_capture_on_commit_callbacks(execute=True),
        ):
            response = post_event(
                scorer, match, {"type": "shot", "player": "b", "pocketed": 1}, version=1
            )
    finally:
        change_unsubscribe(listen)
    assert response.status_code == 201
    # The same figures as a read of the committed row would give.
    assert pushed[-1] == live_figures(match_id=match.pk)
    assert pushed[-1]["status"] == "running" and pushed[-1]["score"] is not None


def test_an_event_changed_under_the_same_key_is_refused_whatever_the_version(scorer, match) -> None:
    first = post_event(scorer, match, BREAK_A, version=0, key="tap-9")
    assert first.status_code == 201
    # The same key at the old version with another body (no player): not a retry.
    changed = post_event(scorer, match, {"type": "break", "legal": True}, version=0, key="tap-9")
    assert changed.status_code == 422
    assert changed.json()["code"] == "idempotency_key_reused"
    # The same request again is the first answer.
    again = post_event(scorer, match, BREAK_A, version=0, key="tap-9")
    assert again.status_code == 201 and again.json() == first.json()


def test_the_idempotency_key_header_works_for_events(scorer, match) -> None:
    body = {"event": BREAK_A, "expected_version": 0}
    url = f"/api/v1/matches/{match.pk}/events/"
    first = scorer.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="h-1")
    again = scorer.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="h-1")
    assert first.status_code == again.status_code == 201
    assert MatchEvent.objects.filter(match=match).count() == 1
