"""A private tournament does not exist for those who may not see it: every URL of the project
answers its ids (the tournament, its matches, tables and registrations) exactly as it answers
ids that were never given out, status, headers that matter and body, byte for byte.

The URL list comes from the resolver: a new endpoint is walked without being listed here."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest
from django.db import transaction
from django.db.models import Max
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from rest_framework.views import APIView

from matches.models import Match
from tests.factories import PlayerFactory, UserFactory
from tests.security.test_permissions_matrix import SPECS, client_for, world_client
from tests.world import World, build_world
from tournaments.models import Player, RatingChange, Registration, Tournament

pytestmark = pytest.mark.django_db

UNKNOWN_OFFSET = 100_000  # past every id the world made
# Anonymous, a login with no role, staff of other tournaments, and a player of this one (his
# login linked to a player of its running match: he plays in it but may not see it).
STRANGERS = ("anonymous", "outsider", "organiser_other", "referee_other", "player")
# Not tied to a tournament (players are shared by every tournament), or the Django admin,
# which only staff reach and which scopes its lists to the organiser's tournaments.
SKIPPED_NAMESPACES = ("admin",)


def walk_urls() -> list[tuple[str, str, list[str], Any]]:
    """(name, pattern text, its parameters, callback) of every named URL with parameters."""
    found: list[tuple[str, str, list[str], Any]] = []

    def walk(patterns: list[Any], namespace: str | None, prefix: str) -> None:
        for entry in patterns:
            if isinstance(entry, URLResolver):
                inner = entry.namespace or namespace
                walk(entry.url_patterns, inner, prefix + str(entry.pattern))
            elif isinstance(entry, URLPattern) and entry.name:
                if namespace in SKIPPED_NAMESPACES:
                    continue
                text = prefix + str(entry.pattern)
                params = list(entry.pattern.regex.groupindex)
                if params:
                    found.append((entry.name, text, params, entry.callback))

    walk(get_resolver().url_patterns, None, "")
    return found


def is_api(callback: Any) -> bool:
    cls = getattr(callback, "cls", None) or getattr(callback, "view_class", None)
    return isinstance(cls, type) and issubclass(cls, APIView)


def kind_of_pk(text: str) -> str:
    """What `pk` names in a URL: a match (m/<pk>/, matches/<pk>/), a tournament or a player."""
    if "players/" in text:
        return "player"
    if text.startswith(("m/", "panel/m/")) or "matches/(?P<pk>" in text:
        return "match"
    return "tournament"


def ids(world: World, *, unknown: bool) -> dict[str, int]:
    """The ids that fill a URL: the private tournament's own, or ids nobody was given."""
    if unknown:
        top = max(
            Tournament.objects.aggregate(m=Max("pk"))["m"],
            Match.objects.aggregate(m=Max("pk"))["m"],
            Registration.objects.aggregate(m=Max("pk"))["m"],
        )
        missing = top + UNKNOWN_OFFSET
        return {"tournament": missing, "match": missing, "registration": missing}
    return {
        "tournament": world.tournament.pk,
        "match": world.running.pk,
        "registration": world.registrations[0].pk,
    }


def url_for(name: str, text: str, params: list[str], world: World, *, unknown: bool) -> str:
    given = ids(world, unknown=unknown)
    kwargs: dict[str, Any] = {}
    for param in params:
        if param == "pk":
            kwargs[param] = given[kind_of_pk(text)]
        elif param == "tournament_pk":
            kwargs[param] = given["tournament"]
        elif param in ("match_pk", "match"):
            kwargs[param] = given["match"]
        elif param in ("registration_pk", "reg"):
            kwargs[param] = given["registration"]
        elif param == "number":
            kwargs[param] = 1  # table 1 exists in the private tournament
        elif param == "user_id":
            kwargs[param] = world.referee.pk
        elif param == "player":
            kwargs[param] = world.registrations[0].player_id
        elif param in ("req", "request_pk"):
            # A request to be added (players' side): found through its tournament first.
            kwargs[param] = given["registration"]
        elif param in ("uidb64", "token"):
            kwargs[param] = "x"  # a password reset link: not of any tournament
        elif param == "delivery_id":
            # A webhook's delivery: its owner's, found through his hook, never a tournament.
            kwargs[param] = "00000000-0000-0000-0000-000000000000"
        elif param == "format":
            continue
        else:  # pragma: no cover - a new URL parameter needs its meaning here
            raise AssertionError(f"{name}: what is the URL parameter {param!r}?")
    return reverse(name, kwargs=kwargs)


