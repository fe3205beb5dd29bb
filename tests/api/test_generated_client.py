"""An integrator's client: generated with openapi-python-client from the live schema, it runs
the organiser's whole flow with no hand-written HTTP (create a tournament, register a new
player, mark fees paid, draw, call a match to a table, score it by events, read the standings
and prizes). The client sends its token as `Bearer`, its bodies as JSON.

The generated package exists only at run time, so its modules are imported by name."""

from __future__ import annotations

import datetime as dt
import importlib
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest
from django.core.signals import request_finished, request_started
from django.db import close_old_connections

from config.wsgi import application

pytestmark = pytest.mark.django_db

PACKAGE = "luza_client"


@pytest.fixture(scope="module")
def generated(
    tmp_path_factory: pytest.TempPathFactory, django_db_setup: None, django_db_blocker: Any
) -> Iterator[str]:
    """The client package generated from the schema as the server serves it."""
    out = tmp_path_factory.mktemp("client")
    transport = httpx.WSGITransport(app=application)
    with (
        django_db_blocker.unblock(),
        httpx.Client(transport=transport, base_url="http://testserver") as http,
    ):
        schema = http.get("/api/v1/schema/?format=json").json()
    path = out / "schema.json"
    path.write_text(json.dumps(schema))
    bin_dir = str(Path(sys.executable).parent)
    subprocess.run(
        [
            str(Path(bin_dir) / "openapi-python-client"),
            "generate",
            "--path",
            str(path),
            "--meta",
            "none",
            "--output-path",
            str(out / PACKAGE),
        ],
        check=True,
        capture_output=True,
        env={**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"},
        timeout=300,
    )
    sys.path.insert(0, str(out))
    yield str(out)
    sys.path.remove(str(out))
    for name in [m for m in sys.modules if m == PACKAGE or m.startswith(f"{PACKAGE}.")]:
        del sys.modules[name]


def mod(name: str) -> ModuleType:
    return importlib.import_module(f"{PACKAGE}.{name}")


def model(name: str) -> Any:
    return getattr(mod("models"), name)


def call(operation: str, **kwargs: Any) -> Any:
    """One generated operation (e.g. "tournaments.tournaments_create"), its parsed answer."""
    response = mod(f"api.{operation}").sync_detailed(**kwargs)
    assert 200 <= response.status_code < 300, (operation, response.status_code, response.content)
    return response.parsed


@pytest.fixture
def _wsgi_on_the_test_connection() -> Iterator[None]:
    """The WSGI handler closes "old" connections around a request; the test's transaction
    lives on that connection, so keep it (as Django's own test client does)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


def test_every_generated_module_imports(generated: str) -> None:
    import pkgutil

    package = importlib.import_module(PACKAGE)
    names = [m.name for m in pkgutil.walk_packages(package.__path__, f"{PACKAGE}.")]
    assert len(names) > 40
    for name in names:
        importlib.import_module(name)


def test_the_organisers_flow_with_the_generated_client(
    generated: str, _wsgi_on_the_test_connection: None, organiser_token: str
) -> None:
    client = mod("client").AuthenticatedClient(
        base_url="http://testserver",
        token=organiser_token,  # sent as "Bearer <token>", the generator's default
        httpx_args={"transport": httpx.WSGITransport(app=application)},
        raise_on_unexpected_status=True,
    )

    settings = model("TournamentWriteRequest")(
        name="Кубок «Луза»",
        date=dt.date(2026, 12, 5),
        preset=model("PresetEnum")("free_pyramid_30"),
        ruleset=model("RulesetChange")(balls_to_win=2),
        handicap_scheme=model("HandicapSchemeEnum")("none"),
        format_=model("FormatEnum")("single"),
        entry_fee="500",
        place_shares=["100"],
    )
    tournament = call("tournaments.tournaments_create", client=client, body=settings)
    assert tournament.status.value == "draft"
    call("tournaments.tournaments_open_registration_create", client=client, id=tournament.id)

    known = call(
        "players.players_create",
        client=client,
        body=model("PlayerWriteRequest")(name="Иван Петров", city="Москва", rating=1000),
    )
    registrations = [
        call(
            "registrations.tournaments_registrations_create",
            client=client,
            tournament_pk=tournament.id,
            body=model("RegistrationCreateRequest")(player_id=known.id),
        ),
        call(
            "registrations.tournaments_registrations_create",
            client=client,
            tournament_pk=tournament.id,
            body=model("RegistrationCreateRequest")(
                player=model("NewPlayerRequest")(name="Анна Смирнова", city="Тверь", rating=950)
            ),
        ),
    ]
    assert [r.fee_due for r in registrations] == ["500.00", "500.00"]
    for registration in registrations:
        paid = call(
            "registrations.tournaments_registrations_partial_update",
            client=client,
            tournament_pk=tournament.id,
            registration_pk=registration.id,
            body=model("PatchedRegistrationUpdateRequest")(paid=True),
        )
        assert paid.paid is True

    draw = model("DrawRequest")(method=model("DrawMethodEnum")("seeded"))
    call("tournaments.tournaments_draw_create", client=client, id=tournament.id, body=draw)
    call(
        "tournaments.tournaments_tables_create",
        client=client,
        tournament_pk=tournament.id,
        body=model("TablesEnsureWriteRequest")(count=1),
    )
    assigned = call(
        "tournaments.tournaments_tables_assign_create", client=client, tournament_pk=tournament.id
    ).assigned
    assert len(assigned) == 1

    match = call("matches.matches_retrieve", client=client, id=assigned[0].id)
    events = [
        ("BreakEvent", {"legal": True, "pocketed": 0}),  # nothing falls: the turn passes
        ("ShotEvent", {"pocketed": 1}),
        ("ShotEvent", {"pocketed": 1}),  # 2 balls: the race is won
    ]
    for number, (kind, fields) in enumerate(events):
        turn = match.state.turn.value
        event = model(kind)(
            type_=model(f"{kind}Type")(kind.removesuffix("Event").lower()),
            player=model("SlotEnum")(turn),  # one slot class, not one per event
            **fields,
        )
        body = model("MatchEventWriteRequest")(
            event=event, expected_version=match.version, idempotency_key=f"tap-{number}"
        )
        match = call("matches.matches_events_create", client=client, id=match.id, body=body)
    assert match.status.value == "finished"
    assert match.winner is not None and match.state.finished is True

    standings = call("tournaments.tournaments_standings_retrieve", client=client, id=tournament.id)
    assert standings.complete is True
    winner = match.players.a if match.winner.value == "a" else match.players.b
    assert standings.places[0].players[0].name == winner.name
    prizes = call("tournaments.tournaments_prizes_retrieve", client=client, id=tournament.id)
    assert prizes.paid_fees == "1000.00"
    assert prizes.awards[0].players[0].name == winner.name
    assert prizes.awards[0].players[0].amount == prizes.pool

    # The client's refusals are typed too: an event for a finished match is a 409 with the one
    # error body (a finished match never takes another event, whatever version is sent).
    stale = mod("api.matches.matches_events_create").sync_detailed(
        client=client,
        id=match.id,
        body=model("MatchEventWriteRequest")(
            event=model("ForfeitEvent")(
                type_=model("ForfeitEventType")("forfeit"), player=model("SlotEnum")("a")
            ),
            expected_version=0,
        ),
    )
    assert stale.status_code == 409
    assert stale.parsed.code == "match_finished"


def test_the_generated_client_sends_bearer_tokens_and_json(
    generated: str, _wsgi_on_the_test_connection: None, organiser_token: str
) -> None:
    sent: list[httpx.Request] = []
    client = mod("client").AuthenticatedClient(
        base_url="http://testserver",
        token=organiser_token,
        httpx_args={
            "transport": httpx.WSGITransport(app=application),
            "event_hooks": {"request": [sent.append]},
        },
    )
    call(
        "players.players_create",
        client=client,
        body=model("PlayerWriteRequest")(name="Ольга Иванова"),
    )
    assert sent[0].headers["Authorization"] == f"Bearer {organiser_token}"
    assert sent[0].headers["Content-Type"] == "application/json"
