"""The organiser at the desk: a tournament from a preset, 8 players registered and paid, the
draw previewed and made — all through the panel's forms."""

from __future__ import annotations

import re

import pytest

from matches.models import Match
from tests.browser.conftest import LAPTOP
from tests.factories import PlayerFactory
from tournaments.models import Registration, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

KNOWN = ["Смирнов Алексей", "Кузнецов Дмитрий", "Попов Сергей", "Васильев Андрей"]
NEW = [
    ("Петров Михаил", "1101"),
    ("Соколов Игорь", "1085"),
    ("Михайлов Олег", "1063"),
    ("Новиков Павел", "1047"),
]


def test_register_eight_players_mark_fees_paid_and_draw(
    open_page, live_server, organiser, screenshot
):
    for i, name in enumerate(KNOWN):
        PlayerFactory(name=name, rating=1195 - i * 25, city="Москва")
    page = open_page(LAPTOP, user=organiser)

    page.goto(f"{live_server.url}/panel/new/")
    page.fill("input[name=name]", "Кубок выходного дня")
    page.fill("input[name=venue]", "Клуб «Луза», Москва")
    page.select_option("select[name=format]", "single")
    page.fill("input[name=entry_fee]", "1500")
    # The viewport only: Chromium's full-page capture of this page (taller with eight
    # templates) leaves the next click on the form's padding, not on its button.
    screenshot(page, "panel-create", full_page=False)
    page.click("form.form button[type=submit]")
    page.wait_for_url(re.compile(r"/panel/t/\d+/registrations/$"))
    tournament = Tournament.objects.get(name="Кубок выходного дня")

    for name in KNOWN:  # found at the desk by the start of the surname
        page.fill("input[name=q]", name.split()[0][:4].lower())
        page.press("input[name=q]", "Enter")
        page.locator(".search-results li", has_text=name).locator("button").click()
        page.wait_for_selector(f"tr[data-player='{name}']")
    for name, rating in NEW:  # not in the database yet: added at the desk
        page.fill("input[name=q]", name.split()[0])
        page.press("input[name=q]", "Enter")
        page.fill("details.inline-form input[name=name]", name)
        page.fill("details.inline-form input[name=rating]", rating)
        page.click("details.inline-form button[type=submit]")
        page.wait_for_selector(f"tr[data-player='{name}']")
    assert page.locator("table.desk-table tbody tr").count() == 8
    assert page.locator("[data-total=players]").inner_text().startswith("8")

    for _ in range(8):
        page.locator("button.paid-toggle[data-paid='0']").first.click()
        page.wait_for_load_state()
    assert page.locator("button.paid-toggle[data-paid='1']").count() == 8
    # 8 × 1500 paid, 70% to the pool.
    assert page.locator("[data-total=pool]").inner_text().replace("\u202f", " ") == "8 400\u00a0₽"
    screenshot(page, "panel-registration-desk")
    assert Registration.objects.filter(tournament=tournament, paid=True).count() == 8

    page.goto(f"{live_server.url}/panel/t/{tournament.pk}/draw/")
    page.check("input[name=method][value=seeded]")
    page.click("button[name=preview]")
    page.wait_for_selector("#preview")
    assert page.locator(".seed-list li").count() == 8
    assert page.locator(".bracket .bm").count() == 7
    assert not Match.objects.filter(tournament=tournament).exists()  # a preview writes nothing
    screenshot(page, "panel-draw-preview")
    page.click("form.confirm-draw button[type=submit]")
    page.wait_for_url(re.compile(r"/panel/t/\d+/tables/$"))
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.DRAWN
    assert Match.objects.filter(tournament=tournament).count() == 7

    page.fill("#tables-count", "4")
    page.click("form[action$='/tables/count/'] button")
    page.click("form[action$='/tables/assign-next/'] button")
    page.wait_for_selector(".tablecard .players")
    assert Match.objects.filter(tournament=tournament, status=Match.Status.ON_TABLE).count() == 4
    screenshot(page, "panel-table-board")
    assert page.errors == []
