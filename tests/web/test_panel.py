"""The organiser panel: every action is a POST form that works without JavaScript."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation

from audit.models import AuditEntry
from matches import services as match_services
from matches.models import Match, Table
from matches.selectors import match_clock
from tests.factories import OrganiserFactory, PlayerFactory
from tests.web.helpers import first_ready, make_tournament, play_to_win, register, submit
from tournaments.match_labels import match_label
from tournaments.models import Registration, Tournament

pytestmark = pytest.mark.django_db


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def test_panel_needs_a_login_and_the_tournament_s_organiser(client, open_tournament, user):
    response = client.get("/panel/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    client.force_login(user)
    assert client.get(f"/panel/t/{open_tournament.pk}/").status_code == 403
    assert client.post(f"/panel/t/{open_tournament.pk}/start/").status_code == 403
    assert client.get("/panel/new/").status_code == 403


def test_a_private_tournament_s_panel_does_not_exist_for_strangers(client, organiser, referee):
    tournament = make_tournament(organiser, referee=referee, is_public=False)
    client.force_login(OrganiserFactory())
    assert client.get(f"/panel/t/{tournament.pk}/").status_code == 404
    assert client.post(f"/panel/t/{tournament.pk}/start/").status_code == 404
    client.force_login(referee)  # he may see it, not run it
    assert client.get(f"/panel/t/{tournament.pk}/").status_code == 403


def test_panel_home_lists_my_tournaments(organiser_client, open_tournament):
    page = organiser_client.get("/panel/").content.decode()
    assert open_tournament.name in page
    assert "/panel/new/" in page


def test_create_a_tournament_from_a_preset(organiser_client, organiser):
    response = organiser_client.post(
        "/panel/new/",
        {
            "preset": "free_pyramid_30",
            "name": "Кубок выходного дня",
            "date": "2026-12-12",
            "venue": "Клуб «Луза»",
            "format": "double_to_single",
            "playoff_size": "16",
            "max_players": "32",
            "entry_fee": "1500",
            "is_public": "on",
            "open_registration": "on",
        },
        follow=True,
    )
    tournament = Tournament.objects.get(name="Кубок выходного дня")
    assert response.redirect_chain[-1][0] == f"/panel/t/{tournament.pk}/registrations/"
    assert tournament.status == Tournament.Status.REGISTRATION
    assert tournament.ruleset["balls_to_win"] == 30 and tournament.time_limit_minutes == 80
    assert tournament.playoff_size == 16
    assert organiser in tournament.organisers.all()
    assert "Tournament created." in messages_of(response)


def test_the_service_s_refusal_shows_on_the_field(organiser_client):
    response = organiser_client.post(
        "/panel/new/",
        {
            "preset": "free_pyramid_30",
            "name": "Без плей-офф",
            "date": "2026-12-12",
            "format": "double_to_single",
            "max_players": "32",
            "entry_fee": "0",
        },
    )
    assert response.status_code == 400
    assert "play-off size" in str(response.context["form"].errors["playoff_size"])
    assert not Tournament.objects.filter(name="Без плей-офф").exists()


def test_registration_desk_search_add_pay_and_totals(organiser_client, open_tournament):
    PlayerFactory(name="Смирнов Алексей", rating=1100)
    desk = f"/panel/t/{open_tournament.pk}/registrations/"
    page = organiser_client.get(desk, {"q": "смир"}).content.decode()
    assert "Смирнов Алексей" in page
    player_id = PlayerFactory._meta.model.objects.get(name="Смирнов Алексей").pk
    response = organiser_client.post(f"{desk}add/", {"player": player_id}, follow=True)
    assert "Смирнов Алексей is registered." in messages_of(response)
    response = organiser_client.post(
        f"{desk}new/", {"name": "Новиков Павел", "rating": "950", "city": "Москва"}, follow=True
    )
    assert "Новиков Павел is registered." in messages_of(response)
    regs = list(Registration.objects.filter(tournament=open_tournament))
    assert len(regs) == 2 and all(r.fee_due == 1000 for r in regs)

    response = organiser_client.post(f"{desk}{regs[0].pk}/paid/", {"paid": "1"})
    assert response.status_code == 302 and response["Location"].endswith(f"#reg-{regs[0].pk}")
    totals = organiser_client.get(desk).context["totals"]
    assert totals["paid_players"] == 1
    assert totals["fees_paid"] == 1000 and totals["pool"] == 700

    organiser_client.post(f"{desk}{regs[0].pk}/paid/", {"paid": "0"})
    assert organiser_client.get(desk).context["totals"]["pool"] == 0


def test_registering_twice_says_why_in_a_message(organiser_client, open_tournament, organiser):
    reg = register(open_tournament, organiser, 1)[0]
    response = organiser_client.post(
        f"/panel/t/{open_tournament.pk}/registrations/add/", {"player": reg.player_id}, follow=True
    )
    assert any("already registered" in m for m in messages_of(response))
    error = response.context["messages"]
    assert [m.level_tag for m in error] == ["error"]


def test_withdraw_a_player(organiser_client, open_tournament, organiser):
    reg = register(open_tournament, organiser, 2)[0]
    url = f"/panel/t/{open_tournament.pk}/registrations/{reg.pk}/withdraw/"
    asked = organiser_client.post(url, {"reason": "болен"})
    reg.refresh_from_db()
    assert asked.status_code == 200 and reg.player.name in asked.context["question"]
    assert reg.status == Registration.Status.ACTIVE  # nothing before the confirmation
    assert 'name="reason" value="болен"' in asked.content.decode()
    organiser_client.post(url, {"reason": "болен", "confirmed": "1"})
    reg.refresh_from_db()
    assert reg.status == Registration.Status.WITHDRAWN


def test_draw_preview_writes_nothing_and_the_confirmation_draws(
    organiser_client, open_tournament, organiser
):
    register(open_tournament, organiser, 6)
    url = f"/panel/t/{open_tournament.pk}/draw/"
    preview = organiser_client.get(url, {"preview": "1", "method": "random", "random_seed": "7"})
    assert preview.status_code == 200
    assert preview.context["preview"]["preview"] is True
    assert len(preview.context["seeds"]) == 6
    assert not Match.objects.filter(tournament=open_tournament).exists()
    previewed = [
        (m["player_a"] or {}).get("id")
        for stage in preview.context["preview"]["stages"]
        for rnd in stage["rounds"]
        for m in rnd["matches"]
    ]

    response = organiser_client.post(url, {"method": "random", "random_seed": "7"})
    assert (
        response.status_code == 302
        and response["Location"] == f"/panel/t/{open_tournament.pk}/tables/"
    )
    open_tournament.refresh_from_db()
    assert open_tournament.status == Tournament.Status.DRAWN and open_tournament.random_seed == 7
    drawn = [
        m.player_a_id
        for m in Match.objects.filter(tournament=open_tournament).order_by(
            "stage", "round", "order"
        )
    ]
    assert sorted(filter(None, drawn)) == sorted(filter(None, previewed))


def test_unpaid_fees_stop_the_draw_with_a_message(organiser_client, open_tournament, organiser):
    register(open_tournament, organiser, 4, paid=False)
    response = organiser_client.post(
        f"/panel/t/{open_tournament.pk}/draw/", {"method": "seeded"}, follow=True
    )
    assert any("not paid" in m for m in messages_of(response))
    open_tournament.refresh_from_db()
    assert open_tournament.status == Tournament.Status.REGISTRATION
    organiser_client.post(
        f"/panel/t/{open_tournament.pk}/draw/", {"method": "seeded", "allow_unpaid": "on"}
    )
    open_tournament.refresh_from_db()
    assert open_tournament.status == Tournament.Status.DRAWN


def test_table_board_assign_move_free_and_hold(organiser_client, drawn):
    board = f"/panel/t/{drawn.pk}/tables/"
    organiser_client.post(f"{board}count/", {"count": "3"})
    assert Table.objects.filter(tournament=drawn, is_active=True).count() == 3
    response = organiser_client.post(f"{board}assign-next/", follow=True)
    assert any("sent to tables" in m for m in messages_of(response))
    page = response.content.decode()
    on_tables = Match.objects.filter(tournament=drawn, status=Match.Status.ON_TABLE)
    assert on_tables.count() == 3
    for match in on_tables:
        assert match.player_a.name in page

    first = on_tables.get(table__number=1)
    organiser_client.post(f"{board}1/free/", {"confirmed": "1"})
    first.refresh_from_db()
    assert first.status == Match.Status.READY and first.table is None
    other = on_tables.get(table__number=2)
    organiser_client.post(f"/panel/m/{other.pk}/move/", {"table": "1", "next": board})
    other.refresh_from_db()
    assert other.table.number == 1
    organiser_client.post(f"/panel/m/{first.pk}/hold/", {"held": "1", "next": board})
    first.refresh_from_db()
    assert first.held
    response = organiser_client.post(
        f"/panel/m/{first.pk}/assign/", {"table": "1", "next": board}, follow=True
    )
    assert any("busy" in m for m in messages_of(response))


def test_board_flags_a_judge_call_and_resolves_it(organiser_client, drawn, referee, organiser):
    match_services.tables_ensure(tournament=drawn, count=1, actor=organiser)
    match_services.table_assign_next(tournament=drawn, actor=organiser)
    match = Match.objects.get(tournament=drawn, table__number=1)
    match_services.match_judge_call(match_id=match.pk, actor=referee, note="спорный шар")
    page = organiser_client.get(f"/panel/t/{drawn.pk}/tables/").content.decode()
    assert "judge-flag" in page and "спорный шар" in page
    organiser_client.post(f"/panel/m/{match.pk}/judge/resolve/", {"note": "ok"})
    match.refresh_from_db()
    assert match.judge_called_at is None


def test_match_control_clock_walkover_and_correction(organiser_client, drawn, referee):
    match = first_ready(drawn)
    url = f"/panel/m/{match.pk}/"
    assert organiser_client.get(url).status_code == 200
    organiser_client.post(f"{url}clock/", {"action": "start"})
    match.refresh_from_db()
    assert match.status == Match.Status.RUNNING and match.clock_running_since is not None
    organiser_client.post(f"{url}clock/", {"action": "pause"})
    match.refresh_from_db()
    assert match.status == Match.Status.PAUSED
    response = organiser_client.post(f"{url}clock/", {"action": "pause"}, follow=True)
    assert any("not running" in m for m in messages_of(response))
    organiser_client.post(f"{url}clock/", {"action": "resume"})
    organiser_client.post(f"{url}clock/adjust/", {"minutes": "15"})
    match.refresh_from_db()
    assert match.status == Match.Status.RUNNING
    assert 15 * 60 - 5 < match_clock(match=match).remaining_seconds <= 15 * 60 + 1

    other = first_ready(drawn)
    organiser_client.post(
        f"/panel/m/{other.pk}/walkover/", {"winner": "b", "reason": "неявка", "confirmed": "1"}
    )
    other.refresh_from_db()
    assert other.status == Match.Status.WALKOVER and other.winner_id == other.player_b_id

    match = play_to_win(Match.objects.get(pk=match.pk), "a", referee)
    organiser_client.post(
        f"/panel/m/{match.pk}/correct/",
        {"winner": "b", "score_a": "25", "score_b": "30", "confirmed": "1"},
    )
    match.refresh_from_db()
    assert match.winner_id == match.player_b_id and (match.score_a, match.score_b) == (25, 30)


def test_handicap_override_before_play(organiser_client, drawn):
    match = first_ready(drawn)
    organiser_client.post(
        f"/panel/m/{match.pk}/handicap/", {"head_a": "0", "head_b": "6", "balls_to_win": ""}
    )
    match.refresh_from_db()
    assert match.ruleset["head_start"] == {"a": 0, "b": 6}
    assert match.head_start_overridden


def test_audit_log_per_tournament_and_per_match(organiser_client, drawn, referee):
    match = first_ready(drawn)
    submit(match, {"type": "break", "player": "a", "legal": True, "pocketed": 1}, referee)
    page = organiser_client.get(f"/panel/t/{drawn.pk}/audit/").content.decode()
    # Sentences with names and match numbers, not action codes and ids.
    assert "made the draw for 8 players" in page
    with translation.override("en"):
        label = match_label(match.key)  # the match number as a club writes it
    assert f"in match {label}: {match.player_a.name}: break, 1 ball" in page
    match_page = organiser_client.get(f"/panel/m/{match.pk}/").content.decode()
    assert f"{match.player_a.name}: break, 1 ball" in match_page
    assert AuditEntry.objects.filter(match=match).exists()


def test_panel_forms_need_the_csrf_token(organiser, open_tournament):
    client = Client(enforce_csrf_checks=True)
    client.force_login(organiser)
    response = client.post(f"/panel/t/{open_tournament.pk}/registrations/new/", {"name": "X"})
    assert response.status_code == 403


def test_prizes_page_lists_diplomas_once_places_are_decided(organiser_client, finished):
    page = organiser_client.get(f"/panel/t/{finished.pk}/prizes/").content.decode()
    assert f"/panel/t/{finished.pk}/diplomas.pdf" in page
    winner = Match.objects.get(tournament=finished, key__startswith="S3").winner
    assert f"/panel/t/{finished.pk}/diplomas/{winner.pk}.pdf" in page
