"""Who may do what: every URL of the project × every role × every method → the expected answer.

The URL list comes from the resolver, so a new endpoint or page fails
`test_every_url_is_in_the_matrix` until it is added to SPECS with its access rule. The rules
(the rows of EXPECT) are the decisions documented in docs/reliability.md:

- A tournament the user may not see (private, and he neither organises nor referees it) does
  not exist for him: 404 for its pages, API reads and API writes alike, as for an unknown id.
- Something he may see but not do: 403 (anonymous API writes too: session authentication
  comes first, so DRF answers 403, not 401). Pages send an anonymous user to the login page.
- A refused request changes nothing (the audit log, which every write feeds, stays the same).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.contrib import admin
from django.db import transaction
from django.db.models import Max
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from rest_framework.test import APIClient
from rest_framework.views import APIView

from audit.models import AuditEntry
from matches.models import Match, MatchEvent, Table
from tests.factories import UserFactory
from tests.world import World, build_finished, build_world
from tournaments.models import (
    Player,
    PlayerChange,
    PlayerRequest,
    RatingChange,
    Registration,
    Tournament,
    Webhook,
    WebhookDelivery,
)
from tournaments.services import referee_login_create
from tournaments.services.series import series_create

pytestmark = pytest.mark.django_db

ROLES = (
    "anonymous",
    "player",  # a login linked to a player of the tournament (self-scoring off)
    "referee",  # a referee of this tournament
    "referee_other",  # a referee of another tournament
    "organiser_other",  # an organiser of another tournament
    "organiser",  # an organiser of this tournament
    "superuser",
)
OK = "ok"  # the endpoint's own answer for someone allowed (Spec.ok)
LOGIN = "login"  # 302 to a login page

# Rows of the matrix: the answer per role, in the order of ROLES, for a public and for a
# private tournament.
EXPECT: dict[str, tuple[tuple[Any, ...], tuple[Any, ...]]] = {
    # Not tied to a tournament: lists, the schema, the presets.
    "open": ((OK,) * 7, (OK,) * 7),
    # Reads of a tournament's public data (API and public pages).
    "view": ((OK,) * 7, (404, 404, OK, 404, 404, OK, OK)),
    # Reads for the organisers only (fee totals, draw preview, audit log).
    "manage_read": (
        (403, 403, 403, 403, 403, OK, OK),
        (404, 404, 403, 404, 404, OK, OK),
    ),
    # Writes of the organisers.
    "manage": (
        (403, 403, 403, 403, 403, OK, OK),
        (403, 404, 403, 404, 404, OK, OK),
    ),
    # Scoring a match: its tournament's organisers and referees.
    "score": (
        (403, 403, OK, 403, 403, OK, OK),
        (403, 404, OK, 404, 404, OK, OK),
    ),
    # Shared data any organiser may write (players, new tournaments).
    "organiser_role": ((403, 403, 403, 403, OK, OK, OK),) * 2,
    # The organiser panel of one tournament.
    "panel": (
        (LOGIN, 403, 403, 403, 403, OK, OK),
        (LOGIN, 404, 403, 404, 404, OK, OK),
    ),
    # The referee's scoring form.
    "referee_page": (
        (LOGIN, 403, OK, 403, 403, OK, OK),
        (LOGIN, 404, OK, 404, 404, OK, OK),
    ),
    # Any login.
    "login_required": ((LOGIN, OK, OK, OK, OK, OK, OK),) * 2,
    # Pages of the organiser role, not of one tournament (a new tournament).
    "organiser_page": ((LOGIN, 403, 403, 403, OK, OK, OK),) * 2,
    # The Django admin: superusers only (organisers, even with the staff flag, are sent to
    # its login page).
    "admin": ((LOGIN, LOGIN, LOGIN, LOGIN, LOGIN, LOGIN, OK),) * 2,
    # A player's name, city, club, claim code: superusers and the organisers of a tournament
    # he is in (API; players are shared, so nobody gets a 404).
    "player_edit": ((403, 403, 403, 403, 403, OK, OK),) * 2,
    # The same rule on the panel's pages.
    "player_page_edit": ((LOGIN, 403, 403, 403, 403, OK, OK),) * 2,
    # A superuser's task (a merge).
    # A proposed change of a player's record: the player himself and superusers decide.
    "change_decide": ((LOGIN, OK, 404, 404, 404, 404, OK),) * 2,
    "superuser": ((403, 403, 403, 403, 403, 403, OK),) * 2,
    "superuser_page": ((LOGIN, 403, 403, 403, 403, 403, OK),) * 2,
    # An API token: the logins that write through the API, organisers and referees (of any
    # tournament); a player's login has none.
    "token_holder": ((403, 403, OK, OK, OK, OK, OK),) * 2,
    # The password-for-token exchange is open to anyone: without credentials it is a 400.
    "token_exchange": ((400, 403, OK, OK, OK, OK, OK),) * 2,
    # Any login, in the API (session authentication: anonymous gets 403).
    "api_login": ((403, OK, OK, OK, OK, OK, OK),) * 2,
    # The login page sends a logged-in user on.
    "anonymous_only": ((OK, 302, 302, 302, 302, 302, 302),) * 2,
    # A player's own write in a tournament he may see (online entry, a request to be added):
    # any login; the service then answers for his state.
    "login_write": (
        (403, OK, OK, OK, OK, OK, OK),
        (403, 404, OK, 404, 404, OK, OK),
    ),
    # The same on the entry page (anonymous is sent to log in where he may see it).
    "entry_page_write": (
        (LOGIN, OK, OK, OK, OK, OK, OK),
        (404, 404, OK, 404, 404, OK, OK),
    ),
    # A club cup: its organisers (the one who made it) and superusers; a public cup is seen
    # by everyone, whatever its stages.
    "series_manage": ((403, 403, 403, 403, 403, OK, OK),) * 2,
    "series_page_manage": ((LOGIN, 403, 403, 403, 403, OK, OK),) * 2,
    # An organiser's own webhooks: the role first (403), then his own only; another's hook
    # is an unknown id (404), for another organiser and a superuser alike.
    "webhook_owner": ((403, 403, 403, 403, 404, OK, 404),) * 2,
    # /me/'s diploma: the logged-in player's own, of a finished tournament he may see; nobody
    # here placed in it (the world's player plays in the running one), so every login gets
    # the 404 of "no diploma there", and nobody prints another's through /me/.
    "own_diploma": ((LOGIN, 404, 404, 404, 404, 404, 404),) * 2,
}

Body = dict[str, Any] | Callable[[World], dict[str, Any]] | None


@dataclass
class Call:
    kind: str
    ok: int
    body: Body = None


@dataclass
class Spec:
    kwargs: Callable[[World], dict[str, Any]] = lambda w: {}
    calls: dict[str, Call] = field(default_factory=dict)
    api: bool = False
    # Not tied to the tournament: checked once, in the public world.
    global_: bool = False
    # More calls of a method already in `calls` (another body: a confirmation's two steps).
    also: list[tuple[str, Call]] = field(default_factory=list)


def T(w: World) -> dict[str, Any]:
    return {"tournament_pk": w.tournament.pk}


def pk_t(w: World) -> dict[str, Any]:
    return {"pk": w.tournament.pk}


def running(w: World) -> dict[str, Any]:
    return {"pk": w.running.pk}


def ready(w: World) -> dict[str, Any]:
    return {"pk": w.ready.pk}


def reg_of_ready(w: World) -> Registration:
    return w.registration_of(w.ready.player_b_id)


def next_shot(w: World) -> dict[str, Any]:
    match = Match.objects.get(pk=w.running.pk)
    event = {"type": "shot", "player": match.state["turn"], "pocketed": 0}
    return {"event": event, "expected_version": match.version}


def new_tournament(w: World) -> dict[str, Any]:
    return {"name": "Осенний кубок", "date": "2026-12-20", "preset": "free_pyramid_30"}


GET, POST, PATCH = "GET", "POST", "PATCH"


def api(kwargs: Callable[[World], dict[str, Any]], **calls: Call) -> Spec:
    return Spec(kwargs=kwargs, calls={m.upper(): c for m, c in calls.items()}, api=True)


def page(kwargs: Callable[[World], dict[str, Any]], **calls: Call) -> Spec:
    return Spec(kwargs=kwargs, calls={m.upper(): c for m, c in calls.items()})


def panel_action(kwargs: Callable[[World], dict[str, Any]], body: Body = None) -> Spec:
    # A panel action answers with a redirect back (its message says what happened).
    return page(kwargs, post=Call("panel", 302, body))


def finished_pk(w: World) -> dict[str, Any]:
    return {"pk": w.extra["finished"].pk}


def diploma(w: World) -> dict[str, Any]:
    tournament = w.extra["finished"]
    final = Match.objects.get(tournament=tournament, stage="single", winner_to__isnull=True)
    return {"pk": tournament.pk, "player": final.winner_id}


SPECS: dict[str, Spec] = {
    # --- API: not tied to a tournament ----------------------------------------------------
    "api-schema": Spec(calls={GET: Call("open", 200)}, api=True, global_=True),
    "api-docs": Spec(calls={GET: Call("open", 200)}, api=True, global_=True),
    "preset-list": Spec(calls={GET: Call("open", 200)}, api=True, global_=True),
    "api-token": Spec(
        calls={
            GET: Call("token_holder", 200),
            POST: Call("token_exchange", 201),
            "DELETE": Call("token_holder", 204),
        },
        api=True,
        global_=True,
    ),
    # An organiser's webhooks (an address literal: no name to resolve).
    "webhook-list": Spec(
        calls={
            GET: Call("organiser_role", 200),
            POST: Call("organiser_role", 201, {"url": "https://93.184.216.34/hook"}),
        },
        api=True,
        global_=True,
    ),
    "webhook-detail": Spec(
        kwargs=lambda w: {"pk": w.extra["webhook"].pk},
        calls={
            GET: Call("webhook_owner", 200),
            PATCH: Call("webhook_owner", 200, {"is_active": False}),
            "DELETE": Call("webhook_owner", 204),
        },
        api=True,
        global_=True,
    ),
    "webhook-deliveries": Spec(
        kwargs=lambda w: {"pk": w.extra["webhook"].pk},
        calls={GET: Call("webhook_owner", 200)},
        api=True,
        global_=True,
    ),
    "webhook-replay": Spec(
        kwargs=lambda w: {
            "pk": w.extra["webhook"].pk,
            "delivery_id": str(w.extra["delivery"].delivery_id),
        },
        calls={POST: Call("webhook_owner", 200)},
        api=True,
        global_=True,
    ),
    "player-list": api(
        lambda w: {},
        get=Call("open", 200),
        post=Call("organiser_role", 201, {"name": "Новиков Семён"}),
    ),
    "player-detail": api(
        lambda w: {"pk": w.registrations[0].player_id},
        get=Call("open", 200),
        patch=Call("player_edit", 200, {"city": "Тула"}),
    ),
    "player-claim-issue": api(
        lambda w: {"pk": reg_of_ready(w).player_id}, post=Call("player_edit", 201, {})
    ),
    # An unknown code: refused for every login (400), refused before anything for anonymous.
    "player-claim-redeem": api(
        lambda w: {}, post=Call("api_login", 400, {"code": "AAAA-BBBB-CCCC"})
    ),
    "player-history": api(
        lambda w: {"pk": reg_of_ready(w).player_id}, get=Call("organiser_role", 200)
    ),
    "player-merge": api(
        lambda w: {"pk": reg_of_ready(w).player_id},
        post=Call("superuser", 200, lambda w: {"drop": w.extra["unregistered"].pk}),
    ),
    # --- the players' side (tournaments.web.api.players) -----------------------------------------
    "player-ratings": api(lambda w: {}, get=Call("open", 200)),
    "player-profile": api(lambda w: {"pk": w.registrations[0].player_id}, get=Call("open", 200)),
    "player-head-to-head": api(
        lambda w: {"pk": w.finished.player_a_id, "other": w.finished.player_b_id},
        get=Call("open", 200),
    ),
    "me-api": api(lambda w: {}, get=Call("api_login", 200)),
    "series-list": api(
        lambda w: {},
        get=Call("open", 200),
        post=Call("organiser_role", 201, {"name": "Кубок зимы", "points_table": [10, 6, 4]}),
    ),
    "series-detail": api(
        lambda w: {"pk": w.extra["series"].pk},
        get=Call("open", 200),
        patch=Call("series_manage", 200, {"best_of": 2}),
    ),
    "series-standings": api(lambda w: {"pk": w.extra["series"].pk}, get=Call("open", 200)),
    # The world's tournament is drawn: entry, check-in and the settings are closed (409).
    "tournament-entry": api(T, get=Call("view", 200), post=Call("login_write", 409)),
    "tournament-entry-withdraw": api(T, post=Call("login_write", 409)),
    "tournament-entry-settings": api(
        T, get=Call("view", 200), patch=Call("manage", 409, {"entry_max_rating": 1500})
    ),
    "tournament-reserves": api(T, get=Call("view", 200)),
    "registration-check-in": api(
        lambda w: {**T(w), "registration_pk": reg_of_ready(w).pk},
        post=Call("manage", 409, {"present": True}),
    ),
    "registration-remove-absent": api(T, post=Call("manage", 409)),
    "tournament-player-requests": api(
        T,
        get=Call("manage_read", 200),
        post=Call("login_write", 409, {"name": "Новый Игрок"}),
    ),
    "tournament-player-request-decide": api(
        lambda w: {**T(w), "request_pk": w.extra["request"].pk},
        post=Call("manage", 200, {"approve": False}),
    ),
    "tournament-list": api(
        lambda w: {}, get=Call("open", 200), post=Call("organiser_role", 201, new_tournament)
    ),
    # --- API: one tournament -----------------------------------------------------------------
    "tournament-detail": api(
        pk_t, get=Call("view", 200), patch=Call("manage", 409, {"description": "Финал"})
    ),
    "tournament-bracket": api(pk_t, get=Call("view", 200)),
    "tournament-standings": api(pk_t, get=Call("view", 200)),
    "tournament-prizes": api(pk_t, get=Call("view", 200)),
    "tournament-draw": api(pk_t, post=Call("manage", 409, {"method": "seeded"})),
    "tournament-draw-preview": api(pk_t, get=Call("manage_read", 409)),
    "tournament-open-registration": api(pk_t, post=Call("manage", 409)),
    "tournament-start": api(pk_t, post=Call("manage", 409)),
    "tournament-close-registration": api(pk_t, post=Call("manage", 409)),
    "tournament-reopen-registration": api(pk_t, post=Call("manage", 409)),
    "tournament-audit": api(T, get=Call("manage_read", 200)),
    "registration-list": api(
        T, get=Call("view", 200), post=Call("manage", 409, {"player": {"name": "Поздний Игрок"}})
    ),
    "registration-totals": api(T, get=Call("manage_read", 200)),
    "registration-detail": api(
        lambda w: {**T(w), "registration_pk": reg_of_ready(w).pk},
        get=Call("view", 200),
        patch=Call("manage", 200, {"paid": False}),
    ),
    "registration-withdraw": api(
        lambda w: {**T(w), "registration_pk": reg_of_ready(w).pk},
        post=Call("manage", 200, {"reason": "заболел"}),
    ),
    # The world's registrations are active: refused (409 registration_active) to whoever may.
    "registration-refund": api(
        lambda w: {**T(w), "registration_pk": reg_of_ready(w).pk},
        post=Call("manage", 409, {"reason": "вернули взнос"}),
    ),
    "registration-disqualify": api(
        lambda w: {**T(w), "registration_pk": reg_of_ready(w).pk},
        post=Call("manage", 200, {"reason": "неспортивное поведение"}),
    ),
    "match-no-show": api(
        lambda w: {**T(w), "match_pk": w.ready.pk}, post=Call("manage", 200, {"absent": "b"})
    ),
    "match-handicap": api(
        lambda w: {**T(w), "match_pk": w.ready.pk},
        post=Call("manage", 200, {"head_start": {"a": 0, "b": 4}}),
    ),
    "match-correct": api(
        lambda w: {**T(w), "match_pk": w.finished.pk},
        post=Call("manage", 200, {"winner": "b", "score_a": 0, "score_b": 1}),
    ),
    "match-rating-changes": api(
        lambda w: {**T(w), "match_pk": w.finished.pk}, get=Call("view", 200)
    ),
    "tournament-referees": api(
        T,
        get=Call("manage_read", 200),
        post=Call("manage", 200, lambda w: {"username": w.extra["issued"].username}),
    ),
    "tournament-referee-login-create": api(
        T, post=Call("manage", 201, {"username": "new-judge", "name": "Новый Судья"})
    ),
    "tournament-referee-detail": api(
        lambda w: {**T(w), "user_id": w.referee.pk}, delete=Call("manage", 204)
    ),
    "tournament-referee-password": api(
        lambda w: {**T(w), "user_id": w.extra["issued"].pk}, post=Call("manage", 200)
    ),
    "tournament-tables": api(T, get=Call("view", 200), post=Call("manage", 200, {"count": 4})),
    "tournament-tables-assign": api(T, post=Call("manage", 200)),
    "tournament-table-free": api(lambda w: {**T(w), "number": 2}, post=Call("manage", 200)),
    # --- API: one match ------------------------------------------------------------------------
    "match-detail": api(running, get=Call("view", 200)),
    "match-audit": api(running, get=Call("manage_read", 200)),
    "match-events": api(running, get=Call("view", 200), post=Call("score", 201, next_shot)),
    "match-undo": api(running, post=Call("score", 201, {})),
    "match-clock": api(running, post=Call("score", 200, {"action": "pause"})),
    "match-judge": api(running, post=Call("score", 200, {"action": "call"})),
    "match-hold": api(ready, post=Call("manage", 200, {"held": True})),
    "match-table": api(ready, post=Call("manage", 200, {"table": 3})),
    "match-walkover": api(ready, post=Call("manage", 200, {"winner": "a"})),
    # --- public pages ----------------------------------------------------------------------------
    "home": Spec(calls={GET: Call("open", 200)}, global_=True),
    "public-tournament": page(pk_t, get=Call("view", 200)),
    "public-bracket": page(pk_t, get=Call("view", 200)),
    "public-standings": page(pk_t, get=Call("view", 200)),
    "public-prizes": page(pk_t, get=Call("view", 200)),
    "public-match": page(running, get=Call("view", 200)),
    "public-table-overlay": page(lambda w: {**pk_t(w), "number": 1}, get=Call("view", 200)),
    "players-list": Spec(calls={GET: Call("open", 200)}, global_=True),
    "players-detail": page(lambda w: {"pk": w.registrations[0].player_id}, get=Call("open", 200)),
    "players-vs": page(
        lambda w: {"pk": w.finished.player_a_id, "other": w.finished.player_b_id},
        get=Call("open", 200),
    ),
    "players-entry": page(
        pk_t, get=Call("view", 200), post=Call("entry_page_write", 409, {"action": "enter"})
    ),
    "series": page(lambda w: {"pk": w.extra["series"].pk}, get=Call("open", 200)),
    "me": Spec(calls={GET: Call("login_required", 200)}, global_=True),
    "me-diploma": page(finished_pk, get=Call("own_diploma", 200)),
    # Push streams: read as the tournament's pages are (204 here: no stream server in front).
    "tournament-stream": page(pk_t, get=Call("view", 204)),
    "match-stream": page(running, get=Call("view", 204)),
    "public-table": page(lambda w: {**pk_t(w), "number": 1}, get=Call("view", 200)),
    # --- the referee's form ------------------------------------------------------------------
    "referee-match": page(running, get=Call("referee_page", 200)),
    # The lateness tap at the table: back to the form (its message says what happened).
    "referee-lateness": page(ready, post=Call("referee_page", 302, {"late": "b"})),
    # The referee's home: any login (it lists only what he may score).
    "referee-home": Spec(calls={GET: Call("login_required", 200)}, global_=True),
    # The service worker carries no match data: anyone may fetch it. A match's manifest is
    # answered as the match is: a private one is unknown to strangers.
    "referee-sw": Spec(calls={GET: Call("open", 200)}, global_=True),
    "referee-manifest": page(running, get=Call("view", 200)),
    # --- organiser panel -------------------------------------------------------------------------
    "panel-home": Spec(calls={GET: Call("login_required", 200)}, global_=True),
    "panel-api-token": Spec(
        calls={GET: Call("organiser_page", 200), POST: Call("organiser_page", 200, {})},
        global_=True,
    ),
    "panel-create": Spec(
        calls={GET: Call("organiser_page", 200), POST: Call("organiser_page", 400, {})},
        global_=True,
    ),
    "panel-tournament": page(pk_t, get=Call("panel", 200)),
    "panel-registrations": page(pk_t, get=Call("panel", 200)),
    "panel-draw": page(pk_t, get=Call("panel", 200), post=Call("panel", 302, {"method": "seeded"})),
    "panel-prizes": page(pk_t, get=Call("panel", 200)),
    "panel-audit": page(pk_t, get=Call("panel", 200)),
    "panel-diplomas": page(finished_pk, get=Call("panel", 200)),
    "panel-diplomas-pdf": page(finished_pk, get=Call("panel", 200)),
    "panel-diploma-pdf": page(diploma, get=Call("panel", 200)),
    "panel-tables": page(pk_t, get=Call("panel", 200)),
    "panel-match": page(running, get=Call("panel", 200)),
    "panel-open-registration": panel_action(pk_t),
    "panel-start": panel_action(pk_t),
    "panel-referee-add": panel_action(pk_t, lambda w: {"username": w.extra["issued"].username}),
    "panel-referee-remove": panel_action(lambda w: {**pk_t(w), "user_id": w.referee.pk}),
    "panel-registration-add": panel_action(pk_t, lambda w: {"player": w.extra["unregistered"].pk}),
    "panel-registration-new": panel_action(pk_t, {"name": "Новый Игрок"}),
    "panel-registration-paid": panel_action(
        lambda w: {**pk_t(w), "reg": reg_of_ready(w).pk}, {"paid": "0"}
    ),
    "panel-registration-withdraw": panel_action(
        lambda w: {**pk_t(w), "reg": reg_of_ready(w).pk}, {"reason": "заболел", "confirmed": "1"}
    ),
    "panel-people": page(pk_t, get=Call("panel", 200)),
    # A slip is the answer to the POST that made its secret (200), not a redirect.
    "panel-referee-login-create": page(pk_t, post=Call("panel", 200, {"username": "slip-judge"})),
    "panel-referee-password": page(
        lambda w: {**pk_t(w), "user_id": w.extra["issued"].pk}, post=Call("panel", 200, {})
    ),
    "panel-player-slip": page(
        lambda w: {**pk_t(w), "player_id": reg_of_ready(w).player_id},
        post=Call("panel", 200, {}),
    ),
    "panel-slip-pdf": page(
        pk_t,
        post=Call(
            "panel",
            200,
            {"kind": "referee", "name": "Судья", "username": "judge", "secret": "abcd-efgh-jkmn"},
        ),
    ),
    "panel-player": page(
        lambda w: {"player_id": reg_of_ready(w).player_id}, get=Call("organiser_page", 200)
    ),
    "panel-player-edit": page(
        lambda w: {"player_id": reg_of_ready(w).player_id},
        post=Call("player_page_edit", 302, {"name": "Переименованный Игрок", "city": "Тула"}),
    ),
    "panel-player-login": page(
        lambda w: {"player_id": reg_of_ready(w).player_id},
        post=Call("superuser_page", 302, lambda w: {"username": w.other_referee.username}),
    ),
    "panel-player-merge": page(
        lambda w: {"player_id": reg_of_ready(w).player_id},
        post=Call("superuser_page", 302, lambda w: {"drop": w.extra["unregistered"].pk}),
    ),
    # Proposing a change of the record: the organisers who met him (the service refuses the
    # others); approving it: the player himself and superusers (anyone else: an unknown id).
    "panel-player-change": page(
        lambda w: {"player_id": reg_of_ready(w).player_id},
        post=Call("player_page_edit", 302, {"name": "Переименованный Игрок", "city": "Тула"}),
    ),
    "player-changes": Spec(calls={GET: Call("login_required", 200)}, global_=True),
    "player-change-decide": page(
        lambda w: {"pk": w.extra["change"].pk}, post=Call("change_decide", 302, {"approve": "0"})
    ),
    "panel-registration-check-in": panel_action(
        lambda w: {**pk_t(w), "reg": reg_of_ready(w).pk}, {"present": "1"}
    ),
    "panel-remove-absent": panel_action(pk_t),
    "panel-player-request": panel_action(
        lambda w: {**pk_t(w), "req": w.extra["request"].pk}, {"approve": "0"}
    ),
    # Drawn: the settings are refused and shown again with the reason (400).
    "panel-entry-settings": page(pk_t, get=Call("panel", 200), post=Call("panel", 400, {})),
    "series-create": Spec(
        calls={GET: Call("organiser_page", 200), POST: Call("organiser_page", 400, {})},
        global_=True,
    ),
    "series-edit": page(
        lambda w: {"pk": w.extra["series"].pk},
        get=Call("series_page_manage", 200),
        post=Call("series_page_manage", 400, {}),
    ),
    "panel-registration-disqualify": panel_action(
        lambda w: {**pk_t(w), "reg": reg_of_ready(w).pk}, {"reason": "неспортивное поведение"}
    ),
    # A no-show asks first: the POST without `confirmed` answers the confirmation page
    # (200, nothing recorded), the one with it records and goes back (302).
    "panel-match-no-show": Spec(
        kwargs=lambda w: {**pk_t(w), "match": w.ready.pk},
        calls={POST: Call("panel", 200, {"absent": "b"})},
        also=[(POST, Call("panel", 302, {"absent": "b", "confirmed": "1"}))],
    ),
    "panel-tables-count": panel_action(pk_t, {"count": 4}),
    "panel-tables-assign-next": panel_action(pk_t),
    "panel-table-free": panel_action(lambda w: {**pk_t(w), "number": 2}, {"confirmed": "1"}),
    "panel-match-clock": panel_action(running, {"action": "pause"}),
    "panel-match-clock-adjust": panel_action(running, {"minutes": 30}),
    "panel-match-walkover": panel_action(ready, {"winner": "a", "confirmed": "1"}),
    "panel-match-correct": panel_action(
        lambda w: {"pk": w.finished.pk},
        {"winner": "b", "score_a": 0, "score_b": 1, "confirmed": "1"},
    ),
    # Settings (an empty form is refused with the fields named), archive, delete (refused
    # here: fees were paid; the answer is the redirect with that message).
    "panel-settings": page(pk_t, get=Call("panel", 200), post=Call("panel", 400, {})),
    "panel-archive": panel_action(pk_t, {"archived": "1", "confirmed": "1"}),
    "panel-delete": panel_action(pk_t, {"confirmed": "1"}),
    # Printouts: pages and PDFs, the organisers' only.
    **{
        f"panel-print-{name}{suffix}": page(pk_t, get=Call("panel", 200))
        for name in ("bracket", "sheets", "tables", "protocol")
        for suffix in ("", "-pdf")
    },
    "panel-print-sheet": page(ready, get=Call("panel", 200)),
    "panel-print-sheet-pdf": page(ready, get=Call("panel", 200)),
    "panel-match-handicap": panel_action(ready, {"head_a": 0, "head_b": 4}),
    "panel-match-assign": panel_action(ready, {"table": 3}),
    "panel-match-move": panel_action(running, {"table": 3}),
    "panel-match-hold": panel_action(ready, {"held": "1"}),
    "panel-match-judge-resolve": panel_action(running, {"note": "разобрались"}),
    # Money and the desk (drawn: closing or reopening the registration is refused with a
    # message, the redirect all the same; the world's registrations are active, so a refund
    # is refused too).
    "panel-close-registration": panel_action(pk_t),
    "panel-reopen-registration": panel_action(pk_t),
    "panel-registration-refund": panel_action(lambda w: {**pk_t(w), "reg": reg_of_ready(w).pk}),
    "panel-match-lateness": panel_action(lambda w: {**pk_t(w), "match": w.ready.pk}, {"late": "b"}),
    "panel-table-time-paid": panel_action(
        lambda w: {**pk_t(w), "match": w.ready.pk},
        lambda w: {"player": w.ready.player_a_id, "paid": "1"},
    ),
    "panel-print-regulation": page(pk_t, get=Call("panel", 200)),
    "panel-print-regulation-pdf": page(pk_t, get=Call("panel", 200)),
    # One's webhooks (no action: back to the page).
    "panel-webhooks": Spec(
        calls={GET: Call("organiser_page", 200), POST: Call("organiser_page", 302, {})},
        global_=True,
    ),
    # --- the site around them ------------------------------------------------------------------
    "healthz": Spec(calls={GET: Call("open", 200)}, global_=True),
    "favicon": Spec(calls={GET: Call("open", 301)}, global_=True),
    "set_language": Spec(calls={POST: Call("open", 302, {"language": "en"})}, global_=True),
    "javascript-catalog": Spec(calls={GET: Call("open", 200)}, global_=True),
    "login": Spec(calls={GET: Call("anonymous_only", 200)}, global_=True),
    "logout": Spec(calls={POST: Call("open", 302, {})}, global_=True),
    # A player's slip link: anyone, since it is how a player without a login makes one; an
    # unknown code is refused (400) with nothing made.
    "people-claim": Spec(
        calls={GET: Call("open", 200), POST: Call("open", 400, {"code": "AAAA-BBBB-CCCC"})},
        global_=True,
    ),
    "password-change": Spec(
        calls={GET: Call("login_required", 200), POST: Call("login_required", 200, {})},
        global_=True,
    ),
    "password-change-done": Spec(calls={GET: Call("login_required", 200)}, global_=True),
    # A player's own login; a logged-in user is sent on to /me/.
    "signup": Spec(
        calls={GET: Call("anonymous_only", 200), POST: Call("anonymous_only", 400, {})},
        global_=True,
    ),
    # Password reset by e-mail exists only where the deployment sends mail (not here: 404).
    "password-reset": Spec(
        calls={GET: Call("open", 404), POST: Call("open", 404, {"email": "a@b.ru"})},
        global_=True,
    ),
    "password-reset-done": Spec(calls={GET: Call("open", 404)}, global_=True),
    "password-reset-confirm": Spec(
        kwargs=lambda w: {"uidb64": "MQ", "token": "set-password"},
        calls={GET: Call("open", 404), POST: Call("open", 404, {})},
        global_=True,
    ),
}
# Every URL of the admin's namespace is the admin's own (staff only, checked on its index
# here); what an organiser sees inside it is scoped to his tournaments (a test below).
NAMESPACES = {"admin": "admin:index"}
ADMIN_SPEC = Spec(calls={GET: Call("admin", 200)}, global_=True)


# --- the world ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def worlds(django_db_setup, django_db_blocker) -> Iterator[dict[str, World]]:
    """Built once for the module (the services make it in ~0.5 s); every request of the tests
    runs in a savepoint that is rolled back, so each one meets the same world."""
    with django_db_blocker.unblock(), transaction.atomic():
        built = {}
        for visibility in ("public", "private"):
            world = build_world(public=visibility == "public")
            world.extra["finished"] = build_finished(
                world.organiser, referee=world.referee, public=visibility == "public"
            )
            world.extra["unregistered"] = Player.objects.create(name="Свободный Игрок")
            world.extra["issued"], _ = referee_login_create(
                tournament=world.tournament,
                actor=world.organiser,
                username=f"issued-{visibility}",
            )
            world.extra["series"] = series_create(
                actor=world.organiser,
                data={"name": f"Кубок клуба {visibility}", "points_table": [10, 6, 4]},
                tournaments=[world.extra["finished"]],
            )
            world.extra["change"] = PlayerChange.objects.create(
                player_id=world.running.player_a_id,
                requested_by=world.organiser,
                fields={"city": "Тула"},
            )
            world.extra["request"] = PlayerRequest.objects.create(
                user=UserFactory(), tournament=world.tournament, name="Просит Добавить"
            )
            world.extra["webhook"] = hook = Webhook.objects.create(
                owner=world.organiser,
                url="https://93.184.216.34/hook",
                secret="s" * 32,
                is_active=False,
            )
            world.extra["delivery"] = WebhookDelivery.objects.create(
                hook=hook,
                delivery_id=uuid.uuid4(),
                event=Webhook.Event.DRAW,
                payload={},
                status=WebhookDelivery.Status.FAILED,
            )
            # One logged-in client per role and kind, logged in here: their sessions live
            # in the module's transaction, not in a test's (logging in is a third of a
            # request's queries otherwise).
            world.extra["clients"] = {
                (role, api_client): client_for(user, api_client=api_client)
                for role, user in world.users().items()
                for api_client in (False, True)
            }
            built[visibility] = world
        yield built
        transaction.set_rollback(True)


def client_for(user: Any, *, api_client: bool) -> Client:
    client = APIClient() if api_client else Client()
    if user is not None:
        client.force_login(user)
    return client


def writes_fingerprint() -> tuple[Any, ...]:
    """What any write would change: every write is audited; the rest are backstops."""
    return (
        AuditEntry.objects.count(),
        MatchEvent.objects.count(),
        Player.objects.count(),
        Tournament.objects.count(),
        Registration.objects.count(),
        Table.objects.filter(is_active=True).count(),
        Match.objects.aggregate(m=Max("updated_at"))["m"],
        Tournament.objects.aggregate(m=Max("updated_at"))["m"],
    )


@contextmanager
def world_client(world: World, role: str, *, api_client: bool) -> Iterator[Client]:
    """The world's logged-in client of `role` (its session made with the world, so it outlives
    every test). Use it around a savepoint that is rolled back: the cookies go back afterwards
    to the session that still exists (a logout or a new session key went with the savepoint)."""
    client = world.extra["clients"][(role, api_client)]
    cookies = {name: morsel.value for name, morsel in client.cookies.items()}
    try:
        yield client
    finally:
        client.cookies.clear()
        for name, value in cookies.items():
            client.cookies[name] = value


def request(world: World, role: str, method: str, url: str, call: Call, *, api_client: bool):
    """One request in a savepoint that is rolled back; returns (response, changed)."""
    body = call.body(world) if callable(call.body) else call.body
    with world_client(world, role, api_client=api_client) as client, transaction.atomic():
        before = writes_fingerprint() if method != GET else None
        if api_client:
            response = client.generic(
                method, url, data=_json(body), content_type="application/json"
            )
        elif method == GET:
            response = client.get(url)
        else:
            response = client.post(url, body or {})
        changed = method != GET and writes_fingerprint() != before
        transaction.set_rollback(True)
    return response, changed


def _json(body: Any) -> str:
    import json

    return "" if body is None else json.dumps(body)


# --- the URL list, from the resolver -------------------------------------------------------


def all_urls() -> list[tuple[str, Any]]:
    """(name, callback) of every named URL, namespaced as reverse() wants it."""
    found: list[tuple[str, Any]] = []

    def walk(patterns: list[Any], namespace: str | None) -> None:
        for entry in patterns:
            if isinstance(entry, URLResolver):
                inner = entry.namespace or namespace
                if namespace and entry.namespace:
                    inner = f"{namespace}:{entry.namespace}"
                walk(entry.url_patterns, inner)
            elif isinstance(entry, URLPattern):
                local = entry.name or f"<unnamed {entry.pattern}>"
                name = f"{namespace}:{local}" if namespace else local
                found.append((name, entry.callback))

    walk(get_resolver().url_patterns, None)
    return found


def view_methods(callback: Any) -> set[str] | None:
    """The HTTP methods one of our views answers (None: not ours, or a function view)."""
    actions = getattr(callback, "actions", None)
    if actions:
        # DRF adds "head" to a viewset's actions once it has answered a GET.
        return {m.upper() for m in actions if m not in ("head", "options")}
    cls = getattr(callback, "view_class", None) or getattr(callback, "cls", None)
    if cls is None or not cls.__module__.startswith(("tournaments.", "matches.")):
        return None
    allowed = {m for m in cls.http_method_names if m not in ("options", "head")}
    return {m.upper() for m in allowed if hasattr(cls, m)}


def test_every_url_is_in_the_matrix() -> None:
    unclassified = []
    wrong_methods = []
    names = set()
    for name, callback in all_urls():
        names.add(name)
        namespace = name.split(":", 1)[0] if ":" in name else None
        if namespace in NAMESPACES:
            continue
        spec = SPECS.get(name)
        if spec is None:
            unclassified.append(name)
            continue
        methods = view_methods(callback)
        if methods is not None and methods != set(spec.calls):
            wrong_methods.append((name, sorted(methods), sorted(spec.calls)))
        cls = getattr(callback, "cls", None) or getattr(callback, "view_class", None)
        if spec.api != (isinstance(cls, type) and issubclass(cls, APIView)):
            wrong_methods.append((name, "api", spec.api))
    assert unclassified == [], "add these URLs to SPECS with their access rule"
    assert wrong_methods == [], "every method a view answers needs its row"
    assert set(SPECS) - names == set(), "these SPECS name URLs that no longer exist"


def _cases() -> list[Any]:
    cases = []
    for name, spec in {**SPECS, NAMESPACES["admin"]: ADMIN_SPEC}.items():
        for visibility in ("public",) if spec.global_ else ("public", "private"):
            cases.append(pytest.param(name, visibility, id=f"{name}-{visibility}"))
    return cases


@pytest.mark.parametrize(("name", "visibility"), _cases())
def test_matrix(worlds, name: str, visibility: str) -> None:
    world = worlds[visibility]
    spec = ADMIN_SPEC if name == NAMESPACES["admin"] else SPECS[name]
    url = reverse(name, kwargs=spec.kwargs(world))
    wrong = []
    for method, call in [*spec.calls.items(), *spec.also]:
        row = EXPECT[call.kind][0 if visibility == "public" else 1]
        for role, expected in zip(ROLES, row, strict=True):
            response, changed = request(world, role, method, url, call, api_client=spec.api)
            got = response.status_code
            if expected == OK:
                good = got == call.ok and not (got == 302 and _to_login(response))
            elif expected == LOGIN:
                good = got == 302 and _to_login(response)
            else:
                good = got == expected
            if expected != OK and method != GET:
                good = good and not changed
            if not good:
                wrong.append(f"{method} {url} as {role}: {got}, expected {expected}")
    assert wrong == []


def _to_login(response: Any) -> bool:
    return "login" in response.get("Location", "")


# --- what the rows above cannot show ---------------------------------------------------------


def test_objects_of_one_tournament_are_not_reached_through_another(worlds) -> None:
    """An organiser of O who puts T's ids into O's URLs finds nothing, and changes nothing."""
    w = worlds["private"]
    other = w.other.pk
    reg = reg_of_ready(w)
    attempts = [
        ("get", f"/api/v1/tournaments/{other}/registrations/{reg.pk}/", None),
        ("patch", f"/api/v1/tournaments/{other}/registrations/{reg.pk}/", {"paid": False}),
        ("post", f"/api/v1/tournaments/{other}/registrations/{reg.pk}/withdraw/", {}),
        (
            "post",
            f"/api/v1/tournaments/{other}/matches/{w.ready.pk}/handicap/",
            {"head_start": {"a": 0, "b": 4}},
        ),
        (
            "post",
            f"/api/v1/tournaments/{other}/matches/{w.finished.pk}/correct/",
            {"winner": "b", "score_a": 0, "score_b": 1},
        ),
        ("get", f"/api/v1/tournaments/{other}/matches/{w.finished.pk}/rating-changes/", None),
        ("get", f"/api/v1/tournaments/{other}/audit/?match={w.running.pk}", None),
    ]
    for method, url, body in attempts:
        with transaction.atomic():
            client = client_for(w.other_organiser, api_client=True)
            before = writes_fingerprint()
            response = getattr(client, method)(url, body, format="json")
            if "audit" in url:
                assert response.status_code == 200 and response.json()["count"] == 0, url
            else:
                assert response.status_code == 404, (url, response.status_code)
            assert writes_fingerprint() == before, url
            transaction.set_rollback(True)

    client = client_for(w.other_organiser, api_client=False)
    for url in (
        f"/panel/t/{other}/registrations/{reg.pk}/paid/",
        f"/panel/t/{other}/registrations/{reg.pk}/withdraw/",
    ):
        with transaction.atomic():
            before = writes_fingerprint()
            assert client.post(url, {"paid": "0"}).status_code == 404, url
            assert writes_fingerprint() == before, url
            transaction.set_rollback(True)


def test_a_private_tournament_leaves_no_trace_for_strangers(worlds) -> None:
    w = worlds["private"]
    link = f'href="/t/{w.tournament.pk}/"'
    rated = [r.player_id for r in w.registrations[:2]]
    for player_id in rated:
        RatingChange.objects.create(
            player_id=player_id,
            tournament=w.tournament,
            match=w.finished,
            rating_before=1000,
            rating_after=1016,
            delta=16,
        )
    for role in ("anonymous", "player", "referee_other", "organiser_other"):
        api_client = client_for(w.users()[role], api_client=True)
        listed = api_client.get("/api/v1/tournaments/?limit=1000").json()["results"]
        assert w.tournament.pk not in [t["id"] for t in listed], role
        for player in rated:
            history = api_client.get(f"/api/v1/players/{player}/").json()["rating_history"]
            assert all(h["tournament"] != w.tournament.pk for h in history), role
        home = client_for(w.users()[role], api_client=False).get("/").content.decode()
        assert link not in home, role
    for role in ("referee", "organiser", "superuser"):
        listed = client_for(w.users()[role], api_client=True).get("/api/v1/tournaments/").json()
        assert w.tournament.pk in [t["id"] for t in listed["results"]], role


def test_entry_fees_are_shown_to_the_organisers_only(worlds) -> None:
    w = worlds["public"]
    url = f"/api/v1/tournaments/{w.tournament.pk}/registrations/"
    for role in ROLES:
        rows = client_for(w.users()[role], api_client=True).get(url).json()["results"]
        fees = {(r["fee_due"], r["paid"]) for r in rows}
        if role in ("organiser", "superuser"):
            assert ("1000.00", True) in fees, role
        else:
            assert fees == {(None, None)}, role


def test_with_self_scoring_a_player_scores_his_own_match_only(worlds) -> None:
    w = worlds["public"]
    with transaction.atomic():
        Tournament.objects.filter(pk=w.tournament.pk).update(self_scoring=True)
        client = client_for(w.player_user, api_client=True)
        mine = client.post(f"/api/v1/matches/{w.running.pk}/events/", next_shot(w), format="json")
        assert mine.status_code == 201, mine.json()
        other = Match.objects.get(pk=w.on_table.pk)
        event = {"type": "break", "player": other.state["turn"], "legal": True, "pocketed": 0}
        body = {"event": event, "expected_version": other.version}
        assert (
            client.post(f"/api/v1/matches/{other.pk}/events/", body, format="json").status_code
            == 403
        )
        for url, data in (
            (f"/api/v1/matches/{w.running.pk}/walkover/", {"winner": "a"}),
            (f"/api/v1/matches/{w.running.pk}/table/", {"table": 3}),
            (
                f"/api/v1/matches/{w.running.pk}/clock/",
                {"action": "adjust", "remaining_seconds": 9},
            ),
        ):
            assert client.post(url, data, format="json").status_code == 403, url
        transaction.set_rollback(True)


def test_the_admin_opens_for_superusers_only(worlds) -> None:
    """Organisers carry the staff flag (older set-ups gave it): no admin page of any model
    opens for them, its list or its change page; the superuser opens them all."""
    w = worlds["private"]
    refused = []
    for model in admin.site._registry:
        info = (model._meta.app_label, model._meta.model_name)
        row = model.objects.first()
        urls = [reverse("admin:{}_{}_changelist".format(*info))]
        if row is not None:
            urls.append(reverse("admin:{}_{}_change".format(*info), args=[row.pk]))
        for url in urls:
            for user in (w.organiser, w.other_organiser):
                response = client_for(user, api_client=False).get(url)
                if not (response.status_code == 302 and _to_login(response)):
                    refused.append(f"{user.username} opens {url}: {response.status_code}")
            if client_for(w.superuser, api_client=False).get(url).status_code != 200:
                refused.append(f"the superuser cannot open {url}")
    assert refused == []
