"""Bracket construction with byes resolved statically.

A *flow* is a player-to-be travelling through the full power-of-two bracket:
``(source, record, link index, wave)``. ``source`` is the ``Source`` of the slot it
lands in, ``record`` the producing match (whose ``winner_to``/``loser_to``, at the
link index, is pointed at that slot) and ``wave`` the earliest wave it is known in.
``None`` is nobody: a bye, or the loser of a match that was not played.

``play`` is the only place matches come from: with two flows it records a real
match; with one it passes that flow on (no match, no loser); with none it passes
nobody on. So every recorded match is between two eventually known players, and
the empty lower-bracket slots cascade exactly like the byes that caused them.

Records are mutable lists while links are still being filled in and become
frozen ``MatchSpec`` objects at the end.
"""

from __future__ import annotations

from typing import Any

from .model import MatchSpec, Source

__all__ = [
    "Flow",
    "Rec",
    "knockout",
    "loser_flow",
    "materialize",
    "new_source",
    "play",
    "play_third_place",
    "seed_flows",
]

# [key, stage, round, order, a, b, winner_to, loser_to, group, conditional, schedule_round]
Rec = list[Any]
Flow = tuple[Source, Rec | None, int, int]

WINNER_TO = 6
LOSER_TO = 7
WAVE = 10

# Generation speed is dominated by object creation. Frozen dataclasses route every
# field through object.__setattr__; setting the slots through their descriptors
# builds the same (equal, hashable) objects about 40% faster.
_new = object.__new__
_SOURCE_SET = tuple(vars(Source)[f].__set__ for f in ("kind", "ref"))
_MATCH_SET = tuple(
    vars(MatchSpec)[f].__set__
    for f in (
        "key",
        "stage",
        "round",
        "order",
        "a",
        "b",
        "winner_to",
        "loser_to",
        "group",
        "conditional",
        "schedule_round",
    )
)


def new_source(kind: str, ref: object) -> Source:
    src: Source = _new(Source)
    set_kind, set_ref = _SOURCE_SET
    set_kind(src, kind)
    set_ref(src, ref)
    return src


def _new_match(rec: Rec) -> MatchSpec:
    m: MatchSpec = _new(MatchSpec)
    s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10 = _MATCH_SET
    key, stage, rnd, order, a, b, winner_to, loser_to, group, conditional, wave = rec
    s0(m, key)
    s1(m, stage)
    s2(m, rnd)
    s3(m, order)
    s4(m, a)
    s5(m, b)
    s6(m, winner_to)
    s7(m, loser_to)
    s8(m, group)
    s9(m, conditional)
    s10(m, wave)
    return m


def materialize(recs: list[Rec]) -> tuple[MatchSpec, ...]:
    return tuple(map(_new_match, recs))


def seed_flows(n: int, order: list[int]) -> list[Flow | None]:
    """Round-1 slots in bracket position order; seeds above n are byes."""
    return [(new_source("seed", s), None, 0, 0) if s <= n else None for s in order]


def play(
    recs: list[Rec],
    key: str,
    stage: str,
    rnd: int,
    order: int,
    x: Flow | None,
    y: Flow | None,
    group: int | None = None,
    conditional: bool = False,
) -> tuple[Flow | None, Rec | None]:
    """x (side a) vs y (side b): records the match if both exist.

    Returns the winner's flow and the record (None when nothing was played).
    """
    if x is None:
        return y, None
    if y is None:
        return x, None
    wave = (x[3] if x[3] > y[3] else y[3]) + 1
    rec: Rec = [key, stage, rnd, order, x[0], y[0], None, None, group, conditional, wave]
    if x[1] is not None:
        x[1][x[2]] = (key, "a")
    if y[1] is not None:
        y[1][y[2]] = (key, "b")
    recs.append(rec)
    return (new_source("winner", key), rec, WINNER_TO, wave), rec


def loser_flow(rec: Rec | None) -> Flow | None:
    """The loser of a recorded match; nobody when the match was not played."""
    if rec is None:
        return None
    return new_source("loser", rec[0]), rec, LOSER_TO, rec[WAVE]


def knockout(
    recs: list[Rec],
    slots: list[Flow | None],
    prefix: str,
    stage: str,
    rounds: int,
) -> tuple[list[Flow | None], list[list[Rec | None]]]:
    """Plays ``rounds`` rounds of pairs (slot 2i vs 2i+1).

    Returns the survivors and, per round, the match records (None: not played).
    """
    played: list[list[Rec | None]] = []
    for r in range(1, rounds + 1):
        survivors: list[Flow | None] = []
        records: list[Rec | None] = []
        head = f"{prefix}{r}-"
        for i in range(len(slots) >> 1):
            x = slots[2 * i]
            y = slots[2 * i + 1]
            if x is None or y is None:
                w, rec = play(recs, head + str(i + 1), stage, r, i + 1, x, y)
                survivors.append(w)
                records.append(rec)
                continue
            # Inlined ``play`` for two present players: the hot path of every bracket.
            key = head + str(i + 1)
            wave = (x[3] if x[3] > y[3] else y[3]) + 1
            rec = [key, stage, r, i + 1, x[0], y[0], None, None, None, False, wave]
            if x[1] is not None:
                x[1][x[2]] = (key, "a")
            if y[1] is not None:
                y[1][y[2]] = (key, "b")
            recs.append(rec)
            survivors.append((new_source("winner", key), rec, WINNER_TO, wave))
            records.append(rec)
        slots = survivors
        played.append(records)
    return slots, played


def play_third_place(recs: list[Rec], semis: list[Rec | None]) -> None:
    """The semi-final losers' match, when both semi-finals are real matches."""
    if len(semis) == 2 and semis[0] is not None and semis[1] is not None:
        play(recs, "3RD", "third_place", 1, 1, loser_flow(semis[0]), loser_flow(semis[1]))
