"""import_tournament checks the whole document first: every problem is one line, the exit status
is 1 and nothing is written; no file, however malformed, makes it print a traceback. What it
accepts, every page of the product shows."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from collections.abc import Callable, Iterator
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import transaction
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from audit.models import AuditEntry
from tests.factories import UserFactory
from tests.workers import ROOT, process_env
from tests.world import World, build_finished, build_world
from tournaments.exchange import (
    ImportError_,
    import_logins,
    tournament_export,
    tournament_import,
)
from tournaments.exchange_validation import document_problems
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker) -> Iterator[World]:
    """A running tournament (a match on a table, one finished) and a finished one, built once;
    each test runs in its own transaction, rolled back."""
    with django_db_blocker.unblock(), transaction.atomic():
        w = build_world(public=True)
        w.extra["finished"] = build_finished(w.organiser, referee=w.referee)
        yield w
        transaction.set_rollback(True)


@pytest.fixture
def running(world) -> dict[str, Any]:
    return tournament_export(tournament=world.tournament)


@pytest.fixture
def finished(world) -> dict[str, Any]:
    return tournament_export(tournament=world.extra["finished"])


def _import_file(tmp_path, document: Any | None = None, text: str | bytes | None = None):
    """Run the command on a file; (problem lines, CommandError or None)."""
    path = tmp_path / "tournament.json"
    if text is None:
        text = json.dumps(document, ensure_ascii=False)
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    err = StringIO()
    try:
        call_command("import_tournament", str(path), stdout=StringIO(), stderr=err)
    except CommandError as exc:
        return err.getvalue().splitlines(), exc
    return err.getvalue().splitlines(), None


def _match(document: dict[str, Any], status: str) -> dict[str, Any]:
    return next(m for m in document["matches"] if m["status"] == status)


def test_real_exports_pass_and_their_audit_comes_in_marked(world, running, finished, tmp_path):
    for document in (running, finished):
        assert document_problems(document=document, logins=import_logins()) == []
    before = Tournament.objects.count()
    lines, error = _import_file(tmp_path, finished)
    assert error is None and lines == []
    imported = Tournament.objects.order_by("-pk").first()
    assert Tournament.objects.count() == before + 1
    entries = AuditEntry.objects.filter(tournament=imported)
    assert entries.count() == len(finished["audit"]) > 0
    assert not entries.filter(imported=False).exists()
    assert not AuditEntry.objects.exclude(tournament=imported).filter(imported=True).exists()

    client = Client()
    client.force_login(world.organiser)
    page = client.get(f"/api/v1/tournaments/{imported.pk}/audit/").json()
    assert {entry["imported"] for entry in page["results"]} == {True}
    panel = client.get(reverse("panel-audit", args=[imported.pk]), HTTP_ACCEPT_LANGUAGE="ru")
    assert "из импорта" in panel.content.decode()


def _set(path: tuple[Any, ...], value: Any) -> Callable[[dict[str, Any]], None]:
    def change(document: dict[str, Any]) -> None:
        target: Any = document
        for key in path[:-1]:
            target = target[key] if not callable(key) else key(target)
        target[path[-1]] = value

    return change


def _running_match(document: dict[str, Any]) -> dict[str, Any]:
    return _match(document, "running")


def _first_event_of_running(document: dict[str, Any]) -> dict[str, Any]:
    key = _running_match(document)["key"]
    return next(e for e in document["events"] if e["match"] == key)


CASES: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "state-is-text": (_set((_running_match, "state"), "oops"), ".state: must be an object"),
    "status-hacked": (_set(("tournament", "status"), "hacked"), "'hacked' is not one of: draft,"),
    "link-to-nowhere": (
        _set((_running_match, "winner_to"), "NOWHERE"),
        "'NOWHERE' is not a match of this document",
    ),
    "table-of-nowhere": (_set((_running_match, "table"), 99), "99 is not a table"),
    "actor-posing": (
        _set(("audit", 0, "actor_name"), "Главный судья (подтверждаю)"),
        "is not a login name",
    ),
    "nul-in-a-name": (_set(("players", 0, "name"), "Ива\x00нов"), "NUL"),
    "rating-10e30": (_set(("players", 0, "rating"), 10**30), "players[0].rating"),
    "fee-10e30": (_set(("tournament", "entry_fee"), str(10**30)), "tournament.entry_fee"),
    "money-as-a-float": (_set(("tournament", "entry_fee"), 1.5), "decimal number as text"),
    "settings-the-product-refuses": (
        _set(("tournament", "place_shares"), ["50", "20"]),
        "tournament.place_shares",
    ),
    "duplicate-player-ref": (
        lambda d: d["players"][1].update(ref=d["players"][0]["ref"]),
        "is used twice in players",
    ),
    "impossible-event": (
        lambda d: _first_event_of_running(d)["payload"].update(pocketed=99),
        "the rules engine refuses the log",
    ),
    "state-not-the-logs": (
        lambda d: _running_match(d)["state"]["score"].update(a=7),
        "is not what the rules engine makes",
    ),
    "log-with-a-gap": (lambda d: d["events"].pop(0), "but the log has the entries"),
    "unknown-field": (_set(("tournament", "is_admin"), True), "unknown field 'is_admin'"),
    "unknown-organiser": (
        lambda d: d["tournament"]["organisers"].append("nobody-here"),
        "no active login 'nobody-here' here",
    ),
}


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_a_broken_document_is_refused_line_by_line(case, running, tmp_path) -> None:
    change, expected = CASES[case]
    document = copy.deepcopy(running)
    change(document)
    before = (Tournament.objects.count(), AuditEntry.objects.count())
    lines, error = _import_file(tmp_path, document)
    assert error is not None and error.returncode == 1
    assert "nothing was written" in str(error)
    assert any(expected in line for line in lines), lines
    assert (Tournament.objects.count(), AuditEntry.objects.count()) == before


def test_an_organiser_must_be_in_the_organiser_group(world, running, tmp_path) -> None:
    running["tournament"]["organisers"].append(world.referee.username)
    lines, error = _import_file(tmp_path, running)
    assert error is not None
    assert lines == [
        f"tournament.organisers: '{world.referee.username}' is not in the 'organiser' group"
    ]


def test_a_named_referee_joins_the_referee_group(running, tmp_path) -> None:
    newcomer = UserFactory()
    running["tournament"]["referees"].append(newcomer.username)
    lines, error = _import_file(tmp_path, running)
    assert error is None, lines
    assert newcomer.groups.filter(name="referee").exists()
    assert Tournament.objects.order_by("-pk").first().referees.filter(pk=newcomer.pk).exists()


def test_every_problem_is_listed_at_once(running, tmp_path) -> None:
    running["tournament"]["status"] = "hacked"
    _running_match(running)["state"] = "oops"
    running["players"][0]["name"] = "x" * 201
    lines, error = _import_file(tmp_path, running)
    assert error is not None and "3 problems" in str(error), lines
    assert len(lines) == 3


@pytest.mark.parametrize(
    "text",
    [
        b"",
        b"{",
        b"\xff\xfe not utf-8",
        b'{"format": "luza-tournament", "format": "luza-tournament"}',
        b'{"format": NaN}',
        b"[" * 100_000 + b"]" * 100_000,
        b"1" * 5000,
        b"null",
        b'"luza-tournament"',
    ],
    ids=["empty", "cut", "not-utf8", "duplicate-key", "nan", "deep", "long-number", "null", "text"],
)
def test_a_malformed_file_is_one_line(text, tmp_path) -> None:
    _lines, error = _import_file(tmp_path, text=text)
    assert error is not None and error.returncode == 1
    assert "\n" not in str(error)


def test_the_command_exits_1_without_a_traceback(running, tmp_path) -> None:
    _running_match(running)["state"] = "oops"
    running["tournament"]["status"] = "hacked"
    # The other process does not see this test's uncommitted users.
    running["tournament"].update(organisers=[], referees=[])
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(running), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "manage.py", "import_tournament", str(path)],
        cwd=ROOT,
        env=process_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 3 and "nothing was written" in lines[-1]


# --- fuzzing --------------------------------------------------------------------------------

JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([10**30, -1, 0, 2**31, 2**63, 1.5, float("nan"), float("inf")]),
    st.text(max_size=12),
    st.sampled_from(["hacked", "\x00", "x" * 400, "2026-13-01", "2026-12-01T10:00:00", "a", ""]),
    st.lists(st.integers(min_value=-3, max_value=40), max_size=3),
    st.dictionaries(
        st.sampled_from(["type", "player", "a", "b", "seq"]), st.integers(), max_size=3
    ),
)


def _mutate(document: dict[str, Any], data: st.DataObject) -> dict[str, Any]:
    """One to three random changes: mostly to a field of a row, sometimes to a whole row or
    section, or deep inside a JSON value (a state, a payload, the ruleset)."""
    document = copy.deepcopy(document)
    for _ in range(data.draw(st.integers(min_value=1, max_value=3))):
        parent, key = _place(document, data)
        action = data.draw(st.sampled_from(["junk", "junk", "drop", "copy", "sibling", "add"]))
        if action == "junk":
            parent[key] = data.draw(JUNK)
        elif action == "drop":
            del parent[key]
        elif action == "copy" and isinstance(parent, list):
            parent.append(copy.deepcopy(parent[key]))
        elif action == "sibling":
            # A value valid elsewhere in the same column: links and states that resolve, but
            # to the wrong thing.
            column = _column(document, parent, key)
            if column:
                parent[key] = copy.deepcopy(data.draw(st.sampled_from(column)))
        elif isinstance(parent, dict):
            parent[data.draw(st.sampled_from(["extra", "id", "imported", "key"]))] = data.draw(JUNK)
    return document


def _place(document: dict[str, Any], data: st.DataObject) -> tuple[Any, Any]:
    """(container, key) of what to change."""
    section = data.draw(st.sampled_from(sorted(document)))
    level = data.draw(st.sampled_from(["section", "row", "row", "row", "field", "deep"]))
    value = document[section]
    if level == "section" or not isinstance(value, dict | list) or not value:
        return document, section
    if isinstance(value, list):
        index = data.draw(st.integers(min_value=0, max_value=len(value) - 1))
        if level == "row" or not isinstance(value[index], dict) or not value[index]:
            return value, index
        value = value[index]
    parent, key = value, data.draw(st.sampled_from(sorted(value, key=str)))
    while level == "deep" and isinstance(parent[key], dict | list) and parent[key]:
        parent = parent[key]
        key = data.draw(
            st.sampled_from(sorted(parent, key=str))
            if isinstance(parent, dict)
            else st.integers(min_value=0, max_value=len(parent) - 1)
        )
    return parent, key


def _column(document: dict[str, Any], parent: Any, key: Any) -> list[Any]:
    for rows in document.values():
        if isinstance(rows, list) and any(row is parent for row in rows):
            return [row[key] for row in rows if isinstance(row, dict) and key in row]
    return []


PAGES = ("public-tournament", "public-bracket", "public-standings", "public-prizes")
PANEL = ("panel-tournament", "panel-audit", "panel-prizes")


def _every_page_answers(tournament: Tournament, organiser: Any) -> None:
    client = Client(raise_request_exception=True)
    client.force_login(organiser)
    for name in PAGES + PANEL:
        assert client.get(reverse(name, args=[tournament.pk])).status_code == 200, name
    for suffix in ("", "bracket/", "standings/", "prizes/", "audit/"):
        answer = client.get(f"/api/v1/tournaments/{tournament.pk}/{suffix}")
        assert answer.status_code == 200, suffix
    for match in tournament.matches.all():
        assert client.get(f"/api/v1/matches/{match.pk}/").status_code == 200


@settings(
    max_examples=120,
    deadline=None,
    derandomize=True,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
    ],
)
@given(data=st.data())
def test_mutated_exports_are_refused_cleanly_or_work_everywhere(
    world, running, finished, data
) -> None:
    document = _mutate(data.draw(st.sampled_from([running, finished])), data)
    with transaction.atomic():
        before = Tournament.objects.count()
        try:
            tournament = tournament_import(document=document)
        except ImportError_ as exc:
            assert exc.problems
            assert all("\n" not in line for line in exc.problems)
            # Refused by the checks, not by the database half-way.
            assert not exc.problems[0].startswith("the export is inconsistent"), exc.problems
            assert Tournament.objects.count() == before
        else:
            _every_page_answers(tournament, world.organiser)
        transaction.set_rollback(True)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(data=st.data())
def test_mangled_files_never_print_a_traceback(data) -> None:
    import tempfile
    from pathlib import Path

    text = bytearray(json.dumps(_SMALL).encode())
    for _ in range(data.draw(st.integers(min_value=1, max_value=4))):
        at = data.draw(st.integers(min_value=0, max_value=len(text) - 1))
        text[at : at + 1] = data.draw(st.binary(min_size=0, max_size=3))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "t.json"
        path.write_bytes(bytes(text))
        with transaction.atomic():
            try:
                call_command("import_tournament", str(path), stdout=StringIO(), stderr=StringIO())
            except CommandError as exc:
                assert exc.returncode == 1
            transaction.set_rollback(True)


_SMALL = {
    "format": "luza-tournament",
    "version": 1,
    "tournament": {"name": "Кубок", "date": "2026-12-01", "organisers": []},
    "players": [{"ref": 1, "name": "Иванов", "rating": 900}],
    "registrations": [{"player": 1, "rating_at_entry": 900}],
    "tables": [{"number": 1}],
    "matches": [],
    "events": [],
}