def bodies(name: str, method: str, world: World) -> list[Any]:
    """An empty body and, where the permission matrix has one, the body that would succeed
    for someone allowed: a refusal must not depend on how far the request gets."""
    out: list[Any] = [{}]
    spec = SPECS.get(name)
    call = spec.calls.get(method) if spec else None
    if call is not None and call.body is not None:
        out.append(call.body(world) if callable(call.body) else call.body)
    return out


def answer(client: Client, method: str, url: str, body: Any, *, api: bool) -> tuple[Any, ...]:
    """What a stranger learns from one request: status, type, where it sends him, the body."""
    with transaction.atomic():
        if api:
            response = client.generic(
                method, url, data=json.dumps(body), content_type="application/json"
            )
        elif method == "POST":
            response = client.post(url, body)
        else:
            response = client.generic(method, url)
        transaction.set_rollback(True)
    location = response.get("Location", "").replace(quote(url), "<url>").replace(url, "<url>")
    return (response.status_code, response.get("Content-Type"), location, response.content)


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker) -> Iterator[World]:
    with django_db_blocker.unblock(), transaction.atomic():
        built = build_world(public=False)
        built.extra["outsider"] = UserFactory()
        built.extra["unregistered"] = PlayerFactory()
        # A login its organiser may name as a referee (the matrix's body for adding one).
        built.extra["issued"] = built.referee
        # The strangers logged in once, with the world (their sessions outlive every test).
        built.extra["clients"] = {
            (role, api): client_for(stranger(built, role), api_client=api)
            for role in STRANGERS
            for api in (False, True)
        }
        yield built
        transaction.set_rollback(True)


def stranger(world: World, role: str) -> Any:
    return {
        "anonymous": None,
        "outsider": world.extra["outsider"],
        "organiser_other": world.other_organiser,
        "referee_other": world.other_referee,
        "player": world.player_user,
    }[role]


def _walk_cases() -> list[Any]:
    return [
        pytest.param(name, text, params, callback, id=name)
        for name, text, params, callback in walk_urls()
        # Players are one shared registry: their pages exist for everyone (what they show of
        # private tournaments is tested with the rating history).
        if (kind_of_pk(text) != "player" or "pk" not in params) and "player_id" not in params
    ]


@pytest.mark.parametrize(("name", "text", "params", "callback"), _walk_cases())
def test_private_answers_as_unknown(world, name, text, params, callback) -> None:
    api = is_api(callback)
    private_url = url_for(name, text, params, world, unknown=False)
    unknown_url = url_for(name, text, params, world, unknown=True)
    methods = (
        ("GET", "HEAD", "OPTIONS", "POST", "PATCH", "PUT", "DELETE")
        if api
        else ("GET", "HEAD", "OPTIONS", "POST")
    )
    differences = []
    for role in STRANGERS:
        for method in methods:
            for body in bodies(name, method, world):
                with world_client(world, role, api_client=api) as client:
                    private = answer(client, method, private_url, body, api=api)
                with world_client(world, role, api_client=api) as client:
                    unknown = answer(client, method, unknown_url, body, api=api)
                if private != unknown:
                    differences.append((role, method, body, private, unknown))
                # Nothing of the tournament, not even a form to write to it, is ever shown.
                if method != "OPTIONS":  # DRF describes the endpoint, not the object
                    assert not 200 <= private[0] < 300, (role, method, private_url, private[:3])
    assert differences == []


