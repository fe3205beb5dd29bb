"""The referee form says what the rules in force say: one test per ruleset preset renders the
form's words in Russian and checks them against that preset; the rule quotes are exact."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.utils import translation

import rules
from matches import wording
from matches.web.referee.views import referee_ui
from tournaments.presets import PRESETS

TEXTS = Path(__file__).resolve().parents[2] / "docs" / "rules-texts"


def form_words(slug: str) -> tuple[dict, rules.RulesInForce]:
    ruleset = rules.validate_ruleset(PRESETS[slug].fields["ruleset"])
    in_force = rules.rules_in_force(ruleset)
    with translation.override("ru"):
        return referee_ui(ruleset), in_force


def test_free_pyramid_under_the_regulation() -> None:
    ui, in_force = form_words("free_pyramid_30")
    text = ui["text"]
    assert in_force["fools"] and ui["rules"]["fool_button"]
    assert text["pocketed"] == "Сколько шаров забито по прямому заказу?"
    assert "строгий разбой" in text["break_pocketed"]
    assert "(Регламент)" in text["break_criteria"] and "биток" in text["break_criteria"]
    assert text["rule_illegal_break"] == "Регламент"
    assert text["penalty"] == "Штраф с полки: шар с полки нарушителя возвращается на стол."
    break_foul = [f for f in ui["shot_fouls"] + ui["event_fouls"] if f["code"] == "illegal_break"]
    assert not break_foul  # reported by the break itself, not picked from the list
    assert ui["foul_titles"]["illegal_break"] == "неправильный разбой (Регламент)"
    assert ui["spot"]["1"] == "Выставьте 1 шар на заднюю отметку."
    assert "от задней отметки к заднему борту" in ui["spot"]["3"]
    assert set(ui["options"]) == {"play", "hand_back", "rebreak_self", "rebreak_opponent"} | {
        "full",
        "partial",
        "play_on",
    }
    assert ui["options"]["play_on"] == "Забить последний шар"


def test_llb_frames_to_8_count_fools_and_use_the_general_break() -> None:
    ui, in_force = form_words("llb_frames_8")
    text = ui["text"]
    assert not in_force["fools"] and ui["rules"]["fool_button"] is False
    assert text["pocketed"] == "Сколько шаров забито?"
    assert "прям" not in text["pocketed"] and "заказ" not in text["pocketed"]
    assert text["break_pocketed"] == "Правильный разбой: сколько шаров упало?"
    assert "три различных прицельных шара" in text["break_criteria"] or (
        "трёх различных прицельных шаров" in text["break_criteria"]
    )
    assert "(п. 12.1 Общих правил)" in text["break_criteria"]
    assert text["rule_illegal_break"] == "п. 12.1 Общих правил"
    assert text["penalty"] == "Штраф: соперник снимает шар со стола себе на полку."
    # No continuation: the re-rack choice of the regulation is never offered.
    assert not {"full", "partial", "play_on"} & set(ui["options"])


def test_duplex_spots_from_the_back_cushion() -> None:
    ui, in_force = form_words("duplex")
    assert in_force["spotting_rule"] == "D6.1"
    assert ui["spot"]["1"] == (
        "Выставьте 1 шар на линию выставления шаров как можно ближе к заднему борту."
    )
    for n in ("2", "5", "16"):
        assert "от заднего борта к задней отметке" in ui["spot"][n]
        assert "заднюю отметку" not in ui["spot"][n]
    assert ui["spot"]["2"].startswith("Выставьте 2 шара")
    assert ui["spot"]["5"].startswith("Выставьте 5 шаров")
    assert ui["rules"]["fool_button"] is False
    assert ui["text"]["penalty"] == "Штраф: соперник снимает со стола любой шар."
    assert "(п. 12.1 Общих правил)" in ui["text"]["break_criteria"]


@pytest.mark.parametrize("slug", sorted(PRESETS))
def test_every_prompt_is_a_question_or_a_sentence_in_russian(slug: str) -> None:
    ui, _ = form_words(slug)
    text = ui["text"]
    # The discipline's prompts for the preset's ruleset (a Duplex form counts per colour).
    for key in ("pocketed", "illegal_break_balls", "fool_legal_too", "fool_count"):
        if key in text:
            assert "?" in text[key], key
            assert not text[key].endswith(":"), key
    for foul in ui["shot_fouls"] + ui["event_fouls"]:
        assert foul["wording"] == ""  # the button: a short name and the clause
        assert foul["rule"].startswith("п. ") or foul["rule"] == "Регламент"
        assert foul["quote"], foul["code"]
    for value in [*text.values(), *ui["options"].values(), *ui["spot"].values()]:
        assert "“" not in value and "”" not in value
        assert not re.search(r"\b(play|hand_back|rebreak_\w+|none)\b", value), value


def _normalised(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def test_rule_quotes_are_word_for_word() -> None:
    books = {
        "G": (TEXTS / "general-pyramid-rules.ru.txt").read_text(encoding="utf-8"),
        "R": (TEXTS / "free-pyramid-tournament-regulation.ru.txt").read_text(encoding="utf-8"),
    }
    for ref, quote in wording.QUOTES.items():
        assert _normalised(quote) in _normalised(books[ref[0]]), ref


def _words(text: str) -> list[str]:
    """The words of a text, spelling aside: what proofreading must not change."""
    folded = text.lower().replace("ё", "е").replace("двух", "2-ух")
    return re.findall(r"[а-яa-z0-9]+", folded.replace("производится", "производиться"))


def test_the_quotes_shown_are_proofread_and_say_the_same_clause() -> None:
    shown = {f["code"]: f["quote"] for f in wording.foul_choices()}
    for ref, quote in wording.QUOTES.items():
        fixed = wording.proofread(quote)
        assert _words(fixed) == _words(quote), ref  # not a word of the clause changed
        for typo in ("производиться", "2-ух", "  ", " ,", "т.п."):
            assert typo not in fixed, (ref, typo)
    assert "Удар по битку производится наклейкой кия" in shown["cue_tip"]
    for wrong, _right in wording.PROOFREADING:  # every correction is of a real typo
        assert any(wrong in quote for quote in wording.QUOTES.values()), wrong


def test_the_log_reads_as_sentences() -> None:
    """The log's sentences are the discipline's (Discipline.describe_event), in Russian."""
    names = {"a": "Иванова", "b": "Петров"}
    free = rules.discipline("free_pyramid")

    def sentence(event: dict, **keys: object) -> str:
        ruleset = rules.validate_ruleset({"discipline": "free_pyramid", **keys})
        return wording.say(free.describe_event(event, ruleset), names)

    with translation.override("ru"):
        assert sentence({"type": "choice", "player": "a", "option": "play"}) == (
            "Иванова принимает позицию"
        )
        line = sentence({"type": "shot", "player": "b", "foul": "double_hit"})
        assert line == "Петров, штраф: двойной удар (п. 18 Общих правил)"
        line = sentence({"type": "break", "player": "a", "legal": False}, strict_break=True)
        assert line == "Иванова: неправильный разбой (Регламент)"
        line = sentence({"type": "break", "player": "a", "legal": False}, strict_break=False)
        assert line == "Иванова: неправильный разбой (п. 12.1 Общих правил)"
        assert sentence({"type": "shot", "player": "a", "pocketed": 2}) == "Иванова: 2 шара"
        line = sentence({"type": "shot", "player": "a", "pocketed": 1, "fools": 2})
        assert line == "Иванова: 1 шар, 2 «дурака»"
        assert sentence({"type": "time_expired"}) == "Время истекло"
