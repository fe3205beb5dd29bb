"""One error contract: every error answer of the API, whatever its status or origin (a
service's refusal, DRF's validation or authentication, Django's routing), is
{"code", "message", "params"} in the user's language; invalid input adds "fields"."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import RequestFactory
from rest_framework import exceptions
from rest_framework.test import APIClient

from config.api import exception_handler
from config.errors import ApiError
from matches.errors import MatchError
from matches.models import Match
from tests.api.conftest import token_client
from tests.world import World
from tournaments.errors import TournamentError

pytestmark = pytest.mark.django_db


def assert_error(response: Any, status: int, code: str | None = None) -> dict[str, Any]:
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert {"code", "message", "params"} <= set(body), body
    assert isinstance(body["code"], str) and body["code"]
    assert isinstance(body["message"], str) and body["message"]
    assert isinstance(body["params"], dict)
    assert "detail" not in body
    if code is not None:
        assert body["code"] == code, body
    return body


def test_validation_errors_name_each_field_with_code_and_message(world: World) -> None:
    response = token_client(world, "en").post(
        "/api/v1/players/", {"name": "", "rating": "many", "raiting": 1}
    )
    body = assert_error(response, 400, "invalid")
    assert set(body["fields"]) == {"raiting"}  # unknown keys are refused before the rest
    response = token_client(world, "en").post("/api/v1/players/", {"name": "", "rating": "x"})
    body = assert_error(response, 400, "invalid")
    assert set(body["fields"]) == {"name", "rating"}
    for errors in body["fields"].values():
        assert all(set(e) == {"code", "message"} for e in errors)
    assert body["fields"]["rating"][0]["code"] == "invalid"
    assert body["params"] == {"field": "name"}


def test_nested_fields_are_named_by_their_path(world: World) -> None:
    url = f"/api/v1/tournaments/{world.extra['open'].pk}/registrations/"
    response = token_client(world).post(url, {"player": {"name": "Икс", "rating": -5}})
    body = assert_error(response, 400, "invalid")
    assert list(body["fields"]) == ["player.rating"]
    assert "player.rating" in body["message"]


def test_a_missing_or_invalid_token_is_refused_in_the_one_shape(world: World) -> None:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Bearer not-a-token")
    response = client.get("/api/v1/players/")
    body = assert_error(response, 401, "authentication_failed")
    assert body["message"] and response["WWW-Authenticate"].startswith("Bearer")
    anonymous = APIClient().post("/api/v1/players/", {"name": "Икс"})
    assert_error(anonymous, 403, "not_authenticated")


def test_the_token_is_accepted_as_bearer_as_well_as_token(world: World) -> None:
    for keyword in ("Bearer", "Token"):
        response = token_client(world, keyword=keyword).get(
            f"/api/v1/tournaments/{world.tournament.pk}/registrations/totals/"
        )
        assert response.status_code == 200, (keyword, response.content[:200])


def test_forbidden_and_not_found(world: World) -> None:
    referee = APIClient()
    referee.force_authenticate(world.referee)
    body = assert_error(
        referee.post(f"/api/v1/tournaments/{world.tournament.pk}/start/"), 403, "permission_denied"
    )
    assert body["params"] == {}
    assert_error(token_client(world).get("/api/v1/tournaments/987654321/"), 404, "not_found")
    assert_error(token_client(world).get("/api/v1/matches/987654321/"), 404, "not_found")


@pytest.mark.parametrize(
    "path",
    ["/api/v1/matches/0.5/", "/api/v1/tournaments/1e3/", "/api/v1/nothing-here/", "/api/v1/m"],
)
def test_a_path_no_route_takes_is_the_json_404(world: World, path: str) -> None:
    assert_error(APIClient().get(path), 404, "not_found")


@pytest.mark.parametrize("path", ["/api/v1/tournaments/1/matches/", "/api/v1/nothing-here/"])
def test_the_json_404_holds_in_development_too(world: World, settings, path: str) -> None:
    """`make run` has DEBUG on, where Django would answer with its technical HTML page."""
    settings.DEBUG = True
    assert_error(APIClient().get(path), 404, "not_found")


def test_a_page_outside_the_api_keeps_the_html_404(world: World) -> None:
    response = APIClient().get("/no-such-page/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


def test_method_not_allowed_and_unsupported_media_type(world: World) -> None:
    client = token_client(world, "en")
    body = assert_error(client.delete("/api/v1/players/"), 405, "method_not_allowed")
    assert "DELETE" in body["message"]
    form = client.post(
        "/api/v1/players/", "name=X", content_type="application/x-www-form-urlencoded"
    )
    assert_error(form, 415, "unsupported_media_type")
    multipart = client.post("/api/v1/players/", {"name": "X"}, format="multipart")
    assert_error(multipart, 415, "unsupported_media_type")


def test_a_malformed_body_is_parse_error(world: World) -> None:
    response = token_client(world).post(
        "/api/v1/players/", "{oops", content_type="application/json"
    )
    assert_error(response, 400, "parse_error")


def test_services_refusals_keep_their_code_and_params(world: World) -> None:
    match = Match.objects.get(pk=world.running.pk)
    response = token_client(world).post(
        f"/api/v1/matches/{match.pk}/events/",
        {"event": {"type": "shot", "player": "a", "pocketed": 0}, "expected_version": 0},
    )
    body = assert_error(response, 409, "stale_version")
    assert body["params"] == {"current": match.version, "expected": 0}
    assert body["match"]["version"] == match.version  # a conflict brings the match to refresh

    drawn = token_client(world).post(
        f"/api/v1/tournaments/{world.tournament.pk}/draw/", {"method": "seeded"}
    )
    assert_error(drawn, 409, "already_drawn")


def test_the_engines_refusal_is_a_422_in_the_same_shape(world: World) -> None:
    match = Match.objects.get(pk=world.running.pk)
    other = "b" if match.state["turn"] == "a" else "a"
    response = token_client(world, "en").post(
        f"/api/v1/matches/{match.pk}/events/",
        {
            "event": {"type": "shot", "player": other, "pocketed": 0},
            "expected_version": 0 + match.version,
        },
    )
    body = assert_error(response, 422, "out_of_turn")
    assert body["params"]["player"] == other


def test_throttled_requests_say_how_long_to_wait() -> None:
    response = exception_handler(exceptions.Throttled(wait=2.2), {})
    assert response is not None and response.status_code == 429
    assert response.data["code"] == "throttled" and response.data["params"] == {"wait": 3}
    assert response.data["message"]


def test_one_base_error_class_renders_every_refusal() -> None:
    assert issubclass(MatchError, ApiError) and issubclass(TournamentError, ApiError)
    lazy = MatchError("table_busy", "Table %(number)s is busy.", params={"number": 3})
    assert lazy.as_dict() == {
        "code": "table_busy",
        "message": "Table 3 is busy.",
        "params": {"number": 3},
    }
    eager = TournamentError("invalid_settings", "100% is the most.", status=400)
    response = exception_handler(eager, {"request": RequestFactory().get("/")})
    assert response is not None and response.status_code == 400
    assert response.data == {
        "code": "invalid_settings",
        "message": "100% is the most.",
        "params": {},
    }


def test_the_schema_declares_the_one_error_body_for_every_error_status(world: World) -> None:
    schema = APIClient().get("/api/v1/schema/?format=json").json()
    error = schema["components"]["schemas"]["Error"]
    assert set(error["required"]) == {"code", "message", "params"}
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            responses = operation["responses"]
            assert {"401", "403", "404", "405", "429"} <= set(responses), (path, method)
            if "requestBody" in operation:
                assert {"400", "413", "415"} <= set(responses), (path, method)
                assert list(operation["requestBody"]["content"]) == ["application/json"]
            for code, response in responses.items():
                if code[0] in "45":
                    ref = response["content"]["application/json"]["schema"]["$ref"]
                    assert ref.rsplit("/", 1)[-1] in {"Error", "MatchConflict"}, (path, code)


@pytest.mark.parametrize(
    "query",
    [
        "limit=abc",
        "limit=0",
        "limit=-3",
        "limit=1001",
        "limit=100000000000000000000",
        "offset=-1",
        "offset=x",
    ],
)
def test_a_bad_page_parameter_is_a_400_not_ignored(world: World, query: str) -> None:
    response = token_client(world).get(f"/api/v1/players/?{query}")
    body = assert_error(response, 400, "invalid")
    assert query.split("=")[0] in body["fields"]


def test_a_huge_offset_is_an_empty_page(world: World) -> None:
    response = token_client(world).get("/api/v1/players/?limit=1000&offset=100000000000000000000")
    assert response.status_code == 200
    assert response.json()["results"] == []
