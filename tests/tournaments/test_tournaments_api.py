"""Tournaments through the API: presets, validated settings, status, permissions."""

from __future__ import annotations

import pytest

from audit.models import AuditEntry
from tests.tournaments.factories import register
from tournaments import services
from tournaments.models import Tournament
from tournaments.services.setup import SETTINGS_FIELDS
from tournaments.web.api.serializers.tournament import (
    TournamentSerializer,
    TournamentUpdateSerializer,
    TournamentWriteSerializer,
)

pytestmark = pytest.mark.django_db

URL = "/api/v1/tournaments/"


def create(client, **data):
    return client.post(URL, {"name": "Кубок «Лузы»", "date": "2026-12-05", **data}, format="json")


def test_free_pyramid_preset_follows_the_regulation(org_api, organiser):
    response = create(org_api, preset="free_pyramid_30")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["status"] == "draft" and body["can_manage"] is True
    assert body["organisers"] == [organiser.username]
    rs = body["ruleset"]
    assert rs["balls_to_win"] == 30 and rs["continuation"] is True
    assert rs["penalty"] == "shelf_to_table" and rs["direct_call"] and rs["strict_break"]
    assert body["time_limit_minutes"] == 80 and body["format"] == "double"
    assert body["handicap_scheme"] == "race_2_per_50"
    assert body["place_shares"] == ["45", "30", "25"] and body["pool_percent"] == "70.00"
    assert AuditEntry.objects.filter(action="tournament_create", tournament_id=body["id"]).exists()


def test_llb_preset_plays_frames_per_stage_with_the_pair_scheme(org_api):
    body = create(org_api, preset="llb_frames_8").json()
    assert body["ruleset"]["balls_to_win"] == 8 and body["ruleset"]["continuation"] is False
    assert body["stage_rules"]["upper"]["frames_to_win"] == 3
    assert body["stage_rules"]["lower"]["frames_to_win"] == 2
    assert body["handicap_scheme"] == "llb_1"
    # The pair scheme only works for races to 8: a race to 10 is refused.
    bad = create(org_api, preset="llb_frames_8", stage_rules={"lower": {"balls_to_win": 10}})
    assert bad.status_code == 400 and bad.json()["code"] == "invalid_settings"


def test_duplex_preset_has_no_handicap(org_api):
    body = create(org_api, preset="duplex").json()
    assert body["discipline"] == "duplex" and body["handicap_scheme"] == "none"
    bad = create(org_api, preset="duplex", handicap_scheme="race_2_per_50")
    assert bad.status_code == 400


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ({"ruleset": {"balls_to_win": 0}}, "invalid_ruleset"),
        ({"ruleset": {"penalty": "nonsense"}}, "invalid_ruleset"),
        ({"ruleset": {"unknown": 1}}, "invalid_ruleset"),
        ({"discipline": "snooker"}, "invalid"),  # an enum of the schema: the field's refusal
        ({"place_shares": ["50", "30", "10"]}, "invalid_settings"),
        ({"stage_rules": {"final": {"balls_to_win": 20}}}, "invalid_settings"),
        ({"stage_rules": {"upper": {"frames_to_win": 0}}}, "invalid_ruleset"),
        ({"stage_rules": {"upper": {"colour": "red"}}}, "invalid_settings"),
        ({"fee_bands": [{"min_rating": 900, "max_rating": 800, "fee": "500"}]}, "invalid_settings"),
        ({"format": "double_to_single", "playoff_size": 6}, "invalid_settings"),
        ({"handicap_scheme": "secret"}, "invalid"),
        ({"time_limit_minutes": 0}, "invalid"),
    ],
)
def test_invalid_settings_are_refused_with_a_message(org_api, data, code):
    response = create(org_api, preset="free_pyramid_30", **data)
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == code and body["message"]
    assert not Tournament.objects.exists()


