"""How the referee form and the public pages put the engine's codes into words.

What the form says follows the rules in force for the match (rules.rules_in_force): where
balls are spotted, what the scoring question asks, what makes a break legal, how a foul is paid.
A foul shows a short translated name and its clause; the rule's own Russian text (the text a
referee and the players argue over) is quoted exactly, in every UI language, behind a tap.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

import rules
from rules.registry import find
from rules.words import text as rules_text

# code -> short title; the exact rule text is in _QUOTES.
_FOULS: dict[str, Any] = {
    "cue_tip": gettext_lazy("Cue ball not struck with the tip along the cue"),
    "double_hit": gettext_lazy("Double hit"),
    "balls_moving": gettext_lazy("Shot before the balls stopped"),
    "no_contact": gettext_lazy("Cue ball touched no object ball"),
    "feet_off_floor": gettext_lazy("Both feet off the floor"),
    "touched_ball": gettext_lazy("Touched a ball"),
    "illegal_break": gettext_lazy("Illegal break"),
    "slow_play": gettext_lazy("Slow play"),
    "incomplete_shot": gettext_lazy("Shot not completed legally"),
    "ball_off_table": gettext_lazy("Ball off the table"),
    "push_shot": gettext_lazy("Push shot"),
    "interference": gettext_lazy("Interference"),
}

# The rule's own words, exactly as the Russian rule books print them (docs/rules-texts/; a
# test checks each quote is there word for word). Keyed by the rule reference a foul cites.
QUOTES: dict[str, str] = {
    "G15": "Удар по битку производиться наклейкой кия в направлении его продольной оси. "
    "В противном случае - штраф.",
    "G18": "Во время удара наклейка кия может коснуться битка только один раз. "
    "В противном случае - штраф.",
    "G14.2": "Нельзя начинать следующий удар, пока не закончился предыдущий. "
    "В противном случае - штраф.",
    "G5.3": "Если после удара, биток не коснулся прицельного шара, удар считается "
    "неправильным и применяются штрафные санкции.",
    "G16": "Во время выполнения удара по битку, хотя бы одна нога игрока должна касаться "
    "пола. В противном случае - штраф.",
    "G17": "Не считая касание битка наклейкой кия при выполнении удара, нельзя касаться "
    "любого шара (битка или прицельного шара) телом, одеждой, машинкой, мелом, древком кия "
    "и т.п. За невыполнение – штраф.",
    "G12.1": "Начальный удар (разбитие пирамиды) считают правильным, когда после соударения "
    "битка с одним из прицельных шаров:\n"
    "(1) один шар правильно забит в любую лузу; или\n"
    "(2) как минимум три различных прицельных шара коснулись борта (бортов); или\n"
    "(3) два различных прицельных шара коснулись борта (бортов) и, кроме того, один из "
    "прицельных шаров должен пересечь центральную линию.",
    "R": "Строгий разбой – после соударения с пирамидой биток или любой шар может быть забит "
    "в лузу без заказа (все упавшие шары в лузу засчитываются) , или минимально биток "
    "должен: коснуться 2-ух разных бортов, или сделать касание борта перекат середины, или "
    "перекат середины и касание борта",
    "G26": "Когда игрок не укладывается в поставленные временные рамки, налагается штраф.",
    "G20": "Каждый удар (кроме начального) считают правильно завершенным, если не нарушено  "
    "ни одно из настоящих Правил и после соударения (касания) битка с прицельным шаром любой "
    "из шаров на игровой поверхности (биток или прицельный шар):\n"
    "(1) забит в лузу; или\n"
    "(2) отражается от любого борта, а затем:\n"
    "(а) касается другого борта; или\n"
    "(б) доводит любой шар до другого борта; или\n"
    "(в) касается любого шара, стоящего вплотную к другому борту; или\n"
    "(3) пересекает центральную линию, а затем:\n"
    "(а) касается любого борта; или\n"
    "(б) доводит любой шар до борта; или\n"
    "(в) касается любого шара, стоящего вплотную к любому борту; или\n"
    "(4) отскакивает от любого борта, а затем:\n"
    "(а) пересекает центральную линию; или\n"
    "(б) перекатывает через нее любой шар.\n"
    "Если из этих условий ничего не выполняется, налагается штраф.",
    "G24.3": "Если любой шар (биток или прицельный шар) выскакивает за борт, налагается штраф.",
    "G19": "Не разрешается растягивать контакт наклейки кия с битком до соударения битка с "
    "прицельным шаром. Если это происходит, удар квалифицируют как пропих и дают штраф.",
    "G28": "Считают, что игрок, заканчивающий свой игровой подход и наносящий удар вне "
    "очереди или же смещающий любой шар во время игры соперника, вмешивается в игру и это "
    "вмешательство влечет за собой штраф.",
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

# What the log says when the choice is made: a sentence, not a button's label.
_OPTION_EVENTS = {
    "play": gettext_lazy("%(who)s accepts the position"),
    "hand_back": gettext_lazy("%(who)s hands the table back to the offender"),
    "rebreak_self": gettext_lazy("%(who)s re-racks and breaks"),
    "rebreak_opponent": gettext_lazy("%(who)s re-racks; the offender breaks again"),
    "full": gettext_lazy("%(who)s chooses a full pyramid and a shot from the house"),
    "partial": gettext_lazy("%(who)s chooses an incomplete pyramid"),
    "play_on": gettext_lazy("%(who)s pockets the last ball first"),
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


def say(value: rules.Text, names: dict[str, str] | None = None) -> str:
    """A text of the rules (rules.words.Text) in the active language, players' references
    filled in with ``names``."""
    return rules.render(value, gettext=_, ngettext=ngettext, names=names)


def discipline_label(name: str) -> str:
    """The discipline's name («Свободная пирамида»); an unknown one as written."""
    found = find(name)
    return say(rules_text(found.label)) if found is not None else str(name)


