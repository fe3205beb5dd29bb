"""Which values of a kind of counts would end the match: the engine is asked, not copied.

The referee form asks to confirm a tap that ends the match (a ball that wins the race, the
last ball of the deciding frame) without knowing a rule: every write's answer says, for each
kind of counts the referee may enter, which of its values finish the match. Working that out
tries the kind's values on the engine, so the answers are kept: two states that differ only
in the discipline's ``records`` (counters no rule reads) go on the same way, and on 30 tables
playing the same race the same scores and tables come round again and again.
"""

from __future__ import annotations

import hashlib
import json
import math
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from itertools import product
from typing import Any

from rules.describe import EventKind, build_event
from rules.engine import apply
from rules.errors import RuleError
from rules.registry import find

# Values tried per kind at most: a Duplex shot has 9 x 9; a kind with more is not tried (the
# server still judges every tap).
MOST_TRIED = 128
# Answers remembered, each under a digest of its state (a hundred bytes or so apiece).
KEPT = 50_000

_kept: OrderedDict[tuple[bytes, str], tuple[dict[str, int], ...]] = OrderedDict()
_lock = threading.Lock()


def finishing_values(
    state: Mapping[str, Any], kinds: Sequence[EventKind]
) -> list[list[dict[str, int]]]:
    """For each of ``kinds`` (the state's entry), the field values that end the match."""
    d = None if state.get("finished") else find(state.get("discipline"))
    digest: bytes | None = None  # of the state, made once and only if a kind is tried
    out: list[list[dict[str, int]]] = []
    for kind in kinds:
        ranges = _ranges(kind)
        if d is None or ranges is None or not d.may_finish(state, kind):
            out.append([])
            continue
        if digest is None:
            shape = {k: v for k, v in state.items() if k not in d.records}
            text = json.dumps(shape, sort_keys=True, separators=(",", ":"))
            digest = hashlib.blake2b(text.encode(), digest_size=16).digest()
        out.append([dict(values) for values in _kept_or_tried(digest, state, kind, ranges)])
    return out


def _ranges(kind: EventKind) -> list[range] | None:
    """The values of each field to try; None for a kind that is not tried: one with a choice
    (a foul, who concedes: it asks on its own, Choice.confirm) or too many combinations."""
    fields = kind["fields"]
    if any(f["kind"] != "count" for f in fields):
        return None
    ranges = [range(f["min"] or 0, (f["max"] or 0) + 1) for f in fields]
    return ranges if math.prod(len(r) for r in ranges) <= MOST_TRIED else None


def _kept_or_tried(
    digest: bytes, state: Mapping[str, Any], kind: EventKind, ranges: list[range]
) -> tuple[dict[str, int], ...]:
    key = (digest, kind["key"])
    with _lock:
        found = _kept.get(key)
        if found is not None:
            _kept.move_to_end(key)
            return found
    found = tuple(_tried(state, kind, ranges))
    with _lock:
        _kept[key] = found
        if len(_kept) > KEPT:
            _kept.popitem(last=False)
    return found


def _tried(state: Mapping[str, Any], kind: EventKind, ranges: list[range]) -> list[dict[str, int]]:
    names = [f["name"] for f in kind["fields"]]
    out = []
    for combo in product(*ranges):
        values = dict(zip(names, combo, strict=True))
        if any(sum(values.get(n, 0) for n in lim["fields"]) > lim["max"] for lim in kind["limits"]):
            continue
        try:
            after = apply(dict(state), build_event(kind, values))
        except RuleError:
            continue
        if after.get("finished"):
            out.append(values)
    return out
