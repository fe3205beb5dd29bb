"""Final (and partial) standings from match outcomes.

Places come in tiers: players eliminated at the same point of the format share
the tier's places, and a tier's size is the number of real matches that
eliminate someone there, so byes are accounted for (places count the players
actually still in):

* champion and runner-up: the final (single elimination, play-off), the grand
  final (GF-1, or GF-2 after an upset), or with ``grand_final="none"`` the upper-
  and the lower-bracket winners;
* 3rd and 4th from the third-place match, when there is one;
* then knockout rounds, latest first (single elimination without a third-place
  match: the semi-final losers share 3-4, the quarter-final losers 5-8, ...);
* then lower-bracket rounds, latest first (double elimination 16: 3, 4, 5-6,
  7-8, 9-12, 13-16);
* then group stage non-qualifiers by their group rank (all groups' thirds share,
  then the fourths, ...).

While a tournament runs, players whose place is not decided yet are absent (or, with
``include_pending``, their places are listed with no seeds).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .groups import group_table
from .model import Bracket, MatchSpec, Place, Source

__all__ = ["Place", "final_standings"]

Outcome = tuple[int, int]  # (winner seed, loser seed)

_KNOCKOUT = ("single", "playoff")


def final_standings(
    bracket: Bracket,
    outcomes: Mapping[str, Outcome],
    *,
    group_ranks: Mapping[int, Sequence[int]] | None = None,
    include_pending: bool = False,
) -> list[Place]:
    """Places decided so far, best first. With ``include_pending`` the places not decided
    yet are listed too, with no seeds (a shared place partly decided lists the seeds known),
    so that the places always cover 1..entrants.

    ``outcomes`` maps match key -> (winner seed, loser seed). ``group_ranks`` (group
    -> seeds in table order, e.g. from ``group_table``) gives the group placings of a
    groups_playoff bracket; without it a finished group is ranked from the outcomes
    alone (wins, head-to-head, seed). Raises ValueError on an unknown key or an
    outcome whose players are not the ones the bracket puts in that match.
    """
    matches = {m.key: m for m in bracket.matches}
    unknown = set(outcomes) - set(matches)
    if unknown:
        raise ValueError(f"unknown match keys: {sorted(unknown)}")
    ranks = _group_ranks(bracket, outcomes, group_ranks)
    _check_players(matches, outcomes, ranks)

    decided: dict[int, int] = {}  # place -> seed, for single places (1st, 2nd, 3rd, 4th)
    _deciders(bracket, matches, outcomes, ranks, decided)
    top = 4 if "3RD" in matches else 2
    if bracket.format == "groups_playoff" and not any(
        m.stage == "playoff" for m in bracket.matches
    ):
        top = 1  # one group, one qualifier: the table decides everything

    tiers: dict[tuple[int, int], list[int]] = {}  # tier -> seeds (filled as known)
    sizes: dict[tuple[int, int], int] = {}
    for m in bracket.matches:
        tier = _elimination_tier(m)
        if tier is None:
            continue
        sizes[tier] = sizes.get(tier, 0) + 1
        if m.key in outcomes:
            tiers.setdefault(tier, []).append(outcomes[m.key][1])
    if bracket.format == "groups_playoff":
        advance = int(bracket.options["advance"])  # type: ignore[call-overload]
        first_out = advance + 1 if top > 1 else 2
        for g, members in enumerate(_members(bracket), start=1):
            for rank in range(first_out, len(members) + 1):
                sizes[0, -rank] = sizes.get((0, -rank), 0) + 1
                if g in ranks:
                    tiers.setdefault((0, -rank), []).append(ranks[g][rank - 1])

    places = [Place(p, p, (seed,)) for p, seed in sorted(decided.items())]
    if include_pending:
        places += [Place(p, p, ()) for p in range(1, top + 1) if p not in decided]
        places.sort(key=lambda place: place.first)
    first = top + 1
    for tier in sorted(sizes, reverse=True):
        last = first + sizes[tier] - 1
        if tier in tiers:
            places.append(Place(first, last, tuple(sorted(tiers[tier]))))
        elif include_pending:
            places.append(Place(first, last, ()))
        first = last + 1
    return places


def _elimination_tier(m: MatchSpec) -> tuple[int, int] | None:
    """Where this match's loser finishes, if it is knocked out here by rank of lateness."""
    if m.loser_to is not None or m.stage in ("grand_final", "grand_final_reset", "third_place"):
        return None
    if m.stage in _KNOCKOUT:
        return None if m.winner_to is None else (2, m.round)  # the final is a decider
    if m.stage == "lower":
        return (1, m.round)
    return None  # upper bracket losers drop; group matches rank by tables


