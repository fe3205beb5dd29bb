"""The rules' words: every text a discipline shows is a msgid that xgettext extracts from its
module (as Django's makemessages calls it) and that the Russian catalogue translates, with the
same placeholders; render() fills params, plurals and players. Registry-driven: every
registered discipline and the made-up ones of tests/rules, their views, entries, prompts, the
log's sentence of every event of random games and of every kind the referee may enter, and
how a match ends, in Russian and in English from the compiled catalogues."""

from __future__ import annotations

import ast
import gettext
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import rules
from rules import contract, describe
from rules.simulate import random_event
from rules.words import (
    Text,
    gettext_noop,
    is_neutral,
    msgids,
    ngettext_lazy,
    player,
    render,
    rule_label,
    text,
)
from tests.rules import samples

ROOT = Path(__file__).resolve().parents[2]
PO = ROOT / "locale" / "ru" / "LC_MESSAGES" / "django.po"
CATALOGUES = {lang: ROOT / "locale" / lang / "LC_MESSAGES" / "django.po" for lang in ("ru", "en")}
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")

needs_gettext = pytest.mark.skipif(
    not (shutil.which("xgettext") and shutil.which("msgfmt")), reason="gettext tools missing"
)


def _games(rs: dict[str, Any], seeds: int) -> list[tuple[dict[str, Any], dict[str, Any] | None]]:
    """(state, the event applied to it) along random games; the last state has None."""
    out: list[tuple[dict[str, Any], dict[str, Any] | None]] = []
    for seed in range(seeds):
        rng = random.Random(seed)
        state = rules.initial_state(rs)
        while not state["finished"] and state["events"] <= 400:
            event = random_event(state, rng, 0.5, 0.5)
            out.append((state, event))
            state = rules.apply(state, event)
        out.append((state, None))
    return out


def _log_texts(d: rules.Discipline, rs: dict[str, Any]) -> list[tuple[str, Text]]:
    """What the log and the form say for a discipline: the sentence of every event of random
    games and of every kind the referee may enter (its default values), and how a match
    ends, for each end reason (its own and a result recorded outside the engine); each with
    the key it words (an event type, an end reason), which its words must not show raw."""
    out: list[tuple[str, Text]] = []
    for state, event in _games(rs, 4):
        if event is not None:
            out.append((str(event["type"]), d.describe_event(event, state["ruleset"])))
        for kind in rules.entry(state)["kinds"]:
            built = rules.build_event(kind)
            out.append((str(built["type"]), d.describe_event(built, state["ruleset"])))
    for reason in (*d.end_reasons, *contract.RESULT_END_REASONS):
        label = d.end_label(reason)
        assert label is not None, (d.name, reason)
        out.append((reason, label))
    return out


def _shown_texts() -> tuple[set[tuple[str, str | None]], list[tuple[str, str, Text]]]:
    """Every (msgid, plural) the disciplines produce, the made-up ones included: views and
    entries of random games, the log's sentences, prompts, regulations, spotting hints,
    labels, ruleset keys, the family's vocabulary; and the log's texts themselves."""
    found: set[tuple[str, str | None]] = set()
    logged: list[tuple[str, str, Text]] = []
    with samples.made_up_registered():
        for d in samples.every_discipline():
            found.update({(d.label, None), (d.diploma_phrase, None)})
            for key in d.ruleset_keys:
                found.add((key["label"], None))
                found.update((label, None) for label in (key.get("choice_labels") or {}).values())
            for rs in d.sample_rulesets().values():
                found.update(msgids(d.prompts(rs)))
                found.update(msgids(d.regulation(rs)))
                found.update(msgids([d.spotting(n) for n in range(1, d.max_balls + 1)]))
                for state, _event in _games(rs, 2):
                    found.update(msgids(rules.state_view(state)))
                    found.update(msgids(rules.entry(state)))
                for key, words in _log_texts(d, rs):
                    found.update(msgids(words))
                    logged.append((d.name, key, words))
    vocabulary = [
        describe.FOUL_TITLES,
        describe.OPTION_LABELS,
        describe.OPTION_HINTS,
        describe.OPTION_EVENTS,
        describe.END_LABELS,
    ]
    found.update((msgid, None) for table in vocabulary for msgid in table.values())
    # A msgid with no word of its own ("%(who)s: %(what)s") is the same in every language.
    return {(m, p) for m, p in found if not is_neutral(m)}, logged


