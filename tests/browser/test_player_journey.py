"""A player's own journey: he signs up on his phone, claims his record with the organiser's
code, enters a full tournament online and lands on the reserve list, moves up when an entrant
withdraws, is checked in at the desk, and sees "your match is called to table N" appear live
on /me/; his page shows the rating chart and the head-to-head with an opponent."""

from __future__ import annotations

import pytest

from matches import services as match_services
from matches.models import Match
from tests.browser.conftest import LAPTOP, PHONE
from tests.factories import PlayerFactory, UserFactory
from tests.players.helpers import finished_with
from tests.world import make_tournament
from tournaments import services
from tournaments.models import RatingChange, Registration
from tournaments.services.claims import player_claim_issue

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_player_signs_up_claims_enters_moves_up_and_is_called(
    open_page, live_server, organiser, screenshot
):
    me_player, rival, *others = PlayerFactory.create_batch(4)
    earlier = finished_with(organiser, [me_player, rival, *others], name="Осенний кубок")
    RatingChange.objects.create(
        player=me_player, tournament=earlier, rating_before=1000, rating_after=1024, delta=24
    )
    _, code = player_claim_issue(player=me_player, actor=organiser, tournament=earlier)

    tournament = make_tournament(organiser, name="Зимний кубок", max_players=2)
    tournament.online_entry = True
    tournament.save(update_fields=["online_entry"])
    leaving_user = UserFactory()
    leaving = PlayerFactory(user=leaving_user, name="Уходящий Игрок")
    staying = PlayerFactory(name="Остающийся Игрок")
    for player in (leaving, staying):
        services.registration_add(tournament=tournament, player=player, actor=organiser)

    phone = open_page(PHONE)
    phone.goto(f"{live_server.url}/accounts/signup/")
    phone.fill("input[name=username]", "petrov")
    phone.fill("input[name=password1]", "correct-horse-battery")
    phone.fill("input[name=password2]", "correct-horse-battery")
    phone.click("main button[type=submit]")
    phone.wait_for_url("**/me/")
    phone.click("main a[href='/claim/']")
    phone.fill("input[name=code]", code)
    phone.click("main button[type=submit]")
    phone.wait_for_url("**/me/")
    me_player.refresh_from_db()
    assert me_player.user is not None and me_player.user.username == "petrov"

    phone.goto(f"{live_server.url}/t/{tournament.pk}/entry/")
    phone.click("[data-enter]")
    phone.wait_for_selector("[data-entry-status=reserve]")
    screenshot(phone, "player-reserve-list")
    assert Registration.objects.get(tournament=tournament, player=me_player).status == "reserve"

    # On /me/ he sees the move up without reloading when the entrant withdraws.
    phone.goto(f"{live_server.url}/me/")
    phone.wait_for_selector("[data-status=reserve]")
    reg = Registration.objects.get(tournament=tournament, player=leaving)
    services.entry_withdraw(registration=reg, user=leaving_user)
    phone.wait_for_selector("[data-promoted]", timeout=3500)

    desk = open_page(LAPTOP, user=organiser)
    desk.goto(f"{live_server.url}/panel/t/{tournament.pk}/registrations/")
    for name in (me_player.name, staying.name):
        desk.click(f"tr[data-player='{name}'] [data-check-in]")
        desk.wait_for_selector(f"tr[data-player='{name}'] [data-check-in][aria-pressed=true]")
    screenshot(desk, "desk-check-in")
    assert not Registration.objects.filter(
        tournament=tournament, status="active", checked_in_at__isnull=True
    ).exists()

    services.tournament_draw(
        tournament=tournament, actor=organiser, method="seeded", allow_unpaid=True
    )
    match_services.tables_ensure(tournament=tournament, count=2, actor=organiser)
    phone.goto(f"{live_server.url}/me/")
    phone.wait_for_selector("[data-match]")
    match = Match.objects.get(tournament=tournament, status=Match.Status.READY)
    match_services.match_assign_table(match=match, table=2, actor=organiser)
    phone.wait_for_selector("[data-called]", timeout=3000)
    assert "2" in phone.inner_text(".called-banner")
    screenshot(phone, "me-called")

    phone.goto(f"{live_server.url}/players/{me_player.pk}/")
    phone.wait_for_selector(".rating-chart svg .pt")
    phone.click(".rating-chart .pt")
    assert "+24" in phone.inner_text(".chart-caption")
    screenshot(phone, "player-page")
    played = Match.objects.filter(tournament=earlier, player_a=me_player).first() or (
        Match.objects.filter(tournament=earlier, player_b=me_player).first()
    )
    opponent = played.player_b_id if played.player_a_id == me_player.pk else played.player_a_id
    phone.goto(f"{live_server.url}/players/{me_player.pk}/vs/{opponent}/")
    phone.wait_for_selector("[data-record]")
    screenshot(phone, "head-to-head")
    assert not phone.errors and not desk.errors
