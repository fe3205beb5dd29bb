"""Elimination bracket generation: single, double, double-to-single (16x8, 32x16).

Pure functions over seed numbers; see ``model.py`` for the data shapes and
docs/brackets.md for the rules (byes, drop order, crossing, standings).
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from ._builder import (
    Flow,
    Rec,
    knockout,
    loser_flow,
    materialize,
    play,
    play_third_place,
    seed_flows,
)
from ._lower import lower_bracket
from .model import Bracket, GrandFinal, MatchSpec, Place, Source
from .seeding import bracket_size, random_order, seed_order

__all__ = [
    "Bracket",
    "MatchSpec",
    "Place",
    "Source",
    "describe",
    "double_elimination",
    "double_to_single",
    "random_order",
    "seed_order",
    "single_elimination",
]

_GRAND_FINALS = ("none", "single", "reset")


def single_elimination(n: int, *, third_place: bool = False) -> Bracket:
    """Seeded single elimination ("S" rounds) for n >= 2; byes go to seeds 1..size-n."""
    size = bracket_size(n)
    rounds = size.bit_length() - 1
    recs: list[Rec] = []
    _, played = knockout(recs, seed_flows(n, seed_order(size)), "S", "single", rounds)
    if third_place and rounds >= 2:
        play_third_place(recs, played[-2])
    options = {"size": size, "third_place": third_place}
    return Bracket("single", n, materialize(recs), MappingProxyType(options))


def double_elimination(n: int, *, grand_final: GrandFinal = "reset") -> Bracket:
    """Seeded double elimination: upper "U", lower "L", grand final "GF-1" (+ "GF-2").

    grand_final "none": the upper and the lower bracket winners are 1st and 2nd
    without a final; "single": one GF match; "reset": GF-1 plus the conditional
    GF-2, played only if the lower-bracket player won GF-1.
    """
    if grand_final not in _GRAND_FINALS:
        raise ValueError(f"grand_final must be one of {_GRAND_FINALS}, got {grand_final!r}")
    size = bracket_size(n)
    rounds = size.bit_length() - 1
    recs: list[Rec] = []
    upper, played = knockout(recs, seed_flows(n, seed_order(size)), "U", "upper", rounds)
    lower, _ = lower_bracket(recs, played)
    if grand_final != "none":
        winner, gf1 = play(recs, "GF-1", "grand_final", 1, 1, upper[0], lower[0])
        if grand_final == "reset":
            # Played only after an upset in GF-1, so its loser is the upper-bracket player.
            play(recs, "GF-2", "grand_final_reset", 1, 1, loser_flow(gf1), winner, conditional=True)
    options = {"size": size, "grand_final": grand_final}
    return Bracket("double", n, materialize(recs), MappingProxyType(options))


def double_to_single(n: int, *, remaining: int, third_place: bool = False) -> Bracket:
    """Double elimination until ``remaining`` players are left, then single elimination.

    ``remaining`` (a power of two, 2 <= remaining < size): half are upper-bracket
    survivors (unbeaten), half lower-bracket survivors (one loss). Play-off round 1
    ("P1") crosses them: see ``_crossing``.
    """
    size = bracket_size(n)
    if remaining < 2 or remaining & (remaining - 1) or remaining >= size:
        raise ValueError(
            f"remaining must be a power of two with 2 <= remaining < {size} (bracket size), "
            f"got {remaining}"
        )
    rounds = size.bit_length() - 1
    upper_rounds = rounds - remaining.bit_length() + 2
    recs: list[Rec] = []
    upper, played = knockout(recs, seed_flows(n, seed_order(size)), "U", "upper", upper_rounds)
    lower, last_drop = lower_bracket(recs, played)
    drop_from = [played[-1][m] for m in last_drop]
    slots: list[Flow | None] = []
    for i, j in enumerate(_crossing(recs, upper, lower, played[-1], drop_from)):
        slots += (upper[i], lower[j])
    playoff_rounds = remaining.bit_length() - 1
    _, p_played = knockout(recs, slots, "P", "playoff", playoff_rounds)
    if third_place and playoff_rounds >= 2:
        play_third_place(recs, p_played[-2])
    options = {"size": size, "remaining": remaining, "third_place": third_place}
    return Bracket("double_to_single", n, materialize(recs), MappingProxyType(options))


def _crossing(
    recs: list[Rec],
    upper: list[Flow | None],
    lower: list[Flow | None],
    upper_matches: list[Rec | None],
    drop_from: list[Rec | None],
) -> list[int]:
    """For each upper survivor i, the lower survivor it meets in play-off round 1.

    ``upper_matches[i]`` is the match upper survivor i won last; ``drop_from[j]`` the
    upper match whose loser dropped into lower survivor j's last match. Computed on
    "possible players" sets and a chalk run (better seed always wins):

    1. no rematch: an upper survivor meets a lower survivor who cannot have met him
       (crosswise: top half against bottom half); if every choice could, one who
       did not just lose to him (4 remaining: the dropped player from the other half);
    2. the two upper survivors of a play-off round-2 pair get lower survivors who
       cannot have met each other (a rematch between them waits for the semi-finals);
    3. the strongest upper survivors (chalk seed) get the weakest lower survivors.
    """
    bits, chalk = _chalk_sets(recs)

    def info(flow: Flow | None) -> tuple[int, int]:
        assert flow is not None  # every survivor of a double elimination round is real
        src = flow[0]
        if src.kind == "seed":
            return 1 << src.seed(), src.seed()
        won, lost = chalk[str(src.ref)]
        return bits[str(src.ref)], won if src.kind == "winner" else lost

    ups = [info(f) for f in upper]
    lows = [info(f) for f in lower]

    def conflict(i: int, j: int) -> int:
        if upper_matches[i] is drop_from[j]:
            return 2
        return 1 if ups[i][0] & lows[j][0] else 0

    crossing: dict[int, int] = {}
    free = set(range(len(lower)))
    for i in sorted(range(len(upper)), key=lambda i: ups[i][1]):
        sibling = crossing.get(i ^ 1)

        def cost(j: int, i: int = i, sibling: int | None = sibling) -> tuple[int, bool, int]:
            related = sibling is not None and bool(lows[j][0] & lows[sibling][0])
            return conflict(i, j), related, -lows[j][1]

        j = min(free, key=cost)
        free.discard(j)
        crossing[i] = j
    result = [crossing[i] for i in range(len(upper))]
    # Greedy picks can strand a later survivor with a rematch; swap pairs while that helps.
    weight = (0, 1, len(upper) + 1)
    improved = any(conflict(i, j) for i, j in enumerate(result))
    while improved:
        improved = False
        for i in range(len(result)):
            for k in range(i + 1, len(result)):
                now = weight[conflict(i, result[i])] + weight[conflict(k, result[k])]
                swapped = weight[conflict(i, result[k])] + weight[conflict(k, result[i])]
                if swapped < now:
                    result[i], result[k] = result[k], result[i]
                    improved = True
    return result


def _chalk_sets(recs: list[Rec]) -> tuple[dict[str, int], dict[str, tuple[int, int]]]:
    """Possible players (bit set by seed) and the chalk (winner, loser) of every match."""
    bits: dict[str, int] = {}
    chalk: dict[str, tuple[int, int]] = {}
    for rec in recs:
        sides = []
        for src in (rec[4], rec[5]):
            if src.kind == "seed":
                sides.append((1 << src.ref, src.ref))
            else:
                won, lost = chalk[src.ref]
                sides.append((bits[src.ref], won if src.kind == "winner" else lost))
        (bits_a, seed_a), (bits_b, seed_b) = sides
        bits[rec[0]] = bits_a | bits_b
        chalk[rec[0]] = (seed_a, seed_b) if seed_a < seed_b else (seed_b, seed_a)
    return bits, chalk


# ---------------------------------------------------------------------- describe

_KINDS = {
    "single": ("single_bracket", "SB"),
    "upper": ("winner_bracket", "WB"),
    "lower": ("loser_bracket", "LB"),
    "playoff": ("playoff_bracket", "PB"),
    "grand_final": ("final_group", "GF"),
    "grand_final_reset": ("final_group", "GF"),
    "third_place": ("final_group", "CF"),
    "group": ("round_robin", "G"),
}


def _label(m: MatchSpec) -> str:
    """The peer harness's label ("WB R2 M1"); groups: "G2 R3 M1"."""
    code = _KINDS[m.stage][1]
    if m.stage == "group":
        return f"G{m.group} R{m.round} M{m.order}"
    if m.stage == "grand_final_reset":
        return "GF R2 M1"
    return f"{code} R{m.round} M{m.order}"


