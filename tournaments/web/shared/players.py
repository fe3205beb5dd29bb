"""A player's own overview, as /me/ and the API's /me/ answer it: his next match (opponent,
head start, race, called or playing) and his entries with their reserve positions."""

from __future__ import annotations

from typing import Any

from matches.models import Match
from tournaments import selectors_players
from tournaments.models import Player
from tournaments.services.entry_rules import (
    reserve_position,
)


def me_context(player: Player, user: Any) -> dict[str, Any]:
    match = selectors_players.my_next_match(player=player, user=user)
    next_match = None
    if match is not None:
        mine = "a" if match.player_a_id == player.pk else "b"
        other = "b" if mine == "a" else "a"
        ruleset = match.ruleset or {}
        head = ruleset.get("head_start") or {}
        next_match = {
            "match": match,
            "opponent": getattr(match, f"player_{other}"),
            "head_mine": head.get(mine, 0),
            "head_other": head.get(other, 0),
            "balls_to_win": ruleset.get("balls_to_win"),
            "frames_to_win": ruleset.get("frames_to_win", 1),
            "called": match.status == Match.Status.ON_TABLE and match.table is not None,
            "playing": match.status in (Match.Status.RUNNING, Match.Status.PAUSED),
            "self_scoring": match.tournament.self_scoring,
        }
    registrations = selectors_players.my_registrations(player=player, user=user)
    return {
        "player": player,
        "next": next_match,
        "registrations": [{"reg": r, "position": reserve_position(r)} for r in registrations],
        "finished": selectors_players.my_finished(player=player, user=user),
    }
