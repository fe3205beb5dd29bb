"""Duplex as the rules count it, on every page (issue 18.1): a game played through its three
frames; at each step the scoreboard, the overlay, the table board and the bracket show the
frame («frame 2 of 3»), the balls of each colour on the table, plus and minus, the summary of
the frame just ended and, in frame 3, the provisional final points, all from the engine's view
(the old bug: the plus points shown stale through frame 3 until the last ball)."""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest
from rest_framework.test import APIClient

import rules
from matches import services as match_services
from matches.models import Match
from tests.matches.conftest import post_event
from tests.web.helpers import drawn_tournament
from tournaments.web.shared import http_cache

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _next_live_window(monkeypatch) -> None:
    """Each read of the bracket falls in a new live window (a spectator polling later)."""
    windows = itertools.count()
    monkeypatch.setattr(http_cache, "live_window", lambda now=None: next(windows))


def brk(p: str, **pocketed: int) -> dict[str, Any]:
    return {"type": "break", "player": p, "legal": True, "pocketed": pocketed}


def shot(p: str, **pocketed: int) -> dict[str, Any]:
    return {"type": "shot", "player": p, "pocketed": pocketed}


def _text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


class Pages:
    """The match's pages as a spectator reads them now."""

    def __init__(self, client: Any, match: Match) -> None:
        t = match.tournament_id
        self.scoreboard_html = client.get(f"/m/{match.pk}/").content.decode()
        self.scoreboard = _text(self.scoreboard_html)
        self.overlay_html = client.get(f"/t/{t}/tables/1/overlay/").content.decode()
        self.overlay = _text(self.overlay_html)
        self.table = _text(client.get(f"/t/{t}/tables/1/").content.decode())
        self.bracket = client.get(f"/t/{t}/bracket/").content.decode()

    def headline(self, html: str) -> tuple[str, str]:
        a = re.search(r'data-score="a">([^<]*)<', html)
        b = re.search(r'data-score="b">([^<]*)<', html)
        assert a and b
        return a.group(1), b.group(1)


@pytest.fixture
def game(client, organiser, referee):
    t = drawn_tournament(
        organiser,
        2,
        referee=referee,
        discipline="duplex",
        ruleset={"discipline": "duplex"},
        handicap_scheme="none",
        format="single",
    )
    match_services.tables_ensure(tournament=t, count=1, actor=organiser)
    match_services.table_assign_next(tournament=t, actor=organiser)
    match = Match.objects.get(tournament=t, table__number=1)
    scorer = APIClient()
    scorer.force_login(referee)

    def send(*events: dict[str, Any]) -> Pages:
        for event in events:
            response = post_event(scorer, match, event)
            assert response.status_code == 201, response.content
        match.refresh_from_db()
        return Pages(client, match)

    return match, send


def live_score(bracket: str) -> tuple[str, str]:
    """The bracket's live score of the first player as a user sees it: its label (the
    tooltip) and its number (whatever data attributes the live updates hang on the span)."""
    found = re.search(r'<span class="live-score"[^>]*title="([^"]*)"[^>]*>([^<]*)</span>', bracket)
    assert found, "no live score in the bracket"
    return found[1], found[2]


