"""Final places decided so far and the group tables, from the finished matches and the seeds
(two queries). Words are added by tournaments.presentation.standings_shown."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from matches.models import Match
from matches.selectors import WITH_RESULT
from tournaments.algorithms.groups import GroupResult, group_table
from tournaments.algorithms.model import Bracket
from tournaments.algorithms.standings import final_standings
from tournaments.draw_plan import generate_bracket
from tournaments.errors import TournamentError
from tournaments.models import Registration, Tournament

WITHDRAWN = Registration.Status.WITHDRAWN
DISQUALIFIED = Registration.Status.DISQUALIFIED


class _Results:
    """The finished matches and seeds of a tournament, read once (two queries)."""

    def __init__(self, tournament: Tournament) -> None:
        self.tournament = tournament
        self.regs = {
            r.player_id: r
            for r in Registration.objects.filter(tournament=tournament, seed__isnull=False)
            .select_related("player")
            .order_by("seed")
        }
        self.by_seed = {r.seed: r for r in self.regs.values()}
        self.matches = list(
            Match.objects.filter(tournament=tournament).values(
                "key",
                "stage",
                "group",
                "status",
                "player_a_id",
                "player_b_id",
                "winner_id",
                "loser_id",
                "score_a",
                "score_b",
            )
        )

    def seed(self, player_id: int) -> int:
        return cast(int, self.regs[player_id].seed)  # the regs read are the seeded ones

    def outcomes(self) -> dict[str, tuple[int, int]]:
        return {
            m["key"]: (self.seed(m["winner_id"]), self.seed(m["loser_id"]))
            for m in self.matches
            if m["status"] in WITH_RESULT and m["winner_id"] and m["loser_id"]
        }

    def groups(self, bracket: Bracket | None) -> dict[int, dict[str, Any]]:
        """Per group: its table (rows of GroupRow) and whether every match is done."""
        members: dict[int, list[int]] = {}
        if bracket is not None and bracket.format == "groups_playoff":
            group_members = cast("Sequence[Sequence[int]]", bracket.options.get("members", ()))
            for g, seeds in enumerate(group_members, start=1):
                members[g] = list(seeds)
        results: dict[int, list[GroupResult]] = {}
        complete: dict[int, bool] = {}
        for m in self.matches:
            if m["stage"] != "group" or m["group"] is None:
                continue
            g = m["group"]
            complete.setdefault(g, True)
            if m["status"] not in WITH_RESULT or not m["winner_id"]:
                complete[g] = False
                continue
            results.setdefault(g, []).append(
                GroupResult(
                    self.seed(m["player_a_id"]),
                    self.seed(m["player_b_id"]),
                    m["score_a"] or 0,
                    m["score_b"] or 0,
                    self.seed(m["winner_id"]),
                )
            )
        return {
            g: {
                "rows": group_table(results.get(g, []), players=members.get(g, ())),
                "complete": done,
            }
            for g, done in sorted(complete.items())
        }

    def person(self, seed: int) -> dict[str, Any]:
        reg = self.by_seed[seed]
        return {
            "id": reg.player_id,
            "name": reg.player.name,
            "city": reg.player.city,
            "club": reg.player.club,
            "seed": seed,
            "withdrawn": reg.status == WITHDRAWN,
            "disqualified": reg.status == DISQUALIFIED,
        }


def _bracket(results: _Results) -> Bracket | None:
    if len(results.regs) < 2:
        return None
    try:
        return generate_bracket(results.tournament, len(results.regs))
    except TournamentError:
        return None


def place_label(first: int, last: int) -> str:
    return str(first) if first == last else f"{first}–{last}"


def tournament_standings(*, tournament: Tournament) -> dict[str, Any]:
    """Final places decided so far, best first; players knocked out at the same point share
    places (e.g. 5–8), and a shared place is listed as soon as one of its players is known
    (``pending``: how many of its players are not). ``pending`` lists the places nobody has
    yet; ``all_places`` both, in order. Group tables ranked by wins, head-to-head, then ball difference."""
    results = _Results(tournament)
    bracket = _bracket(results)
    groups = results.groups(bracket)
    places: list[dict[str, Any]] = []
    pending: list[dict[str, Any]] = []
    if bracket is not None:
        ranks = {
            g: [row.seed for row in data["rows"]] for g, data in groups.items() if data["complete"]
        }
        outcomes = results.outcomes()
        for place in final_standings(bracket, outcomes, group_ranks=ranks, include_pending=True):
            entry = {
                "first": place.first,
                "last": place.last,
                "shared": place.first != place.last,
                "label": place_label(place.first, place.last),
                "players": [results.person(s) for s in place.seeds],
                "pending": place.last - place.first + 1 - len(place.seeds),
            }
            (places if place.seeds else pending).append(entry)
    return {
        "tournament": tournament.pk,
        "status": tournament.status,
        "complete": tournament.status == Tournament.Status.FINISHED,
        "version": tournament.public_version,
        "places": places,
        "pending": pending,
        "all_places": sorted(places + pending, key=lambda p: p["first"]),
        "groups": [
            {
                "group": g,
                "complete": data["complete"],
                "rows": [
                    {
                        "rank": row.rank,
                        "player": results.person(row.seed),
                        "played": row.played,
                        "wins": row.wins,
                        "losses": row.losses,
                        "balls_for": row.balls_for,
                        "balls_against": row.balls_against,
                        "ball_difference": row.ball_difference,
                    }
                    for row in data["rows"]
                ],
            }
            for g, data in groups.items()
        ],
    }