def discipline_phrase(name: str) -> str:
    """How a diploma names the discipline («по свободной пирамиде»); "" for an unknown one."""
    found = find(name)
    return say(rules_text(found.diploma_phrase)) if found is not None else ""


# The engine cites its rule books by letter (G12.1, D5.2, R3); a referee reads «п. 12.1».
_RULE_BOOKS = {
    "G": gettext_lazy("rule %(n)s"),
    "D": gettext_lazy("Duplex rule %(n)s"),
    "R": gettext_lazy("regulation %(n)s"),
}


def rule_label(ref: str) -> str:
    """A rule number as a referee reads it: "G12.2 (3)" -> «п. 12.2 (3)» in Russian; "R"
    alone is the regulation itself."""
    if ref == "R":
        return _("regulation")
    book = _RULE_BOOKS.get(ref[:1])
    if book is None or not ref[1:2].isdigit():
        return ref
    return str(book) % {"n": ref[1:]}


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def foul_rule(code: str, in_force: rules.RulesInForce | None = None) -> str:
    """The rule a foul cites under the rules in force (a strict break cites the regulation)."""
    if code == "illegal_break" and in_force is not None:
        return in_force["break_rule_ref"]
    return rules.FOUL_CODES[code]


def foul_choices(
    codes: list[str] | None = None, in_force: rules.RulesInForce | None = None
) -> list[dict[str, str]]:
    """The foul picker: code, short title, the clause, and the rule's exact Russian text
    (`quote`) for a tap. `wording` stays empty: the button shows the short name only."""
    out = []
    for code in rules.FOUL_CODES:
        if codes is not None and code not in codes:
            continue
        ref = foul_rule(code, in_force)
        out.append(
            {
                "code": code,
                "rule": rule_label(ref),
                "title": str(_FOULS[code]),
                "wording": "",
                "quote": QUOTES.get(ref, ""),
            }
        )
    return out


def foul_title(code: str | None, in_force: rules.RulesInForce | None = None) -> str:
    """A foul as a log sentence names it: «двойной удар (п. 18)»."""
    if not code or code not in _FOULS:
        return str(code or "")
    return f"{_lower_first(str(_FOULS[code]))} ({rule_label(foul_rule(code, in_force))})"


