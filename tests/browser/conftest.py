"""Browser tests: the machine's Chromium driven by Playwright against pytest-django's live
server. Screenshots of the pages land in artifacts/screenshots/ (not committed)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import require_service

# Playwright's sync API runs an event loop in this thread; the ORM calls of the tests are
# still plain synchronous calls.
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-dev-shm-usage",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
PHONE = {"width": 375, "height": 667}
LAPTOP = {"width": 1280, "height": 800}
# Names a club does have that a 320 px phone must wrap: one word longer than half the screen,
# and a double surname.
UNBROKEN_NAMES = (
    "Константинопольский Всеволод Вячеславович",
    "Воскресенская-Преображенская Александра Святославовна",
)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        require_service("Chromium (/usr/bin/chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def open_page(browser, live_server):
    """open_page(viewport, user=None) -> a page of a fresh browser context, logged in as
    `user` (a session made by the test client, so no login form is typed)."""
    contexts = []

    def make(viewport: dict[str, int] = LAPTOP, user: Any = None, locale: str = "ru-RU") -> Any:
        context = browser.new_context(viewport=viewport, locale=locale)
        context.set_default_timeout(8000)
        if user is not None:
            from django.test import Client

            client = Client()
            client.force_login(user)
            context.add_cookies(
                [
                    {
                        "name": "sessionid",
                        "value": client.cookies["sessionid"].value,
                        "url": live_server.url,
                    }
                ]
            )
        contexts.append(context)
        page = context.new_page()
        # Script errors and console errors (a CSP violation, a failed request) fail the test.
        page.errors = []
        page.on("pageerror", lambda error: page.errors.append(str(error)))
        page.on(
            "console",
            lambda message: message.type == "error" and page.errors.append(message.text),
        )
        return page

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def screenshot():
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def take(page: Any, name: str, *, full_page: bool = True) -> Path:
        path = SCREENSHOTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=full_page)
        return path

    return take