def _deciders(
    bracket: Bracket,
    matches: Mapping[str, MatchSpec],
    outcomes: Mapping[str, Outcome],
    ranks: Mapping[int, Sequence[int]],
    decided: dict[int, int],
) -> None:
    """Fills 1st/2nd (and 3rd/4th) from finals."""
    if "3RD" in outcomes:
        decided[3], decided[4] = outcomes["3RD"]
    if bracket.format == "double" and bracket.options.get("grand_final") != "none":
        gf1 = outcomes.get("GF-1")
        if gf1 is None:
            return
        upper_won = _resolve(matches["GF-1"].a, outcomes, ranks) == gf1[0]
        final = gf1 if upper_won or "GF-2" not in matches else outcomes.get("GF-2")
        if final is not None:
            decided[1], decided[2] = final
        return
    if bracket.format == "double":
        # No grand final: the upper bracket winner is 1st, the lower bracket winner 2nd.
        for m in bracket.matches:
            if m.winner_to is None and m.key in outcomes:
                if m.stage == "upper":
                    decided[1] = outcomes[m.key][0]
                    if m.loser_to is None:  # two players: nobody else in the lower bracket
                        decided[2] = outcomes[m.key][1]
                elif m.stage == "lower":
                    decided[2] = outcomes[m.key][0]
        return
    finals = [m for m in bracket.matches if m.stage in _KNOCKOUT and m.winner_to is None]
    if finals:
        if finals[0].key in outcomes:
            decided[1], decided[2] = outcomes[finals[0].key]
    elif bracket.format == "groups_playoff" and 1 in ranks:
        decided[1] = ranks[1][0]


def _members(bracket: Bracket) -> list[Sequence[int]]:
    members = bracket.options.get("members")
    if isinstance(members, Sequence):
        return list(members)
    raise ValueError("groups_playoff bracket without its group members in options")


def _group_ranks(
    bracket: Bracket,
    outcomes: Mapping[str, Outcome],
    given: Mapping[int, Sequence[int]] | None,
) -> dict[int, Sequence[int]]:
    """Group -> seeds in table order, for the groups whose placings are known."""
    if bracket.format != "groups_playoff":
        return {}
    if given is not None:
        return dict(given)
    by_group: dict[int, list[MatchSpec]] = {}
    for m in bracket.matches:
        if m.stage == "group" and m.group is not None:
            by_group.setdefault(m.group, []).append(m)
    ranks: dict[int, Sequence[int]] = {}
    for g, ms in by_group.items():
        if all(m.key in outcomes for m in ms):
            results = []
            for m in ms:
                w, lo = outcomes[m.key]
                results.append((w, lo, 0, 0, w))
            ranks[g] = [row.seed for row in group_table(results)]
    return ranks


def _resolve(
    src: Source | None, outcomes: Mapping[str, Outcome], ranks: Mapping[int, Sequence[int]]
) -> int | None:
    """The seed in a slot, or None while it is not known."""
    if src is None:
        return None
    if src.kind == "seed":
        return src.seed()
    if src.kind == "group":
        g, rank = src.group_rank()
        return ranks[g][rank - 1] if g in ranks else None
    outcome = outcomes.get(str(src.ref))
    if outcome is None:
        return None
    return outcome[0] if src.kind == "winner" else outcome[1]


def _check_players(
    matches: Mapping[str, MatchSpec],
    outcomes: Mapping[str, Outcome],
    ranks: Mapping[int, Sequence[int]],
) -> None:
    for key, outcome in outcomes.items():
        m = matches[key]
        pair = {_resolve(m.a, outcomes, ranks), _resolve(m.b, outcomes, ranks)}
        if set(outcome) != pair or outcome[0] == outcome[1]:
            raise ValueError(f"{key}: outcome {outcome}, but the bracket puts {pair} there")
        if m.conditional and m.b is not None:
            # The reset's side b is GF-1's winner; it is played only after an upset in GF-1.
            gf1 = matches[str(m.b.ref)]
            if outcomes[gf1.key][0] == _resolve(gf1.a, outcomes, ranks):
                raise ValueError(f"{key} played although the upper-bracket player won {gf1.key}")
