"""Numbers fit before they reach the database: a value no column (or no rule of the product)
can hold is a 400 naming its field, in the user's language, and nothing is stored. A value
the database refuses all the same is a 400 too, never a 503 a client would retry forever."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.db import transaction

from tests.api.conftest import dump_tables, token_client
from tests.world import World
from tournaments.models import Registration, Tournament
from tournaments.web.api.serializers.tournament import MONEY_MAX

pytestmark = pytest.mark.django_db


def _tournament_url(w: World) -> str:
    return f"/api/v1/tournaments/{w.extra['open'].pk}/"


def _register_new(w: World, name: str = "Новый Игрок", **extra: object) -> object:
    return token_client(w).post(
        f"{_tournament_url(w)}registrations/",
        {"player": {"name": name, "rating": 950, **extra}},
        format="json",
    )


def test_a_fee_band_beyond_the_money_column_is_refused_and_registration_still_works(
    world: World,
) -> None:
    before = dump_tables()
    bands = [{"min_rating": None, "max_rating": None, "fee": "100000000000"}]
    response = token_client(world).patch(_tournament_url(world), {"fee_bands": bands})

    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid"
    assert "fee_bands.0.fee" in body["fields"]
    assert body["fields"]["fee_bands.0.fee"][0]["code"] in {"max_digits", "max_value"}
    assert dump_tables() == before

    with transaction.atomic():
        registered = _register_new(world)
        assert registered.status_code == 201, registered.content
        transaction.set_rollback(True)


def test_the_largest_fee_the_column_holds_is_accepted_and_priced(world: World) -> None:
    with transaction.atomic():
        bands = [{"min_rating": None, "max_rating": None, "fee": "99999999.99"}]
        response = token_client(world).patch(_tournament_url(world), {"fee_bands": bands})
        assert response.status_code == 200, response.content
        registered = _register_new(world)
        assert registered.status_code == 201, registered.content
        assert registered.json()["fee_due"] == "99999999.99"
        transaction.set_rollback(True)


@pytest.mark.parametrize(
    ("field", "value", "where"),
    [
        ("place_shares", ["0.02"] * 5000 + ["0"], "place_shares"),
        ("place_shares", ["100.5"], "place_shares.0"),
        ("place_shares", ["-1", "101"], "place_shares.0"),
        ("place_shares", [], "place_shares"),
        ("entry_fee", "-1", "entry_fee"),
        ("entry_fee", "1e400", "entry_fee"),
        ("added_money", "100000000", "added_money"),
        ("prize_unit", "0", "prize_unit"),
        ("pool_percent", "100.01", "pool_percent"),
        ("max_players", 40000, "max_players"),
        ("max_players", 1, "max_players"),
        ("elo_k", 10**6, "elo_k"),
        ("time_limit_minutes", 70000, "time_limit_minutes"),
        ("group_size", 10**9, "group_size"),
        ("fee_bands", [{"min_rating": 10**12, "fee": "1"}], "fee_bands.0.min_rating"),
        ("fee_bands", [{"fee": "-5"}], "fee_bands.0.fee"),
        ("fee_bands", [{"fee": "1"}] * 51, "fee_bands"),
    ],
)
def test_out_of_range_settings_are_a_400_naming_the_field(
    world: World, field: str, value: object, where: str
) -> None:
    before = dump_tables()
    response = token_client(world).patch(_tournament_url(world), {field: value})
    assert response.status_code == 400, response.content[:300]
    body = response.json()
    assert set(body) >= {"code", "message", "params", "fields"}
    assert where in body["fields"], body["fields"]
    assert dump_tables() == before


def test_the_refusal_speaks_the_users_language(world: World) -> None:
    shares = {"place_shares": ["0.02"] * 5001}
    ru = token_client(world, "ru").patch(_tournament_url(world), shares).json()
    en = token_client(world, "en").patch(_tournament_url(world), shares).json()
    assert ru["params"] == en["params"] == {"field": "place_shares"}
    assert "1024" in ru["message"] and "1024" in en["message"]
    assert re.search("[А-Яа-я]", ru["message"]) and not re.search("[А-Яа-я]", en["message"])
    assert en["message"].startswith("place_shares:")


@pytest.mark.parametrize(
    ("path", "body", "where"),
    [
        ("registrations/", {"player": {"name": "Икс", "rating": 10**9}}, "player.rating"),
        ("registrations/", {"player_id": 2**63}, "player_id"),
        ("draw/", {"method": "random", "random_seed": 2**63}, "random_seed"),
        ("draw/", {"method": "manual", "order": list(range(1, 1100))}, "order"),
    ],
)
def test_out_of_range_numbers_of_other_writes_are_400(
    world: World, path: str, body: dict[str, object], where: str
) -> None:
    before = dump_tables()
    response = token_client(world).post(f"{_tournament_url(world)}{path}", body)
    assert response.status_code == 400, response.content[:300]
    assert where in response.json()["fields"]
    assert dump_tables() == before


def test_a_value_the_database_refuses_is_a_400_not_a_503(world: World) -> None:
    """A band stored before these bounds existed (or written by a path that skipped them): the
    registration it prices overflows the fee column. The client is told, not asked to retry."""
    with transaction.atomic():
        Tournament.objects.filter(pk=world.extra["open"].pk).update(
            fee_bands=[{"min_rating": None, "max_rating": None, "fee": "100000000000"}]
        )
        count = Registration.objects.count()
        response = _register_new(world, name="Переполнение")
        assert response.status_code == 400, response.content
        assert "Retry-After" not in response
        body = response.json()
        assert body["code"] == "out_of_range" and body["message"]
        assert Registration.objects.count() == count
        transaction.set_rollback(True)


def test_decimal_bounds_match_the_columns() -> None:
    field = Tournament._meta.get_field("entry_fee")
    digits = field.max_digits - field.decimal_places
    assert Decimal(10**digits) - Decimal("0.01") == MONEY_MAX


def test_a_fee_band_without_its_fee_is_refused_on_a_partial_update(world: World) -> None:
    before = dump_tables()
    response = token_client(world).patch(
        _tournament_url(world), {"fee_bands": [{"min_rating": 100}]}
    )
    assert response.status_code == 400, response.content[:300]
    assert "fee_bands.0.fee" in response.json()["fields"]
    assert dump_tables() == before


@pytest.mark.parametrize("user", [10**30, 2**63, -1, 0])
def test_a_login_id_out_of_range_is_a_400(world: World, user: int) -> None:
    before = dump_tables()
    response = token_client(world).post("/api/v1/players/", {"name": "Икс", "user": user})
    assert response.status_code == 400, response.content[:300]
    assert "user" in response.json()["fields"]
    assert dump_tables() == before
