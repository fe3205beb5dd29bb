"""What the referee form's browser tests share: the writes it sends, one tap that writes, and
the match as the database has it after."""

from __future__ import annotations

import re

from matches.models import Match, MatchEvent
from tests.web.helpers import drawn_tournament, first_ready

# The form asks for the entry on its writes (?referee=1).
EVENTS = re.compile(r"/api/v1/matches/\d+/events/(\?referee=1)?$")


def tap(page, selector: str) -> None:
    """One tap that writes: wait for the answer and for the screen drawn from it."""
    with page.expect_response(lambda r: bool(EVENTS.search(r.url)) and r.request.method == "POST"):
        page.click(selector)
    page.wait_for_selector(".ref:not(.busy)")


def state(match: Match) -> dict:
    match.refresh_from_db()
    return match.state


def last_event(match: Match) -> dict:
    return MatchEvent.objects.filter(match=match).order_by("-seq").first().payload


def refereed_match(organiser, referee, ruleset: dict, **settings) -> Match:
    """The first match of a drawn two-player knockout with no handicap, ``referee`` on it:
    the form's tests play it from its first break."""
    tournament = drawn_tournament(
        organiser,
        2,
        referee=referee,
        format="single",
        handicap_scheme="none",
        ruleset=ruleset,
        **settings,
    )
    return first_ready(tournament)
