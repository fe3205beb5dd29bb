"""How the referee form, the log and the public pages put the engine's words into the
user's language.

The words are the rules' (rules.describe and each discipline's: texts as data, msgids declared
once there); this module renders them with Django's catalogue. What the form says follows the
rules in force for the match (rules.rules_in_force). A foul shows a short translated name and
its clause; the rule's own Russian text (the text a referee and the players argue over) is
quoted exactly, in every UI language, behind a tap. A log entry's sentence is its discipline's
(Discipline.describe_event), rendered in every language once, when the entry is appended.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop, ngettext

import rules
from rules import describe
from rules import words as rules_words
from rules.registry import find
from rules.words import text as rules_text

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


# What the form shows is the quote proofread: the source's typos and spacing corrected, not a
# word of the clause changed (a test checks that undoing these gives the source back).
PROOFREADING: tuple[tuple[str, str], ...] = (
    ("производиться", "производится"),
    ("2-ух", "двух"),
    ("  ", " "),
    (" ,", ","),
    (" - штраф", " — штраф"),
    (" – штраф", " — штраф"),
    ("Строгий разбой –", "Строгий разбой —"),
    ("т.п.", "т. п."),
    ("удара, биток", "удара биток"),
    ("завершенным", "завершённым"),
    ("через нее", "через неё"),
    ("влечет", "влечёт"),
)


def proofread(quote: str) -> str:
    """A rule's text as the form shows it: the source's typos corrected (PROOFREADING)."""
    for wrong, right in PROOFREADING:
        quote = quote.replace(wrong, right)
    return quote


def say(value: rules.Text, names: Mapping[str, str] | None = None) -> str:
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


def rule_label(ref: str) -> str:
    """A rule number as a referee reads it: "G12.2 (3)" -> «п. 12.2 (3)» in Russian; "R"
    alone is the regulation itself."""
    return say(rules_words.rule_label(ref))


def foul_rule(code: str, in_force: rules.RulesInForce | None = None) -> str:
    """The rule a foul cites under the rules in force (a strict break cites the regulation)."""
    return describe.foul_rule(code, in_force)


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
                "title": say(describe.foul_title(code)),
                "wording": "",
                "quote": proofread(QUOTES.get(ref, "")),
            }
        )
    return out


def foul_title(code: str | None, in_force: rules.RulesInForce | None = None) -> str:
    """A foul as a log sentence names it: «двойной удар (п. 18)»."""
    return say(describe.foul_named(code, in_force)) if code else ""


def option_label(option: str) -> str:
    return say(rules_text(describe.OPTION_LABELS.get(option, option)))


def option_hint(option: str) -> str:
    """What an option does, else the clause it follows (G12.2 (3)); "" for neither."""
    hint = describe.OPTION_HINTS.get(option)
    if hint is not None:
        return say(rules_text(hint))
    ref = describe.OPTION_RULES.get(option)
    return rule_label(ref) if ref is not None else ""


def spotting_hint(to_spot: int, in_force: rules.RulesInForce | None = None) -> str:
    """Where re-spotted balls go under the rules in force (G25.2 or D6.1-6.2)."""
    spotting = in_force["spotting"] if in_force is not None else "rear_spot"
    hint = describe.spotting_hint(spotting, to_spot)
    return say(hint) if hint is not None else ""


# --- the match's log: one sentence an entry, rendered once -------------------------------------

UNDO = gettext_noop("Undo of #%(seq)s")


def entry_words(
    kind: str,
    payload: Mapping[str, Any],
    *,
    discipline: rules.Discipline,
    ruleset: Mapping[str, Any],
) -> rules.Text:
    """A log entry's sentence as data (players as references): an event's is its
    discipline's (Discipline.describe_event), an undo's is the log's own."""
    if kind == "undo":
        return rules_text(UNDO, seq=payload.get("seq", ""))
    return discipline.describe_event(payload, ruleset)


def sentences(words: rules.Text, names: Mapping[str, str]) -> dict[str, str]:
    """The sentence in every language of the site: a log entry keeps them (Match.recent_log),
    so that no answer or page renders it again."""
    out = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            out[code] = say(words, names)
    return out


def in_language(texts: Mapping[str, str]) -> str | None:
    """Of a sentence kept in every language, the one of the active language."""
    language = translation.get_language() or settings.LANGUAGE_CODE
    return texts.get(language) or texts.get(language.split("-")[0])


class LazyNames(Mapping[str, str]):
    """The players' names, read when a sentence first names one (the clock's «время истекло»
    reads none, so its write loads no player)."""

    def __init__(self, load: Callable[[], Mapping[str, str]]) -> None:
        self._load = load
        self._names: Mapping[str, str] | None = None

    def _all(self) -> Mapping[str, str]:
        if self._names is None:
            self._names = self._load()
        return self._names

    def __getitem__(self, slot: str) -> str:
        return self._all()[slot]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


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
