"""The OpenAPI schema describes every match endpoint with its bodies and answers."""

from __future__ import annotations

import pytest
from drf_spectacular.validation import validate_schema

pytestmark = pytest.mark.django_db

WRITES = {
    "/api/v1/matches/{id}/events/": ("MatchEventWrite", "201"),
    "/api/v1/matches/{id}/undo/": ("MatchUndoWrite", "201"),
    "/api/v1/matches/{id}/clock/": ("MatchClockWrite", "200"),
    "/api/v1/matches/{id}/judge/": ("MatchJudgeWrite", "200"),
    "/api/v1/matches/{id}/walkover/": ("MatchWalkoverWrite", "200"),
    "/api/v1/matches/{id}/table/": ("MatchTableWrite", "200"),
    "/api/v1/matches/{id}/hold/": ("MatchHoldWrite", "200"),
}


@pytest.fixture(scope="module")
def schema(django_db_blocker) -> dict:
    from rest_framework.test import APIClient

    with django_db_blocker.unblock():
        response = APIClient().get("/api/v1/schema/?format=json")
    assert response.status_code == 200
    document = response.json()
    validate_schema(document)
    return document


def ref(content: dict) -> str:
    return content["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]


def test_every_write_has_its_body_and_answers(schema) -> None:
    for path, (body, success) in WRITES.items():
        post = schema["paths"][path]["post"]
        assert ref(post["requestBody"]["content"]) == f"{body}Request", path
        answers = post["responses"]
        assert {success, "400", "403", "404", "409", "422"} <= set(answers), path
        assert ref(answers[success]["content"]) == "MatchDetail", path
        assert ref(answers["409"]["content"]) == "MatchConflict", path
        assert ref(answers["422"]["content"]) == "Error", path  # the API's one error body


def test_the_event_body_and_the_match_are_described(schema) -> None:
    components = schema["components"]["schemas"]
    event = components["MatchEventWriteRequest"]
    assert set(event["required"]) == {"event", "expected_version"}
    assert event["properties"]["event"]["$ref"].endswith("/EngineEvent")
    match = components["MatchDetail"]["properties"]
    for field in ("players", "head_start", "table", "state", "clock", "version", "last_events"):
        assert field in match, field
    clock = components["MatchClock"]["properties"]
    assert {"remaining_seconds", "deadline", "running", "paused", "warning"} <= set(clock)


def test_the_reads_are_described(schema) -> None:
    paths = schema["paths"]
    assert ref(paths["/api/v1/matches/{id}/"]["get"]["responses"]["200"]["content"]) == (
        "MatchDetail"
    )
    log = paths["/api/v1/matches/{id}/events/"]["get"]
    assert ref(log["responses"]["200"]["content"]) == "MatchEventLog"
    assert [p["name"] for p in log["parameters"] if p["in"] == "query"] == ["after", "limit"]
    board = paths["/api/v1/tournaments/{tournament_pk}/tables/"]["get"]
    assert ref(board["responses"]["200"]["content"]) == "TableBoard"
    assert "/api/v1/tournaments/{tournament_pk}/tables/assign/" in paths
    assert "/api/v1/tournaments/{tournament_pk}/tables/{number}/free/" in paths
