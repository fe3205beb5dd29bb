"""The import contracts (pyproject.toml, `lint-imports`) cover every module of the project.

A layers contract checks only the modules its layers name (and their descendants): a new module
that no layer names would escape it. This test fails until it is given its layer."""

from __future__ import annotations

import tomllib
from pathlib import Path

import grimp

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
    assert "lint-imports" in (ROOT / "Makefile").read_text()
    assert "lint-imports" in (ROOT / ".ci" / "run").read_text()
