"""How the referee form and the public pages put the engine's codes into words.

The foul picker quotes the Russian rulebook itself (the general pyramid rules, G): the text a
referee and the players argue over is the Russian one, so it is shown as written, in every UI
language, beside a translated short title.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

import rules

# code -> (short title, the rule's wording from the Russian rulebook)
_FOULS: dict[str, tuple[Any, str]] = {
    "cue_tip": (
        gettext_lazy("Cue ball not struck with the tip along the cue"),
        "Удар по битку производится наклейкой кия в направлении его продольной оси.",
    ),
    "double_hit": (
        gettext_lazy("Double hit"),
        "Во время удара наклейка кия может коснуться битка только один раз.",
    ),
    "balls_moving": (
        gettext_lazy("Shot before the balls stopped"),
        "Нельзя начинать следующий удар, пока не закончился предыдущий.",
    ),
    "no_contact": (
        gettext_lazy("Cue ball touched no object ball"),
        "Если после удара биток не коснулся прицельного шара, удар считается неправильным.",
    ),
    "feet_off_floor": (
        gettext_lazy("Both feet off the floor"),
        "Во время выполнения удара по битку хотя бы одна нога игрока должна касаться пола.",
    ),
    "touched_ball": (
        gettext_lazy("Touched a ball"),
        "Нельзя касаться любого шара (битка или прицельного) телом, одеждой, машинкой, мелом, "
        "древком кия и т. п.",
    ),
    "illegal_break": (
        gettext_lazy("Illegal break"),
        "Начальный удар правильный, если забит шар, или три шара коснулись бортов, или два "
        "шара коснулись бортов и один пересёк центральную линию (строгий разбой — по регламенту).",
    ),
    "slow_play": (
        gettext_lazy("Slow play"),
        "Игрок не уложился в ограничение времени на подготовку удара (замедленная игра).",
    ),
    "incomplete_shot": (
        gettext_lazy("Shot not completed legally"),
        "После соударения битка с прицельным шаром ни один шар не забит, не отразился от борта "
        "к другому борту и не пересёк центральную линию, как требует п. 20.",
    ),
    "ball_off_table": (
        gettext_lazy("Ball off the table"),
        "Биток или прицельный шар выскочил за борт.",
    ),
    "push_shot": (
        gettext_lazy("Push shot"),
        "Нельзя растягивать контакт наклейки кия с битком до соударения битка с прицельным "
        "шаром (пропих).",
    ),
    "interference": (
        gettext_lazy("Interference"),
        "Удар вне очереди или смещение любого шара во время игры соперника.",
    ),
}

_OPTIONS = {
    "play": gettext_lazy("Take the table"),
    "hand_back": gettext_lazy("Hand back to the offender"),
    "rebreak_self": gettext_lazy("Re-rack and break myself"),
    "rebreak_opponent": gettext_lazy("Re-rack, the offender breaks again"),
    "full": gettext_lazy("Full pyramid, shot from the house"),
    "partial": gettext_lazy("Incomplete pyramid, play on from the position"),
    "play_on": gettext_lazy("Play the two balls"),
}

_OPTION_HINTS = {
    "play": gettext_lazy("Accept the position and play on"),
    "hand_back": gettext_lazy("The offender plays again from this position"),
    "rebreak_self": "G12.2 (3)",  # shown through rule_label
    "rebreak_opponent": "G12.2 (4)",
    "full": gettext_lazy("16 balls; a shot from hand from the house"),
    "partial": gettext_lazy("The pocketed balls are racked as an incomplete pyramid"),
    "play_on": gettext_lazy("Pocket the last ball, then a full pyramid and a break"),
}


# The engine cites its rule books by letter (G12.1, D5.2, R3); a referee reads «п. 12.1».
_RULE_BOOKS = {
    "G": gettext_lazy("rule %(n)s"),
    "D": gettext_lazy("Duplex rule %(n)s"),
    "R": gettext_lazy("regulation %(n)s"),
}


def rule_label(ref: str) -> str:
    """A rule number as a referee reads it: "G12.2 (3)" -> «п. 12.2 (3)» in Russian."""
    book = _RULE_BOOKS.get(ref[:1])
    if book is None or not ref[1:2].isdigit():
        return ref
    return str(book) % {"n": ref[1:]}


def foul_choices(codes: list[str] | None = None) -> list[dict[str, str]]:
    """The foul picker: code, rule number, translated title and the rule's Russian wording."""
    out = []
    for code, rule in rules.FOUL_CODES.items():
        if codes is not None and code not in codes:
            continue
        title, wording = _FOULS[code]
        out.append(
            {"code": code, "rule": rule_label(rule), "title": str(title), "wording": wording}
        )
    return out


