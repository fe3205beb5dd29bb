"""The referee form through a club Wi-Fi drop (375×667, the browser context offline): ten taps
are queued with their idempotency keys and shown as pending, the page is reloaded offline (the
service worker serves the form and the phone its last state), the clock counts on marked
offline, and when the connection is back all ten are applied once, in order. Then a tap the
match has moved past (another device wrote meanwhile) stops the queue and the referee sees it
with the current state.

Every wait has a timeout and the test has its own (pytest-timeout): a service worker that
never takes the page over fails the test instead of hanging it."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from matches.models import IdempotencyRecord, Match, MatchEvent
from tests.browser.conftest import PHONE
from tests.browser.referee_form import refereed_match

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(180),
]

WAIT_MS = 10_000

# Ten taps while offline: the shooter (said by the referee, the form computes no rule) and
# the balls he pockets; a miss passes the table.
OFFLINE_TAPS = [("a", 1), ("a", 0), ("b", 1), ("b", 0), ("a", 1)] * 2


@pytest.fixture
def match(organiser, referee):
    return refereed_match(organiser, referee, {"discipline": "free_pyramid", "balls_to_win": 30})


def tap(page, selector: str, path: str = "/events/") -> dict:
    """One tap that writes; returns the server's answer, once the form has drawn it."""
    with page.expect_response(
        lambda r: r.url.split("?")[0].endswith(path) and r.request.method == "POST"
    ) as answer:
        page.click(selector)
    page.wait_for_selector(".ref:not(.busy)")
    return answer.value.json()


def logged(match) -> list:
    """The match's log as stored: what a failed count shows."""
    return [(e.seq, e.kind, e.source, e.payload) for e in MatchEvent.objects.filter(match=match)]


def version_of(answer: dict) -> int:
    """The match's version in a write's answer ({match} or the match itself)."""
    return int(answer.get("match", answer)["version"])


def wait_for_kept_form(page) -> None:
    """The worker controls the page and keeps its page: what a reload offline needs."""
    page.wait_for_function(
        "() => navigator.serviceWorker && navigator.serviceWorker.controller !== null",
        timeout=WAIT_MS,
    )
    page.wait_for_function(
        """async () => {
          for (const name of await caches.keys()) {
            if (!name.startsWith('luza-referee-')) continue;
            const cache = await caches.open(name);
            if (await cache.match(location.pathname)) return true;
          }
          return false;
        }""",
        timeout=WAIT_MS,
        polling=250,
    )


def _refuse(route) -> None:
    route.abort("internetdisconnected")


def wifi(page, up: bool) -> None:
    """The hall's Wi-Fi drops or comes back. Chromium's offline emulation alone lets a request
    the service worker makes slip out (CI once saw an "offline" tap stored); a dropped Wi-Fi
    fails every request, so the context's route refuses them too while it is down."""
    if up:
        page.context.unroute("**/*", _refuse)
        page.context.set_offline(False)
    else:
        page.context.set_offline(True)
        page.context.route("**/*", _refuse)


def offline_tap(page, shooter: str, balls: int) -> None:
    page.click(f"[data-action=shooter-{shooter}]")
    page.click(f"button[data-action=pot][data-n='{balls}']")


def clock_seconds(page) -> int:
    text = page.inner_text(".ref-clock .clock")
    parts = [int(p) for p in text.split(":")]
    return sum(p * 60**i for i, p in enumerate(reversed(parts)))


