"""A player's identity is his own (access.can_edit_player_identity), tested as a matrix.

Actors: organiser A (whose tournament the player entered first), organiser B who registered
the player in his own tournament too, organiser C who never registered him, the player (his
linked login), a referee of A's tournament, an anonymous visitor and a superuser. Actions:
rename (API and panel), a claim code (API and the panel's slip), link a login, merge a
duplicate into him, withdraw his registration in A's tournament. Subjects: a player only A's
tournament shows (no login), the same player after B registered him, and a player with a
login. Allowed means the change is made; refused means nothing changed and no 5xx."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.db import transaction
from django.test import Client
from rest_framework.test import APIClient

from tests.factories import OrganiserFactory, PlayerFactory, RefereeFactory, UserFactory
from tests.world import ensure_role_groups, make_tournament
from tournaments import services
from tournaments.models import Player, PlayerClaim, Registration

pytestmark = pytest.mark.django_db

ACTORS = ("organiser_a", "organiser_b", "organiser_c", "player", "referee", "anonymous", "super")
SUBJECTS = ("own", "shared", "linked")

# Who succeeds, per subject and action; everybody else is refused with nothing changed.
ALLOWED: dict[tuple[str, str], set[str]] = {
    ("own", "rename"): {"organiser_a", "super"},
    ("own", "rename_panel"): {"organiser_a", "super"},
    ("own", "claim"): {"organiser_a", "super"},
    ("own", "claim_panel"): {"organiser_a", "super"},
    ("own", "link"): {"super"},
    ("own", "merge"): {"super"},
    ("own", "withdraw"): {"organiser_a", "super"},
    # B registered A's player: it gives him his registration in his own tournament, never
    # the identity, and it takes the identity out of A's hands too (two clubs show him now).
    ("shared", "rename"): {"super"},
    ("shared", "rename_panel"): {"super"},
    ("shared", "claim"): {"super"},
    ("shared", "claim_panel"): {"super"},
    ("shared", "link"): {"super"},
    ("shared", "merge"): {"super"},
    ("shared", "withdraw"): {"organiser_a", "super"},
    # With a login the identity is the player's own (the panel is the organisers' face).
    ("linked", "rename"): {"player", "super"},
    ("linked", "rename_panel"): {"super"},
    ("linked", "claim"): set(),  # linked already: no code for anyone
    ("linked", "claim_panel"): set(),
    ("linked", "link"): {"super"},  # an unlink
    ("linked", "merge"): {"super"},
    ("linked", "withdraw"): {"organiser_a", "player", "super"},
}
ACTIONS = sorted({action for _, action in ALLOWED})


@pytest.fixture(scope="module")
def world(django_db_setup: Any, django_db_blocker: Any) -> Iterator[dict[str, Any]]:
    with django_db_blocker.unblock(), transaction.atomic():
        ensure_role_groups()
        a, b, c = OrganiserFactory(), OrganiserFactory(), OrganiserFactory()
        referee = RefereeFactory()
        mine = make_tournament(a, name="Турнир А", referee=referee)
        theirs = make_tournament(b, name="Турнир Б")
        third = make_tournament(c, name="Турнир В")
        own = PlayerFactory(name="Свой Игрок")
        shared = PlayerFactory(name="Общий Игрок")
        login = UserFactory()
        linked = PlayerFactory(name="Игрок С Логином", user=login)
        for player in (own, shared, linked):
            services.registration_add(tournament=mine, player=player, actor=a)
        for player in (shared, linked):
            services.registration_add(tournament=theirs, player=player, actor=b)
        yield {
            "actors": {
                "organiser_a": a,
                "organiser_b": b,
                "organiser_c": c,
                "player": login,
                "referee": referee,
                "anonymous": None,
                "super": UserFactory(is_superuser=True, is_staff=True),
            },
            "home": {"organiser_a": mine, "organiser_b": theirs, "organiser_c": third},
            "mine": mine,
            "subjects": {"own": own, "shared": shared, "linked": linked},
        }
        transaction.set_rollback(True)


def _api(user: Any) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def _page(user: Any) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _state(player: Player, mine: Any) -> tuple[Any, ...]:
    player.refresh_from_db()
    reg = Registration.objects.get(tournament=mine, player=player)
    return (
        player.name,
        player.user_id,
        PlayerClaim.objects.filter(player=player).count(),
        Player.objects.count(),
        reg.status,
    )


def _act(action: str, w: dict[str, Any], actor: str, player: Player) -> list[int]:
    user = w["actors"][actor]
    api, page = _api(user), _page(user)
    url = f"/api/v1/players/{player.pk}/"
    home = w["home"].get(actor, w["mine"])
    mine = w["mine"]
    calls: dict[str, Callable[[], list[Any]]] = {
        "rename": lambda: [api.patch(url, {"name": "Подменённый"}, format="json")],
        "rename_panel": lambda: [
            page.post(f"/panel/players/{player.pk}/edit/", {"name": "Подменённый"})
        ],
        "claim": lambda: [api.post(f"{url}claim-code/", {}, format="json")],
        "claim_panel": lambda: [page.post(f"/panel/t/{home.pk}/people/players/{player.pk}/slip/")],
        "link": lambda: [
            api.patch(
                url,
                {"user": None if player.user_id else UserFactory().pk},
                format="json",
            )
        ],
        "merge": lambda: [
            api.post(f"{url}merge/", {"drop": PlayerFactory(name="Дубль").pk}, format="json")
        ],
        "withdraw": lambda: [
            api.post(
                f"/api/v1/tournaments/{mine.pk}/registrations/"
                f"{Registration.objects.get(tournament=mine, player=player).pk}/withdraw/",
                {},
                format="json",
            ),
            api.post(f"/api/v1/tournaments/{mine.pk}/entry/withdraw/", {}, format="json"),
        ],
    }
    return [response.status_code for response in calls[action]()]


@pytest.mark.parametrize("actor", ACTORS)
@pytest.mark.parametrize("action", ACTIONS)
@pytest.mark.parametrize("subject", SUBJECTS)
def test_identity_matrix(world: dict[str, Any], subject: str, action: str, actor: str) -> None:
    player = world["subjects"][subject]
    mine = world["mine"]
    if action == "merge":
        before_players = Player.objects.count() + 1  # the duplicate made for the try
    before = _state(player, mine)
    statuses = _act(action, world, actor, player)
    after = _state(player, mine)
    assert all(code < 500 for code in statuses), statuses
    allowed = actor in ALLOWED[(subject, action)]
    if action == "merge":
        assert (after[3] == before_players - 1) is allowed, statuses
        return
    assert (after != before) is allowed, (statuses, before, after)


def test_the_probes_takeover_path_is_closed(world: dict[str, Any]) -> None:
    """B registered A's player; renaming him, printing his slip (API or panel) are refused,
    so no throwaway login can become him to withdraw him or score his matches."""
    b = world["actors"]["organiser_b"]
    theirs = world["home"]["organiser_b"]
    player = PlayerFactory(name="Игрок Клуба А")
    services.registration_add(
        tournament=world["mine"], player=player, actor=world["actors"]["organiser_a"]
    )
    registered = _api(b).post(
        f"/api/v1/tournaments/{theirs.pk}/registrations/", {"player_id": player.pk}, format="json"
    )
    assert registered.status_code == 201
    renamed = _api(b).patch(f"/api/v1/players/{player.pk}/", {"name": "Захвачен"}, format="json")
    assert renamed.status_code == 403 and renamed.json()["code"] == "forbidden"
    code = _api(b).post(f"/api/v1/players/{player.pk}/claim-code/", {}, format="json")
    assert code.status_code == 403
    slip = _page(b).post(f"/panel/t/{theirs.pk}/people/players/{player.pk}/slip/")
    assert slip.status_code == 302  # back to the people page with the refusal
    player.refresh_from_db()
    assert player.name == "Игрок Клуба А" and not PlayerClaim.objects.filter(player=player)
    # A superuser can still give the real player his slip.
    issued = _api(world["actors"]["super"]).post(
        f"/api/v1/players/{player.pk}/claim-code/", {}, format="json"
    )
    assert issued.status_code == 201