def test_settings_error_is_in_the_users_language(org_api):
    ru = create(org_api, place_shares=["50", "30", "10"])
    en = org_api.post(
        URL,
        {"name": "Cup", "date": "2026-12-05", "place_shares": ["50", "30", "10"]},
        format="json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert en.json()["message"] == "The shares of the places must add up to 100% (now 90%)."
    assert ru.json()["code"] == "invalid_settings"


def test_fee_bands_round_trip(org_api):
    bands = [
        {"min_rating": None, "max_rating": 899, "fee": "500"},
        {"min_rating": 900, "max_rating": None, "fee": "1000"},
    ]
    body = create(org_api, fee_bands=bands, entry_fee="700").json()
    assert body["fee_bands"] == [
        {"min_rating": None, "max_rating": 899, "fee": "500"},
        {"min_rating": 900, "max_rating": None, "fee": "1000"},
    ]
    assert body["entry_fee"] == "700.00"


def test_only_organisers_create(api, user):
    assert create(api).status_code in (401, 403)
    api.force_authenticate(user)
    response = create(api)
    assert response.status_code == 403 and response.json()["code"] == "permission_denied"
    assert not Tournament.objects.exists()


def test_status_moves_only_forward(org_api):
    t = create(org_api).json()
    url = f"{URL}{t['id']}/"
    assert org_api.post(f"{url}start/").status_code == 409
    opened = org_api.post(f"{url}open-registration/")
    assert opened.status_code == 200 and opened.json()["status"] == "registration"
    again = org_api.post(f"{url}open-registration/")
    assert again.status_code == 409 and again.json()["code"] == "wrong_transition"
    assert AuditEntry.objects.filter(action="tournament_status", tournament_id=t["id"]).count() == 1


def test_update_while_open_then_frozen_after_the_draw(org_api, tournament, organiser):
    regs = register(tournament, 4, fee=__import__("decimal").Decimal("0"))
    url = f"{URL}{tournament.pk}/"
    response = org_api.patch(url, {"entry_fee": "800", "time_limit_minutes": 60}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["time_limit_minutes"] == 60
    regs[0].refresh_from_db()
    assert str(regs[0].fee_due) == "800.00"  # re-priced with the new fee
    services.tournament_draw(
        tournament=tournament, actor=organiser, method="seeded", allow_unpaid=True
    )
    late = org_api.patch(url, {"time_limit_minutes": 90}, format="json")
    assert late.status_code == 409 and late.json()["code"] == "wrong_status"
    tournament.refresh_from_db()
    assert tournament.time_limit_minutes == 60


def test_another_organiser_cannot_change_my_tournament(api, tournament, other_organiser):
    api.force_authenticate(other_organiser)
    response = api.patch(f"{URL}{tournament.pk}/", {"name": "Чужой"}, format="json")
    assert response.status_code == 403
    tournament.refresh_from_db()
    assert tournament.name != "Чужой"


def test_list_shows_public_and_own_tournaments(
    api, org_api, tournament, organiser, other_organiser
):
    hidden = Tournament.objects.create(name="Закрытый", date=tournament.date, is_public=False)
    hidden.organisers.add(other_organiser)
    mine_private = Tournament.objects.create(
        name="Мой закрытый", date=tournament.date, is_public=False
    )
    mine_private.organisers.add(organiser)
    anonymous = {t["id"] for t in api.get(URL).json()["results"]}
    assert anonymous == {tournament.pk}
    own = {t["id"] for t in org_api.get(URL).json()["results"]}
    assert own == {tournament.pk, mine_private.pk}
    assert api.get(f"{URL}{hidden.pk}/").status_code == 404


def test_presets_are_listed(api):
    slugs = [p["slug"] for p in api.get("/api/v1/presets/").json()]
    assert slugs == [
        "free_pyramid_30",
        "duplex",
        "llb_frames_8",
        "combined_pyramid",
        "combined_pyramid_house",
        "dynamic_pyramid",
        "dynamic_pyramid_house",
        "classic_pyramid",
    ]


def test_schema_documents_the_endpoints(api):
    response = api.get("/api/v1/schema/?format=json")
    assert response.status_code == 200
    paths = response.json()["paths"]
    for path in (
        "/api/v1/tournaments/{id}/draw/",
        "/api/v1/tournaments/{id}/draw-preview/",
        "/api/v1/tournaments/{id}/bracket/",
        "/api/v1/tournaments/{id}/standings/",
        "/api/v1/tournaments/{id}/prizes/",
        "/api/v1/tournaments/{tournament_pk}/registrations/",
        "/api/v1/tournaments/{tournament_pk}/registrations/{registration_pk}/withdraw/",
        "/api/v1/tournaments/{tournament_pk}/matches/{match_pk}/correct/",
        "/api/v1/tournaments/{tournament_pk}/matches/{match_pk}/handicap/",
        "/api/v1/players/",
    ):
        assert path in paths
    draw = paths["/api/v1/tournaments/{id}/draw/"]["post"]
    assert {"200", "409", "422"} <= set(draw["responses"])
    bracket = paths["/api/v1/tournaments/{id}/bracket/"]["get"]["responses"]["200"]
    assert bracket["content"]["application/json"]["schema"]["$ref"].endswith("/Bracket")


def test_partial_update_merges_the_ruleset_and_a_new_discipline_starts_fresh(org_api):
    t = create(org_api, preset="free_pyramid_30").json()
    url = f"{URL}{t['id']}/"
    body = org_api.patch(url, {"ruleset": {"balls_to_win": 20}}, format="json").json()
    assert body["ruleset"]["balls_to_win"] == 20 and body["ruleset"]["penalty"] == "shelf_to_table"
    body = org_api.patch(url, {"discipline": "duplex", "handicap_scheme": "none"}, format="json")
    assert body.status_code == 200, body.json()
    assert body.json()["ruleset"] == {"discipline": "duplex", "first_break": "a"}


def test_errors_of_missing_things_have_the_same_shape(api, org_api, tournament):
    missing = api.get(f"{URL}999999/")
    assert missing.status_code == 404 and set(missing.json()) == {"code", "message", "params"}
    reg = org_api.patch(
        f"{URL}{tournament.pk}/registrations/999999/", {"paid": True}, format="json"
    )
    assert reg.status_code == 404 and reg.json()["code"] == "not_found"
    preview = api.get(f"{URL}{tournament.pk}/draw-preview/")
    assert preview.status_code == 403 and preview.json()["code"] == "permission_denied"


def test_the_api_reads_and_writes_every_setting_the_services_accept() -> None:
    """One list of what an organiser may set (services.setup.SETTINGS_FIELDS): a setting
    added there is shown by the API and accepted by its create and update bodies."""
    assert set(SETTINGS_FIELDS) <= set(TournamentSerializer().fields)
    assert set(TournamentWriteSerializer().fields) == {"preset", *SETTINGS_FIELDS}
    assert set(TournamentUpdateSerializer().fields) == set(SETTINGS_FIELDS)
