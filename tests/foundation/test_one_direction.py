"""Every module is typed, and the match services are free of the views.

mypy --strict checks the five packages with no exclusion (a module left out would drift back
to untyped); the services' public names are `matches.services.__all__`, none private, and no
write takes a callback of its caller."""

from __future__ import annotations

import inspect
import tomllib
from pathlib import Path

import matches.services

ROOT = Path(__file__).resolve().parents[2]


def _mypy() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]


def test_mypy_checks_every_module_strictly() -> None:
    config = _mypy()
    assert config["strict"] is True
    assert "exclude" not in config
    assert set(config["files"]) == {"rules", "audit", "config", "matches", "tournaments"}
    for override in config.get("overrides", []):
        modules = (
            override["module"] if isinstance(override["module"], list) else [override["module"]]
        )
        ours = [m for m in modules if m.split(".")[0] in config["files"]]
        assert not ours or set(override) == {"module"}, f"relaxed for {ours}: {override}"


def test_the_match_services_export_public_names_only() -> None:
    names = matches.services.__all__
    assert names and not [n for n in names if n.startswith("_")]
    assert all(hasattr(matches.services, n) for n in names)
    assert not [n for n in vars(matches.services) if n.startswith("_") and not n.startswith("__")]


def test_no_match_write_takes_a_callback() -> None:
    for name in matches.services.__all__:
        write = getattr(matches.services, name)
        if not inspect.isfunction(write):
            continue
        for parameter in inspect.signature(write).parameters.values():
            annotation = str(parameter.annotation)
            assert "Callable" not in annotation, f"{name}({parameter.name}: {annotation})"
            assert parameter.name not in ("respond", "authorize"), name
