"""Club Wi-Fi drops: the referee keeps tapping, the taps wait on the phone (through a reload),
leave in order when the connection is back, each applied once; a refused one stops the queue."""

from __future__ import annotations

import pytest

from matches.models import Match, MatchEvent
from tests.browser.conftest import PHONE
from tests.web.helpers import drawn_tournament, first_ready

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

KEPT = """async () => {
  // The service worker keeps the form's page and files; wait until it has them.
  await navigator.serviceWorker.ready;
  for (let i = 0; i < 100; i++) {
    const page = await caches.match(location.pathname);
    const script = await caches.match("/static/js/referee/queue.js");
    if (page && script) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}"""


@pytest.fixture
def match(organiser, referee):
    tournament = drawn_tournament(
        organiser,
        2,
        referee=referee,
        format="single",
        handicap_scheme="none",
        ruleset={"discipline": "free_pyramid", "balls_to_win": 8},
    )
    return first_ready(tournament)


def queue_tap(page, selector: str) -> None:
    before = page.locator(".ref-events li.pending").count()
    page.click(selector)
    page.wait_for_function(
        f"() => document.querySelectorAll('.ref-events li.pending').length === {before + 1}"
    )


def test_ten_taps_offline_survive_a_reload_and_are_applied_once_in_order(
    open_page, live_server, match, referee, screenshot
):
    page = open_page(PHONE, user=referee)
    url = f"{live_server.url}/m/{match.pk}/score/"
    page.goto(url)
    page.wait_for_selector("[data-awaiting=break]")
    assert page.evaluate(KEPT)
    with page.expect_response(lambda r: r.url.endswith("/clock/")):
        page.click("[data-action=clock-start]")
    page.wait_for_selector(".ref-clock.running")

    page.context.set_offline(True)
    # a breaks without a ball; then the referee says who is at the table for each miss.
    queue_tap(page, "button[data-action=break][data-n='0']")
    page.wait_for_selector(".ref.offline")
    shooters = ["b", "a", "b", "a", "b", "a", "b", "a", "b"]
    for s in shooters:
        page.click(f"[data-action=shooter-{s}]")
        queue_tap(page, "button[data-action=pot][data-n='0']")
    assert page.locator(".ref-events li.pending").count() == 10
    assert "Нет связи" in page.inner_text(".ref-notice.queue")
    assert "считает телефон" in page.inner_text(".ref-clock")
    assert MatchEvent.objects.filter(match=match).count() == 0
    screenshot(page, "referee-offline-queue", full_page=False)

    # A reload while the Wi-Fi is down: the page comes from the service worker, the taps
    # from the phone's storage, each with the key it was given when tapped.
    keys = page.eval_on_selector_all(".ref-events li.pending", "els => els.map(e => e.dataset.key)")
    page.reload()
    page.wait_for_selector(".ref-events li.pending")
    assert page.locator(".ref-events li.pending").count() == 10
    assert (
        page.eval_on_selector_all(".ref-events li.pending", "els => els.map(e => e.dataset.key)")
        == keys
    )
    assert page.locator(".ref-clock [data-clock]").count() == 1

    page.context.set_offline(False)
    page.wait_for_function("() => !document.querySelector('.ref-events li.pending')", timeout=30000)
    events = list(MatchEvent.objects.filter(match=match).order_by("seq"))
    assert len(events) == 10
    assert [e.data["event"]["player"] for e in events] == ["a", *shooters]
    assert events[0].data["event"]["type"] == "break"
    match.refresh_from_db()
    assert match.state["turn"] == "a" and match.version == 10

    # A tap that the server refuses stops the queue: it is shown, nothing after it is sent.
    page.context.set_offline(True)
    page.click("[data-action=pot][data-n='0']")  # wakes the offline mode
    page.wait_for_selector(".ref.offline")
    assert page.locator(".ref-events li.pending").count() == 1
    page.click("[data-action=shooter-a]")  # wrong: after a's miss b is at the table
    queue_tap(page, "button[data-action=pot][data-n='0']")
    page.context.set_offline(False)
    page.wait_for_selector("[data-action=discard-queue]", timeout=30000)
    assert "Не принято" in page.inner_text(".ref-notice.error, .ref-notice.warn >> nth=-1")
    assert page.locator(".ref-events li.pending").count() == 1
    assert MatchEvent.objects.filter(match=match).count() == 11  # a's miss went, b's did not
    page.click("[data-action=discard-queue]")
    page.wait_for_function("() => !document.querySelector('.ref-events li.pending')")
    assert MatchEvent.objects.filter(match=match).count() == 11
    assert Match.objects.get(pk=match.pk).version == 11
    assert [e for e in page.errors if "Failed to load resource" not in e] == []
