"""Match numbers as a club writes them, one function for every screen.

The API and the database keep the stable keys the bracket generator gives (U1-1, L3-2, GF-1,
GF-2, 3RD, S2-1, P1-1, G1-R2-3); people read them through ``match_label``:

========  =====================  ==================
key       Russian                English
========  =====================  ==================
U1-1      В1-1 (верхняя сетка)   U1-1
L3-2      Н3-2 (нижняя сетка)    L3-2
S2-1      О2-1 (олимпийская)     R2-1
P1-1      П1-1 (плей-офф)        P1-1
GF-1      Финал                  Final
GF-2      Повторный финал        Final, reset
3RD       За 3-е место           For third place
G1-R2-3   Гр. 1: 2-3             Gr. 1: 2-3
========  =====================  ==================
"""

from __future__ import annotations

import re

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

_ROUND = re.compile(r"^([USLP])(\d+)-(\d+)$")
_GROUP = re.compile(r"^G(\d+)-R(\d+)-(\d+)$")

_BRACKETS = {
    "U": gettext_lazy("U%(r)s-%(i)s"),
    "L": gettext_lazy("L%(r)s-%(i)s"),
    "S": gettext_lazy("R%(r)s-%(i)s"),
    "P": gettext_lazy("P%(r)s-%(i)s"),
}

_NAMED = {
    "GF-1": gettext_lazy("Final"),
    "GF-2": gettext_lazy("Final, reset"),
    "3RD": gettext_lazy("For third place"),
}


def match_label(key: str | None) -> str:
    """«В1-1», «Н3-2», «Финал», «Повторный финал», «За 3-е место», «Гр. 1: 2-3»; an
    unknown key is shown as it is."""
    if not key:
        return ""
    named = _NAMED.get(key)
    if named is not None:
        return str(named)
    found = _ROUND.match(key)
    if found:
        return str(_BRACKETS[found.group(1)]) % {"r": found.group(2), "i": found.group(3)}
    found = _GROUP.match(key)
    if found:
        return _("Gr. %(g)s: %(r)s-%(i)s") % {
            "g": found.group(1),
            "r": found.group(2),
            "i": found.group(3),
        }
    return key
