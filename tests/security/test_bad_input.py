"""A catalogue of bad requests: each one is a 4xx (never a 5xx), answered in JSON with a message
in the user's language, and leaves the database exactly as it was.

The requests come from an integrator's token client against a realistic tournament (drawn,
matches in every state) and one still open for registration, full."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.db import transaction
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from audit.models import AuditEntry
from matches.models import IdempotencyRecord, Match, MatchEvent, Table
from tests.factories import PlayerFactory
from tests.world import World, build_world, make_tournament, register
from tournaments.models import Player, RatingChange, Registration, Tournament

pytestmark = pytest.mark.django_db

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
CYRILLIC = re.compile(r"[А-Яа-яЁё]")
OVERSIZE = 300 * 1024  # above DATA_UPLOAD_MAX_MEMORY_SIZE (256 KiB)


def dump_tables() -> dict[str, list[dict[str, Any]]]:
    """Every row of the tables a request could touch, in a comparable form."""
    return {model.__name__: list(model.objects.order_by("pk").values()) for model in DUMPED}


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker) -> Iterator[World]:
    """Built once; each test runs in its own transaction, rolled back."""
    with django_db_blocker.unblock(), transaction.atomic():
        w = build_world(public=True)
        full = make_tournament(w.organiser, name="Открытый турнир", max_players=2)
        register(full, w.organiser, PlayerFactory.create_batch(2))
        w.extra["open"] = full
        w.extra["open_reg"] = Registration.objects.filter(tournament=full).first()
        w.extra["free_player"] = PlayerFactory(name="Свободный Игрок")
        w.extra["token"] = Token.objects.create(user=w.organiser).key
        yield w
        transaction.set_rollback(True)


@dataclass
class Bad:
    id: str
    method: str
    url: Callable[[World], str]
    body: Any = None  # a dict is sent as JSON; str/bytes as they are
    status: int = 400
    code: str | None = None  # the error's "code", where the answer has one
    content_type: str = "application/json"
    # Done before the snapshot (the request is bad only after it).
    prepare: Callable[[World, APIClient], None] | None = None
    # A message that speaks to the user in his language (checked in ru and en).
    sample: bool = False


def T(w: World) -> int:
    return w.tournament.pk


def events(w: World) -> str:
    return f"/api/v1/matches/{w.running.pk}/events/"


def clock(match: str) -> Callable[[World], str]:
    return lambda w: f"/api/v1/matches/{getattr(w, match).pk}/clock/"


def running_version(w: World) -> int:
    return Match.objects.get(pk=w.running.pk).version


def shot(**extra: Any) -> Callable[[World], dict[str, Any]]:
    """A shot by the player whose turn it is, with `extra` keys changed."""

    def body(w: World) -> dict[str, Any]:
        match = Match.objects.get(pk=w.running.pk)
        event = {"type": "shot", "player": match.state["turn"], "pocketed": 0, **extra}
        return {"event": event, "expected_version": match.version}

    return body


def with_version(**fields: Any) -> Callable[[World], dict[str, Any]]:
    def body(w: World) -> dict[str, Any]:
        match = Match.objects.get(pk=w.running.pk)
        event = {"type": "shot", "player": match.state["turn"], "pocketed": 0}
        return {"event": event, "expected_version": match.version, **fields}

    return body


def deep_json(depth: int) -> str:
    return '{"event": ' + "[" * depth + "]" * depth + ', "expected_version": 1}'


def use_key_for_an_event(w: World, client: APIClient) -> None:
    response = client.post(events(w), {**shot()(w), "idempotency_key": "tap-1"}, format="json")
    assert response.status_code == 201, response.content


PLAYER = "/api/v1/players/"
TOURNAMENTS = "/api/v1/tournaments/"

CASES = [
    # --- the body is not what an API reads -----------------------------------------------------
    Bad("malformed-json", "post", events, "{not json", sample=True),
    Bad("json-array-instead-of-object", "post", events, "[1, 2]"),
    Bad("json-nan", "post", lambda w: f"/api/v1/tournaments/{T(w)}/tables/", '{"count": NaN}'),
    Bad("json-nested-too-deep", "post", events, deep_json(50_000)),
    Bad("not-utf8", "post", events, b'{"event": "\xff\xfe"}'),
    Bad("empty-body", "post", events, ""),
    Bad(
        "oversize-event",
        "post",
        events,
        lambda w: {**shot()(w), "idempotency_key": "k" * OVERSIZE},
        status=413,
        code="too_large",
        sample=True,
    ),
    Bad(
        "oversize-player",
        "patch",
        lambda w: f"{PLAYER}{w.registrations[0].player_id}/",
        {"city": "М" * OVERSIZE},
        status=413,
        code="too_large",
    ),
    Bad("text-plain", "post", events, "event=shot", status=415, content_type="text/plain"),
    Bad("xml", "post", events, "<event/>", status=415, content_type="application/xml", sample=True),
    # --- wrong types, signs and sizes ------------------------------------------------------------
    Bad("event-not-an-object", "post", events, lambda w: {"event": "shot", "expected_version": 1}),
    Bad("version-bool", "post", events, with_version(expected_version=True), sample=True),
    Bad("version-negative", "post", events, with_version(expected_version=-1)),
    Bad("version-text", "post", events, with_version(expected_version="one")),
    Bad("version-missing", "post", events, lambda w: {"event": shot()(w)["event"]}, sample=True),
    Bad("idempotency-key-too-long", "post", events, with_version(idempotency_key="k" * 101)),
    Bad("balls-bool", "post", events, shot(pocketed=True), 422, "invalid_event", sample=True),
    Bad("balls-negative", "post", events, shot(pocketed=-2), 422, "invalid_event"),
    Bad("balls-huge", "post", events, shot(pocketed=10**30), 422, "invalid_event"),
    Bad("event-unknown-key", "post", events, shot(spin="left"), 422, "invalid_event", sample=True),
    Bad("event-unknown-type", "post", events, shot(type="jump"), 422, "invalid_event"),
    Bad("event-unknown-player", "post", events, shot(player="c"), 422, "invalid_event"),
    Bad("clock-unknown-action", "post", clock("running"), {"action": "explode"}),
    Bad(
        "clock-unknown-key",
        "post",
        clock("running"),
        {"action": "pause", "remaining": 60},  # not remaining_seconds: refused, not dropped
    ),
    Bad(
        "clock-adjust-huge",
        "post",
        clock("running"),
        {"action": "adjust", "remaining_seconds": 10**12},
    ),
    Bad(
        "clock-adjust-negative",
        "post",
        clock("running"),
        {"action": "adjust", "remaining_seconds": -5},
    ),
    Bad("tables-negative", "post", lambda w: f"/api/v1/tournaments/{T(w)}/tables/", {"count": -1}),
    Bad("tables-huge", "post", lambda w: f"/api/v1/tournaments/{T(w)}/tables/", {"count": 10**20}),
    Bad("tables-bool", "post", lambda w: f"/api/v1/tournaments/{T(w)}/tables/", {"count": True}),
    Bad("table-zero", "post", lambda w: f"/api/v1/matches/{w.ready.pk}/table/", {"table": 0}),
    Bad(
        "walkover-slot",
        "post",
        lambda w: f"/api/v1/matches/{w.ready.pk}/walkover/",
        {"winner": "c"},
    ),
    Bad(
        "hold-not-bool", "post", lambda w: f"/api/v1/matches/{w.ready.pk}/hold/", {"held": "maybe"}
    ),
    Bad(
        "judge-note-too-long",
        "post",
        lambda w: f"/api/v1/matches/{w.running.pk}/judge/",
        {"action": "call", "note": "ы" * 301},
    ),
    Bad("player-name-blank", "post", lambda w: PLAYER, {"name": "   "}, code="invalid"),
    Bad("player-name-nul", "post", lambda w: PLAYER, {"name": "x\x00y"}, code="invalid"),
    Bad("player-rating-huge", "post", lambda w: PLAYER, {"name": "Икс", "rating": 10**30}),
    Bad("player-rating-bool", "post", lambda w: PLAYER, {"name": "Икс", "rating": True}),
    Bad(
        "player-unknown-key",
        "post",
        lambda w: PLAYER,
        {"name": "Икс", "raiting": 1500},
        code="invalid",
        sample=True,
    ),
    Bad(
        "tournament-bad-date",
        "post",
        lambda w: TOURNAMENTS,
        {"name": "Кубок", "date": "2026-13-45"},
    ),
    Bad(
        "tournament-negative-maximum",
        "post",
        lambda w: TOURNAMENTS,
        {"name": "Кубок", "date": "2026-12-01", "max_players": -5},
        code="invalid",
        sample=True,
    ),
    Bad(
        "tournament-huge-fee",
        "post",
        lambda w: TOURNAMENTS,
        {"name": "Кубок", "date": "2026-12-01", "entry_fee": "1e400"},
    ),
    Bad(
        "tournament-playoff-size-beyond-the-column",
        "post",
        lambda w: TOURNAMENTS,
        {"name": "Кубок", "date": "2026-12-01", "playoff_size": 2_131_723},
        code="invalid",
    ),
    Bad(
        "tournament-unknown-key",
        "post",
        lambda w: TOURNAMENTS,
        {"name": "Кубок", "date": "2026-12-01", "max_player": 32},
        code="invalid",
    ),
    Bad(
        "ruleset-not-an-object",
        "patch",
        lambda w: f"{TOURNAMENTS}{w.extra['open'].pk}/",
        {"ruleset": "pyramid"},
    ),
    Bad(
        "shares-not-100",
        "patch",
        lambda w: f"{TOURNAMENTS}{w.extra['open'].pk}/",
        {"place_shares": ["50", "60"]},
    ),
    Bad(
        "correct-huge-score",
        "post",
        lambda w: f"/api/v1/tournaments/{T(w)}/matches/{w.finished.pk}/correct/",
        {"winner": "a", "score_a": 10**12, "score_b": 0},
    ),
    Bad(
        "correct-negative-score",
        "post",
        lambda w: f"/api/v1/tournaments/{T(w)}/matches/{w.finished.pk}/correct/",
        {"winner": "a", "score_a": -1, "score_b": 0},
    ),
    Bad(
        "handicap-negative",
        "post",
        lambda w: f"/api/v1/tournaments/{T(w)}/matches/{w.ready.pk}/handicap/",
        {"head_start": {"a": -1, "b": 2}},
    ),
    Bad(
        "handicap-unknown-key",
        "post",
        lambda w: f"/api/v1/tournaments/{T(w)}/matches/{w.ready.pk}/handicap/",
        {"head_start": {"a": 0, "b": 2, "c": 1}},
        code="invalid",
    ),
    Bad(
        "draw-huge-seed",
        "post",
        lambda w: f"{TOURNAMENTS}{w.extra['open'].pk}/draw/",
        {"method": "random", "random_seed": 10**30},
    ),
    Bad(
        "draw-unknown-method",
        "post",
        lambda w: f"{TOURNAMENTS}{w.extra['open'].pk}/draw/",
        {"method": "alphabetical"},
    ),
    Bad(
        "draw-manual-order-of-strangers",
        "post",
        lambda w: f"{TOURNAMENTS}{w.extra['open'].pk}/draw/",
        {"method": "manual", "order": [10**30, -1]},
        code="invalid",
    ),
    Bad(
        "registration-both-forms",
        "post",
        lambda w: f"{TOURNAMENTS}{w.extra['open'].pk}/registrations/",
        lambda w: {"player_id": w.extra["free_player"].pk, "player": {"name": "Икс"}},
        code="invalid",
    ),
    Bad(
        "registration-player-id-text",
        "post",
        lambda w: f"{TOURNAMENTS}{w.extra['open'].pk}/registrations/",
        {"player_id": "abc"},
    ),
    # --- right shape, wrong moment ---------------------------------------------------------------
    Bad(
        "score-a-finished-match",
        "post",
        lambda w: f"/api/v1/matches/{w.finished.pk}/events/",
        lambda w: {
            "event": {"type": "shot", "player": "a", "pocketed": 1},
            "expected_version": w.finished.version,
        },
        # Refused for the match's status, before the engine (a finished match takes nothing).
        status=409,
        code="match_finished",
    ),
    Bad(
        "draw-twice",
        "post",
        lambda w: f"{TOURNAMENTS}{T(w)}/draw/",
        {"method": "seeded"},
        409,
        "already_drawn",
        sample=True,
    ),
    Bad(
        "register-after-the-draw",
        "post",
        lambda w: f"{TOURNAMENTS}{T(w)}/registrations/",
        lambda w: {"player_id": w.extra["free_player"].pk},
        409,
        "registration_closed",
        sample=True,
    ),
    Bad(
        "register-the-same-player-twice",
        "post",
        lambda w: f"{TOURNAMENTS}{w.extra['open'].pk}/registrations/",
        lambda w: {"player_id": w.extra["open_reg"].player_id},
        409,
        "already_registered",
    ),
    Bad(
        "register-past-the-maximum",
        "post",
        lambda w: f"{TOURNAMENTS}{w.extra['open'].pk}/registrations/",
        lambda w: {"player_id": w.extra["free_player"].pk},
        409,
        "tournament_full",
        sample=True,
    ),
    Bad(
        "undo-on-an-empty-log",
        "post",
        lambda w: f"/api/v1/matches/{w.on_table.pk}/undo/",
        {},
        422,
        "nothing_to_undo",
        sample=True,
    ),
    Bad(
        "pause-before-start",
        "post",
        clock("on_table"),
        {"action": "pause"},
        409,
        "clock_not_started",
        sample=True,
    ),
    Bad(
        "resume-while-running",
        "post",
        clock("running"),
        {"action": "resume"},
        409,
        "clock_not_paused",
    ),
    Bad("start-twice", "post", clock("running"), {"action": "start"}, 409, "clock_already_started"),
    Bad(
        "stale-version",
        "post",
        events,
        with_version(expected_version=0),
        409,
        "stale_version",
        sample=True,
    ),
    Bad(
        "idempotency-key-of-another-kind",
        "post",
        clock("running"),
        {"action": "pause", "idempotency_key": "tap-1"},
        422,
        "idempotency_key_reused",
        prepare=use_key_for_an_event,
    ),
    Bad(
        "open-registration-while-running",
        "post",
        lambda w: f"{TOURNAMENTS}{T(w)}/open-registration/",
        None,
        409,
        "wrong_transition",
    ),
    Bad(
        "handicap-of-a-started-match",
        "post",
        lambda w: f"/api/v1/tournaments/{T(w)}/matches/{w.running.pk}/handicap/",
        {"head_start": {"a": 0, "b": 4}},
        409,
    ),
    Bad(
        "free-a-free-table",
        "post",
        lambda w: f"/api/v1/tournaments/{T(w)}/tables/3/free/",
        None,
        409,
        "table_free",
    ),
    Bad(
        "send-to-a-busy-table",
        "post",
        lambda w: f"/api/v1/matches/{w.ready.pk}/table/",
        {"table": 1},
        409,
        "table_busy",
    ),
    Bad(
        "walkover-of-a-finished-match",
        "post",
        lambda w: f"/api/v1/matches/{w.finished.pk}/walkover/",
        {"winner": "b"},
        409,
        "match_closed",
    ),
    Bad(
        "correct-an-unfinished-match",
        "post",
        lambda w: f"/api/v1/tournaments/{T(w)}/matches/{w.ready.pk}/correct/",
        {"winner": "a", "score_a": 30, "score_b": 10},
        409,
    ),
    # --- ids and query parameters ----------------------------------------------------------------
    Bad("match-id-text", "get", lambda w: "/api/v1/matches/abc/", status=404, sample=True),
    Bad("match-id-huge", "get", lambda w: "/api/v1/matches/99999999999999999999/", status=404),
    Bad(
        "tournament-id-huge",
        "post",
        lambda w: "/api/v1/tournaments/99999999999999999999/registrations/",
        {"player": {"name": "Икс"}},
        status=404,
    ),
    Bad(
        "registration-of-another-tournament",
        "patch",
        lambda w: f"{TOURNAMENTS}{T(w)}/registrations/{w.extra['open_reg'].pk}/",
        {"paid": False},
        status=404,
    ),
    Bad(
        "unknown-player-id",
        "post",
        lambda w: f"{TOURNAMENTS}{w.extra['open'].pk}/registrations/",
        {"player_id": 10**30},  # beyond any id: refused by validation, not looked up
    ),
    Bad("events-after-text", "get", lambda w: f"{events(w)}?after=abc", sample=True),
    Bad("audit-match-text", "get", lambda w: f"{TOURNAMENTS}{T(w)}/audit/?match=abc"),
    Bad("audit-match-negative", "get", lambda w: f"{TOURNAMENTS}{T(w)}/audit/?match=-3"),
    Bad("audit-match-huge", "get", lambda w: f"{TOURNAMENTS}{T(w)}/audit/?match={10**25}"),
    Bad("player-search-nul", "get", lambda w: f"{PLAYER}?search=%00"),
    Bad(
        "draw-preview-bad-method",
        "get",
        lambda w: f"{TOURNAMENTS}{w.extra['open'].pk}/draw-preview/?method=alphabetical",
    ),
    Bad(
        "draw-preview-bad-order",
        "get",
        lambda w: f"{TOURNAMENTS}{w.extra['open'].pk}/draw-preview/?method=manual&order=a,b",
    ),
]


def client(w: World, language: str) -> APIClient:
    api = APIClient(HTTP_ACCEPT_LANGUAGE=language)
    api.credentials(HTTP_AUTHORIZATION=f"Token {w.extra['token']}")
    return api


def send(w: World, case: Bad, language: str = "ru") -> Any:
    api = client(w, language)
    body = case.body(w) if callable(case.body) else case.body
    if isinstance(body, dict):
        body = json.dumps(body)
    return api.generic(
        case.method.upper(), case.url(w), data=body or "", content_type=case.content_type
    )


def message_of(body: Any) -> str:
    """The sentence a client shows: our shape's "message", DRF's "detail", or the first field
    error of a DRF validation answer."""
    if isinstance(body, dict):
        for key in ("message", "detail"):
            if isinstance(body.get(key), str):
                return body[key]
        for value in body.values():
            found = message_of(value)
            if found:
                return found
    if isinstance(body, list):
        for value in body:
            found = message_of(value)
            if found:
                return found
    return body if isinstance(body, str) else ""


def test_the_catalogue_is_large_and_its_ids_unique() -> None:
    ids = [case.id for case in CASES]
    assert len(ids) >= 40 and len(set(ids)) == len(ids)


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.id)
def test_a_bad_request_is_refused_and_changes_nothing(world, case: Bad) -> None:
    api = client(world, "ru")
    if case.prepare is not None:
        case.prepare(world, api)
    before = dump_tables()

    response = send(world, case)

    assert response.status_code == case.status, response.content[:500]
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    if case.code is not None:
        assert body["code"] == case.code
    message = message_of(body)
    assert message.strip(), body
    assert "Traceback" not in message and "object at 0x" not in message
    assert dump_tables() == before


SAMPLE = [case for case in CASES if case.sample]


@pytest.mark.parametrize("case", SAMPLE, ids=lambda case: case.id)
def test_the_refusal_is_said_in_russian_or_english(world, case: Bad) -> None:
    """The same refusal in both languages of the UI: Cyrillic for Accept-Language: ru, none
    for en (the sample's messages name no player)."""
    messages = {}
    for language in ("ru", "en"):
        with transaction.atomic():
            api = client(world, language)
            if case.prepare is not None:
                case.prepare(world, api)
            response = send(world, case, language)
            assert response.status_code == case.status
            messages[language] = message_of(response.json())
            transaction.set_rollback(True)
    assert CYRILLIC.search(messages["ru"]), messages
    assert not CYRILLIC.search(messages["en"]) and re.search("[a-z]", messages["en"]), messages
    assert messages["ru"] != messages["en"]
