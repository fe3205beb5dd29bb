"""Names in running text: a program cannot decline «Богданов Юрий» or «В2-4», so a name in a
sentence stands after a noun that is declined instead — «взнос игрока Богданов Юрий»,
«в матче «В2-4» истекло время». One helper for every sentence of the log and the panel; the
caller names the grammatical case its sentence needs (English reads "player X", "match U2-4"
in every case). Where no noun fits, a sentence puts the name after a colon.
"""

from __future__ import annotations

from typing import Literal

from django.utils.translation import pgettext_lazy

from tournaments.match_labels import match_label

# nominative, genitive, dative, accusative, instrumental, prepositional
Case = Literal["nom", "gen", "dat", "acc", "ins", "pre"]

_PLAYER = {
    "nom": pgettext_lazy("nominative", "player %(name)s"),
    "gen": pgettext_lazy("genitive", "player %(name)s"),
    "dat": pgettext_lazy("dative", "player %(name)s"),
    "acc": pgettext_lazy("accusative", "player %(name)s"),
    "ins": pgettext_lazy("instrumental", "player %(name)s"),
    "pre": pgettext_lazy("prepositional", "player %(name)s"),
}
_MATCH = {
    "nom": pgettext_lazy("nominative", "match %(label)s"),
    "gen": pgettext_lazy("genitive", "match %(label)s"),
    "dat": pgettext_lazy("dative", "match %(label)s"),
    "acc": pgettext_lazy("accusative", "match %(label)s"),
    "ins": pgettext_lazy("instrumental", "match %(label)s"),
    "pre": pgettext_lazy("prepositional", "match %(label)s"),
}


def player_in_text(name: str, case: Case = "nom") -> str:
    """«игрока Богданов Юрий» (genitive); an unknown player is a dash."""
    return str(_PLAYER[case]) % {"name": name or "—"}


def match_in_text(key: str | None, case: Case = "nom") -> str:
    """«матче «В2-4»» (prepositional), the match's number as a club writes it."""
    return str(_MATCH[case]) % {"label": match_label(key) or "—"}
