"""Nothing outside rules/ tests a discipline's name (issue 15.2): the domain and the pages ask
the registered discipline (rules.registry) for its features, its scores, its words and its
state view, so a new discipline touches no module of the product.

Presets, fixtures, demo data, migrations, tests, benchmarks and the catalogues may name
disciplines: they are data; so may the referee form's renderers, each of which is one
discipline's (static/js/referee/disciplines/<name>.js), and the paper match sheets
(templates/print/sheet/<sheet>.html, named by Discipline.paper_sheet). The scan covers the Python modules, the
templates and the scripts."""

from __future__ import annotations

import re
from pathlib import Path

import rules
from tests.rules import samples

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("*.py", "*.html", "*.js")
# Data that may name a discipline, and what is not the product's code.
SKIPPED_DIRS = {
    ".git",
    ".venv",
    "node_modules",
    "rules",
    "tests",
    "migrations",
    "fixtures",
    "locale",
    "bench",
    "var",
    "staticfiles",
    "artifacts",
    "disciplines",  # the referee form's renderers, one per discipline
    "sheet",  # templates/print/sheet/: the paper match sheets, one per discipline that has one
}
SKIPPED_FILES = {
    "tournaments/presets.py",
    "tournaments/management/commands/load_demo.py",
}


def _scanned_files() -> list[Path]:
    out = []
    for pattern in SCANNED:
        for path in ROOT.rglob(pattern):
            relative = path.relative_to(ROOT)
            if set(relative.parts[:-1]) & SKIPPED_DIRS:
                continue
            name = relative.as_posix()
            if name in SKIPPED_FILES or name.startswith("tournaments/presets"):
                continue
            out.append(path)
    return out


def test_no_module_outside_the_rules_names_a_discipline() -> None:
    # The registered disciplines and the made-up ones of the tests.
    names = samples.names()
    assert set(rules.registry.names()) < set(names)
    # The name as code writes it: a word of its own (not "free_pyramid_30", a preset's slug).
    pattern = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, names)) + r")(?![\w-])")
    files = _scanned_files()
    assert any(p.name == "selectors.py" for p in files) and any(p.suffix == ".html" for p in files)
    assert any(p.name == "main.js" for p in files)
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in files
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]
    assert found == [], "ask the discipline (rules.registry), not its name:\n" + "\n".join(found)
