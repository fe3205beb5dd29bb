"""The import contracts (pyproject.toml, `lint-imports`) cover every module of the project.

A layers contract checks only the modules its layers name (and their descendants): a new module
that no layer names would escape it. This test fails until it is given its layer."""

from __future__ import annotations

import tomllib
from pathlib import Path

import grimp
import pytest
from importlinter import api  # noqa: F401  (configures import-linter's settings)
from importlinter.application import use_cases

ROOT = Path(__file__).resolve().parents[2]
CHECKED = ("matches", "tournaments", "audit", "config")


def _contracts() -> dict[str, dict]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    return {contract["id"]: contract for contract in config["contracts"]}


def _layer_modules() -> set[str]:
    named = set()
    for layer in _contracts()["layers"]["layers"]:
        separator = "|" if "|" in layer else ":"
        named.update(part.strip().strip("()") for part in layer.split(separator))
    return named


def _covered(module: str, named: set[str]) -> bool:
    """Named, or inside a named package, or a package holding named modules (its own imports
    are only its submodules' wiring: config/__init__.py loads the Celery app)."""
    return any(
        module == name or module.startswith(f"{name}.") or name.startswith(f"{module}.")
        for name in named
    )


def test_every_module_is_in_a_layer() -> None:
    graph = grimp.build_graph(*CHECKED, cache_dir=None)
    named = _layer_modules()
    # Migrations are Django's to load; they import no module of the app they belong to.
    modules = {m for m in graph.modules if ".migrations" not in m}
    unnamed = sorted(m for m in modules if not _covered(m, named))
    assert unnamed == [], "name these modules in a layer of [tool.importlinter] (pyproject.toml)"


def test_every_layer_names_a_module_that_exists() -> None:
    graph = grimp.build_graph(*CHECKED, "rules", cache_dir=None)
    missing = sorted(name for name in _layer_modules() if name not in graph.modules)
    assert missing == []


def test_the_contracts_are_the_ones_ci_runs() -> None:
    contracts = _contracts()
    assert {"layers", "rules-pure", "algorithms-pure", "acyclic"} <= set(contracts)
    makefile = (ROOT / "Makefile").read_text()
    assert "lint-imports" in makefile and "check: lint" in makefile
    assert "make check" in (ROOT / ".ci" / "run").read_text()  # CI: lint-imports in make check


def _broken_contracts(monkeypatch: pytest.MonkeyPatch, *imports: tuple[str, str]) -> set[str]:
    """The contracts of pyproject.toml checked on the project's real graph with ``imports``
    added, as if a module had been written with them; the ids of those that break."""
    build = use_cases._build_graph

    def with_imports(**kwargs: object) -> grimp.ImportGraph:
        graph = build(**kwargs)
        for importer, imported in imports:
            graph.add_import(
                importer=importer, imported=imported, line_number=1, line_contents="import"
            )
        return graph

    monkeypatch.setattr(use_cases, "_build_graph", with_imports)
    monkeypatch.chdir(ROOT)
    sources = use_cases._read_config_sources(None, ())
    use_cases._register_built_in_contract_types()
    report = use_cases._create_report_from_sources(sources, cache_dir=None)
    return {
        contract.contract_options["id"]
        for contract, check in report.get_contracts_and_checks()
        if not check.kept
    }


def test_the_contracts_hold_on_the_project_as_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _broken_contracts(monkeypatch) == set()


@pytest.mark.parametrize(
    ("importer", "imported", "broken"),
    [
        # The match domain reaching up into tournaments (a cycle between the domain apps).
        ("matches.services.scoring", "tournaments.services.progression", "layers"),
        # A face importing another face.
        ("matches.web.public", "tournaments.web.panel.views", "layers"),
        # Django in the rules engine.
        ("rules.engine", "django.db", "rules-pure"),
        # A cycle inside one package.
        ("matches.services.locks", "matches.services.scoring", "acyclic"),
    ],
)
def test_an_import_against_the_direction_breaks_a_contract(
    monkeypatch: pytest.MonkeyPatch, importer: str, imported: str, broken: str
) -> None:
    assert broken in _broken_contracts(monkeypatch, (importer, imported))
