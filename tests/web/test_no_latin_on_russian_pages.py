"""No Latin on a Russian screen: every page of the demo reachable by a link, read in Russian
by a spectator and by the organiser, shows no Latin word outside names and addresses (match
numbers, options and field names are written as a club writes them) and none of the
glossary's retired words (docs/wording.md, "One term per thing") — nor do the printouts'
PDFs, one of each kind."""

from __future__ import annotations

import io
import re
from html.parser import HTMLParser
from urllib.parse import urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from pypdf import PdfReader

from tests.web.test_glossary import RETIRED

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

# Names that are Latin by nature: the demo's login names (the product is «Луза» in Russian).
# The language switcher names each language in its own letters.
# Names of things that are Latin everywhere (a file format, a language, an HTTP header), and
# an example login.
NAMES = {"organiser", "referee", "EN", "RU", "English", "PDF", "JavaScript"}
NAMES |= {"Authorization", "Token", "ivanov"}
# What a Russian club writes in Latin letters itself: places in Roman numerals («за I место»,
# «Диплом II степени»), QR codes, image formats, the Elo factor K.
NAMES |= {"I", "II", "III", "IV", "V", "QR-", "QR", "PNG", "JPEG", "K"}
SKIP = ("/admin/", "/api/", "/static/", "/accounts/logout", "/media/", "/i18n/")
ATTRIBUTES = ("title", "placeholder", "aria-label", "alt")
MAX_PAGES = 400
# Pages of one kind (one URL with other ids: a match's page, a player's, a head-to-head) are
# one template with other names: a few of each kind are read, in the order the links reach
# them (so the running and the finished tournament's both are).
PER_KIND = 4


class _Text(HTMLParser):
    """The words a reader sees: text outside scripts and styles, and readable attributes."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.words: list[str] = []
        self.links: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style", "code", "template"):
            self._hidden += 1
        values = dict(attrs)
        if tag == "a" and values.get("href"):
            self.links.append(str(values["href"]))
        for name in ATTRIBUTES:
            if values.get(name):
                self.words.append(str(values[name]))

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "code", "template") and self._hidden:
            self._hidden -= 1

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            self.words.append(data)


def _latin(text: str) -> list[str]:
    text = re.sub(r"(https?://|/)\S*", " ", text)  # addresses
    return [w for w in re.findall(r"[A-Za-z][A-Za-z_\-]*", text) if w not in NAMES]


def _retired(text: str) -> list[str]:
    return [f"retired «{word}»" for word, pattern in RETIRED if pattern.search(text)]


def _pdf_text(client: Client, url: str) -> str:
    response = client.get(url, HTTP_ACCEPT_LANGUAGE="ru")
    if response.status_code != 200 or response.get("Content-Type") != "application/pdf":
        return ""
    reader = PdfReader(io.BytesIO(response.content))
    return " ".join(page.extract_text() for page in reader.pages)


def _kind(url: str) -> str:
    """The page's kind: its path with the ids left out, and its query's names."""
    parts = urlsplit(url)
    names = sorted(name.partition("=")[0] for name in parts.query.split("&") if name)
    return re.sub(r"\d+", "#", parts.path) + "?" + "&".join(names)


def _crawl(client: Client, start: list[str]) -> dict[str, list[str]]:
    seen: set[str] = set()
    kinds: dict[str, int] = {}
    queue = list(start)
    found: dict[str, list[str]] = {}
    printouts: dict[str, str] = {}  # one PDF of each kind: its path with the numbers taken out
    read = 0
    while queue and read < MAX_PAGES:
        url = queue.pop(0)
        if url in seen:
            continue
        seen.add(url)
        kind = _kind(url)
        kinds[kind] = kinds.get(kind, 0) + 1
        if kinds[kind] > PER_KIND:
            continue
        read += 1
        response = client.get(url, HTTP_ACCEPT_LANGUAGE="ru")
        if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
            continue
        parser = _Text()
        parser.feed(response.content.decode())
        words = " ".join(parser.words)
        for word in _latin(words) + _retired(words):
            found.setdefault(word, []).append(url)
        for href in parser.links:
            parts = urlsplit(href)
            if parts.netloc or not parts.path.startswith("/") or parts.path.startswith(SKIP):
                continue
            if parts.path.endswith(".pdf"):
                printouts.setdefault(re.sub(r"\d+", "N", parts.path), parts.path)
                continue
            if parts.path.endswith((".csv", ".json", ".svg")) or "export" in parts.path:
                continue
            if "next=" in parts.query:
                continue  # the same login page again
            link = parts.path + (f"?{parts.query}" if parts.query else "")
            if link not in seen:
                queue.append(link)
    assert read > 20 and len(kinds) > 10, kinds  # the crawl did reach the demo's pages
    pdfs = {url: _pdf_text(client, url) for url in printouts.values()}
    assert not start[0].startswith("/panel") or sum(map(bool, pdfs.values())) >= 3, printouts
    for url, text in pdfs.items():
        for word in _retired(text):
            found.setdefault(word, []).append(url)
    return {word: urls[:3] for word, urls in found.items()}


def test_the_demo_in_russian_shows_no_latin(settings, tmp_path) -> None:
    settings.VAR_DIR = tmp_path
    settings.LANGUAGE_CODE = "ru"
    call_command("load_demo", stdout=io.StringIO())
    spectator = Client()
    assert _crawl(spectator, ["/"]) == {}
    organiser = Client()
    organiser.force_login(get_user_model().objects.get(username="organiser"))
    assert _crawl(organiser, ["/panel/"]) == {}
