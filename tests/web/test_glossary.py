"""A glossary the code enforces: the retired variants of docs/wording.md ("One term per thing")
appear nowhere a Russian reader sees them — not in the compiled Russian catalogue, not in a
template's own text, not in a script's Russian strings — and the product is «Луза», never
«Luza», in Russian."""

from __future__ import annotations

import gettext
import re
from pathlib import Path

import pytest
from django.core.management import call_command

ROOT = Path(__file__).resolve().parents[2]
WORDING = ROOT / "docs" / "wording.md"
MO = ROOT / "locale" / "ru" / "LC_MESSAGES" / "django.mo"
PO = ROOT / "locale" / "ru" / "LC_MESSAGES" / "django.po"
# Template tags, variables and comments are code; what is left is the template's own text.
_CODE = re.compile(r"{%.*?%}|{{.*?}}|{#.*?#}", re.S)
_RUSSIAN_STRING = re.compile(r"""(["'])((?:(?!\1).)*[а-яё](?:(?!\1).)*)\1""", re.I)


def retired() -> list[tuple[str, re.Pattern[str]]]:
    """(variant, pattern) for every retired variant in the wording table."""
    text = WORDING.read_text(encoding="utf-8")
    section = text.split("## One term per thing", 1)[1].split("\n## ", 1)[0]
    out = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or cells[0] in ("concept", "---"):
            continue
        for word, unless in re.findall(r"«([^»]+)»(?: not before «([^»]+)»)?", cells[2]):
            tail = rf"(?!\s*{re.escape(unless)})" if unless else ""
            out.append((word, re.compile(rf"(?<![а-яёa-z]){re.escape(word)}{tail}", re.I)))
    return out


RETIRED = retired()


def _found(text: str) -> list[str]:
    return [word for word, pattern in RETIRED if pattern.search(text)]


def _catalogue() -> dict[object, str]:
    if not MO.exists() or MO.stat().st_mtime < PO.stat().st_mtime:
        call_command("compilemessages", locale=["ru"], ignore_patterns=[".venv"], verbosity=0)
    with MO.open("rb") as handle:
        return dict(gettext.GNUTranslations(handle)._catalog)  # type: ignore[attr-defined]


def test_the_table_retires_the_words_the_judge_found() -> None:
    words = {w.lower() for w, _ in RETIRED}
    for word in ("фол", "заход", "промах", "таймер", "лимит", "luza", "игра до", "собрано"):
        assert word in words


def test_the_russian_catalogue_uses_one_term_per_thing() -> None:
    wrong = {
        str(msgid)[:80]: (msgstr, _found(msgstr))
        for msgid, msgstr in _catalogue().items()
        if msgid and _found(msgstr)
    }
    assert not wrong


def test_templates_and_scripts_write_no_retired_word() -> None:
    wrong: dict[str, list[str]] = {}
    for path in sorted((ROOT / "templates").rglob("*")):
        if path.suffix not in (".html", ".txt", ".js"):
            continue
        own = _CODE.sub(" ", path.read_text(encoding="utf-8"))
        # A script's own text is code (a cache named "luza-…"): only its Russian strings count.
        if path.suffix == ".js":
            own = " ".join(m[1] for m in _RUSSIAN_STRING.findall(own))
        words = _found(own)
        if words:
            wrong[str(path.relative_to(ROOT))] = sorted(set(words))
    for path in sorted((ROOT / "static" / "js").rglob("*.js")):
        strings = " ".join(m[1] for m in _RUSSIAN_STRING.findall(path.read_text("utf-8")))
        if _found(strings):
            wrong[str(path.relative_to(ROOT))] = _found(strings)
    assert not wrong


@pytest.mark.parametrize(
    ("text", "hit"),
    [
        ("Штраф за фол", True),
        ("Вызвать судью", True),
        ("Вызвать судью турнира", False),
        ("Ничего не забито", False),
        ("Запустить таймер", True),
        ("Luza — судейская форма", True),
        ("Футболка", False),
    ],
)
def test_a_retired_variant_is_matched_at_a_word_start(text: str, hit: bool) -> None:
    assert bool(_found(text)) is hit
