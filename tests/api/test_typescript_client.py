"""An integrator's TypeScript client: types generated with openapi-typescript from the live
schema, requests made with openapi-fetch (npm packages pinned in package.json, installed by
`npm ci`). The organiser's flow (tests/api/typescript/organiser_flow.mts) must compile under
`tsc --strict` and run against a live server; requests the schema refuses
(must_not_compile.mts) must not compile, each with its expected error."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import require_service

ROOT = Path(__file__).resolve().parents[2]
SOURCES = Path(__file__).resolve().parent / "typescript"
NODE_BIN = ROOT / "node_modules" / ".bin"
TSC_OPTIONS = ["--strict", "--module", "nodenext", "--target", "es2022", "--lib", "es2022,dom"]
EXPECTED_ERROR = re.compile(r"// error (TS\d+) (.+)$")
REPORTED_ERROR = re.compile(r"^must_not_compile\.mts\((\d+),\d+\): error (TS\d+): (.*)$")


def _run(*command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def workdir(
    tmp_path_factory: pytest.TempPathFactory, django_db_setup: None, django_db_blocker: Any
) -> Path:
    """A folder with schema.d.ts generated from the schema as the server serves it, the
    TypeScript sources beside it and the project's node_modules within reach."""
    if shutil.which("node") is None or not (NODE_BIN / "tsc").exists():
        require_service("Node.js with the npm packages of package.json (npm ci)")
    from django.test import Client

    with django_db_blocker.unblock():
        schema = Client().get("/api/v1/schema/?format=json").json()
    out = tmp_path_factory.mktemp("ts_client")
    (out / "schema.json").write_text(json.dumps(schema))
    (out / "node_modules").symlink_to(ROOT / "node_modules", target_is_directory=True)
    for source in SOURCES.iterdir():
        shutil.copy(source, out / source.name)
    # npx finds the pinned generator in the project's node_modules (--no: never download);
    # a field with a default may be left out of a request, so it stays optional.
    generated = _run(
        "npx",
        "--no",
        "openapi-typescript",
        str(out / "schema.json"),
        "--output",
        str(out / "schema.d.ts"),
        "--default-non-nullable",
        "false",
        cwd=ROOT,
    )
    assert generated.returncode == 0, generated.stderr
    return out


def test_the_generated_types_say_the_match_contract(workdir: Path) -> None:
    types = (workdir / "schema.d.ts").read_text()
    assert 'event: components["schemas"]["EngineEvent"];' in types
    assert 'type: "forfeit";' in types
    assert '"break" | "shot" | "choice" | "rerack" | "penalty_removal" | "choose_breaker"' in types


def test_requests_the_schema_refuses_do_not_compile(workdir: Path) -> None:
    lines = (workdir / "must_not_compile.mts").read_text().splitlines()
    expected = {
        number: match.groups()
        for number, line in enumerate(lines, start=1)
        if (match := EXPECTED_ERROR.search(line))
    }
    assert len(expected) >= 7

    result = _run(
        str(NODE_BIN / "tsc"), "--noEmit", *TSC_OPTIONS, "must_not_compile.mts", cwd=workdir
    )

    assert result.returncode != 0
    reported: dict[int, tuple[str, str]] = {}
    for line in result.stdout.splitlines():
        if match := REPORTED_ERROR.match(line):
            reported[int(match[1])] = (match[2], match[3])
    assert sorted(reported) == sorted(expected), result.stdout
    for number, (code, words) in expected.items():
        assert reported[number][0] == code, (number, reported[number])
        assert words in result.stdout.split(f"must_not_compile.mts({number},")[1], (number, words)


@pytest.mark.django_db(transaction=True)
def test_the_organisers_flow_compiles_and_runs(
    workdir: Path, live_server: Any, organiser_token: str
) -> None:
    # Compiled as strictly as `tsc --noEmit --strict` checks it, and emitted to run with node.
    compiled = _run(
        str(NODE_BIN / "tsc"), *TSC_OPTIONS, "--outDir", "out", "organiser_flow.mts", cwd=workdir
    )
    assert compiled.returncode == 0, compiled.stdout

    ran = _run("node", "run_flow.mjs", live_server.url, organiser_token, cwd=workdir)

    assert ran.returncode == 0, ran.stderr
    result = json.loads(ran.stdout)
    winner, first, awarded = result["winner"].split(" / ")
    assert winner == first == awarded
    assert winner in {"Иван Петров", "Анна Смирнова"}
    assert sorted(result["score"]) == [0, 2]
    assert result["paidFees"] == "1000.00"
    assert result["prize"] == result["pool"]
    assert result["staleCode"] == "409 match_finished"
