"""The lower bracket of double elimination, and the order in which losers drop into it.

Notation: U_d is upper round d; a "block" of level d is the set of players who
could reach one U_d match (2^d bracket positions); the lower survivors waiting
for drop d (the winners of L(2d-3), or of L1 for d = 2) are "pods", one per
level-d block. Sets below are the "possible players" of a slot.

Drop order. The loser of U_d match m plays, in L(2d-2), the pod of its sibling
block m^1 (pair flip). Invariant: pod j holds players of block j only, so the
dropped loser (block m^1) has a disjoint set, and after the merge L(2d-1) the pod
of level-(d+1) block t again holds players of block t only. So every drop but the
last (the upper final's loser into the lower final, where one block is left) meets
a player it cannot have met. Pair flip is also the only order with this property
for a full bracket: a pod that spans two blocks at some level can never shrink
back, and with two blocks left (the semi-final drop) it would have to.

Byes. With n < 3/4 of the bracket size, upper round 1 is sparse: some level-3
"regions" (two U2 blocks) hold exactly one pod. Its region-mate's U2 loser would
pass the empty L2 slot and meet, in L3, the winner of a match holding that pod:
its own block. ``place_pods`` moves such pods into the sibling region (or merges
one with a sibling-region pod in a cross-block L1 match), so L2 and L3 stay clean.
The receiving region is "widened": its pod spans two sibling blocks. Widened pods
then take the drops of their cousin blocks (cross order, within each group of four
blocks), which keeps every pod within its block and its sibling; only at the
semi-final drop, with two blocks left, can a widened pod not be avoided (at most
two such meetings). ``tests/algorithms/test_brackets_drops.py`` checks all of this
for every n from 4 to 1024.
"""

from __future__ import annotations

from ._builder import Flow, Rec, loser_flow, play

__all__ = ["drop_order", "lower_bracket", "place_pods"]


def lower_bracket(
    recs: list[Rec], upper: list[list[Rec | None]]
) -> tuple[list[Flow | None], list[int]]:
    """The lower bracket fed by the losers of the ``upper`` rounds' matches.

    L1 pairs the losers of upper round-1 matches 2j-1 and 2j; drop round d sends the
    losers of U_d to L(2d-2), side a, against the pods on side b; L(2d-1) pairs
    those winners again. Returns the survivors (one per L(2u-2) match,
    u = len(upper)) and the last drop's order (slot j got the loser of U_u match
    order[j]).
    """
    first = [loser_flow(rec) for rec in upper[0]]
    if len(upper) < 2:
        return first, [0] * len(first)
    pods = [
        play(recs, f"L1-{j + 1}", "lower", 1, j + 1, first[2 * j], first[2 * j + 1])[0]
        for j in range(len(first) >> 1)
    ]
    widened = place_pods(recs, pods)
    last = len(upper)
    order: list[int] = []
    crossed = False
    for d in range(2, last + 1):
        drops = [loser_flow(rec) for rec in upper[d - 1]]
        if d == 2:
            # Pods are single blocks here (place_pods made the exceptions safe).
            order = [j ^ 1 for j in range(len(pods))] if len(pods) > 1 else [0]
            next_widened = widened
        else:
            order, next_widened = drop_order(widened, crossed)
            # With four or more pods a widened merged pod means its group was crossed.
            crossed = len(order) >= 4 and any(next_widened)
        r = 2 * d - 2
        head = f"L{r}-"
        pods = [
            play(recs, head + str(j + 1), "lower", r, j + 1, drops[order[j]], pod)[0]
            for j, pod in enumerate(pods)
        ]
        if d < last:
            r += 1
            head = f"L{r}-"
            pods = [
                play(recs, head + str(j + 1), "lower", r, j + 1, pods[2 * j], pods[2 * j + 1])[0]
                for j in range(len(pods) >> 1)
            ]
        widened = next_widened
    return pods, order


def drop_order(widened: list[bool], crossed: bool = False) -> tuple[list[int], list[bool]]:
    """Drop order for pods at level d (``widened[j]``: pod j may hold players of block
    j^1 too), and which merged pods of level d+1 are widened.

    Pair flip (j <- j^1) where no pod of the group of four is widened; cross
    (j <- j^2) where one is, so the drop comes from outside the pod's two blocks.
    With two pods left (the semi-final drop) a widened pod cannot be avoided; if the
    previous drop was crossed, the pods' strongest players (their last drops) came
    from the other half, so each pod takes its own half's loser (j <- j), which
    avoids the rematch on a chalk run; otherwise pair flip.
    """
    m = len(widened)
    if m < 4:
        if m == 1:
            return [0], [widened[0]]
        return ([0, 1] if crossed else [1, 0]), [widened[0] or widened[1]]
    order: list[int] = []
    merged: list[bool] = []
    for t in range(0, m, 4):
        cross = widened[t] or widened[t + 1] or widened[t + 2] or widened[t + 3]
        order += (t + 2, t + 3, t, t + 1) if cross else (t + 1, t, t + 3, t + 2)
        merged += (cross, cross)
    return order, merged


def place_pods(recs: list[Rec], pods: list[Flow | None]) -> list[bool]:
    """Rearranges the L1 survivors (one per U2 block) so that no L2 or L3 match pits a
    dropped loser against its own block; returns which level-3 regions are widened.

    A region (two U2 blocks) with exactly one pod is fixed inside its group of two
    regions: the pod moves to an empty sibling region, or the sibling region's
    lone pod moves into this region's empty slot, or the pod is merged with a pod
    of a full sibling region in an L1 match between two upper round-1 losers
    (possible only with a sparse round 1, where no L1 match is otherwise played).
    """
    widened = [False] * (len(pods) >> 1)
    if len(pods) < 4:
        return widened  # one region (8 players): nowhere to move, see docs
    for t in range(0, len(pods), 4):
        regions = ((t, t + 1), (t + 2, t + 3))
        count = [sum(pods[s] is not None for s in region) for region in regions]
        if 1 not in count:
            continue
        # The lone region gives its pod; with two lone regions the second gives.
        lone = 1 if count[1] == 1 else 0
        host = 1 - lone
        src = next(s for s in regions[lone] if pods[s] is not None)
        pod, pods[src] = pods[src], None
        first, second = regions[host]
        if count[host] == 0:
            pods[first] = pod
        elif count[host] == 1:
            empty = first if pods[first] is None else second
            pods[empty] = pod
        else:
            pods[first] = play(recs, f"L1-{first + 1}", "lower", 1, first + 1, pods[first], pod)[0]
        widened[first >> 1] = True
    return widened
