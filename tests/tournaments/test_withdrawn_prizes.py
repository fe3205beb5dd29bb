"""Places half decided, withdrawn and disqualified players, and the no-show rule: what the
standings, the prizes, the diplomas and the organiser see."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.test import Client

from audit.models import AuditEntry
from matches import services as match_services
from matches.models import Match
from tests.factories import TournamentFactory
from tests.tournaments.factories import register
from tests.tournaments.helpers import finish, match, ready_matches
from tournaments import services
from tournaments.diplomas import diploma_entries
from tournaments.models import Registration, Tournament

pytestmark = pytest.mark.django_db

SIX_PLACES = ["40", "25", "15", "10", "5", "5"]


def drawn(organiser, count: int, **settings) -> Tournament:
    t = TournamentFactory(organisers=[organiser], **settings)
    register(t, count, fee=Decimal("1000"))
    services.tournament_draw(tournament=t, actor=organiser, method="seeded")
    return t


def reads_answer(api, t: Tournament) -> dict:
    for what in ("bracket", "standings"):
        assert api.get(f"/api/v1/tournaments/{t.pk}/{what}/").status_code == 200
    response = api.get(f"/api/v1/tournaments/{t.pk}/prizes/")
    assert response.status_code == 200
    body = response.json()
    parts = Decimal(body["awarded"]) + Decimal(body["pending"]) + Decimal(body["withheld"])
    assert parts == Decimal(body["pool"])
    return body


@pytest.mark.parametrize(
    "settings",
    [
        {"format": "single", "third_place": "shared"},
        {"format": "double", "place_shares": SIX_PLACES},
        {"format": "double", "grand_final": "reset", "place_shares": SIX_PLACES},
    ],
    ids=["single-shared-third", "double-5-6", "double-reset"],
)
def test_prizes_and_standings_answer_after_every_single_match(api, organiser, settings):
    t = drawn(organiser, 8, **settings)
    client = Client()
    client.force_login(organiser)
    seen_half = False
    reads_answer(api, t)
    while ready := ready_matches(t):
        finish(ready[0], "b")  # upsets too: the lower seed wins
        body = reads_answer(api, t)
        seen_half |= any(a["players"] and a["pending_places"] for a in body["awards"])
        for url in (f"/t/{t.pk}/prizes/", f"/t/{t.pk}/standings/", f"/panel/t/{t.pk}/prizes/"):
            assert client.get(url).status_code == 200, url
        assert client.get(f"/panel/t/{t.pk}/diplomas/").status_code == 200
    assert seen_half  # a shared paid place was half decided at some point
    body = reads_answer(api, t)
    assert body["complete"] and body["pending"] == "0.00"


def test_between_the_semi_finals_the_known_third_is_paid_and_the_other_half_reserved(
    api, organiser
):
    t = drawn(organiser, 8, format="single", third_place="shared")
    for key in ("S1-1", "S1-2", "S1-3", "S1-4"):
        finish(match(t, key), "a")
    semi = match(t, "S2-1")
    finish(semi, "a")
    body = reads_answer(api, t)
    third = body["awards"][2]
    assert (third["label"], third["pending_places"]) == ("3–4", 1)
    assert [p["id"] for p in third["players"]] == [semi.player_b_id]
    # 70 % of 8000 = 5600; 3rd place 25 % = 1400, shared by the two semi-final losers.
    assert third["players"][0]["amount"] == "700.00" and third["pending"] == "700.00"
    page = Client().get(f"/t/{t.pk}/prizes/")
    assert page.status_code == 200 and 'class="pending"' in page.content.decode()


def _withdraw_during_semi(organiser, **settings) -> tuple[Tournament, int]:
    t = drawn(organiser, 8, format="single", third_place="shared", **settings)
    for key in ("S1-1", "S1-2", "S1-3", "S1-4"):
        finish(match(t, key), "a")
    semi = match(t, "S2-1")
    match_services.match_submit_event(
        match_id=semi.pk,
        event={"type": "break", "player": "a", "legal": True, "pocketed": 3},
        expected_version=0,
        actor=organiser,
    )
    leaving = semi.player_b_id
    reg = Registration.objects.get(tournament=t, player_id=leaving)
    services.registration_withdraw(registration=reg, actor=organiser, reason="заболел")
    semi.refresh_from_db()
    assert semi.status == "finished" and semi.result == "forfeit" and semi.loser_id == leaving
    finish(match(t, "S2-2"), "a")
    finish(match(t, "S3-1"), "a")
    return t, leaving


def test_a_semi_finalist_who_withdrew_keeps_his_place_but_gets_no_money_and_no_diploma(
    api, organiser
):
    t, leaving = _withdraw_during_semi(organiser)
    places = api.get(f"/api/v1/tournaments/{t.pk}/standings/").json()["places"]
    third = next(p for p in places if p["label"] == "3–4")
    him = next(p for p in third["players"] if p["id"] == leaving)
    assert him["withdrawn"] is True

    body = reads_answer(api, t)
    award = body["awards"][2]
    row = next(p for p in award["players"] if p["id"] == leaving)
    other = next(p for p in award["players"] if p["id"] != leaving)
    assert (row["paid"], row["amount"], row["due"]) == (False, "0.00", "700.00")
    assert (other["paid"], other["amount"]) == (True, "700.00")
    assert body["withheld"] == "700.00" and body["pending"] == "0.00"
    assert Decimal(body["awarded"]) + Decimal(body["withheld"]) == Decimal(body["pool"])

    assert leaving not in {e["player_id"] for e in diploma_entries(t)}
    assert len(diploma_entries(t)) == 3  # 1st, 2nd and the other third
    client = Client()
    client.force_login(organiser)
    assert client.get(f"/panel/t/{t.pk}/diplomas/{leaving}.pdf").status_code == 404
    page = client.get(f"/panel/t/{t.pk}/prizes/").content.decode()
    assert 'class="withheld"' in page and "data-withheld" in page


def test_a_tournament_may_pay_a_withdrawn_player_as_usual(api, organiser):
    t, leaving = _withdraw_during_semi(organiser, withdrawn_prize="pay")
    body = reads_answer(api, t)
    row = next(p for p in body["awards"][2]["players"] if p["id"] == leaving)
    assert (row["paid"], row["amount"]) == (True, "700.00")
    assert body["withheld"] == "0.00" and body["awarded"] == body["pool"]
    assert leaving in {e["player_id"] for e in diploma_entries(t)}


def test_disqualification_after_the_draw_walks_over_his_match_and_is_audited(org_api, organiser):
    t = drawn(organiser, 4, format="single", third_place="shared")
    semi = match(t, "S1-1")
    reg = Registration.objects.get(tournament=t, player_id=semi.player_a_id)
    url = f"/api/v1/tournaments/{t.pk}/registrations/{reg.pk}/disqualify/"
    response = org_api.post(url, {"reason": "неспортивное поведение"}, format="json")
    assert response.status_code == 200 and response.json()["status"] == "disqualified"
    semi.refresh_from_db()
    assert semi.status == "walkover" and semi.winner_id == semi.player_b_id
    entry = AuditEntry.objects.get(tournament=t, action="registration_disqualify")
    assert entry.data["reason"] == "неспортивное поведение" and entry.actor == organiser
    again = org_api.post(url, {}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "already_disqualified"
    withdraw = org_api.post(
        f"/api/v1/tournaments/{t.pk}/registrations/{reg.pk}/withdraw/", {}, format="json"
    )
    assert withdraw.status_code == 409

    finish(match(t, "S1-2"), "a")
    finish(match(t, "S2-1"), "a")
    places = org_api.get(f"/api/v1/tournaments/{t.pk}/standings/").json()["places"]
    him = next(p for pl in places for p in pl["players"] if p["id"] == reg.player_id)
    assert him["disqualified"] is True
    prizes = org_api.get(f"/api/v1/tournaments/{t.pk}/prizes/").json()
    row = next(p for a in prizes["awards"] for p in a["players"] if p["id"] == reg.player_id)
    assert row["paid"] is False and row["disqualified"] is True
    page = Client().get(f"/t/{t.pk}/standings/").content.decode()
    assert 'data-out="disqualified"' in page


def test_no_disqualification_before_the_draw(org_api, organiser):
    t = TournamentFactory(organisers=[organiser])
    (reg,) = register(t, 1)
    url = f"/api/v1/tournaments/{t.pk}/registrations/{reg.pk}/disqualify/"
    response = org_api.post(url, {}, format="json")
    assert response.status_code == 409
    reg.refresh_from_db()
    assert reg.status == "active"


def test_the_panel_disqualifies_from_the_desk(organiser):
    t = drawn(organiser, 4, format="single")
    reg = Registration.objects.get(tournament=t, seed=1)
    client = Client()
    client.force_login(organiser)
    desk = client.get(f"/panel/t/{t.pk}/registrations/").content.decode()
    assert f"/panel/t/{t.pk}/registrations/{reg.pk}/disqualify/" in desk
    response = client.post(f"/panel/t/{t.pk}/registrations/{reg.pk}/disqualify/", {"reason": ""})
    assert response.status_code == 302
    reg.refresh_from_db()
    assert reg.status == "disqualified"


def _no_show_in_upper_round_one(org_api, organiser, rule: str) -> tuple[Tournament, int]:
    t = drawn(organiser, 4, format="double", no_show_rule=rule)
    first = match(t, "U1-1")
    absent = first.player_b_id
    response = org_api.post(
        f"/api/v1/tournaments/{t.pk}/matches/{first.pk}/no-show/", {"absent": "b"}, format="json"
    )
    assert response.status_code == 200
    first.refresh_from_db()
    assert first.status == "walkover" and first.loser_id == absent
    entry = AuditEntry.objects.get(match=first, action="match.walkover")
    assert entry.data["reason"] == "no_show"
    finish(match(t, "U1-2"), "a")  # his lower-bracket opponent arrives
    return t, absent


def test_no_show_drops_to_the_lower_bracket_by_default(org_api, organiser):
    t, absent = _no_show_in_upper_round_one(org_api, organiser, "lower_bracket")
    assert Registration.objects.get(tournament=t, player_id=absent).status == "active"
    lower = Match.objects.get(tournament=t, stage="lower", round=1)
    assert absent in (lower.player_a_id, lower.player_b_id) and lower.status == "ready"


def test_no_show_may_put_the_player_out_of_the_tournament(org_api, organiser):
    t, absent = _no_show_in_upper_round_one(org_api, organiser, "out")
    reg = Registration.objects.get(tournament=t, player_id=absent)
    assert reg.status == "withdrawn"
    lower = Match.objects.get(tournament=t, stage="lower", round=1)
    assert lower.status == "walkover" and lower.loser_id == absent
    assert AuditEntry.objects.filter(
        tournament=t, action="registration_withdraw", data__reason="no_show"
    ).exists()


def test_no_show_is_refused_once_the_match_has_begun(org_api, organiser):
    t = drawn(organiser, 4, format="double")
    first = match(t, "U1-1")
    match_services.match_submit_event(
        match_id=first.pk,
        event={"type": "break", "player": "a", "legal": True, "pocketed": 0},
        expected_version=0,
        actor=organiser,
    )
    url = f"/api/v1/tournaments/{t.pk}/matches/{first.pk}/no-show/"
    response = org_api.post(url, {"absent": "a"}, format="json")
    assert response.status_code == 409 and response.json()["code"] == "match_not_waiting"
    first.refresh_from_db()
    assert first.status == "running"
    assert org_api.post(url, {"absent": "c"}, format="json").status_code == 400


def test_the_panel_records_a_no_show_from_the_match_page(organiser):
    t = drawn(organiser, 4, format="double", no_show_rule="out")
    first = match(t, "U1-1")
    client = Client()
    client.force_login(organiser)
    page = client.get(f"/panel/m/{first.pk}/").content.decode()
    assert f"/panel/t/{t.pk}/matches/{first.pk}/no-show/" in page
    asked = client.post(
        f"/panel/t/{t.pk}/matches/{first.pk}/no-show/",
        {"absent": "a", "next": f"/panel/m/{first.pk}/"},
        HTTP_ACCEPT_LANGUAGE="ru",
    )
    # Without the confirmation nothing happens; the question names both players.
    question = asked.context["question"]
    assert f"неявку игрока {first.player_a.name}" in question
    assert f"присуждена игроку {first.player_b.name}" in question
    first.refresh_from_db()
    assert first.status != "walkover"
    response = client.post(
        f"/panel/t/{t.pk}/matches/{first.pk}/no-show/",
        {"absent": "a", "next": f"/panel/m/{first.pk}/", "confirmed": "1"},
    )
    assert response.status_code == 302 and response["Location"] == f"/panel/m/{first.pk}/"
    first.refresh_from_db()
    assert first.status == "walkover" and first.winner_id == first.player_b_id


def test_no_show_and_walkover_are_two_acts_with_two_words(organiser):
    t = drawn(organiser, 4, format="double", no_show_rule="out")
    first = match(t, "U1-1")
    client = Client()
    client.force_login(organiser)
    page = client.get(f"/panel/m/{first.pk}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    a, b = first.player_a.name, first.player_b.name
    no_show = page[page.index('id="no-show"') : page.index('id="walkover"')]
    walkover = page[page.index('id="walkover"') :].split("</section>")[0]
    assert "<h2>Неявка</h2>" in no_show and "Кто не явился?" in no_show
    assert "<h2>Техническая победа</h2>" in walkover and "Неявка" not in walkover
    # Each choice asks its own question, with both players named in it.
    assert f"Записать неявку игрока {a} в матче «В1-1»? " in no_show
    assert f"Техническая победа будет присуждена игроку {b}." in no_show
    assert f"Присудить техническую победу игроку {b} над игроком {a} в матче «В1-1»?" in walkover
    asked = client.post(
        f"/panel/m/{first.pk}/walkover/", {"winner": "a"}, HTTP_ACCEPT_LANGUAGE="ru"
    )
    assert f"игроку {a} над игроком {b}" in asked.context["question"]


def test_the_two_settings_are_set_shown_and_audited(org_api, organiser):
    response = org_api.post(
        "/api/v1/tournaments/",
        {
            "name": "Кубок",
            "date": "2026-12-20",
            "preset": "free_pyramid_30",
            "withdrawn_prize": "pay",
            "no_show_rule": "out",
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["withdrawn_prize"], body["no_show_rule"]) == ("pay", "out")
    t = Tournament.objects.get(pk=body["id"])
    bad = org_api.patch(f"/api/v1/tournaments/{t.pk}/", {"no_show_rule": "x"}, format="json")
    assert bad.status_code == 400
    ok = org_api.patch(
        f"/api/v1/tournaments/{t.pk}/", {"withdrawn_prize": "withhold"}, format="json"
    )
    assert ok.status_code == 200 and ok.json()["withdrawn_prize"] == "withhold"
    entry = AuditEntry.objects.get(tournament=t, action="tournament_update")
    assert entry.data["changed"] == ["withdrawn_prize"]


def test_the_create_form_sets_them(organiser):
    client = Client()
    client.force_login(organiser)
    assert "no_show_rule" in client.get("/panel/new/").content.decode()
    response = client.post(
        "/panel/new/",
        {
            "preset": "free_pyramid_30",
            "name": "Кубок",
            "date": "2026-12-20",
            "format": "double",
            "max_players": 32,
            "entry_fee": "500",
            "no_show_rule": "out",
            "withdrawn_prize": "pay",
        },
    )
    assert response.status_code == 302
    t = Tournament.objects.get(name="Кубок")
    assert (t.no_show_rule, t.withdrawn_prize) == ("out", "pay")


def test_a_disqualified_qualifier_does_not_stall_the_play_off(organiser):
    # One group of five, all five go on: the 4th meets the 5th, the winner one of the top
    # three. The 5th is disqualified, so his play-off match is walked over at once, while the
    # group's table is still filling the play-off.
    t = drawn(organiser, 5, format="groups_playoff", group_size=5, group_advance=5)
    reg = Registration.objects.get(tournament=t, seed=5)
    services.registration_disqualify(registration=reg, actor=organiser)
    while ready := [m for m in ready_matches(t) if m.stage == "group"]:
        finish(ready[0], "a")
    stalled = Match.objects.filter(
        tournament=t, status="scheduled", player_a__isnull=False, player_b__isnull=False
    )
    assert list(stalled.values_list("key", flat=True)) == []
    while ready := ready_matches(t):
        finish(ready[0], "a")
    t.refresh_from_db()
    assert t.status == "finished"


def test_standings_list_the_places_not_decided_yet(api, organiser):
    t = drawn(organiser, 8, format="single", third_place="shared")
    body = api.get(f"/api/v1/tournaments/{t.pk}/standings/").json()
    assert body["places"] == []
    assert [(p["label"], p["pending"]) for p in body["all_places"]] == [
        ("1", 1),
        ("2", 1),
        ("3–4", 2),
        ("5–8", 4),
    ]
    finish(match(t, "S1-1"), "a")
    body = api.get(f"/api/v1/tournaments/{t.pk}/standings/").json()
    assert [(p["label"], len(p["players"]), p["pending"]) for p in body["places"]] == [
        ("5–8", 1, 3)
    ]
    assert [p["label"] for p in body["pending"]] == ["1", "2", "3–4"]
    page = Client().get(f"/t/{t.pk}/standings/").content.decode()
    assert page.count('class="pending"') == 4  # three places, and the rest of 5–8
