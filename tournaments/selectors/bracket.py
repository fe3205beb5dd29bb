"""The bracket as plain dicts grouped by stage and round: the drawn one (tournament_bracket)
and a draw's preview in the same shape (bracket_from_plan). Words are added by
tournaments.presentation.bracket_shown."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from matches.models import Match
from matches.selectors import WITH_RESULT, result_mark
from tournaments.algorithms.model import MatchSpec, Source
from tournaments.draw_plan import DrawPlan, generate_bracket
from tournaments.errors import TournamentError
from tournaments.match_setup import effective_ruleset
from tournaments.models import RatingChange, Registration, Tournament

WITHDRAWN = Registration.Status.WITHDRAWN
DISQUALIFIED = Registration.Status.DISQUALIFIED


STAGE_ORDER = (
    "single",
    "group",
    "upper",
    "lower",
    "playoff",
    "third_place",
    "grand_final",
    "grand_final_reset",
)


def _group_rounds(matches: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Matches grouped by stage (each group its own stage entry) and round, in play order."""
    stages: dict[tuple[int, int], dict[str, Any]] = {}
    for m in matches:
        rank = STAGE_ORDER.index(m["stage"]) if m["stage"] in STAGE_ORDER else len(STAGE_ORDER)
        skey = (rank, m["group"] or 0)
        if skey not in stages:
            stages[skey] = {
                "stage": m["stage"],
                "group": m["group"],
                "rounds": {},
            }
        stages[skey]["rounds"].setdefault(m["round"], []).append(m)
    out = []
    for skey in sorted(stages):
        stage = stages[skey]
        rounds = stage["rounds"]
        stage["rounds"] = [
            {"round": r, "matches": sorted(rounds[r], key=lambda m: m["order"])}
            for r in sorted(rounds)
        ]
        out.append(stage)
    return out


def _link(target: tuple[str, str] | None) -> dict[str, str] | None:
    return {"key": target[0], "slot": target[1]} if target else None


def _source(src: Source | None) -> dict[str, Any] | None:
    """Where an empty slot's player comes from: a seed, a group's place [group, rank], or the
    winner or loser of a match (its key)."""
    if src is None:
        return None
    ref: Any = list(src.group_rank()) if src.kind == "group" else src.ref
    return {"kind": src.kind, "ref": ref}


def _specs(tournament: Tournament, entrants: int) -> dict[str, MatchSpec]:
    """The pure bracket's specs by key (for the slots' sources); empty before the draw."""
    if entrants < 2:
        return {}
    try:
        return {m.key: m for m in generate_bracket(tournament, entrants).matches}
    except TournamentError:
        return {}


_BRACKET_FIELDS = (
    "pk",
    "key",
    "stage",
    "round",
    "order",
    "group",
    "schedule_round",
    "conditional",
    "status",
    "player_a_id",
    "player_a__name",
    "player_a__rating",
    "player_b_id",
    "player_b__name",
    "player_b__rating",
    "score_a",
    "score_b",
    "ruleset",
    "head_start_overridden",
    "winner_id",
    "result",
    "state__end_reason",  # one key of the state: the golden ball's mark
    "corrected_from",
    "corrected_at",
    "table__number",
    "winner_to_id",
    "winner_slot",
    "loser_to_id",
    "loser_slot",
)


