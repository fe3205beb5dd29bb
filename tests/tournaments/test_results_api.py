"""The bracket, standings and prizes as the public reads them, and what they cost."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import TournamentFactory
from tests.tournaments.factories import register
from tests.tournaments.helpers import finish, match, play_out
from tournaments import services
from tournaments.selectors.bracket import tournament_bracket

pytestmark = pytest.mark.django_db


def all_matches(bracket):
    return [m for st in bracket["stages"] for r in st["rounds"] for m in r["matches"]]


def test_bracket_lists_every_match_with_players_sources_and_links(api, drawn, tournament):
    drawn(6)  # byes: seeds 1 and 2 start in round 2
    finish(match(tournament, "U1-2"), "a")
    body = api.get(f"/api/v1/tournaments/{tournament.pk}/bracket/").json()
    assert [s["stage"] for s in body["stages"]] == ["upper", "lower", "grand_final"]
    matches = {m["key"]: m for m in all_matches(body)}
    assert len(matches) == 5 + 4 + 1  # upper n - 1, lower n - 2, grand final
    done = matches["U1-2"]
    assert done["status"] == "finished" and done["winner"] == "a" and done["score_a"] == 30
    assert done["winner_to"] == {"key": "U2-1", "slot": "b"}
    assert done["rating_change"]["a"] > 0 > done["rating_change"]["b"]
    nxt = matches["U2-1"]
    assert nxt["player_a"]["seed"] == 1 and nxt["source_a"]["kind"] == "seed"
    assert nxt["player_b"]["id"] == done["player_a"]["id"]
    assert nxt["source_b"]["kind"] == "winner" and nxt["source_b"]["ref"] == "U1-2"
    assert "В1-2" in nxt["source_b"]["label"]  # the label is as a club writes it
    assert nxt["status"] == "ready" and nxt["balls_to_win"] == 30
    assert body["stages"][0]["rounds"][0]["title"]


def test_bracket_selector_needs_the_same_queries_for_16_and_256_players(
    api, organiser, django_assert_max_num_queries
):
    sizes, endpoint = [], []
    for size in (16, 256):
        t = TournamentFactory(organisers=[organiser], max_players=256)
        register(t, size)
        services.tournament_draw(tournament=t, actor=organiser, method="seeded")
        for key in ("U1-1", "U1-2", "U1-3"):
            finish(match(t, key), "a")
        with django_assert_max_num_queries(3):
            bracket = tournament_bracket(tournament=t)
        sizes.append(len(all_matches(bracket)))
        with CaptureQueriesContext(connection) as ctx:
            assert api.get(f"/api/v1/tournaments/{t.pk}/bracket/").status_code == 200
        endpoint.append(len(ctx.captured_queries))
    assert sizes == [30, 510]  # every match of both brackets
    assert endpoint[0] == endpoint[1]


def test_standings_share_places_the_format_does_not_separate(api, organiser):
    t = TournamentFactory(organisers=[organiser], format="single", third_place="shared")
    register(t, 8)
    services.tournament_draw(tournament=t, actor=organiser, method="seeded")
    play_out(t)
    places = api.get(f"/api/v1/tournaments/{t.pk}/standings/").json()["places"]
    assert [(p["first"], p["last"], len(p["players"])) for p in places] == [
        (1, 1, 1),
        (2, 2, 1),
        (3, 4, 2),
        (5, 8, 4),
    ]
    assert places[2]["shared"] is True and places[2]["label"] == "3–4"


def test_prizes_split_the_pool_exactly_and_shared_places_split_evenly(api, organiser):
    t = TournamentFactory(organisers=[organiser], format="single", third_place="shared")
    register(t, 7, fee=Decimal("1000"))
    register(t, 1, paid=False, fee=Decimal("1000"))
    services.tournament_draw(tournament=t, actor=organiser, method="seeded", allow_unpaid=True)
    before = api.get(f"/api/v1/tournaments/{t.pk}/prizes/").json()
    assert before["pool"] == "4900.00" and before["paid_fees"] == "7000.00"
    assert [a["total"] for a in before["awards"]] == ["2205.00", "1470.00", "1225.00"]
    assert all(a["players"] == [] for a in before["awards"])

    play_out(t)
    body = api.get(f"/api/v1/tournaments/{t.pk}/prizes/").json()
    assert body["complete"] is True
    totals = [Decimal(a["total"]) for a in body["awards"]]
    assert sum(totals) == Decimal(body["pool"])
    first, _second, third = body["awards"]
    assert first["players"][0]["amount"] == "2205.00"
    assert (third["first"], third["last"]) == (3, 4)
    assert sorted(p["amount"] for p in third["players"]) == ["612.00", "613.00"]
    assert third["amount_each"] == "612.00"


def test_added_money_and_rounding_unit(api, organiser):
    t = TournamentFactory(
        organisers=[organiser],
        format="single",
        added_money=Decimal("1000"),
        prize_unit=Decimal("100"),
        place_shares=["50", "30", "20"],
    )
    register(t, 4, fee=Decimal("777"))
    services.tournament_draw(tournament=t, actor=organiser, method="seeded")
    body = api.get(f"/api/v1/tournaments/{t.pk}/prizes/").json()
    # 70% of 3108 = 2175.6, down to the unit: 2100; plus 1000 added.
    assert body["pool"] == "3100.00"
    assert sum(Decimal(a["total"]) for a in body["awards"]) == Decimal("3100")
    assert all(Decimal(a["total"]) % 100 == 0 for a in body["awards"])


def test_private_tournament_results_are_hidden_from_the_public(api, drawn, tournament):
    drawn(4)
    tournament.is_public = False
    tournament.save()
    for tail in ("bracket/", "standings/", "prizes/"):
        assert api.get(f"/api/v1/tournaments/{tournament.pk}/{tail}").status_code == 404


@pytest.mark.parametrize(
    ("settings", "count"),
    [
        ({"format": "single", "third_place": "match"}, 11),
        ({"format": "double", "grand_final": "reset"}, 13),
        ({"format": "double", "grand_final": "none"}, 6),
        ({"format": "double_to_single", "playoff_size": 4, "third_place": "match"}, 12),
        ({"format": "groups_playoff", "group_size": 3, "group_advance": 1}, 9),
    ],
)
def test_every_format_plays_out_and_places_everybody_once(api, organiser, settings, count):
    t = TournamentFactory(organisers=[organiser], **settings)
    register(t, count)
    services.tournament_draw(tournament=t, actor=organiser, method="random", random_seed=7)
    play_out(t, pick=lambda m: "b" if m.pk % 3 == 0 else "a")  # some upsets
    t.refresh_from_db()
    assert t.status == "finished"
    body = api.get(f"/api/v1/tournaments/{t.pk}/standings/").json()
    placed = [p["id"] for place in body["places"] for p in place["players"]]
    assert sorted(placed) == sorted(set(placed)) and len(placed) == count
    assert body["places"][0]["first"] == 1 and body["places"][-1]["last"] == count
    prizes = api.get(f"/api/v1/tournaments/{t.pk}/prizes/").json()
    assert sum(Decimal(a["total"]) for a in prizes["awards"]) == Decimal(prizes["pool"])


def test_before_the_draw_results_are_empty_but_the_pool_is_known(api, tournament):
    register(tournament, 3, fee=Decimal("1000"))
    base = f"/api/v1/tournaments/{tournament.pk}/"
    assert api.get(f"{base}bracket/").json()["stages"] == []
    assert api.get(f"{base}standings/").json()["places"] == []
    prizes = api.get(f"{base}prizes/").json()
    assert prizes["pool"] == "2100.00"
    assert [a["total"] for a in prizes["awards"]] == ["945.00", "630.00", "525.00"]
