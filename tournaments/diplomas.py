"""Diplomas for the prize places (or every place, as the tournament says): a printable HTML page and A4 PDFs (one per player, or all in one).

The PDF is the same template rendered by WeasyPrint with static/css/diploma.css, whose
@font-face points at the DejaVu TTFs in static/fonts: WeasyPrint embeds them, so Cyrillic
names print on any machine, whatever fonts it has.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit
from urllib.request import url2pathname

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _

from matches.wording import discipline_label, discipline_phrase
from tournaments.models import Tournament
from tournaments.names import paper_name, signature_name
from tournaments.selectors.prizes import tournament_prizes
from tournaments.selectors.standings import tournament_standings

STYLESHEET = "css/diploma.css"
FETCH_TIMEOUT = 2  # seconds: only local static files are ever read
ROMAN = ((100, "C"), (90, "XC"), (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"))


def roman(number: int) -> str:
    """1 -> "I", 14 -> "XIV": places as clubs write them on diplomas."""
    out = ""
    for value, letters in (*ROMAN, (1, "I")):
        while number >= value:
            out += letters
            number -= value
    return out


def initials_first(name: str) -> str:
    """ "Сидоров С. С." and "Сидоров Сергей Сергеевич" -> "С. С. Сидоров", as a signature line
    reads (tournaments.names.signature_name)."""
    return signature_name(name)


def diploma_places(tournament: Tournament) -> int | None:
    """The last place that gets a diploma (None: every place)."""
    if tournament.diploma_places == Tournament.DiplomaPlaces.ALL:
        return None
    return max(len(tournament.place_shares or []), 1)


def diploma_entries(
    tournament: Tournament,
    *,
    standings: dict[str, Any] | None = None,
    prizes: dict[str, Any] | None = None,
) -> list[dict[str, Any]]:
    """One entry per player whose place is decided and gets a diploma (the prize places, or
    every place); players sharing a place (e.g. two third places) each get the diploma of the
    better place of the range. A withdrawn or disqualified player keeps his place but gets no
    diploma while the tournament withholds their prizes (``withdrawn_prize``). ``standings``
    and ``prizes``: the selectors' answers, when the caller has them already."""
    if standings is None:
        standings = tournament_standings(tournament=tournament)
    amounts: dict[int, Any] = {}
    if tournament.diploma_amount:
        if prizes is None:
            prizes = tournament_prizes(tournament=tournament, standings=standings)
        amounts = {p["id"]: p["amount"] for award in prizes["awards"] for p in award["players"]}
    withhold = tournament.withdrawn_prize == Tournament.WithdrawnPrize.WITHHOLD
    last = diploma_places(tournament)
    entries = []
    for place in standings["places"]:
        if last is not None and place["first"] > last:
            continue
        for player in place["players"]:
            if withhold and (player["withdrawn"] or player["disqualified"]):
                continue
            entries.append(
                {
                    "place": place["first"],
                    "roman": roman(place["first"]),
                    "player_id": player["id"],
                    "name": paper_name(player["name"]),
                    "city": player.get("city", ""),
                    "club": player.get("club", ""),
                    "amount": amounts.get(player["id"]) or None,
                }
            )
    return entries


def diploma_context(tournament: Tournament) -> dict[str, Any]:
    """What every diploma of the tournament shows besides the player (in the active language)."""
    return {
        "discipline": discipline_label(tournament.discipline),
        # How a diploma names the discipline ("в турнире «…» по свободной пирамиде").
        "discipline_phrase": discipline_phrase(tournament.discipline),
        "signature": signature_name(tournament.chief_judge),
        "issuer": tournament.organiser_name,
        "title": quoted(tournament.name),
    }


def quoted(name: str) -> str:
    """The tournament's name in quotes; in Russian, quotes inside it become „…“."""
    if translation.get_language() == "ru":
        name = name.replace("«", "„").replace("»", "“")
    return _("“%(name)s”") % {"name": name}


def _stylesheet_path(stylesheet: str = STYLESHEET) -> str:
    found = finders.find(stylesheet)
    if found:
        return str(found)
    return staticfiles_storage.path(stylesheet)  # collected static files in production


def _static_roots() -> list[Path]:
    return [Path(p).resolve() for p in (*settings.STATICFILES_DIRS, settings.STATIC_ROOT)]


def fetch_allowed(url: str) -> bool:
    """What a printout may load: a data: URI, or a file of the project's own static files
    (the print style sheets' fonts and images). No other scheme, host or file: a printed
    name or a logo never makes the server fetch a URL or read a local file."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme == "data":
        return True
    if scheme != "file" or parts.netloc not in ("", "localhost"):
        return False
    path = Path(url2pathname(unquote(parts.path))).resolve()
    return any(path.is_relative_to(root) for root in _static_roots())


@functools.cache
def _fetcher_class() -> type[Any]:
    from weasyprint.urls import URLFetcher  # heavy: loaded only when a PDF is asked for

    class StaticOnlyFetcher(URLFetcher):  # type: ignore[misc]  # weasyprint has no types
        def __init__(self) -> None:
            super().__init__(
                timeout=FETCH_TIMEOUT,
                allowed_protocols={"data", "file"},
                allow_redirects=False,
                fail_on_errors=False,
            )

        def fetch(self, url: str, headers: Any = None) -> Any:
            if not fetch_allowed(url):
                raise ValueError(f"not fetched by a printout: {url[:80]}")
            return super().fetch(url, headers)

    return StaticOnlyFetcher


def url_fetcher() -> Any:
    """WeasyPrint's fetcher for every PDF of the project (fetch_allowed)."""
    return _fetcher_class()()


def html_to_pdf(html: str, stylesheet: str = STYLESHEET) -> bytes:
    """A page rendered by WeasyPrint with one of our print style sheets (fonts embedded). Every
    PDF of the project is made here, with the fetcher that loads only our static files."""
    from weasyprint import CSS, HTML  # heavy: loaded only when a PDF is asked for

    path = _stylesheet_path(stylesheet)
    fetcher = url_fetcher()
    document = HTML(string=html, base_url=str(Path(path).parent), url_fetcher=fetcher)
    return bytes(document.write_pdf(stylesheets=[CSS(filename=path, url_fetcher=fetcher)]))


def render_pdf(*, tournament: Tournament, entries: list[dict[str, Any]]) -> bytes:
    with translation.override(tournament.diploma_language):
        html = render_to_string(
            "diplomas/diplomas.html",
            {
                "tournament": tournament,
                "entries": entries,
                "pdf": True,
                **diploma_context(tournament),
            },
        )
    return html_to_pdf(html)
