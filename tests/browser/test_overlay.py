"""The table overlay as a 1280×720 browser source (OBS): live, finished and idle, no text under
16 px, a turn marker that reads from across the room, and the winner kept on the stream until
the next match at that table begins (the table is refilled with the last ball)."""

from __future__ import annotations

import pytest

import rules
from matches import services as match_services
from matches.models import Match
from tests.web.helpers import drawn_tournament, play_to_win, submit

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SOURCE = {"width": 1280, "height": 720}

# Every visible text node with its computed font size (the visually hidden words for screen
# readers are not drawn).
TEXT_SIZES = """() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const el = node.parentElement;
    if (!node.textContent.trim() || !el || el.closest('.visually-hidden, noscript, script')) continue;
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    out.push([node.textContent.trim(), parseFloat(getComputedStyle(el).fontSize)]);
  }
  return out;
}"""


def small_text(page) -> list:
    sizes = page.evaluate(TEXT_SIZES)
    assert sizes, "no text on the overlay"
    return [(text, size) for text, size in sizes if size < 16]


@pytest.fixture
def world(organiser, referee):
    tournament = drawn_tournament(
        organiser,
        4,
        referee=referee,
        format="single",
        handicap_scheme="none",
        ruleset={"discipline": "free_pyramid", "balls_to_win": 8},
    )
    match_services.tables_ensure(tournament=tournament, count=2, actor=organiser)
    match_services.table_assign_next(tournament=tournament, actor=organiser)
    return tournament


def test_overlay_live_finished_and_idle(open_page, live_server, world, referee, screenshot):
    t = world
    first = Match.objects.get(tournament=t, table__number=1)
    match_services.match_clock(match_id=first.pk, action="start", actor=referee)
    first = submit(
        Match.objects.get(pk=first.pk),
        {"type": "break", "player": "a", "legal": True, "pocketed": 1},
        referee,
    )
    page = open_page(SOURCE)
    page.goto(f"{live_server.url}/t/{t.pk}/tables/1/overlay/")

    # Live: whose turn is a lit cell with a big arrow, not a dot.
    turn = page.locator(".pl.turn")
    assert turn.get_attribute("data-side") == first.state["turn"]
    mark = page.locator(".pl.turn .turn-mark").bounding_box()
    cell = turn.bounding_box()
    assert mark["height"] >= 24 and mark["width"] >= 16, mark
    assert cell["height"] >= 40, cell
    lit = page.evaluate("getComputedStyle(document.querySelector('.pl.turn')).backgroundColor")
    other = page.evaluate(
        "getComputedStyle(document.querySelector('.pl:not(.turn)')).backgroundColor"
    )
    assert lit != other
    assert small_text(page) == []
    screenshot(page, "overlay-live", full_page=False)

    # The last ball at table 1: the final is called to it at once (the other semi-final is
    # over), and the stream keeps the winner with the next match announced under it.
    play_to_win(Match.objects.get(tournament=t, table__number=2), "b", referee)
    play_to_win(Match.objects.get(pk=first.pk), "a", referee)
    final = Match.objects.get(tournament=t, round=2)
    assert final.status == Match.Status.ON_TABLE and final.table.number == 1
    page.wait_for_selector(".bug.final", timeout=6000)
    page.wait_for_timeout(4500)  # two more polls: still the result
    first.refresh_from_db()
    assert page.locator(".bug.final").count() == 1
    assert page.locator(".pl.won .nm").inner_text() == first.player_a.name
    assert page.locator("[data-score=a]").inner_text() == "8"
    sub = page.text_content("[data-sub]")
    assert "итог" in page.text_content(".clk")
    assert "далее:" in sub and final.player_b.name in sub
    assert small_text(page) == []
    screenshot(page, "overlay-finished", full_page=False)

    # The next match begins at that table: the bug follows it.
    match_services.match_clock(match_id=final.pk, action="start", actor=referee)
    page.wait_for_selector(f".bug[data-match='{final.pk}']:not(.final)", timeout=6000)
    assert page.locator(".pl.turn").count() == 1

    # A table that never had a match: idle, and still no small text.
    match_services.tables_ensure(tournament=t, count=3, actor=referee)
    page.goto(f"{live_server.url}/t/{t.pk}/tables/3/overlay/")
    page.wait_for_selector(".bug.idle")
    assert small_text(page) == []
    screenshot(page, "overlay-idle", full_page=False)
    assert not page.errors, page.errors


# The boxes of the names, the head starts and the scores, by what they are.
BOXES = """() => Array.from(document.querySelectorAll('.pl .nm, .pl .hs, .sc')).map((el) => {
  const r = el.getBoundingClientRect();
  return {cls: el.className, text: el.innerText, x: r.x, y: r.y, w: r.width, h: r.height};
})"""


def _overlap(p: dict, q: dict) -> bool:
    return (
        p["x"] < q["x"] + q["w"] - 0.5
        and q["x"] < p["x"] + p["w"] - 0.5
        and p["y"] < q["y"] + q["h"] - 0.5
        and q["y"] < p["y"] + p["h"] - 0.5
    )


@pytest.mark.parametrize("width", [320, 375])
def test_on_a_phone_names_stay_and_the_head_start_keeps_off_the_score(
    open_page, live_server, world, referee, width
):
    from tests.browser import a11y

    match = Match.objects.get(tournament=world, table__number=1)
    match.ruleset = {**match.ruleset, "head_start": {"a": 6, "b": 0}}
    match.state = rules.initial_state(match.ruleset)
    match.save(update_fields=["ruleset", "state"])
    match_services.match_clock(match_id=match.pk, action="start", actor=referee)
    page = open_page({"width": width, "height": 640})
    a11y.with_axe(page.context)
    page.goto(f"{live_server.url}/t/{world.pk}/tables/1/overlay/?solid=1")
    page.wait_for_selector(".bug .pl")
    boxes = page.evaluate(BOXES)
    names = [b for b in boxes if b["cls"] == "nm"]
    assert len(names) == 2
    for name in names:  # each name shows at least its first word
        assert name["w"] >= 60 and name["text"].strip(), name
    assert "фора +6" in page.inner_text("[data-side=a] [data-head-start]")
    for i, p in enumerate(boxes):
        for q in boxes[i + 1 :]:
            assert not _overlap(p, q), (p, q)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert a11y.axe_violations(page) == []
