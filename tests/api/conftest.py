"""Fixtures of the API contract tests: one realistic world per module, a token client."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.db import transaction
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from audit.models import AuditEntry
from matches.models import IdempotencyRecord, Match, MatchEvent, Table
from tests.factories import OrganiserFactory, PlayerFactory
from tests.world import World, build_world, make_tournament, register
from tournaments.models import Player, RatingChange, Registration, Tournament

DUMPED = (
    Tournament,
    Registration,
    Player,
    RatingChange,
    Match,
    MatchEvent,
    IdempotencyRecord,
    Table,
    AuditEntry,
)


def dump_tables() -> dict[str, list[dict[str, Any]]]:
    """Every row of the tables a write could touch, in a comparable form."""
    return {model.__name__: list(model.objects.order_by("pk").values()) for model in DUMPED}


@pytest.fixture(scope="module")
def world(django_db_setup: Any, django_db_blocker: Any) -> Iterator[World]:
    """A drawn tournament with matches in every state, and one open for registration; built
    once per module, rolled back at its end."""
    with django_db_blocker.unblock(), transaction.atomic():
        w = build_world(public=True)
        w.extra["open"] = make_tournament(w.organiser, name="Весенний кубок")
        register(w.extra["open"], w.organiser, PlayerFactory.create_batch(3))
        w.extra["free_player"] = PlayerFactory(name="Свободный Игрок")
        w.extra["token"] = Token.objects.create(user=w.organiser).key
        yield w
        transaction.set_rollback(True)


def token_client(w: World, language: str = "ru", keyword: str = "Token") -> APIClient:
    client = APIClient()
    client.credentials(
        HTTP_AUTHORIZATION=f"{keyword} {w.extra['token']}", HTTP_ACCEPT_LANGUAGE=language
    )
    return client


@pytest.fixture
def organiser_token(db: Any) -> str:
    """The API token of a new organiser."""
    return str(Token.objects.create(user=OrganiserFactory()).key)