def tournament_bracket(*, tournament: Tournament) -> dict[str, Any]:
    """Every match of the drawn bracket as plain dicts grouped by stage and round: key, players
    (with seed and rating), where unknown players come from, score, race and head start,
    status, winner, table, links, and the Elo change. Three queries whatever the size."""
    # Plain values with the players and table joined: no model instances, and not the engine
    # state, the bulk of a row.
    rows = list(Match.objects.filter(tournament=tournament).order_by("pk").values(*_BRACKET_FIELDS))
    regs = {
        r["player_id"]: r
        for r in Registration.objects.filter(tournament=tournament).values(
            "player_id", "seed", "rating_at_entry", "status"
        )
    }
    changes: dict[int, dict[int, int]] = {}
    for match_id, player_id, change in RatingChange.objects.filter(
        tournament=tournament, reason="match"
    ).values_list("match_id", "player_id", "delta"):
        changes.setdefault(match_id, {})[player_id] = change
    specs = _specs(tournament, sum(1 for r in regs.values() if r["seed"] is not None))
    key_of = {row["pk"]: row["key"] for row in rows}

    def person(row: Mapping[str, Any], slot: str) -> dict[str, Any] | None:
        player_id = row[f"player_{slot}_id"]
        if player_id is None:
            return None
        reg: Mapping[str, Any] = regs.get(player_id, {})
        return {
            "id": player_id,
            "name": row[f"player_{slot}__name"],
            "seed": reg.get("seed"),
            "rating": reg.get("rating_at_entry", row[f"player_{slot}__rating"]),
            "withdrawn": reg.get("status") == WITHDRAWN,
            "disqualified": reg.get("status") == DISQUALIFIED,
        }

    def link(target_id: int | None, slot: str) -> dict[str, str] | None:
        return _link((key_of[target_id], slot)) if target_id else None

    matches = []
    for row in rows:
        spec = specs.get(row["key"])
        ruleset = row["ruleset"] or {}
        winner = None
        if row["winner_id"] is not None:
            winner = "a" if row["winner_id"] == row["player_a_id"] else "b"
        delta = changes.get(row["pk"])
        mark = (
            result_mark(
                result=row["result"],
                end_reason=row["state__end_reason"],
                corrected=row["corrected_at"] is not None,
            )
            if row["status"] in WITH_RESULT
            else None
        )
        matches.append(
            {
                "id": row["pk"],
                "key": row["key"],
                "stage": row["stage"],
                "round": row["round"],
                "order": row["order"],
                "group": row["group"],
                "schedule_round": row["schedule_round"],
                "conditional": row["conditional"],
                "status": row["status"],
                "player_a": person(row, "a"),
                "player_b": person(row, "b"),
                "source_a": _source(spec.a) if spec else None,
                "source_b": _source(spec.b) if spec else None,
                "score_a": row["score_a"],
                "score_b": row["score_b"],
                "balls_to_win": ruleset.get("balls_to_win"),
                "frames_to_win": ruleset.get("frames_to_win"),
                "head_start": ruleset.get("head_start"),
                "head_start_overridden": row["head_start_overridden"],
                "winner": winner,
                "result": row["result"],
                "mark": mark,
                "corrected_from": row["corrected_from"],
                "table": row["table__number"],
                "winner_to": link(row["winner_to_id"], row["winner_slot"]),
                "loser_to": link(row["loser_to_id"], row["loser_slot"]),
                "rating_change": {
                    "a": delta.get(row["player_a_id"]),
                    "b": delta.get(row["player_b_id"]),
                }
                if delta
                else None,
            }
        )
    return {
        "tournament": tournament.pk,
        "format": tournament.format,
        "status": tournament.status,
        "version": tournament.public_version,
        "preview": False,
        "draw_method": tournament.draw_method,
        "random_seed": tournament.random_seed,
        "stages": _group_rounds(matches),
    }


def bracket_from_plan(tournament: Tournament, plan: DrawPlan) -> dict[str, Any]:
    """A draw preview in the shape of ``tournament_bracket`` (no ids, nothing played)."""
    by_seed = dict(enumerate(plan.order, start=1))

    def person(src: Source | None) -> dict[str, Any] | None:
        if src is None or src.kind != "seed":
            return None
        reg = by_seed[src.seed()]
        return {
            "id": reg.player_id,
            "name": reg.player.name,
            "seed": src.ref,
            "rating": reg.rating_at_entry,
            "withdrawn": False,
            "disqualified": False,
        }

    matches = []
    for spec in plan.bracket.matches:
        a, b = person(spec.a), person(spec.b)
        ruleset: dict[str, Any] = {}
        if a and b:
            ruleset = effective_ruleset(
                tournament, spec.stage, rating_a=a["rating"], rating_b=b["rating"]
            )
        matches.append(
            {
                "id": None,
                "key": spec.key,
                "stage": spec.stage,
                "round": spec.round,
                "order": spec.order,
                "group": spec.group,
                "schedule_round": spec.schedule_round,
                "conditional": spec.conditional,
                "status": Match.Status.READY if a and b else Match.Status.SCHEDULED,
                "player_a": a,
                "player_b": b,
                "source_a": _source(spec.a),
                "source_b": _source(spec.b),
                "score_a": None,
                "score_b": None,
                "balls_to_win": ruleset.get("balls_to_win"),
                "frames_to_win": ruleset.get("frames_to_win"),
                "head_start": ruleset.get("head_start"),
                "head_start_overridden": False,
                "winner": None,
                "result": "",
                "mark": None,
                "corrected_from": None,
                "table": None,
                "winner_to": _link(spec.winner_to),
                "loser_to": _link(spec.loser_to),
                "rating_change": None,
            }
        )
    return {
        "tournament": tournament.pk,
        "format": tournament.format,
        "status": tournament.status,
        "version": tournament.public_version,
        "preview": True,
        "draw_method": plan.method,
        "random_seed": plan.random_seed,
        "unpaid": [{"id": r.player_id, "name": r.player.name} for r in plan.unpaid],
        "stages": _group_rounds(matches),
    }