def foul_title(code: str | None) -> str:
    if not code or code not in _FOULS:
        return str(code or "")
    return f"{_FOULS[code][0]} ({rule_label(rules.FOUL_CODES[code])})"


def option_label(option: str) -> str:
    return str(_OPTIONS.get(option, option))


def option_hint(option: str) -> str:
    return rule_label(str(_OPTION_HINTS.get(option, "")))  # text that is no rule stays as is


def spotting_hint(to_spot: int) -> str:
    """R / G25.2: one ball goes on the rear spot, several on the spotting line behind it."""
    if to_spot <= 0:
        return ""
    if to_spot == 1:
        return _("Put 1 ball on the rear spot.")
    return ngettext(
        "Put %(n)d ball on the spotting line, from the rear spot towards the back cushion.",
        "Put %(n)d balls on the spotting line, from the rear spot towards the back cushion.",
        to_spot,
    ) % {"n": to_spot}


def _balls(n: int) -> str:
    return ngettext("%(n)d ball", "%(n)d balls", n) % {"n": n}


def _count(value: Any) -> int:
    if isinstance(value, dict):
        return sum(v for v in value.values() if isinstance(v, int))
    return value if isinstance(value, int) else 0


def describe_event(payload: dict[str, Any], names: dict[str, str]) -> str:
    """One line for the scoreboard's event list, e.g. "Ivanov: 2 balls"."""
    kind = payload.get("type")
    who = names.get(str(payload.get("player")), "")
    if kind == "break":
        n = _count(payload.get("pocketed"))
        if payload.get("legal") is False:
            return _("%(who)s: illegal break (%(rule)s)") % {
                "who": who,
                "rule": rule_label("G12.1"),
            }
        if n:
            return _("%(who)s: break, %(balls)s") % {"who": who, "balls": _balls(n)}
        return _("%(who)s: break, nothing pocketed") % {"who": who}
    if kind == "shot":
        n = _count(payload.get("pocketed"))
        fools = _count(payload.get("fools"))
        off = _count(payload.get("off_table"))
        if payload.get("foul") or off:
            return _("%(who)s: foul — %(foul)s") % {
                "who": who,
                "foul": foul_title(payload.get("foul") or "ball_off_table"),
            }
        parts = []
        if n:
            parts.append(_balls(n))
        if fools:
            parts.append(ngettext("%(n)d fool", "%(n)d fools", fools) % {"n": fools})
        if not parts:
            return _("%(who)s: miss") % {"who": who}
        return f"{who}: " + ", ".join(parts)
    if kind == "foul":
        return _("%(who)s: foul — %(foul)s") % {"who": who, "foul": foul_title(payload.get("foul"))}
    if kind in ("choice", "rerack"):
        return f"{who}: {option_label(str(payload.get('option')))}"
    if kind == "penalty_removal":
        colour = names.get(str(payload.get("colour")), "")
        return _("%(who)s removes a ball of %(colour)s") % {"who": who, "colour": colour}
    if kind == "choose_breaker":
        return _("%(who)s chooses the breaker: %(breaker)s") % {
            "who": who,
            "breaker": names.get(str(payload.get("breaker")), ""),
        }
    if kind == "time_expired":
        return _("Time is up")
    if kind == "forfeit":
        return _("%(who)s concedes the match") % {"who": who}
    return str(kind or "")


# How a match ended, as the bracket, scoreboards and standings mark it (selectors.result_mark).
RESULT_MARKS: dict[str, Any] = {
    "walkover": gettext_lazy("walkover"),
    "forfeit": gettext_lazy("forfeit"),
    "time": gettext_lazy("on time"),
    "golden_ball": gettext_lazy("decided by the golden ball"),
}


def result_mark_label(mark: str | None, corrected_from: dict[str, Any] | None = None) -> str:
    """The words of a result mark; a correction says what the result was."""
    if mark is None:
        return ""
    if mark != "corrected":
        return str(RESULT_MARKS[mark])
    before = corrected_from or {}
    if before.get("score_a") is not None and before.get("score_b") is not None:
        return _("corrected: was %(a)s:%(b)s") % {"a": before["score_a"], "b": before["score_b"]}
    if before.get("result") == "walkover":
        return _("corrected: was a walkover")
    return _("corrected")