def test_taps_offline_survive_a_reload_and_are_applied_once_in_order(
    open_page, live_server, match, referee, organiser, screenshot
):
    page = open_page(PHONE, user=referee)
    url = f"{live_server.url}/m/{match.pk}/score/"
    page.goto(url)
    page.wait_for_selector("[data-awaiting=break]")
    wait_for_kept_form(page)
    tap(page, "[data-action=clock-start]", "/clock/")
    # The version is the server's answer to the break, not a read racing it.
    version = version_of(tap(page, "button[data-action=break][data-n='1']"))
    page.wait_for_selector(".ref:not(.busy) [data-awaiting=shot]")
    assert MatchEvent.objects.filter(match=match).count() == version, logged(match)

    # The Wi-Fi drops: ten taps are kept on the phone, each shown pending with its key.
    wifi(page, up=False)
    page.wait_for_selector(".ref.offline")
    # The phone knows it has no network: no write is even attempted until it is back.
    attempts: list[str] = []
    up = [False]
    page.context.on(
        "request", lambda r: attempts.append(r.url) if r.method == "POST" and not up[0] else None
    )
    for shooter, balls in OFFLINE_TAPS[:4]:
        offline_tap(page, shooter, balls)
    page.wait_for_selector("[data-queue='4']")

    # A reload offline: the service worker serves the form, the phone its taps and last state.
    response = page.reload()
    assert response is not None and response.from_service_worker
    page.wait_for_selector("[data-queue='4']")
    for shooter, balls in OFFLINE_TAPS[4:]:
        offline_tap(page, shooter, balls)
    page.wait_for_selector("[data-queue='10']")
    pending = page.eval_on_selector_all(
        ".ref-events li.pending", "els => els.map(e => [e.dataset.key, e.textContent])"
    )
    assert len(pending) == 10
    keys = [key for key, _text in reversed(pending)]  # the log lists the newest first
    assert len(set(keys)) == 10
    for key, text in pending:
        assert key[:8] in text
    assert "10" in page.inner_text(".ref-queue-count")
    screenshot(page, "referee-offline-queue", full_page=False)
    # nothing reached it, nothing was tried
    assert MatchEvent.objects.filter(match=match).count() == version, logged(match)
    assert attempts == []

    # The clock counts on from the last server figures, and says it is counted on the phone.
    assert "нет связи, считает телефон" in page.text_content(".ref-clock-label")
    first = clock_seconds(page)
    page.wait_for_timeout(2200)
    assert clock_seconds(page) < first

    # The connection is back: all ten leave in order, each applied once.
    up[0] = True
    wifi(page, up=True)
    page.wait_for_selector(".ref:not(.offline) [data-awaiting]", timeout=WAIT_MS)
    page.wait_for_function("() => !document.querySelector('[data-queue]')", timeout=3 * WAIT_MS)
    events = list(MatchEvent.objects.filter(match=match).order_by("seq"))
    assert len(events) == version + 10
    applied = [(e.payload["player"], e.payload["pocketed"]) for e in events[version:]]
    assert applied == OFFLINE_TAPS
    records = list(IdempotencyRecord.objects.filter(match=match, key__in=keys).order_by("pk"))
    assert [r.key for r in records] == keys
    assert all(r.status_code == 201 for r in records)
    match.refresh_from_db()
    assert match.state["score"] == {"a": 5, "b": 2}
    assert page.inner_text("[data-score=a]") == "5"

    # Offline again; meanwhile another device records a shot. The first queued tap expects a
    # version the match has left: refused, the queue stops, the referee sees what and why.
    wifi(page, up=False)
    page.wait_for_selector(".ref.offline")
    offline_tap(page, "a", 2)
    offline_tap(page, "a", 1)
    page.wait_for_selector("[data-queue='2']")
    other = APIClient()
    other.force_login(organiser)
    answer = other.post(
        f"/api/v1/matches/{match.pk}/events/",
        {
            "event": {"type": "shot", "player": "a", "pocketed": 3},
            "expected_version": match.version,
            "idempotency_key": "other-device-1",
        },
        format="json",
    )
    assert answer.status_code == 201
    wifi(page, up=True)
    notice = page.wait_for_selector(".ref-notice.warn[role=alert]", timeout=WAIT_MS)
    assert "Не принято" in notice.inner_text()
    page.wait_for_selector("[data-action=discard-queue]")
    assert page.inner_text("[data-score=a]") == "8"  # the current state: the other device's 3
    assert MatchEvent.objects.filter(match=match).count() == version + 11
    page.wait_for_timeout(1500)  # the rest waits: nothing more is sent
    assert MatchEvent.objects.filter(match=match).count() == version + 11
    assert page.locator(".ref-events li.pending").count() == 1
    screenshot(page, "referee-offline-refused", full_page=False)
    page.click("[data-action=discard-queue]")
    page.wait_for_selector(".ref:not(.busy) [data-awaiting=shot]")
    assert page.locator(".ref-events li.pending").count() == 0
    assert Match.objects.get(pk=match.pk).version == version + 11
    # What the browser logs offline is failed loads, nothing else.
    assert [
        e for e in page.errors if "Failed to load resource" not in e and "ERR_INTERNET" not in e
    ] == []


def test_offline_a_miss_passes_the_table_and_every_ball_goes_to_the_right_player(
    open_page, live_server, match, referee
):
    """Offline the form follows the discipline's own turn rules (sent with the form): after a
    miss the opponent is at the table, so his balls are queued for him, and once back online
    every tap is applied to the right player, in order, once."""
    page = open_page(PHONE, user=referee)
    page.goto(f"{live_server.url}/m/{match.pk}/score/")
    page.wait_for_selector("[data-awaiting=break]")
    version = version_of(tap(page, "button[data-action=break][data-n='1']"))
    page.wait_for_selector(".ref:not(.busy) [data-awaiting=shot]")
    wifi(page, up=False)
    page.wait_for_selector(".ref.offline")
    page.click("button[data-action=pot][data-n='1']")  # a: 1, he goes on
    page.wait_for_selector("[data-action=shooter-a][aria-pressed=true]")
    page.click("button[data-action=pot][data-n='0']")  # a misses: b is at the table
    page.wait_for_selector("[data-action=shooter-b][aria-pressed=true]")
    page.click("button[data-action=pot][data-n='2']")  # b: 2
    page.click("button[data-action=pot][data-n='0']")  # b misses: a again
    page.wait_for_selector("[data-action=shooter-a][aria-pressed=true]")
    page.wait_for_selector("[data-queue='4']")
    wifi(page, up=True)
    page.wait_for_function("() => !document.querySelector('[data-queue]')", timeout=3 * WAIT_MS)
    events = list(MatchEvent.objects.filter(match=match).order_by("seq"))
    applied = [(e.payload["player"], e.payload["pocketed"]) for e in events[version:]]
    assert applied == [("a", 1), ("a", 0), ("b", 2), ("b", 0)]
    match.refresh_from_db()
    assert match.state["score"] == {"a": 2, "b": 2}
    assert match.state["turn"] == "a"
    assert page.locator(".ref-notice.warn[role=alert]").count() == 0
