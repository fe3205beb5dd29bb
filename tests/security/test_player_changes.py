"""A change of a shared player's identity by request: an organiser who may not rename him
(another organiser's tournament shows him, or he has a login) proposes; nothing changes until
the player himself (his linked login) or a superuser approves; the organiser who asked, other
organisers, referees and anonymous visitors cannot decide."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from audit.models import AuditEntry
from tests.factories import OrganiserFactory, PlayerFactory, RefereeFactory, UserFactory
from tests.world import ensure_role_groups, make_tournament
from tournaments import services
from tournaments.errors import TournamentError
from tournaments.models import Player, PlayerChange

pytestmark = pytest.mark.django_db

RENAME = {"name": "Сидоров Пётр", "city": "Тула", "club": "Луза", "note": "опечатка в фамилии"}


@pytest.fixture
def people() -> dict[str, Any]:
    ensure_role_groups()
    a, b, c = OrganiserFactory(), OrganiserFactory(), OrganiserFactory()
    login = UserFactory()
    shared = PlayerFactory(name="Сидорв Пётр", city="Москва", club="")
    linked = PlayerFactory(name="Иванов Иван", city="Москва", club="", user=login)
    for organiser in (a, b):
        tournament = make_tournament(organiser)
        services.registration_add(tournament=tournament, player=shared, actor=organiser)
        services.registration_add(tournament=tournament, player=linked, actor=organiser)
    return {"a": a, "b": b, "c": c, "login": login, "shared": shared, "linked": linked}


def as_(user: Any) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def propose(user: Any, player: Player, data: dict[str, str] = RENAME) -> Any:
    return as_(user).post(f"/panel/players/{player.pk}/change/", data)


def decide(user: Any, change: PlayerChange, approve: bool, **extra: str) -> Any:
    body = {"approve": "1" if approve else "0", **extra}
    return as_(user).post(f"/me/changes/{change.pk}/", body)


def test_the_player_approves_and_only_then_his_record_changes(people) -> None:
    player, b = people["linked"], people["b"]
    assert as_(b).post(f"/panel/players/{player.pk}/edit/", RENAME).status_code == 403
    assert propose(b, player).status_code == 302
    player.refresh_from_db()
    assert player.name == "Иванов Иван"  # nothing yet
    [change] = PlayerChange.objects.filter(player=player)
    assert change.fields == {"name": "Сидоров Пётр", "city": "Тула", "club": "Луза"}
    assert change.note == "опечатка в фамилии"
    # The card shows the pending change to the organiser; the player finds it on his page.
    assert "Сидоров Пётр" in as_(b).get(f"/panel/players/{player.pk}/").content.decode()
    page = as_(people["login"]).get("/me/changes/").content.decode()
    assert "Сидоров Пётр" in page and "опечатка в фамилии" in page

    assert decide(people["login"], change, approve=True)["Location"] == "/me/changes/"
    player.refresh_from_db()
    assert (player.name, player.city, player.club) == ("Сидоров Пётр", "Тула", "Луза")
    change.refresh_from_db()
    assert change.status == "approved" and change.decided_by == people["login"]
    actions = list(
        AuditEntry.objects.filter(player=player).order_by("pk").values_list("action", "actor")
    )
    assert actions[-3:] == [
        ("player_change_propose", b.pk),
        ("player_update", people["login"].pk),
        ("player_change_approve", people["login"].pk),
    ]


def test_a_superuser_decides_for_a_player_without_a_login(people) -> None:
    player, a = people["shared"], people["a"]
    propose(a, player)
    change = PlayerChange.objects.get(player=player)
    root = UserFactory(is_superuser=True)
    response = decide(root, change, approve=True, back="card")
    assert response["Location"] == f"/panel/players/{player.pk}/"
    player.refresh_from_db()
    assert player.name == "Сидоров Пётр"


@pytest.mark.parametrize("who", ["a", "b", "c", "referee", "anonymous", "other_login"])
def test_nobody_else_decides(people, who) -> None:
    player = people["linked"]
    propose(people["b"], player)
    change = PlayerChange.objects.get(player=player)
    user = {
        "referee": RefereeFactory(),
        "anonymous": None,
        "other_login": UserFactory(),
    }.get(who) or people.get(who)
    response = decide(user, change, approve=True)
    assert response.status_code == (302 if user is None else 404)
    if user is None:
        assert response["Location"].startswith("/accounts/login/")
    player.refresh_from_db()
    change.refresh_from_db()
    assert player.name == "Иванов Иван" and change.status == "pending"


def test_only_organisers_who_met_the_player_propose(people) -> None:
    player = people["shared"]
    assert propose(people["c"], player).status_code == 403  # never registered him
    assert propose(RefereeFactory(), player).status_code == 403
    assert propose(people["login"], player).status_code == 403  # a player, not an organiser
    assert propose(None, player)["Location"].startswith("/accounts/login/")
    assert not PlayerChange.objects.exists()


def test_a_declined_change_leaves_the_record_and_cannot_be_decided_again(people) -> None:
    player = people["linked"]
    propose(people["a"], player)
    change = PlayerChange.objects.get(player=player)
    decide(people["login"], change, approve=False)
    change.refresh_from_db()
    player.refresh_from_db()
    assert change.status == "declined" and player.name == "Иванов Иван"
    # Decided: it is no longer the player's to decide (an unknown id's answer).
    assert decide(people["login"], change, approve=True).status_code == 404
    with pytest.raises(TournamentError) as refused:
        services.player_change_decide(
            change=change, actor=UserFactory(is_superuser=True), approve=True
        )
    assert refused.value.code == "request_decided"


def test_asking_again_replaces_the_organisers_pending_request(people) -> None:
    player = people["linked"]
    propose(people["a"], player)
    propose(people["a"], player, {"name": "Иванов Иван", "city": "Тверь"})
    propose(people["b"], player, {"name": "Иванов Иван", "city": "Москва", "club": "Шар"})
    rows = {c.requested_by_id: c.fields for c in PlayerChange.objects.filter(player=player)}
    assert rows == {people["a"].pk: {"city": "Тверь"}, people["b"].pk: {"club": "Шар"}}


@pytest.mark.parametrize(
    "data",
    [
        {"name": "", "city": "Тула"},
        {"name": "Иванов Иван", "city": "Москва"},  # nothing changes
        {"name": "x" * 201},
        {"name": "Иванов Иван", "city": "ё" * 101},
    ],
)
def test_a_proposal_that_changes_nothing_or_breaks_a_bound_is_refused(people, data) -> None:
    response = propose(people["a"], people["linked"], data)
    assert response.status_code == 302
    assert not PlayerChange.objects.exists()
