"""The engine's words (rules.words.Text, msgids with params) put into the request's language:
a discipline's state view and its entry become plain JSON with strings where the texts were,
so a page (the referee form) shows any discipline without a catalogue of its own."""

from __future__ import annotations

from collections.abc import Mapping
from itertools import product
from typing import Any

from django.utils.translation import gettext, ngettext

import rules


def _is_text(value: object) -> bool:
    return (
        isinstance(value, dict)
        and isinstance(value.get("msgid"), str)
        and isinstance(value.get("params"), dict)
    )


def translated(value: Any, names: Mapping[str, str]) -> Any:
    """``value`` with every Text inside it (nested anywhere in dicts and lists) rendered in the
    active language, player references filled in with ``names``."""
    if _is_text(value):
        return rules.render(value, gettext=gettext, ngettext=ngettext, names=names)
    if isinstance(value, dict):
        return {key: translated(item, names) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [translated(item, names) for item in value]
    return value


def state_view_data(state: dict[str, Any], names: Mapping[str, str]) -> dict[str, Any]:
    """The discipline's view of the state, translated (rules.describe.StateView)."""
    out: dict[str, Any] = translated(rules.state_view(state), names)
    return out


def entry_data(state: dict[str, Any], names: Mapping[str, str]) -> dict[str, Any]:
    """What the referee may enter now, translated (rules.describe.Entry); each kind also says
    which of its values end the match (`finishing`), so that the form asks to confirm them
    without knowing a rule."""
    described = rules.entry(state)
    out: dict[str, Any] = translated(described, names)
    for kind, shown in zip(described["kinds"], out["kinds"], strict=True):
        shown["finishing"] = finishing(state, kind)
    return out


# Values tried per kind at most: a Duplex shot has 9 x 9; a kind with more is not tried.
_MOST_TRIED = 128


def finishing(state: dict[str, Any], kind: rules.EventKind) -> list[dict[str, int]]:
    """The field values of a kind of counts that the engine says end the match (a ball that
    wins the race, the last ball of the deciding frame): the engine is asked, not copied."""
    fields = kind["fields"]
    if any(f["kind"] != "count" for f in fields):
        return []  # a choice (a foul, who concedes) asks on its own (Choice.confirm)
    ranges = [range(f["min"] or 0, (f["max"] or 0) + 1) for f in fields]
    tried = 1
    for r in ranges:
        tried *= len(r)
    if tried > _MOST_TRIED or not state.get("discipline") or state.get("finished"):
        return []
    names = [f["name"] for f in fields]
    out = []
    for combo in product(*ranges):
        values = dict(zip(names, combo, strict=True))
        if any(sum(values.get(n, 0) for n in lim["fields"]) > lim["max"] for lim in kind["limits"]):
            continue
        try:
            after = rules.apply(state, rules.build_event(kind, values))
        except rules.RuleError:
            continue
        if after.get("finished"):
            out.append(values)
    return out