SHOWN, LOGGED = _shown_texts()


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


def _sources() -> list[str]:
    """rules/ and the module of every discipline (a made-up one's is in tests/rules)."""
    modules = {Path(sys.modules[type(d).__module__].__file__ or "") for d in samples.MADE_UP}
    return sorted(str(p.relative_to(ROOT)) for p in {*(ROOT / "rules").rglob("*.py"), *modules})


def _extracted(sources: list[str] | None = None) -> set[tuple[str, str | None]]:
    """The msgids xgettext finds in the disciplines' modules (or in ``sources``), called as
    Django's makemessages calls it."""
    sources = sources if sources is not None else _sources()
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
def test_the_pages_declare_none_of_the_rules_words_again() -> None:
    """The referee form and the log render the rules' texts (matches/wording.py,
    matches/web/referee/views.py): none of their msgids is declared there a second time."""
    pages = _extracted(["matches/wording.py", "matches/web/referee/views.py"])
    assert len(pages) > 20
    assert {m for m, _plural in pages & _extracted()} == set()


def _compiled(lang: str, folder: Path) -> gettext.GNUTranslations:
    """The catalogue of a language, compiled as Django's compilemessages does."""
    mo = folder / f"{lang}.mo"
    subprocess.run(["msgfmt", "--check-format", "-o", str(mo), str(CATALOGUES[lang])], check=True)
    with mo.open("rb") as fh:
        return gettext.GNUTranslations(fh)


@needs_gettext
def test_every_text_of_the_rules_has_its_russian_translation(tmp_path: Path) -> None:
    ru = _compiled("ru", tmp_path)
    missing = []
    for msgid, plural in sorted({*_extracted(), *SHOWN} - _neutral(), key=str):
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
    assert sorted(missing) == []


def _neutral() -> set[tuple[str, str | None]]:
    return {(m, p) for m, p in _extracted() if is_neutral(m)}


@needs_gettext
@pytest.mark.parametrize("lang", ["ru", "en"])
def test_every_event_and_end_of_every_discipline_is_worded(lang: str, tmp_path: Path) -> None:
    """The log's sentence of every event a discipline's games and entries make, and how each
    of its matches may end, rendered with the compiled catalogue: every placeholder filled,
    no raw key (an event type, an end reason) shown, and in Russian, Russian words (a msgid
    the catalogue lacks shows in English)."""
    catalogue = _compiled(lang, tmp_path)
    names = {"a": "Иванова", "b": "Петров"} if lang == "ru" else {"a": "Ivanova", "b": "Petrov"}
    seen: dict[str, set[str]] = {}
    bad = []
    for discipline, key, words in LOGGED:
        shown = render(words, gettext=catalogue.gettext, ngettext=catalogue.ngettext, names=names)
        seen.setdefault(discipline, set()).add(key)
        if (
            not shown
            or "%(" in shown
            or shown == key
            or re.search(r"\b[a-z]+_\w+", shown)  # an identifier: "coin_toss", "end_race"
            or (lang == "ru" and re.search("[a-zA-Z]", re.sub("|".join(names.values()), "", shown)))
        ):
            bad.append((discipline, key, shown))
    assert bad == []
    # Every discipline, its own event types and end reasons among them.
    assert set(seen) == set(samples.names())
    for d in samples.every_discipline():
        assert set(d.end_reasons) <= seen[d.name]
        assert set(d.extra_events) <= seen[d.name]


def test_a_discipline_words_its_own_field_of_the_family_shot() -> None:
    """The family's sentence of a shot knows nothing of a field a discipline adds (the cue
    ball): that discipline words it (it would read «промах»)."""
    scratch = {"type": "shot", "player": "a", "pocketed": 0, "scratch": True}
    names = {"a": "Ivanova"}
    assert render(describe.event_sentence(scratch), names=names) == "Ivanova: miss"
    toy = samples.MADE_UP[1]
    assert render(toy.describe_event(scratch, {}), names=names) == "Ivanova: cue ball pocketed"


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
