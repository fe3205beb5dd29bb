"""HTTP caching of the public pages and the match API.

ETags are built from version counters that every write bumps, so a poll of an unchanged page
is answered 304 before anything is rendered:

- `tournament.public_version`: results, progression, the draw, registrations, tables called
  (the services bump it in the transaction of the change);
- `match.version` and `match.updated_at`: every log entry and every change of the match row.

The bracket of a big tournament is expensive to render (a 256-player double elimination is
about 200 KB of HTML and tens of milliseconds), and hundreds of phones poll it, so its fragment
is rendered once per version and language into the Django cache (Redis in production), where
every web process finds it; the full page is built around the same cached fragment, and the
other tournament pages (the players' list, standings, prizes) and the API's bracket, standings
and prizes are kept the same way, so that an anonymous reader costs the same for 8 players as
for 1024. The key holds the public version: a new result makes a new key,
and the next poll renders the page with it at once. The bracket also shows the running
matches' scores; they are refreshed once per live window (LIVE_WINDOW_SECONDS) instead of with
every ball, which the match scoreboards show.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from django.core.cache import cache
from django.http import HttpRequest
from django.utils.translation import get_language

from tournaments.models import Tournament

if TYPE_CHECKING:
    from matches.models import Match

logger = logging.getLogger(__name__)
T = TypeVar("T")

# How stale the live scores on a cached bracket may be (results make a new version at once). A
# phone polls every 2 s: with a 30 s window most of its polls are 304s (the bracket is ~200 KB).
LIVE_WINDOW_SECONDS = 30
CACHE_SECONDS = 120  # a version is current for seconds; the key changes with it
# A process that finds another one rendering the same version, and has no earlier version to
# serve meanwhile, waits this long for it.
WAIT_FOR_RENDER_SECONDS = 3.0


def request_etags(request: HttpRequest) -> list[str]:
    """The entity tags of If-None-Match (weak or strong alike, as RFC 9110 compares for GET)."""
    given = request.headers.get("If-None-Match", "")
    return [tag.strip().removeprefix("W/") for tag in given.split(",") if tag.strip()]


def not_modified(request: HttpRequest, etag: str) -> bool:
    return etag.removeprefix("W/") in request_etags(request) or "*" in request_etags(request)


def tournament_etag(tournament: Tournament) -> str:
    """For pages that show results, standings, prizes and players, nothing live."""
    return f"t{tournament.pk}-{tournament.public_version}"


def live_window(now: float | None = None) -> int:
    return int((time.time() if now is None else now) // LIVE_WINDOW_SECONDS)


def bracket_etag(tournament: Tournament, now: float | None = None) -> str:
    """The public version, and while matches are played, the live window of their scores."""
    etag = tournament_etag(tournament)
    if tournament.status == Tournament.Status.RUNNING:
        etag += f"-{live_window(now)}"
    return etag


@dataclass(frozen=True)
class FragmentCache:
    """Where a rendered fragment is kept: `key` for this version, `latest_key` for the last
    version rendered (served while another process renders the new one)."""

    key: str
    latest_key: str


def page_cache(tournament: Tournament, etag: str, name: str) -> FragmentCache:
    """Where the part `name` of a tournament's public pages or API reads is kept for `etag`
    (which must change with everything that part shows) in the current language."""
    # created_at: a database rebuilt from scratch (tests, a restore) reuses ids and versions.
    born = int(tournament.created_at.timestamp() * 1_000_000) if tournament.created_at else 0
    language = get_language()
    return FragmentCache(
        key=f"{name}:{etag}:{born}:{language}",
        latest_key=f"{name}-latest:{tournament.pk}:{born}:{language}",
    )


def bracket_cache(tournament: Tournament, etag: str) -> FragmentCache:
    return page_cache(tournament, etag, "bracket")


def match_tag(match: Match) -> str:
    """What a match's API representation and scoreboard show: its log (version), its row
    (updated_at: clock, table, status), its players (a new name; ratings move after each of
    their results) and its tournament, all loaded with the match."""
    stamps = [
        match.updated_at,
        match.player_a.updated_at if match.player_a else None,
        match.player_b.updated_at if match.player_b else None,
        match.tournament.updated_at,
    ]
    millis = "-".join(str(int(s.timestamp() * 1000)) if s else "0" for s in stamps)
    return f"m{match.pk}-{match.version}-{millis}"


def match_etag(match: Match) -> str:
    """The ETag of a match's API representation (in the user's language)."""
    return f'W/"{match_tag(match)}-{get_language()}"'


def cached_render(place: FragmentCache, render: Callable[[], str]) -> tuple[str, bool]:
    text, current = cached_value(place, render)
    return str(text), current


def cached_value(place: FragmentCache, render: Callable[[], T]) -> tuple[T, bool]:
    """The text of this version and True, rendered once for all pollers.

    When a new version is asked for by many pollers at once (a result, the start of a round),
    one of them renders it; meanwhile the others get the last version rendered and False (the
    caller sends it without an ETag, so they ask again at their next poll) instead of holding
    a server thread while they wait. Without any copy yet they wait for the renderer. Without
    a cache (Redis down) everyone renders: slower, still correct."""
    try:
        text = cache.get(place.key)
        if text is not None:
            return text, True
        if not cache.add(f"{place.key}:rendering", 1, timeout=int(WAIT_FOR_RENDER_SECONDS) + 2):
            latest = cache.get(place.latest_key)
            if latest is not None:
                return latest, False
            deadline = time.monotonic() + WAIT_FOR_RENDER_SECONDS
            while time.monotonic() < deadline:
                time.sleep(0.05)
                text = cache.get(place.key)
                if text is not None:
                    return text, True
    except Exception:  # a cache outage must not take the pages down with it
        logger.warning("page cache unavailable", exc_info=True)
        return render(), True
    text = render()
    try:
        cache.set_many({place.key: text, place.latest_key: text}, CACHE_SECONDS)
        cache.delete(f"{place.key}:rendering")
    except Exception:
        logger.warning("page cache unavailable", exc_info=True)
    return text, True