def option_label(option: str) -> str:
    return str(_OPTIONS.get(option, option))


def option_event(option: str, who: str) -> str:
    text = _OPTION_EVENTS.get(option)
    if text is None:
        return f"{who}: {option_label(option)}"
    return str(text) % {"who": who}


def option_hint(option: str) -> str:
    return rule_label(str(_OPTION_HINTS.get(option, "")))  # text that is no rule stays as is


def spotting_hint(to_spot: int, in_force: rules.RulesInForce | None = None) -> str:
    """Where re-spotted balls go under the rules in force: G25.2 (one on the rear spot,
    several from it towards the back cushion) or D6.1-6.2 (one as close to the back cushion
    as possible, several from the back cushion towards the rear spot)."""
    if to_spot <= 0:
        return ""
    if in_force is not None and in_force["spotting"] == "back_cushion":
        if to_spot == 1:
            return _("Put 1 ball on the spotting line, as close to the back cushion as possible.")
        return ngettext(
            "Put %(n)d ball on the spotting line, from the back cushion towards the rear spot.",
            "Put %(n)d balls on the spotting line, from the back cushion towards the rear spot.",
            to_spot,
        ) % {"n": to_spot}
    if to_spot == 1:
        return _("Put 1 ball on the rear spot.")
    return ngettext(
        "Put %(n)d ball on the spotting line, from the rear spot towards the back cushion.",
        "Put %(n)d balls on the spotting line, from the rear spot towards the back cushion.",
        to_spot,
    ) % {"n": to_spot}


def pocketed_prompt(in_force: rules.RulesInForce) -> str:
    """The scoring question: under direct call only balls pocketed directly count."""
    if in_force["pocketing"] == "direct_call":
        return _("How many balls were pocketed directly, as called?")
    return _("How many balls were pocketed?")


def break_prompt(in_force: rules.RulesInForce) -> str:
    if in_force["break_rule"] == "strict":
        return _("Legal strict break: how many balls fell? All of them count.")
    return _("Legal break: how many balls fell?")


def break_criteria(in_force: rules.RulesInForce) -> str:
    """What makes the break legal, in short, under the rules in force."""
    if in_force["break_rule"] == "strict":
        return _(
            "Legal if a ball is pocketed, or the cue ball touches two different cushions, "
            "or a cushion and crosses the centre line (regulation)."
        )
    return _(
        "Legal if a ball is pocketed, or at least three different object balls touch a "
        "cushion, or two do and an object ball crosses the centre line (rule 12.1)."
    )


def penalty_text(in_force: rules.RulesInForce) -> str:
    """How the foul is paid under the rules in force."""
    if in_force["penalty"] == "shelf_to_table":
        return _("Penalty: a ball from the offender's shelf goes back to the table.")
    if in_force["penalty"] == "opponent_removes":
        return _("Penalty: the opponent takes any ball off the table.")
    return _("Penalty: the opponent takes a ball from the table.")


def _balls(n: int) -> str:
    return ngettext("%(n)d ball", "%(n)d balls", n) % {"n": n}


def _count(value: Any) -> int:
    if isinstance(value, dict):
        return sum(v for v in value.values() if isinstance(v, int))
    return value if isinstance(value, int) else 0


def describe_event(
    payload: dict[str, Any],
    names: dict[str, str],
    in_force: rules.RulesInForce | None = None,
) -> str:
    """One sentence for the scoreboard's event list, e.g. «Иванова: 2 шара»."""
    kind = payload.get("type")
    who = names.get(str(payload.get("player")), "")
    if kind == "break":
        n = _count(payload.get("pocketed"))
        if payload.get("legal") is False:
            return _("%(who)s: illegal break (%(rule)s)") % {
                "who": who,
                "rule": rule_label(foul_rule("illegal_break", in_force)),
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
                "foul": foul_title(payload.get("foul") or "ball_off_table", in_force),
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
        return _("%(who)s: foul — %(foul)s") % {
            "who": who,
            "foul": foul_title(payload.get("foul"), in_force),
        }
    if kind in ("choice", "rerack"):
        return option_event(str(payload.get("option")), who)
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
