"""Every organiser and referee action leaves one audit entry (who, what, which tournament and
match), and the organisers read it per tournament and per match through the API."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.db import transaction
from rest_framework.test import APIClient

from audit.models import AuditEntry
from matches.models import Match
from tests.factories import PlayerFactory
from tests.world import World, build_world, make_tournament, register
from tournaments import services
from tournaments.selectors.audit import tournament_audit

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker) -> Iterator[World]:
    """Built once; each test runs in its own transaction, rolled back."""
    with django_db_blocker.unblock(), transaction.atomic():
        w = build_world(public=True)
        w.extra["open"] = make_tournament(w.organiser, name="Весенний кубок")
        register(w.extra["open"], w.organiser, PlayerFactory.create_batch(4))
        w.extra["newcomer"] = PlayerFactory(name="Новиков Семён")
        w.extra["unpaid"] = services.registration_add(
            tournament=w.extra["open"], player=PlayerFactory(), actor=w.organiser
        )
        yield w
        transaction.set_rollback(True)


@dataclass
class Action:
    action: str  # the audit entry's action
    who: str  # "organiser" or "referee"
    method: str
    url: Callable[[World], str]
    body: Callable[[World], Any] | Any = None
    tournament: str = "tournament"  # which tournament the entry names ("open": the other one)
    match: str | None = None  # which match it names (None: none)
    ok: int = 200


def T(w: World) -> int:
    return w.tournament.pk


def O(w: World) -> int:  # noqa: E743 - the open tournament
    return w.extra["open"].pk


def running_event(w: World) -> dict[str, Any]:
    match = Match.objects.get(pk=w.running.pk)
    event = {"type": "shot", "player": match.state["turn"], "pocketed": 0}
    return {"event": event, "expected_version": match.version}


def first_registration(w: World) -> int:
    return w.extra["open"].registrations.order_by("pk").first().pk


ACTIONS = {
    "registration": Action(
        "registration_add",
        "organiser",
        "post",
        lambda w: f"/api/v1/tournaments/{O(w)}/registrations/",
        lambda w: {"player_id": w.extra["newcomer"].pk},
        tournament="open",
        ok=201,
    ),
    "new player at the desk": Action(
        "registration_add",
        "organiser",
        "post",
        lambda w: f"/api/v1/tournaments/{O(w)}/registrations/",
        {"player": {"name": "Зайцев Пётр", "rating": 1100}},
        tournament="open",
        ok=201,
    ),
    "fee paid": Action(
        "registration_paid",
        "organiser",
        "patch",
        lambda w: f"/api/v1/tournaments/{O(w)}/registrations/{w.extra['unpaid'].pk}/",
        {"paid": True},
        tournament="open",
    ),
    "fee not paid": Action(
        "registration_unpaid",
        "organiser",
        "patch",
        lambda w: f"/api/v1/tournaments/{T(w)}/registrations/{w.registrations[0].pk}/",
        {"paid": False},
    ),
    "withdrawal": Action(
        "registration_withdraw",
        "organiser",
        "post",
        lambda w: f"/api/v1/tournaments/{O(w)}/registrations/{first_registration(w)}/withdraw/",
        {"reason": "заболел"},
        tournament="open",
    ),
    "settings": Action(
        "tournament_update",
        "organiser",
        "patch",
        lambda w: f"/api/v1/tournaments/{O(w)}/",
        {"venue": "Клуб «Пирамида»"},
        tournament="open",
    ),
    "draw": Action(
        "tournament_draw",
        "organiser",
        "post",
        lambda w: f"/api/v1/tournaments/{O(w)}/draw/",
        {"method": "random", "random_seed": 7, "allow_unpaid": True},
        tournament="open",
    ),
    "handicap override": Action(
        "match_set_handicap",
        "organiser",
        "post",
        lambda w: f"/api/v1/tournaments/{T(w)}/matches/{w.ready.pk}/handicap/",
        {"head_start": {"a": 0, "b": 6}},
        match="ready",
    ),
    "result correction": Action(
        "match_correct_result",
        "organiser",
        "post",
        lambda w: f"/api/v1/tournaments/{T(w)}/matches/{w.finished.pk}/correct/",
        {"winner": "b", "score_a": 12, "score_b": 30},
        match="finished",
    ),
    "event": Action(
        "match.event",
        "referee",
        "post",
        lambda w: f"/api/v1/matches/{w.running.pk}/events/",
        running_event,
        match="running",
        ok=201,
    ),
    "undo": Action(
        "match.undo",
        "referee",
        "post",
        lambda w: f"/api/v1/matches/{w.running.pk}/undo/",
        {},
        match="running",
        ok=201,
    ),
    "clock start": Action(
        "match.clock_start",
        "referee",
        "post",
        lambda w: f"/api/v1/matches/{w.on_table.pk}/clock/",
        {"action": "start"},
        match="on_table",
    ),
    "clock pause": Action(
        "match.clock_pause",
        "referee",
        "post",
        lambda w: f"/api/v1/matches/{w.running.pk}/clock/",
        {"action": "pause"},
        match="running",
    ),
    "clock adjust": Action(
        "match.clock_adjust",
        "organiser",
        "post",
        lambda w: f"/api/v1/matches/{w.running.pk}/clock/",
        {"action": "adjust", "remaining_seconds": 600},
        match="running",
    ),
    "judge call": Action(
        "match.judge_called",
        "referee",
        "post",
        lambda w: f"/api/v1/matches/{w.running.pk}/judge/",
        {"action": "call", "note": "спорный шар"},
        match="running",
    ),
    "table move": Action(
        "match.table_moved",
        "organiser",
        "post",
        lambda w: f"/api/v1/matches/{w.running.pk}/table/",
        {"table": 3},
        match="running",
    ),
    "call to a table": Action(
        "match.table_assigned",
        "organiser",
        "post",
        lambda w: f"/api/v1/matches/{w.ready.pk}/table/",
        {"table": 3},
        match="ready",
    ),
    "table freed": Action(
        "table.freed",
        "organiser",
        "post",
        lambda w: f"/api/v1/tournaments/{T(w)}/tables/2/free/",
        None,
        match="on_table",
    ),
    "tables in use": Action(
        "tables.ensure",
        "organiser",
        "post",
        lambda w: f"/api/v1/tournaments/{T(w)}/tables/",
        {"count": 5},
    ),
    "hold": Action(
        "match.hold",
        "organiser",
        "post",
        lambda w: f"/api/v1/matches/{w.ready.pk}/hold/",
        {"held": True},
        match="ready",
    ),
    "walkover": Action(
        "match.walkover",
        "organiser",
        "post",
        lambda w: f"/api/v1/matches/{w.ready.pk}/walkover/",
        {"winner": "a", "reason": "неявка"},
        match="ready",
    ),
}


def client_of(user: Any) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def logged(w: World) -> list[AuditEntry]:
    """Both tournaments' audit logs as their readers see them: a ball and an undo are read
    from the match's log (no audit entry is written for them), the rest are audit entries."""
    return [e for t in (w.tournament, w.extra["open"]) for e in tournament_audit(tournament=t)]