def _source_text(src: Source | None) -> str | None:
    if src is None:
        return None
    if src.kind == "group":
        g, rank = src.group_rank()
        return f"group {g} rank {rank}"
    return f"{src.kind} {src.ref}"


def describe(bracket: Bracket) -> dict[str, Any]:
    """A JSON-able view shaped like the peer harness's ``--json`` (for diffs and the API).

    Groups (winner_bracket, loser_bracket, final_group, ...) hold rounds of matches;
    a match has ``match`` (its order), the peer-style ``label``, ``seeds`` (the seed
    in a slot filled by a seed, else null), ``slots`` (SEED, TBD or GROUP),
    ``sources``, ``winnerTo``/``loserTo`` labels and ``scheduleRound``. Byes are
    not listed (they are resolved at generation), so compare the peer's "real"
    matches.
    """
    by_key = {m.key: m for m in bracket.matches}
    groups: dict[tuple[str, int | None], dict[int, list[dict[str, Any]]]] = {}
    for m in bracket.matches:
        kind = _KINDS[m.stage][0]
        gkey = (kind, m.group if m.stage == "group" else None)
        rnd = 2 if m.stage == "grand_final_reset" else m.round
        entry: dict[str, Any] = {
            "key": m.key,
            "match": m.order,
            "label": _label(m),
            "seeds": [s.ref if s is not None and s.kind == "seed" else None for s in (m.a, m.b)],
            "slots": [
                "SEED"
                if s is not None and s.kind == "seed"
                else "GROUP"
                if s is not None and s.kind == "group"
                else "TBD"
                for s in (m.a, m.b)
            ],
            "sources": [_source_text(m.a), _source_text(m.b)],
            "type": "reset" if m.conditional else "real",
            "scheduleRound": m.schedule_round,
        }
        if m.winner_to is not None:
            entry["winnerTo"] = _label(by_key[m.winner_to[0]])
        if m.loser_to is not None:
            entry["loserTo"] = _label(by_key[m.loser_to[0]])
        groups.setdefault(gkey, {}).setdefault(rnd, []).append(entry)

    out_groups = []
    rounds_per: dict[str, int] = {}
    matches_per: dict[str, int] = {}
    for number, ((kind, gnum), rounds) in enumerate(groups.items(), start=1):
        name = kind if gnum is None else f"{kind}_{gnum}"
        rounds_per[name] = len(rounds)
        matches_per[name] = sum(len(ms) for ms in rounds.values())
        group: dict[str, Any] = {"group": number, "kind": kind}
        if gnum is not None:
            group["groupNumber"] = gnum
        group["rounds"] = [{"round": r, "matches": rounds[r]} for r in sorted(rounds)]
        out_groups.append(group)

    conditional = sum(1 for m in bracket.matches if m.conditional)
    result: dict[str, Any] = {
        "format": bracket.format,
        "entrants": bracket.entrants,
        "options": dict(bracket.options),
        "groups": out_groups,
        "totals": {
            "matches": len(bracket.matches),
            "realMatches": len(bracket.matches) - conditional,
            "conditionalMatches": conditional,
            "roundsPerGroup": rounds_per,
            "matchesPerGroup": matches_per,
        },
    }
    drops = _drops(bracket, by_key)
    if drops:
        result["drops"] = drops
    return result


def _drops(bracket: Bracket, by_key: dict[str, MatchSpec]) -> list[dict[str, Any]]:
    """Per upper round: where each upper match's loser plays next (lower label)."""
    rounds: dict[int, list[dict[str, Any]]] = {}
    for m in bracket.matches:
        if m.stage == "upper" and m.loser_to is not None:
            target = by_key[m.loser_to[0]]
            rounds.setdefault(m.round, []).append(
                {"wbMatch": m.order, "loserTo": _label(target), "side": m.loser_to[1]}
            )
    return [{"wbRound": r, "losers": rounds[r]} for r in sorted(rounds)]
