"""Building tournaments for the page tests through the real services."""

from __future__ import annotations

import datetime as dt
from html import escape
from typing import Any

from matches import services as match_services
from matches.models import Match
from tests.factories import PlayerFactory
from tournaments import services


def make_tournament(organiser: Any, *, referee: Any = None, **data: Any) -> Any:
    """A tournament from the regulation's preset, open for registration."""
    values = {"name": "Кубок «Луза»", "date": dt.date(2026, 12, 5), "venue": "Клуб «Луза»"}
    values.update(data)
    tournament = services.tournament_create(actor=organiser, data=values, preset="free_pyramid_30")
    if referee is not None:
        tournament.referees.add(referee)
    services.tournament_open_registration(tournament=tournament, actor=organiser)
    return tournament


def register(tournament: Any, organiser: Any, count: int, *, paid: bool = True) -> list[Any]:
    regs = []
    for player in PlayerFactory.create_batch(count):
        reg = services.registration_add(tournament=tournament, player=player, actor=organiser)
        if paid:
            reg = services.registration_set_paid(registration=reg, paid=True, actor=organiser)
        regs.append(reg)
    return regs


def drawn_tournament(organiser: Any, count: int, *, referee: Any = None, **data: Any) -> Any:
    tournament = make_tournament(organiser, referee=referee, **data)
    register(tournament, organiser, count)
    services.tournament_draw(tournament=tournament, actor=organiser, method="seeded")
    tournament.refresh_from_db()
    return tournament


def first_ready(tournament: Any) -> Match:
    return (
        Match.objects.filter(tournament=tournament, status=Match.Status.READY)
        .order_by("schedule_round", "stage", "round", "order")
        .first()
    )


def submit(match: Match, event: dict[str, Any], actor: Any) -> Match:
    result = match_services.match_submit_event(
        match_id=match.pk, event=event, expected_version=match.version, actor=actor
    )
    return result.match


def next_winning_event(state: dict[str, Any], slot: str) -> dict[str, Any]:
    """The next event of a quick game that `slot` wins: he pockets all but one ball at each
    visit (the rack is set again and he breaks), his opponent misses."""
    player = state["turn"]
    awaiting = state["awaiting"]
    if awaiting == "choice":
        return {"type": "choice", "player": player, "option": "play"}
    if awaiting == "rerack":
        return {"type": "rerack", "player": player, "option": "full"}
    if player != slot:
        event: dict[str, Any] = {"type": awaiting, "player": player, "pocketed": 0}
    else:
        target = state["ruleset"]["balls_to_win"]
        n = max(1, min(state["balls_on_table"] - 1, target - state["score"][player]))
        event = {"type": awaiting, "player": player, "pocketed": n}
    if awaiting == "break":
        event["legal"] = True
    return event


def play_to_win(match: Match, slot: str, actor: Any) -> Match:
    while not match.state.get("finished"):
        match = submit(match, next_winning_event(match.state, slot), actor)
    return match


def finish_tournament(tournament: Any, actor: Any) -> None:
    """Play every match; the higher seed (player a) wins."""
    while True:
        match = first_ready(tournament)
        if match is None:
            return
        play_to_win(match, "a", actor)


def nothing_to_print(response: Any, message: str, where: str, status: int = 200) -> None:
    """A panel page that says why and links where to go instead: 200 for a printout the panel
    links that is empty yet, 404 for one that will never exist."""
    assert response.status_code == status, response.status_code
    assert "panel/nothing_to_print.html" in [t.name for t in response.templates]
    page = response.content.decode()
    assert escape(message) in page and f'href="{where}"' in page
