"""Every page fits a 375-px phone (no sideways scrolling outside the bracket's own scroller),
the desktop bracket shows whole names, and no page logs a console error (the API docs too)."""

from __future__ import annotations

import pytest

from matches import services as match_services
from matches.models import Match, Table
from tests.browser.conftest import PHONE
from tests.factories import PlayerFactory
from tests.web.helpers import first_ready, make_tournament, play_to_win
from tournaments import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1366, "height": 800}
LONG_NAMES = [
    "Ковалёв-Преображенский Никита Александрович",
    "Белорыбкина-Задунайская Анастасия Владимировна",
    "Черноморский Константин Вячеславович",
    "Гриценко-Полуэктова Елизавета",
]


@pytest.fixture
def world(organiser, referee):
    """A double-elimination tournament with long names, a played match, one on a table."""
    tournament = make_tournament(
        organiser, referee=referee, format="double", entry_fee="1000", chief_judge="Сидоров С. С."
    )
    for i in range(12):
        name = LONG_NAMES[i] if i < len(LONG_NAMES) else None
        player = PlayerFactory(name=name) if name else PlayerFactory()
        reg = services.registration_add(tournament=tournament, player=player, actor=organiser)
        services.registration_set_paid(registration=reg, paid=True, actor=organiser)
    services.tournament_draw(tournament=tournament, actor=organiser, method="seeded")
    played = play_to_win(first_ready(tournament), "b", referee)
    match_services.tables_ensure(tournament=tournament, count=2, actor=organiser)
    table = Table.objects.get(tournament=tournament, number=1)
    live = first_ready(tournament)
    match_services.match_assign_table(match=live, table=table, actor=organiser)
    return {"t": tournament, "played": played, "live": live}


def pages(world) -> dict[str, list[str]]:
    t, played, live = world["t"].pk, world["played"].pk, world["live"].pk
    public = [
        "/",
        f"/t/{t}/",
        f"/t/{t}/bracket/",
        f"/t/{t}/standings/",
        f"/t/{t}/prizes/",
        f"/m/{played}/",
        f"/m/{live}/",
        f"/t/{t}/tables/1/",
        f"/t/{t}/tables/2/",
        "/accounts/login/",
    ]
    organiser = [
        "/panel/",
        "/panel/new/",
        f"/panel/t/{t}/",
        f"/panel/t/{t}/registrations/",
        f"/panel/t/{t}/people/",
        f"/panel/t/{t}/draw/",
        f"/panel/t/{t}/tables/",
        f"/panel/t/{t}/settings/",
        f"/panel/t/{t}/prizes/",
        f"/panel/t/{t}/audit/",
        f"/panel/t/{t}/diplomas/",
        f"/panel/m/{played}/",
        f"/panel/m/{live}/",
        f"/panel/t/{t}/print/bracket/",
        f"/panel/t/{t}/print/sheets/",
        f"/panel/t/{t}/print/tables/",
        f"/panel/t/{t}/print/protocol/",
        "/accounts/password/",
    ]
    referee = ["/referee/", f"/m/{live}/score/"]
    return {"anonymous": public, "organiser": organiser, "referee": referee}


def overflow(page) -> dict[str, int]:
    """How far the document scrolls sideways, and the widest element outside a scroller."""
    return page.evaluate(
        """() => {
          const doc = document.documentElement;
          let worst = null;
          for (const el of document.body.querySelectorAll('*')) {
            const r = el.getBoundingClientRect();
            if (r.right > window.innerWidth + 1 && !el.closest('.bracket, .table-scroll, .table-wrap, .sheet')) {
              worst = worst || (el.tagName + '.' + el.className + ' ' + Math.round(r.right));
            }
          }
          return {scroll: doc.scrollWidth, inner: window.innerWidth, worst: worst};
        }"""
    )


def test_no_page_scrolls_sideways_on_a_phone(open_page, live_server, world, organiser, referee):
    users = {"anonymous": None, "organiser": organiser, "referee": referee}
    failures = []
    for who, urls in pages(world).items():
        page = open_page(PHONE, user=users[who])
        for url in urls:
            response = page.goto(live_server.url + url)
            assert response.status == 200, (url, response.status)
            page.wait_for_load_state("load")
            got = overflow(page)
            if got["scroll"] > got["inner"]:
                failures.append((who, url, got))
        assert not page.errors, (who, page.errors)
    assert not failures, failures


def test_desktop_bracket_shows_whole_names(open_page, live_server, world, screenshot):
    page = open_page(DESKTOP)
    page.goto(f"{live_server.url}/t/{world['t'].pk}/bracket/")
    cut = page.evaluate(
        """() => [...document.querySelectorAll('.bracket .name')]
              .filter(el => el.scrollWidth > el.clientWidth + 1)
              .map(el => el.textContent)"""
    )
    screenshot(page, "bracket-desktop-long-names")
    assert cut == []
    # Every round of every stage is inside the page or its scroller, none clipped.
    clipped = page.evaluate(
        """() => [...document.querySelectorAll('.bracket')].filter(b => {
              const last = b.querySelector('.round:last-child');
              if (!last) return false;
              const r = last.getBoundingClientRect(), box = b.getBoundingClientRect();
              return b.scrollWidth <= b.clientWidth && r.right > box.right + 1;
          }).length"""
    )
    assert clipped == 0


def test_favicon_and_api_docs_without_console_errors(open_page, live_server):
    page = open_page(DESKTOP)
    assert page.goto(f"{live_server.url}/favicon.ico").status == 200
    page.goto(f"{live_server.url}/api/v1/docs/")
    page.wait_for_selector(".swagger-ui .information-container", timeout=15000)
    assert not page.errors, page.errors


def test_a_destructive_action_asks_in_a_dialog(open_page, live_server, world, organiser):
    ready = first_ready(world["t"])
    page = open_page(DESKTOP, user=organiser)
    page.goto(f"{live_server.url}/panel/m/{ready.pk}/")
    page.check("input[name=winner][value=a]")
    page.click("form[action$='/walkover/'] button[type=submit]")
    dialog = page.locator("dialog.confirm-dialog")
    dialog.wait_for(state="visible")
    assert "неявку" in dialog.inner_text()
    dialog.locator("button[value=no]").click()
    assert Match.objects.get(pk=ready.pk).status == "ready"  # cancelled: nothing happened
    page.click("form[action$='/walkover/'] button[type=submit]")
    dialog.locator("button[value=yes]").click()
    page.wait_for_url(f"**/panel/m/{ready.pk}/")
    page.wait_for_selector(".messages")
    assert Match.objects.get(pk=ready.pk).status == "walkover"
    assert not page.errors, page.errors