def test_the_walk_reaches_every_kind_of_url() -> None:
    names = {name for name, *_ in walk_urls()}
    for expected in (
        "public-tournament",
        "public-match",
        "tournament-tables",
        "tournament-table-free",
        "match-detail",
        "match-events",
        "registration-detail",
        "panel-tournament",
        "panel-match",
    ):
        assert expected in names


def test_the_api_says_not_found_in_one_way(world) -> None:
    """The issue's case: the table board of a private tournament, read and written."""
    client = client_for(stranger(world, "outsider"), api_client=True)
    for url in (
        f"/api/v1/tournaments/{world.tournament.pk}/tables/",
        f"/api/v1/matches/{world.running.pk}/",
    ):
        response = client.get(url)
        assert response.status_code == 404
        assert set(response.json()) == {"code", "message", "params"}
        assert response.json()["code"] == "not_found"
    response = client.post(
        f"/api/v1/tournaments/{world.tournament.pk}/tables/", {"count": 4}, format="json"
    )
    assert response.status_code == 404 and response.json()["code"] == "not_found"


# --- players: shared by every tournament, but not their logins or private games -------------


def test_anonymous_player_reads_carry_no_login_ids(world, api) -> None:
    linked = Player.objects.get(user=world.player_user)
    detail = api.get(f"/api/v1/players/{linked.pk}/").json()
    assert detail["user"] is None
    listing = api.get("/api/v1/players/", {"limit": 1000}).json()["results"]
    assert listing and all(row["user"] is None for row in listing)
    text = api.get(f"/api/v1/players/{linked.pk}/").content.decode()
    assert f'"user":{world.player_user.pk}' not in text.replace(" ", "")


def test_anonymous_tournament_reads_carry_no_login_names(world, api) -> None:
    other = world.other  # public
    assert api.get(f"/api/v1/tournaments/{other.pk}/").json()["organisers"] == []
    assert all(t["organisers"] == [] for t in api.get("/api/v1/tournaments/").json()["results"])
    api.force_authenticate(world.other_referee)
    names = api.get(f"/api/v1/tournaments/{other.pk}/").json()["organisers"]
    assert names == [world.other_organiser.username]


def test_the_player_himself_and_organisers_see_the_link(world, api) -> None:
    linked = Player.objects.get(user=world.player_user)
    for user in (world.player_user, world.organiser, world.superuser):
        api.force_authenticate(user)
        assert api.get(f"/api/v1/players/{linked.pk}/").json()["user"] == world.player_user.pk
    api.force_authenticate(world.extra["outsider"])
    assert api.get(f"/api/v1/players/{linked.pk}/").json()["user"] is None


def test_public_rating_history_adds_up_without_naming_private_tournaments(world, api) -> None:
    player = PlayerFactory(rating=1500)
    public = world.other  # a public tournament of another organiser
    steps = [(public, 12), (world.tournament, -20), (world.tournament, 7), (None, 30)]
    rating = 1500
    for tournament, delta in steps:
        RatingChange.objects.create(
            player=player,
            tournament=tournament,
            rating_before=rating,
            rating_after=rating + delta,
            delta=delta,
            reason="match" if tournament else "manual",
        )
        rating += delta
    Player.objects.filter(pk=player.pk).update(rating=rating)

    body = api.get(f"/api/v1/players/{player.pk}/").json()
    history = body["rating_history"]
    assert 1500 + sum(line["delta"] for line in history) == body["rating"]
    private = [line for line in history if line["reason"] == "private"]
    assert len(private) == 1 and private[0]["delta"] == -13
    assert private[0]["tournament"] is None and private[0]["created_at"] is None
    text = json.dumps(body, ensure_ascii=False)
    assert world.tournament.name not in text
    assert all(line["tournament"] != world.tournament.pk for line in history)

    # Its organiser sees the two matches themselves.
    api.force_authenticate(world.organiser)
    history = api.get(f"/api/v1/players/{player.pk}/").json()["rating_history"]
    assert [line["reason"] for line in history].count("private") == 0
    assert sum(line["tournament"] == world.tournament.pk for line in history) == 2
