"""Words as data: what the rules say to a referee or a spectator, translated by the caller.

The engine has no Django and no catalogue, so a text is a plain JSON-able dict, a `Text`:

    {"msgid": "minus %(n)s", "params": {"n": 3}}
    {"msgid": "%(n)d ball", "plural": "%(n)d balls", "n": 2, "params": {"n": 2}}

Every msgid is English and is written in the code inside a marker that xgettext finds by name
(Django's makemessages passes ``gettext_noop`` and ``ngettext_lazy:1,2``): ``gettext_noop`` for
one message, ``ngettext_lazy`` for a plural (here it returns the plural as data, translated
"lazily" when the page renders it). A param is a number, a string, a nested Text, or a
reference to a player, ``{"player": "a"}``, that the page fills in with the player's name.
``render`` puts a Text into words with the caller's gettext/ngettext (Django's, at render time).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, NotRequired, TypedDict, TypeGuard, Union, cast

# A placeholder of a msgid: %(name)s or %(n)d.
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")

# A param: a value, a nested text, or a player reference (filled in with the name).
Param = Union[int, str, "Text", "PlayerRef"]


class PlayerRef(TypedDict):
    player: str


class Text(TypedDict):
    msgid: str
    params: dict[str, Param]
    plural: NotRequired[str]
    n: NotRequired[int]
    # Rendered with its first letter in lower case: a title («Двойной удар») inside a
    # sentence («Петров, штраф: двойной удар (п. 18)»).
    lower: NotRequired[bool]


def gettext_noop(message: str) -> str:
    """Marks an English msgid for extraction; the caller translates it when it renders."""
    return message


def text(message: str, **params: Param) -> Text:
    """A message with its params; ``message`` is a msgid written inside ``gettext_noop``."""
    return {"msgid": message, "params": params}


def ngettext_lazy(singular: str, plural: str, n: int, **params: Param) -> Text:
    """A plural as data (singular, plural, n); ``n`` is also the param ``%(n)d`` unless given."""
    params.setdefault("n", n)
    return {"msgid": singular, "plural": plural, "n": n, "params": params}


def lowered(value: Text) -> Text:
    """The text with its first letter in lower case once rendered (a title in a sentence)."""
    return {**value, "lower": True}


def is_neutral(msgid: str) -> bool:
    """A msgid with no word of its own, only placeholders and punctuation ("%(who)s:
    %(what)s"): every language writes it the same, so no catalogue needs to translate it."""
    return not re.search(r"[^\W\d_]", PLACEHOLDER.sub("", msgid))


def player(slot: str) -> PlayerRef:
    """A player's name, filled in by the page ("a" or "b")."""
    return {"player": slot}


def _english_plural(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


def _same(message: str) -> str:
    return message


def render(
    value: Text,
    *,
    gettext: Callable[[str], str] = _same,
    ngettext: Callable[[str, str, int], str] = _english_plural,
    names: Mapping[str, str] | None = None,
) -> str:
    """The text in words: translated with ``gettext``/``ngettext`` (English msgids when not
    given), params filled in, player references as ``names[slot]`` (the slot if unnamed)."""
    params = {key: _param(v, gettext, ngettext, names) for key, v in value["params"].items()}
    if "plural" in value:
        out = ngettext(value["msgid"], value["plural"], value.get("n", 0))
    else:
        out = gettext(value["msgid"])
    if params:
        out = out % params
    return out[:1].lower() + out[1:] if value.get("lower") else out


def render_all(
    value: Any,
    *,
    gettext: Callable[[str], str] = _same,
    ngettext: Callable[[str, str, int], str] = _english_plural,
    names: Mapping[str, str] | None = None,
) -> Any:
    """``value`` with every text inside it (nested anywhere in dicts and lists) put into words
    by ``render``: a state view or an entry as plain JSON, strings where the texts were."""
    if isinstance(value, dict):
        if isinstance(value.get("msgid"), str) and isinstance(value.get("params"), dict):
            return render(cast(Text, value), gettext=gettext, ngettext=ngettext, names=names)
        return {
            key: render_all(item, gettext=gettext, ngettext=ngettext, names=names)
            for key, item in value.items()
        }
    if isinstance(value, list | tuple):
        return [render_all(item, gettext=gettext, ngettext=ngettext, names=names) for item in value]
    return value


def _param(
    value: Param,
    gettext: Callable[[str], str],
    ngettext: Callable[[str, str, int], str],
    names: Mapping[str, str] | None,
) -> int | str:
    if _is_text(value):
        return render(value, gettext=gettext, ngettext=ngettext, names=names)
    if isinstance(value, dict):
        slot = str(value.get("player", ""))
        # Asked for this one name only: ``names`` may read them when first asked.
        return names.get(slot, slot) if names is not None else slot
    return value


def _is_text(value: object) -> TypeGuard[Text]:
    return isinstance(value, dict) and isinstance(value.get("msgid"), str)


# The engine cites its rule books by letter: G (general pyramid rules), D (Duplex), R (the
# free-pyramid regulation), K, N, C (combined, dynamic, classic pyramid). A referee reads «п. 12.1».
_BOOKS = {
    "G": gettext_noop("rule %(n)s"),
    "D": gettext_noop("Duplex rule %(n)s"),
    "R": gettext_noop("regulation %(n)s"),
    # The rules of combined (K), dynamic (N) and classic (C) pyramid (design/rules-engine.md §6).
    "K": gettext_noop("combined pyramid rule %(n)s"),
    "N": gettext_noop("dynamic pyramid rule %(n)s"),
    "C": gettext_noop("classic pyramid rule %(n)s"),
}


def rule_label(ref: str) -> Text:
    """A rule reference as a referee reads it: "G12.2 (3)" -> «п. 12.2 (3)»; "R" alone is the
    regulation itself; anything else stays as written."""
    if ref == "R":
        return text(gettext_noop("regulation"))
    book = _BOOKS.get(ref[:1])
    if book is None or not ref[1:2].isdigit():
        return text(ref)  # not a clause: shown as written (a catalogue leaves it alone)
    return text(book, n=ref[1:])


def msgids(value: object) -> list[tuple[str, str | None]]:
    """Every (msgid, plural) inside a value (texts nested anywhere in dicts and lists): what
    a catalogue must translate for it to be shown."""
    out: list[tuple[str, str | None]] = []
    if isinstance(value, dict):
        if isinstance(value.get("msgid"), str) and isinstance(value.get("params"), dict):
            out.append((value["msgid"], value.get("plural")))
        for item in value.values():
            out.extend(msgids(item))
    elif isinstance(value, list | tuple):
        for item in value:
            out.extend(msgids(item))
    return out
