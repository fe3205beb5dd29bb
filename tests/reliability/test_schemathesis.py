"""Schemathesis against our OpenAPI schema, through the WSGI application: for every operation,
generated requests (valid and invalid) as an anonymous client and as an organiser with a token.
No answer is a server error, and every answer has a documented status, content type and shape.

Path ids are pointed at real objects (a drawn tournament with matches in every state, one open
for registration), so that the requests reach the code behind the ids, not just a 404."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections, transaction
from hypothesis import HealthCheck, settings
from rest_framework.authtoken.models import Token
from schemathesis.checks import CHECKS as ALL_CHECKS
from schemathesis.core.parameters import ParameterLocation
from schemathesis.specs.openapi.checks import (
    ignored_auth,
    negative_data_rejection,
    positive_data_acceptance,
)

from config.wsgi import application
from tests.factories import PlayerFactory
from tests.world import World, build_world, make_tournament, register

pytestmark = pytest.mark.django_db

# Every check of schemathesis (`--checks all`) but these, each for a reason:
EXCLUDED = {
    # Settings are validated together (a handicap scheme against the race, fee bands that must
    # not overlap, a head start below the race, exactly one of player_id and player, a manual
    # order naming the registered players) and writes depend on the state (a drawn tournament,
    # a busy table): a body valid field by field can be refused, with the one error body.
    positive_data_acceptance,
}
CHECKS = [check for check in ALL_CHECKS.get_all() if check not in EXCLUDED]
# The organiser's token is passed as a header of each call: schemathesis cannot take it away to
# see a 401, so its ignored-auth probe would report the organiser's own access.
ORGANISER_CHECKS = [check for check in CHECKS if check is not ignored_auth]
EXAMPLES = 20


@pytest.fixture(scope="module")
def _one_connection() -> Iterator[None]:
    """The WSGI handler closes "old" database connections around each request; the test's
    transaction lives on that connection, so keep it (as Django's own test client does)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker, _one_connection) -> Iterator[World]:
    """Built once; each operation's examples run in that operation's test transaction."""
    with django_db_blocker.unblock(), transaction.atomic():
        w = build_world(public=True)
        w.extra["open"] = make_tournament(w.organiser, name="Весенний кубок")
        register(w.extra["open"], w.organiser, PlayerFactory.create_batch(4))
        w.extra["token"] = Token.objects.create(user=w.organiser).key
        yield w
        transaction.set_rollback(True)


def load_schema() -> Any:
    loaded = schemathesis.openapi.from_wsgi("/api/v1/schema/?format=json", application)
    loaded.config.generation.update(
        modes=[schemathesis.GenerationMode.POSITIVE, schemathesis.GenerationMode.NEGATIVE],
        max_examples=EXAMPLES,
    )
    # The coverage phase alone sends hundreds of requests per operation; the generated
    # examples keep the run near a minute.
    loaded.config.phases.coverage.enabled = False
    return loaded


# Loaded when the module is collected: the schema view needs no database.
schema = load_schema()

# Which real object each path id names, per operation (the rest: the drawn tournament).
MATCH_BY_ACTION = {
    "hold": "ready",
    "table": "ready",
    "walkover": "ready",
    "handicap": "ready",
    "correct": "finished",
    "rating-changes": "finished",
}
OPEN_TOURNAMENT_ACTIONS = ("draw", "draw-preview", "registrations", "open-registration")


def aim(case: Any, w: World) -> None:
    """Point the path's ids at real objects."""
    path = case.operation.path.rstrip("/")
    action = path.rsplit("/", 1)[-1]
    params = dict(case.path_parameters or {})
    match = getattr(w, MATCH_BY_ACTION.get(action, "running"))
    tournament = w.tournament
    if action in OPEN_TOURNAMENT_ACTIONS and case.method.upper() != "GET":
        tournament = w.extra["open"]
    if action == "draw-preview":
        tournament = w.extra["open"]
    if "{id}" in path:
        if path.startswith("/api/v1/players"):
            params["id"] = w.registrations[0].player_id
        elif path.startswith("/api/v1/matches"):
            params["id"] = match.pk
        else:
            params["id"] = tournament.pk
    if "tournament_pk" in params:
        params["tournament_pk"] = tournament.pk
    if "registration_pk" in params:
        params["registration_pk"] = w.registration_of(w.ready.player_b_id).pk
    if "match_pk" in params:
        params["match_pk"] = match.pk
    if "number" in params:
        params["number"] = 2
    if "user_id" in params:
        params["user_id"] = w.referee.pk
    case.path_parameters = params


def call(case: Any, checks: list[Any] = CHECKS, **kwargs: Any) -> None:
    """One example in a savepoint, rolled back: each meets the same world, and a database
    error in one cannot poison the next ones.

    A negative example whose broken part the harness replaced (the path ids, by aim; the
    Authorization header, by the organiser's token) is a valid request when sent: it is not
    held to "invalid data is rejected"."""
    replaced = [ParameterLocation.PATH]
    if "headers" in kwargs:
        replaced.append(ParameterLocation.HEADER)
    # Unknown query parameters are ignored, not refused: cache-busters and proxies add them.
    known = {p.name for p in case.operation.query}
    if set(case.query or {}) - known:
        replaced.append(ParameterLocation.QUERY)
    meta = case.meta
    if meta is not None and any(meta.is_negative_at(location) for location in replaced):
        checks = [check for check in checks if check is not negative_data_rejection]
    with transaction.atomic():
        case.call_and_validate(checks=checks, **kwargs)
        transaction.set_rollback(True)


EXAMPLE_SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
    database=None,
)


@schema.parametrize()
@EXAMPLE_SETTINGS
def test_the_api_keeps_its_schema_for_anonymous_clients(case, world) -> None:
    aim(case, world)
    call(case)


@schema.parametrize()
@EXAMPLE_SETTINGS
def test_the_api_keeps_its_schema_for_an_organiser(case, world) -> None:
    aim(case, world)
    call(
        case,
        checks=ORGANISER_CHECKS,
        headers={"Authorization": f"Bearer {world.extra['token']}"},
    )
