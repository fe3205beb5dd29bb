"""The registration desk through the API."""

from __future__ import annotations

from decimal import Decimal

import pytest

from audit.models import AuditEntry
from tests.factories import PlayerFactory
from tests.tournaments.factories import register
from tournaments import services
from tournaments.models import Player, Registration

pytestmark = pytest.mark.django_db


def url(t, tail: str = "") -> str:
    return f"/api/v1/tournaments/{t.pk}/registrations/{tail}"


@pytest.fixture
def banded(tournament):
    tournament.entry_fee = Decimal("1500")
    tournament.fee_bands = [
        {"min_rating": None, "max_rating": 899, "fee": "500"},
        {"min_rating": 900, "max_rating": 1099, "fee": "1000"},
    ]
    tournament.save()
    return tournament


def test_add_an_existing_player_priced_from_the_bands(org_api, banded):
    player = PlayerFactory(rating=950)
    response = org_api.post(url(banded), {"player_id": player.pk}, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["fee_due"] == "1000.00" and body["paid"] is False
    assert body["rating_at_entry"] == 950 and body["status"] == "active"
    strong = PlayerFactory(rating=1300)  # above every band: the flat fee
    assert (
        org_api.post(url(banded), {"player_id": strong.pk}, format="json").json()["fee_due"]
        == "1500.00"
    )
    assert AuditEntry.objects.filter(action="registration_add", tournament=banded).count() == 2


def test_add_a_new_player_at_the_desk(org_api, banded):
    response = org_api.post(
        url(banded),
        {"player": {"name": "Морозов Кирилл", "city": "Москва", "club": "Луза", "rating": 820}},
        format="json",
    )
    assert response.status_code == 201, response.json()
    assert response.json()["fee_due"] == "500.00"
    assert Player.objects.get(name="Морозов Кирилл").rating == 820


def test_same_player_twice_is_refused_and_nothing_changes(org_api, tournament):
    player = PlayerFactory()
    org_api.post(url(tournament), {"player_id": player.pk}, format="json")
    response = org_api.post(url(tournament), {"player_id": player.pk}, format="json")
    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "already_registered" and player.name in body["message"]
    assert Registration.objects.filter(tournament=tournament).count() == 1


def test_a_full_tournament_refuses_and_keeps_no_new_player(org_api, tournament):
    tournament.max_players = 2
    tournament.save()
    register(tournament, 2)
    response = org_api.post(url(tournament), {"player": {"name": "Лишний Игрок"}}, format="json")
    assert response.status_code == 409 and response.json()["code"] == "tournament_full"
    assert not Player.objects.filter(name="Лишний Игрок").exists()


def test_registration_after_the_draw_is_refused(org_api, tournament, organiser):
    register(tournament, 2)
    services.tournament_draw(tournament=tournament, actor=organiser, method="seeded")
    response = org_api.post(url(tournament), {"player_id": PlayerFactory().pk}, format="json")
    assert response.status_code == 409 and response.json()["code"] == "registration_closed"
    assert Registration.objects.filter(tournament=tournament).count() == 2


def test_either_an_existing_or_a_new_player(org_api, tournament):
    response = org_api.post(url(tournament), {}, format="json")
    assert response.status_code == 400 and response.json()["code"] == "invalid"


def test_paid_tick_and_running_totals(org_api, tournament):
    regs = register(tournament, 3, paid=False, fee=Decimal("1000"))
    response = org_api.patch(url(tournament, f"{regs[0].pk}/"), {"paid": True}, format="json")
    assert response.status_code == 200
    assert response.json()["paid"] is True and response.json()["paid_at"]
    totals = org_api.get(url(tournament, "totals/")).json()
    assert totals == {
        "players": 3,
        "paid_players": 1,
        "withdrawn": 0,
        "disqualified": 0,
        "fees_due": "3000.00",
        "fees_paid": "1000.00",
        "fees_outstanding": "2000.00",
        "pool": "700.00",
        "refunds": 0,
        "fees_collected": "1000.00",
        "fees_refunded": "0.00",
        "fees_kept": "1000.00",
    }
    assert AuditEntry.objects.filter(action="registration_paid").count() == 1
    org_api.patch(url(tournament, f"{regs[0].pk}/"), {"paid": False}, format="json")
    regs[0].refresh_from_db()
    assert regs[0].paid is False and regs[0].paid_at is None


def test_the_public_sees_the_list_but_not_the_money(api, tournament):
    register(tournament, 2)
    rows = api.get(url(tournament)).json()["results"]
    assert len(rows) == 2 and rows[0]["player"]["name"]
    assert rows[0]["fee_due"] is None and rows[0]["paid"] is None
    assert api.get(url(tournament, "totals/")).status_code in (401, 403)


def test_the_list_comes_in_pages(api, tournament):
    register(tournament, 5)
    first = api.get(url(tournament), {"limit": 2}).json()
    assert first["count"] == 5 and len(first["results"]) == 2 and first["next"]
    rest = api.get(url(tournament), {"limit": 2, "offset": 4}).json()
    assert len(rest["results"]) == 1 and rest["next"] is None
    ids = {r["id"] for r in first["results"]} | {r["id"] for r in rest["results"]}
    assert len(ids) == 3


def test_withdraw_before_the_draw_and_come_back(org_api, tournament):
    reg = register(tournament, 1)[0]
    response = org_api.post(url(tournament, f"{reg.pk}/withdraw/"), {}, format="json")
    assert response.status_code == 200 and response.json()["status"] == "withdrawn"
    again = org_api.post(url(tournament, f"{reg.pk}/withdraw/"), {}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "already_withdrawn"
    back = org_api.post(url(tournament), {"player_id": reg.player_id}, format="json")
    assert back.status_code == 201 and back.json()["status"] == "active"
    assert Registration.objects.filter(tournament=tournament).count() == 1


def test_others_cannot_use_the_desk(api, tournament, other_organiser):
    api.force_authenticate(other_organiser)
    response = api.post(url(tournament), {"player": {"name": "Чужой"}}, format="json")
    assert response.status_code == 403
    assert not Player.objects.filter(name="Чужой").exists()