def perform(w: World, name: str) -> tuple[Any, list[AuditEntry]]:
    spec = ACTIONS[name]
    user = getattr(w, spec.who)
    before = {e.pk for e in logged(w)}
    body = spec.body(w) if callable(spec.body) else spec.body
    response = getattr(client_of(user), spec.method)(spec.url(w), body, format="json")
    assert response.status_code == spec.ok, response.content[:500]
    return user, [e for e in logged(w) if e.pk not in before and e.action == spec.action]


@pytest.mark.parametrize("name", ACTIONS)
def test_each_action_is_recorded_once_with_its_actor_and_place(world, name: str) -> None:
    spec = ACTIONS[name]
    user, entries = perform(world, name)

    assert len(entries) == 1, [e.action for e in entries]
    entry = entries[0]
    assert entry.actor == user and entry.actor_name == user.username
    tournament = world.extra["open"] if spec.tournament == "open" else world.tournament
    assert entry.tournament_id == tournament.pk
    expected_match = getattr(world, spec.match).pk if spec.match else None
    assert entry.match_id == expected_match

    # Its organisers see it near the top of the tournament's log (an action may bring more
    # entries after it, e.g. a walkover finishes the match), and in the match's log.
    organiser = client_of(world.organiser)
    log = organiser.get(f"/api/v1/tournaments/{tournament.pk}/audit/?limit=10").json()
    shown = {row["id"]: row for row in log["results"]}
    assert shown[entry.pk]["action"] == spec.action
    assert shown[entry.pk]["actor"] == user.username
    if expected_match is not None:
        rows = organiser.get(f"/api/v1/matches/{expected_match}/audit/").json()["results"]
        assert entry.pk in [row["id"] for row in rows]
        filtered = organiser.get(
            f"/api/v1/tournaments/{tournament.pk}/audit/?match={expected_match}"
        ).json()["results"]
        assert entry.pk in [row["id"] for row in filtered]
        assert {row["match"] for row in filtered} == {expected_match}


def test_the_log_reads_newest_first_in_pages(world) -> None:
    for name in ("clock pause", "judge call", "table move"):
        perform(world, name)
    organiser = client_of(world.organiser)
    url = f"/api/v1/tournaments/{world.tournament.pk}/audit/"

    first = organiser.get(url, {"limit": 2}).json()
    second = organiser.get(url, {"limit": 2, "offset": 2}).json()

    total = tournament_audit(tournament=world.tournament).count()
    assert first["count"] == second["count"] == total
    assert [r["action"] for r in first["results"]] == ["match.table_moved", "match.judge_called"]
    assert second["results"][0]["action"] == "match.clock_pause"
    ids = [r["id"] for r in first["results"] + second["results"]]
    assert ids == sorted(ids, reverse=True)
    row = first["results"][0]
    assert row["actor"] == world.organiser.username and row["match_key"] == world.running.key
    assert row["data"] == {"from": 1, "to": 3}


def test_the_log_is_for_the_tournaments_organisers_only(world) -> None:
    t_url = f"/api/v1/tournaments/{world.tournament.pk}/audit/"
    m_url = f"/api/v1/matches/{world.running.pk}/audit/"
    for user in (world.referee, world.other_organiser, world.player_user):
        client = client_of(user)
        assert client.get(t_url).status_code == 403
        assert client.get(m_url).status_code == 403
    assert APIClient().get(t_url).status_code == 403
    assert client_of(world.superuser).get(t_url).status_code == 200
