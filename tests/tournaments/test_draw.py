"""The draw: methods, checks, what the first matches get, and its cost."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from audit.models import AuditEntry
from matches.models import Match
from tests.factories import TournamentFactory
from tests.tournaments.factories import register
from tournaments import services
from tournaments.models import Registration, Tournament

pytestmark = pytest.mark.django_db


def draw_url(t) -> str:
    return f"/api/v1/tournaments/{t.pk}/draw/"


def test_seeded_draw_places_the_best_rated_apart_and_readies_round_one(org_api, tournament):
    regs = register(tournament, 8, ratings=[900, 1000, 1100, 1200, 800, 950, 1050, 1150])
    response = org_api.post(draw_url(tournament), {"method": "seeded"}, format="json")
    assert response.status_code == 200, response.json()
    tournament.refresh_from_db()
    assert tournament.status == "drawn" and tournament.draw_method == "seeded"
    seeds = {r.player.rating: r.seed for r in Registration.objects.filter(tournament=tournament)}
    assert seeds[1200] == 1 and seeds[1150] == 2 and seeds[800] == 8
    # 8 double elimination: 7 upper, 6 lower, grand final.
    assert Match.objects.filter(tournament=tournament).count() == 14
    first = Match.objects.get(tournament=tournament, key="U1-1")
    assert {first.player_a.rating, first.player_b.rating} == {1200, 800}
    assert first.status == "ready"
    # Race to 30, 400 points apart: the weaker starts with the scheme's cap of 12 balls.
    assert first.ruleset["balls_to_win"] == 30
    weaker = "a" if first.player_a.rating == 800 else "b"
    assert first.ruleset["head_start"][weaker] == 12
    assert first.state["score"][weaker] == 12
    assert first.clock_limit_seconds == 80 * 60
    final = Match.objects.get(tournament=tournament, key="U3-1")
    assert final.status == "scheduled" and final.player_a is None
    assert final.loser_to.key.startswith("L") and final.winner_to.key == "GF-1"
    entry = AuditEntry.objects.get(tournament=tournament, action="tournament_draw")
    assert entry.data["method"] == "seeded" and entry.data["players"] == len(regs)


def test_random_draw_stores_its_seed_and_replays(org_api, tournament, organiser):
    register(tournament, 12)
    response = org_api.post(
        draw_url(tournament), {"method": "random", "random_seed": 4242}, format="json"
    )
    assert response.status_code == 200
    first = {
        (r.player.name.rsplit(" ", 1)[0], r.seed)
        for r in Registration.objects.filter(tournament=tournament).select_related("player")
    }
    tournament.refresh_from_db()
    assert tournament.random_seed == 4242 and tournament.draw_method == "random"
    audit = AuditEntry.objects.get(tournament=tournament, action="tournament_draw")
    assert audit.data["random_seed"] == 4242

    # Without a seed one is generated, stored, and the preview with it shows the same draw.
    other = Tournament.objects.create(name="Второй", date=tournament.date, status="registration")
    other.organisers.add(organiser)
    register(other, 12)
    preview = org_api.get(f"/api/v1/tournaments/{other.pk}/draw-preview/?method=random").json()
    seed = preview["random_seed"]
    assert isinstance(seed, int)
    again = org_api.get(
        f"/api/v1/tournaments/{other.pk}/draw-preview/?method=random&random_seed={seed}"
    ).json()
    assert again["stages"] == preview["stages"]
    org_api.post(draw_url(other), {"method": "random", "random_seed": seed}, format="json")
    drawn = org_api.get(f"/api/v1/tournaments/{other.pk}/bracket/").json()
    pairs = lambda b: [  # noqa: E731
        (m["key"], (m["player_a"] or {}).get("id"), (m["player_b"] or {}).get("id"))
        for st in b["stages"]
        for r in st["rounds"]
        for m in r["matches"]
    ]
    assert pairs(drawn) == pairs(preview)
    assert Match.objects.filter(tournament=other).count() == len(pairs(preview))
    assert first  # the first tournament kept its own seeds


def test_manual_draw_follows_the_given_order(org_api, tournament):
    regs = register(tournament, 4)
    order = [regs[3].player_id, regs[0].player_id, regs[2].player_id, regs[1].player_id]
    response = org_api.post(
        draw_url(tournament), {"method": "manual", "order": order}, format="json"
    )
    assert response.status_code == 200
    seeds = dict(
        Registration.objects.filter(tournament=tournament).values_list("player_id", "seed")
    )
    assert [seeds[p] for p in order] == [1, 2, 3, 4]


def test_manual_order_must_name_everyone(org_api, tournament):
    regs = register(tournament, 4)
    response = org_api.post(
        draw_url(tournament),
        {"method": "manual", "order": [regs[0].player_id, regs[1].player_id]},
        format="json",
    )
    assert response.status_code == 422
    assert response.json()["code"] == "invalid_manual_order"
    assert not Match.objects.filter(tournament=tournament).exists()


def test_unpaid_fees_stop_the_draw_naming_who(org_api, tournament):
    regs = register(tournament, 4)
    late = register(tournament, 1, paid=False)[0]
    response = org_api.post(draw_url(tournament), {"method": "seeded"}, format="json")
    assert response.status_code == 422
    body = response.json()
    assert body["code"] == "unpaid" and late.player.name in body["message"]
    tournament.refresh_from_db()
    assert tournament.status == "registration"
    assert not Match.objects.filter(tournament=tournament).exists()
    assert all(r.seed is None for r in Registration.objects.filter(tournament=tournament))
    ok = org_api.post(
        draw_url(tournament), {"method": "seeded", "allow_unpaid": True}, format="json"
    )
    assert ok.status_code == 200
    assert (
        len(regs) + 1
        == Registration.objects.filter(tournament=tournament, seed__isnull=False).count()
    )


def test_drawing_twice_or_too_few_players_is_refused(org_api, tournament):
    register(tournament, 1)
    response = org_api.post(draw_url(tournament), {"method": "seeded"}, format="json")
    assert response.status_code == 422 and response.json()["code"] == "not_enough_players"
    register(tournament, 2)
    assert (
        org_api.post(draw_url(tournament), {"method": "seeded"}, format="json").status_code == 200
    )
    count = Match.objects.filter(tournament=tournament).count()
    again = org_api.post(draw_url(tournament), {"method": "seeded"}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "already_drawn"
    assert Match.objects.filter(tournament=tournament).count() == count


def test_draw_is_refused_in_russian_by_default_and_in_english_on_request(org_api, tournament):
    register(tournament, 1)
    ru = org_api.post(draw_url(tournament), {"method": "seeded"}, format="json")
    en = org_api.post(
        draw_url(tournament), {"method": "seeded"}, format="json", HTTP_ACCEPT_LANGUAGE="en"
    )
    assert en.json()["message"].startswith("At least 2 registered players")
    assert ru.json()["code"] == en.json()["code"] == "not_enough_players"


def test_only_the_tournaments_organisers_draw(api, tournament, other_organiser):
    register(tournament, 4)
    assert api.post(draw_url(tournament), {"method": "seeded"}, format="json").status_code in (
        401,
        403,
    )
    api.force_authenticate(other_organiser)
    response = api.post(draw_url(tournament), {"method": "seeded"}, format="json")
    assert response.status_code == 403 and "message" in response.json()
    assert not Match.objects.filter(tournament=tournament).exists()


def test_preview_writes_nothing(org_api, tournament):
    register(tournament, 6)
    before = Match.objects.count()
    response = org_api.get(f"/api/v1/tournaments/{tournament.pk}/draw-preview/?method=seeded")
    assert response.status_code == 200
    body = response.json()
    assert body["preview"] is True
    upper = next(s for s in body["stages"] if s["stage"] == "upper")
    first_round = upper["rounds"][0]["matches"]
    assert all(m["player_a"] and m["player_b"] for m in first_round)
    assert Match.objects.count() == before
    tournament.refresh_from_db()
    assert tournament.status == "registration"


def _draw_queries(organiser, count: int) -> int:
    t = TournamentFactory(organisers=[organiser], grand_final="reset", max_players=1024)
    register(t, count)
    with CaptureQueriesContext(connection) as ctx:
        services.tournament_draw(tournament=t, actor=organiser, method="seeded")
    # Upper n - 1, lower n - 2, the grand final and its reset.
    assert Match.objects.filter(tournament=t).count() == 2 * count - 1
    return len(ctx.captured_queries)


def test_draw_takes_the_same_number_of_queries_for_16_and_1024_players(require_postgres, organiser):
    small = _draw_queries(organiser, 16)
    large = _draw_queries(organiser, 1024)
    assert small == large
    assert large <= 10
