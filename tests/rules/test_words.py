"""The rules' words: every text a discipline shows is a msgid that xgettext extracts from
rules/ (as Django's makemessages calls it) and that the Russian catalogue translates, with the
same placeholders; render() fills params, plurals and players."""

from __future__ import annotations

import ast
import gettext
import random
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

import rules
from rules import describe
from rules.simulate import random_event
from rules.words import gettext_noop, msgids, ngettext_lazy, player, render, rule_label, text
from tests.rules.test_properties import RULESETS

ROOT = Path(__file__).resolve().parents[2]
PO = ROOT / "locale" / "ru" / "LC_MESSAGES" / "django.po"
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")

needs_gettext = pytest.mark.skipif(
    not (shutil.which("xgettext") and shutil.which("msgfmt")), reason="gettext tools missing"
)


def _shown_texts() -> set[tuple[str, str | None]]:
    """Every (msgid, plural) the real disciplines produce: views and entries of random games,
    prompts, regulations, spotting hints, labels, the family's vocabulary."""
    found: set[tuple[str, str | None]] = set()
    for rs in RULESETS:
        d = rules.discipline(rs["discipline"])
        found.update(msgids(d.prompts(rs)))
        found.update(msgids(d.regulation(rs)))
        found.update(msgids([d.spotting(n) for n in range(1, d.max_balls + 1)]))
        found.update({(d.label, None), (d.diploma_phrase, None)})
        for seed in range(8):
            rng = random.Random(seed)
            state = rules.initial_state(rs)
            while True:
                found.update(msgids(rules.state_view(state)))
                found.update(msgids(rules.entry(state)))
                if state["finished"] or state["events"] > 400:
                    break
                state = rules.apply(state, random_event(state, rng, 0.5, 0.5))
    vocabulary = [describe.FOUL_TITLES, describe.OPTION_LABELS, describe.OPTION_HINTS]
    found.update((msgid, None) for table in vocabulary for msgid in table.values())
    return found


SHOWN = _shown_texts()


def _parse_po(source: str) -> dict[tuple[str, str | None], list[str]]:
    """msgid (and plural) -> msgstr forms; enough of the PO format for xgettext's output and
    our catalogue (no contexts)."""
    entries: dict[tuple[str, str | None], list[str]] = {}
    current: dict[str, Any] = {}
    field = None

    def flush() -> None:
        if current.get("msgid"):
            entries[(current["msgid"], current.get("msgid_plural"))] = current.get("msgstr", [])

    for line in source.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            if not line:
                flush()
                current, field = {}, None
            continue
        keyword, _, rest = line.partition(" ")
        if line.startswith('"'):
            value = ast.literal_eval(line)
            if field == "msgstr":
                current["msgstr"][-1] += value
            else:
                current[field] = current.get(field, "") + value
            continue
        value = ast.literal_eval(rest)
        if keyword.startswith("msgstr"):
            current.setdefault("msgstr", []).append(value)
            field = "msgstr"
        else:
            current[keyword] = value
            field = keyword
    flush()
    return entries


def _extracted() -> set[tuple[str, str | None]]:
    """The msgids xgettext finds in rules/, called as Django's makemessages calls it."""
    sources = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "rules").rglob("*.py"))
    pot = subprocess.run(
        [
            "xgettext",
            "--language=Python",
            "--from-code=UTF-8",
            # What makemessages passes besides xgettext's Python defaults (gettext, ngettext, _).
            "--keyword=gettext_noop",
            "--keyword=gettext_lazy",
            "--keyword=ngettext_lazy:1,2",
            "--output=-",
            *sources,
        ],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return set(_parse_po(pot))


@needs_gettext
def test_every_shown_text_is_extracted_by_xgettext() -> None:
    extracted = _extracted()
    assert SHOWN - extracted == set()
    assert len(extracted) > 100


@needs_gettext
def test_every_text_of_the_rules_has_its_russian_translation(tmp_path: Path) -> None:
    mo = tmp_path / "django.mo"
    subprocess.run(["msgfmt", "--check-format", "-o", str(mo), str(PO)], check=True)
    with mo.open("rb") as fh:
        ru = gettext.GNUTranslations(fh)
    missing = []
    for msgid, plural in sorted(_extracted() | SHOWN, key=str):
        if plural is None:
            forms = [(msgid, ru.gettext(msgid))]
        else:
            forms = [
                (msgid if n == 1 else plural, ru.ngettext(msgid, plural, n)) for n in (1, 2, 5)
            ]
        for english, russian in forms:
            if russian == english or not re.search("[а-яА-Я]", russian):
                missing.append(english)
            elif set(PLACEHOLDER.findall(russian)) != set(PLACEHOLDER.findall(english)):
                missing.append(f"{english} (placeholders)")
    assert missing == []


def test_render_fills_params_plurals_and_players() -> None:
    names = {"a": "Иванов", "b": "Петрова"}
    assert render(text(gettext_noop("minus %(n)s"), n=3)) == "minus 3"
    assert render(ngettext_lazy("%(n)d ball", "%(n)d balls", 1)) == "1 ball"
    assert render(ngettext_lazy("%(n)d ball", "%(n)d balls", 21)) == "21 balls"
    nested = text(gettext_noop("%(who)s: foul — %(foul)s"), who=player("b"), foul=rule_label("G18"))
    assert render(nested, names=names) == "Петрова: foul — rule 18"
    catalogue = {"rule %(n)s": "п. %(n)s", "%(who)s: foul — %(foul)s": "%(who)s, штраф: %(foul)s"}
    assert render(nested, gettext=lambda m: catalogue.get(m, m), names=names) == (
        "Петрова, штраф: п. 18"
    )
    assert render(rule_label("R")) == "regulation"
    assert render(rule_label("D7.4")) == "Duplex rule 7.4"
    assert render(rule_label("X")) == "X"
    assert render(text("100%")) == "100%"  # no params: nothing is formatted