def test_duplex_is_shown_frame_by_frame_as_the_rules_count_it(game) -> None:
    match, send = game
    a, b = match.player_a.name, match.player_b.name

    # Frame 1 under way: the frame, the balls of each colour, the plus points.
    pages = send(brk("a", a=1))
    for page in (pages.scoreboard, pages.table):
        assert "Duplex, frame 1 of 3" in page and "on the table: 7 / 8" in page
        assert "7 on the table" in page and "8 on the table" in page
    assert "plus points" in pages.scoreboard
    assert pages.headline(pages.scoreboard_html) == ("0", "0")
    assert "Duplex, frame 1 of 3" in pages.overlay and f"{a}: 7 on the table" in pages.overlay
    assert f"{b}: 8 on the table" in pages.overlay
    assert 'data-colour="a"' in pages.scoreboard_html and 'data-colour="b"' in pages.overlay_html
    assert "frame 1 of 3" in pages.bracket and "on the table: 7 / 8" in pages.bracket

    # a clears his colour with 5 of b's left: the frame's summary, the points by frame.
    pages = send(shot("a", a=4, b=3), shot("a", a=3))
    view = rules.state_view(match.state)
    assert view["frame"]["number"] == 2 and view["frame_summary"]["frame"] == 1
    for page in (pages.scoreboard, pages.table):
        assert "Frame 1 is over: plus points 5:0" in page
        assert f"The colour of {a} was cleared first; balls of the other colour left: 5" in page
        assert "Points by frame" in page and "Duplex, frame 2 of 3" in page
    assert pages.headline(pages.scoreboard_html) == ("5", "0")
    assert "Duplex, frame 2 of 3" in pages.overlay
    assert live_score(pages.bracket) == ("plus points", "5")
    assert "frame 2 of 3" in pages.bracket

    # Frame 2 to b with all of a's balls on the table: b leads 8:5, a starts frame 3 with
    # minus 3 and b chooses who breaks.
    pages = send(brk("b", b=3), shot("b", b=5))
    view = rules.state_view(match.state)
    assert view["provisional"] == {"a": -3, "b": 0}
    assert view["frame_summary"]["frame"] == 2
    for page in (pages.scoreboard, pages.table):
        assert "Frame 2 is over: plus points 0:8" in page
        assert "Plus points after two frames: 5:8" in page
        assert f"{a} starts the deciding frame with minus 3 (Duplex rule 7.8)." in page
        assert f"{b} leads and chooses who breaks the deciding frame" in page
        assert "provisional final points" in page and "minus 3" in page
        assert "Duplex, frame 3 of 3" in page
    assert pages.headline(pages.scoreboard_html) == ("-3", "0")
    assert f"{a}: 8 on the table, plus 5, minus 3" in pages.overlay
    assert f"{b}: 8 on the table, plus 8" in pages.overlay
    assert "Duplex, frame 3 of 3" in pages.overlay
    assert pages.headline(pages.overlay_html) == ("-3", "0")
    assert "frame 3 of 3" in pages.bracket and ">-3</span>" in pages.bracket

    # a breaks frame 3 and pays his minus off with his own balls: the headline follows each
    # ball (not the stale plus points 5:8), the summary of frame 2 is gone.
    pages = send({"type": "choose_breaker", "player": "b", "breaker": "a"}, brk("a", a=2))
    assert rules.state_view(match.state)["provisional"] == {"a": -1, "b": 0}
    assert pages.headline(pages.scoreboard_html) == ("-1", "0")
    assert pages.headline(pages.overlay_html) == ("-1", "0")
    assert "Frame 2 is over" not in pages.scoreboard
    assert f"{a}: 8 on the table, plus 5, minus 1" in pages.overlay
    pages = send(shot("a", a=2))
    assert rules.state_view(match.state)["provisional"] == {"a": 0, "b": 0}
    for html in (pages.scoreboard_html, pages.overlay_html):
        assert pages.headline(html) == ("0", "0")
    assert "minus" not in pages.overlay.split(a + ":", 1)[1].split("·", 1)[0]
    assert f"{a} 0:0 {b}" in pages.table
    assert live_score(pages.bracket) == ("provisional final points", "0")

    # b clears his colour with 5 of a's balls left: the game ends 0:5 in final points.
    pages = send(shot("a"), shot("b", a=2), shot("b", b=8))
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.winner == match.player_b
    assert (match.score_a, match.score_b) == (0, 5)
    assert pages.headline(pages.scoreboard_html) == ("0", "5")
    assert "Frame 3 is over: plus points 0:5" in pages.scoreboard
    assert "Final points: 0:5 (Duplex rule 7.15)." in pages.scoreboard
    assert "final points" in pages.scoreboard and f"{b} wins" in pages.scoreboard
    assert pages.headline(pages.overlay_html) == ("0", "5")
    assert re.search(r'class="side won[^"]*">.*?<span class="score">5</span>', pages.bracket, re.S)


def test_the_duplex_panel_has_no_head_start_and_shows_the_frame(game, organiser) -> None:
    match, send = game
    panel = APIClient()
    panel.force_login(organiser)
    page = _text(panel.get(f"/panel/m/{match.pk}/").content.decode())
    assert "Override the head start" not in page
    assert "Duplex, frame 1 of 3" in page and "on the table: 8 / 8" in page
    send(brk("a", a=1))
    page = _text(panel.get(f"/panel/m/{match.pk}/").content.decode())
    assert "7 on the table" in page and "plus points" in page
