"""Checks of a tournament export document before anything of it is written.

`document_problems` returns one line per problem (an empty list: the document imports). Plain
checks over the parsed JSON: no queries (the caller passes the logins it knows). Fields are
checked from the models' own definitions (type, null, length, choices, numeric range), so a new
column of an exported model is checked as soon as it exists; its links, if it is a relation,
must be named in NOT_PLAIN and LINKS below.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import translation
from django.utils.dateparse import parse_date, parse_datetime

import rules
from audit.models import AuditEntry
from config.moments import FIRST_DAY, LAST_DAY, outside_window
from matches.models import Match, MatchEvent, Table
from matches.selectors import LIVE  # one match of these per table (the model's constraint)
from tournaments.access import ORGANISER_GROUP
from tournaments.draw_plan import generate_bracket
from tournaments.errors import TournamentError
from tournaments.models import Player, RatingChange, Registration, Tournament, default_ruleset
from tournaments.services.setup import SETTINGS_FIELDS, clean_settings

FORMAT = "luza-tournament"
VERSION = 1

# Model fields never copied as plain values: keys, links (carried by the LINKS keys), logins.
NOT_PLAIN = frozenset(
    {
        "id",
        "recent_log",  # derived from the log; rebuilt on import
        "tournament",
        "player",
        "match",
        "user",
        "actor",
        "created_by",
        "judge_called_by",
        "corrected_by",  # a login: not carried between databases
        "organisers",
        "referees",
        "player_a",
        "player_b",
        "winner",
        "loser",
        "winner_to",
        "loser_to",
        "table",
        "undoes",
        "opponent",
    }
)

# Section → (model, is a list, the most rows it may hold).
SECTIONS: dict[str, tuple[type[models.Model], bool, int]] = {
    "tournament": (Tournament, False, 1),
    "players": (Player, True, 10_000),
    "registrations": (Registration, True, 10_000),
    "tables": (Table, True, 1_000),
    "matches": (Match, True, 20_000),
    "events": (MatchEvent, True, 2_000_000),
    "rating_changes": (RatingChange, True, 100_000),
    "audit": (AuditEntry, True, 4_000_000),
}
REQUIRED_SECTIONS = ("tournament", "players", "registrations", "tables", "matches", "events")

# Keys of a row that point elsewhere: section → key → (what it points at, may be null).
PLAYER, MATCH_KEY, TABLE_NUMBER, SEQ, REF, LOGINS = (
    "player",
    "match",
    "table",
    "seq",
    "ref",
    "logins",
)
LINKS: dict[str, dict[str, tuple[str, bool]]] = {
    "tournament": {"organisers": (LOGINS, True), "referees": (LOGINS, True)},
    "players": {"ref": (REF, False)},
    "registrations": {"player": (PLAYER, False)},
    "tables": {},
    "matches": {
        "player_a": (PLAYER, True),
        "player_b": (PLAYER, True),
        "winner": (PLAYER, True),
        "loser": (PLAYER, True),
        "winner_to": (MATCH_KEY, True),
        "loser_to": (MATCH_KEY, True),
        "table": (TABLE_NUMBER, True),
    },
    "events": {"match": (MATCH_KEY, False), "undoes": (SEQ, True)},
    "rating_changes": {
        "player": (PLAYER, False),
        "opponent": (PLAYER, True),
        "match": (MATCH_KEY, True),
    },
    "audit": {"match": (MATCH_KEY, True), "player": (PLAYER, True)},
}

MAX_PROBLEMS = 50  # a document broken everywhere is not listed line by line to the end
MAX_JSON_DEPTH = 32
MAX_JSON_CHARS = 256 * 1024  # one JSON value (a state, a payload), as for an API body
MAX_JSON_INT = 2**53  # what every JSON reader keeps exactly
USERNAME = UnicodeUsernameValidator()
# The settings a bracket is generated from (tournaments.draw_plan.generate_bracket).
BRACKET_SETTINGS = (
    "format",
    "third_place",
    "grand_final",
    "playoff_size",
    "group_size",
    "group_advance",
)


class _Full(Exception):
    """Enough problems collected."""


class _Problems(list[str]):
    def add(self, where: str, what: str) -> None:
        self.append(f"{where}: {what}")
        if len(self) >= MAX_PROBLEMS:
            raise _Full


def _kind(value: Any) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "true/false"}
    if value is None:
        return "null"
    if isinstance(value, int | float) and not isinstance(value, bool):
        return "a number"
    return names.get(type(value), type(value).__name__)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


# --- JSON values ------------------------------------------------------------------------------


def _walk(value: Any, depth: int = 0) -> Iterator[str]:
    """What PostgreSQL or a reader would choke on inside a JSON value."""
    if depth > MAX_JSON_DEPTH:
        yield f"nested deeper than {MAX_JSON_DEPTH} levels"
        return
    if isinstance(value, str):
        if "\x00" in value:
            yield "contains a NUL character"
    elif isinstance(value, bool) or value is None:
        return
    elif isinstance(value, int):
        if abs(value) > MAX_JSON_INT:
            yield f"holds the number {_short(value)}, beyond ±2^53"
    elif isinstance(value, float):
        if not math.isfinite(value):
            yield "holds a number that is not finite"
    elif isinstance(value, list):
        for item in value:
            yield from _walk(item, depth + 1)
    elif isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str) or "\x00" in key:
                yield "has a key that is not a plain string"
            yield from _walk(item, depth + 1)
    else:
        yield f"holds {_kind(value)}"


def _json_problem(value: Any, expected: type | None) -> str | None:
    if expected is not None and type(value) is not expected:
        return f"must be {_kind(expected())}, not {_kind(value)}"
    for problem in _walk(value):
        return problem
    if len(json.dumps(value)) > MAX_JSON_CHARS:
        return f"is longer than {MAX_JSON_CHARS} characters"
    return None


# --- one model field --------------------------------------------------------------------------


def _typed(field: models.Field[Any, Any], value: Any) -> tuple[Any, str | None]:
    """The value as the model holds it, or why the JSON value cannot be one."""
    if isinstance(field, models.BooleanField):
        return value, None if isinstance(value, bool) else f"must be true/false, not {_kind(value)}"
    if isinstance(field, models.IntegerField | models.AutoField):
        if isinstance(value, bool) or not isinstance(value, int):
            return value, f"must be a whole number, not {_kind(value)}"
        return value, None
    if isinstance(field, models.DecimalField):
        return _typed_decimal(value)
    if isinstance(field, models.DateTimeField | models.DateField):
        return _typed_day(value, is_moment=isinstance(field, models.DateTimeField))
    if isinstance(field, models.JSONField):
        default = field.get_default()
        expected = type(default) if isinstance(default, dict | list) else None
        return value, _json_problem(value, expected)
    if isinstance(field, models.CharField | models.TextField):
        if not isinstance(value, str):
            return value, f"must be text, not {_kind(value)}"
        return value, "contains a NUL character" if "\x00" in value else None
    return value, f"is a {type(field).__name__}, which the import does not know"


def _typed_decimal(value: Any) -> tuple[Any, str | None]:
    if isinstance(value, bool) or not isinstance(value, str | int):
        return value, f"must be a decimal number as text, not {_kind(value)}"
    try:
        number = Decimal(value)
    except (InvalidOperation, ValueError):
        return value, f"{_short(value)} is not a number"
    return number, None if number.is_finite() else f"{_short(value)} is not a finite number"


def _typed_day(value: Any, *, is_moment: bool) -> tuple[Any, str | None]:
    """A date, or a date and time (with its time zone), inside config.moments' window."""
    if not isinstance(value, str):
        return value, f"must be a date{' and time' if is_moment else ''} as text"
    try:
        parsed: Any = parse_datetime(value) if is_moment else parse_date(value)
    except ValueError:
        parsed = None
    if parsed is None:
        return (
            value,
            f"{_short(value)} is not an ISO 8601 date{' and time' if is_moment else ''}",
        )
    if is_moment and parsed.utcoffset() is None:
        return value, f"{_short(value)} has no time zone"
    if outside_window(parsed):
        return value, f"{_short(value)} is outside {FIRST_DAY} to {LAST_DAY}"
    return parsed, None


def field_problem(field: models.Field[Any, Any], value: Any) -> str | None:
    """Why `value` (from JSON) cannot be stored in `field`, by the field's own rules."""
    if value is None:
        return None if field.null else "must not be null"
    typed, problem = _typed(field, value)
    if problem is not None:
        return problem
    if typed == "" and not field.blank:
        return "must not be empty"
    choices = [str(choice) for choice, _label in field.flatchoices]
    if choices and typed not in choices and not (typed == "" and field.blank):
        return f"{_short(typed)} is not one of: {', '.join(choices)}"
    try:
        field.run_validators(typed)  # lengths, numeric ranges, digits
    except ValidationError as exc:
        return " ".join(str(m) for m in exc.messages)
    return None


def plain_fields(model: type[models.Model]) -> dict[str, models.Field[Any, Any]]:
    return {f.name: f for f in model._meta.concrete_fields if f.name not in NOT_PLAIN}


def _required(field: models.Field[Any, Any]) -> bool:
    auto = getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False)
    # A text field that may be blank is stored empty when left out, as Django does.
    empty_ok = field.empty_strings_allowed and field.blank
    return not (field.null or field.has_default() or auto or empty_ok)


def _link_problem(target: str, nullable: bool, value: Any) -> str | None:
    if value is None:
        return None if nullable else "must not be null"
    if target == LOGINS:
        ok = isinstance(value, list) and all(isinstance(name, str) for name in value)
        return None if ok else "must be a list of logins"
    if target == SEQ:
        ok = isinstance(value, int) and not isinstance(value, bool)
        return None if ok else f"must be an entry number, not {_kind(value)}"
    if isinstance(value, bool) or not isinstance(value, int | str):
        return f"must be a number or text, not {_kind(value)}"
    return None


# --- the document -----------------------------------------------------------------------------


class _Check:
    def __init__(self, document: dict[str, Any], logins: Mapping[str, frozenset[str]]) -> None:
        self.doc = document
        self.logins = logins
        self.problems = _Problems()
        self.good: dict[str, list[tuple[str, dict[str, Any]]]] = {}  # rows whose fields are valid
        self.players: set[Any] = set()
        self.tables: set[Any] = set()
        self.matches: dict[str, dict[str, Any]] = {}

    def add(self, where: str, what: str) -> None:
        self.problems.add(where, what)

    def rows(self, section: str) -> list[tuple[str, Any]]:
        value = self.doc.get(section)
        if section == "tournament":
            return [("tournament", value)]
        return [(f"{section}[{i}]", row) for i, row in enumerate(value or [])]

    def sections(self) -> bool:
        for name in sorted(set(self.doc) - set(SECTIONS) - {"format", "version"}):
            self.add(_short(name), "not a section of a tournament export")
        for name, (_model, many, most) in SECTIONS.items():
            if name not in self.doc:
                if name in REQUIRED_SECTIONS:
                    self.add(name, "the section is missing")
                continue
            value = self.doc[name]
            if many and not isinstance(value, list):
                self.add(name, f"must be a list, not {_kind(value)}")
            elif not many and not isinstance(value, dict):
                self.add(name, f"must be an object, not {_kind(value)}")
            elif many and len(value) > most:
                self.add(name, f"holds {len(value)} rows; at most {most} are imported")
        return not self.problems

    def fields(self, section: str) -> None:
        model = SECTIONS[section][0]
        fields = plain_fields(model)
        links = LINKS[section]
        good = self.good.setdefault(section, [])
        for where, row in self.rows(section):
            if not isinstance(row, dict):
                self.add(where, f"must be an object, not {_kind(row)}")
                continue
            before = len(self.problems)
            for key in row:
                if key not in fields and key not in links:
                    self.add(where, f"unknown field {_short(key)}")
            for name, field in fields.items():
                if name not in row:
                    if _required(field):
                        self.add(f"{where}.{name}", "is missing")
                    continue
                problem = field_problem(field, row[name])
                if problem:
                    self.add(f"{where}.{name}", problem)
            for name, (target, nullable) in links.items():
                problem = _link_problem(target, nullable, row[name]) if name in row else None
                if name not in row and not nullable:
                    problem = "is missing"
                if problem:
                    self.add(f"{where}.{name}", problem)
            if section == "audit":
                self._actor_name(where, row.get("actor_name"))
            if len(self.problems) == before:
                good.append((where, row))

    def _actor_name(self, where: str, name: Any) -> None:
        """A login as the product writes it, or "system": not a sentence posing as someone."""
        if not isinstance(name, str) or name in ("", "system"):
            return
        try:
            USERNAME(name)
        except ValidationError:
            self.add(f"{where}.actor_name", f"{_short(name)} is not a login name")

    def settings(self) -> None:
        rows = self.good.get("tournament")
        if not rows:
            return
        row = rows[0][1]
        fields = plain_fields(Tournament)
        values = {
            name: row[name] if name in row else fields[name].get_default()
            for name in SETTINGS_FIELDS
        }
        values["date"] = parse_date(values["date"]) if isinstance(values["date"], str) else None
        try:
            clean_settings(values)
        except TournamentError as exc:
            field = exc.params.get("field", "settings")
            self.add(f"tournament.{field}", str(exc.message))

    def people(self) -> None:
        tournament = self.doc["tournament"]
        for key, group in (("organisers", ORGANISER_GROUP), ("referees", None)):
            names = tournament.get(key) or []
            if _link_problem(LOGINS, True, names):
                continue  # reported with the fields
            for name in names:
                where = f"tournament.{key}"
                if name not in self.logins:
                    self.add(where, f"no active login {_short(name)} here: create it first")
                elif group is not None and group not in self.logins[name]:
                    self.add(where, f"{_short(name)} is not in the {group!r} group")

    def unique(self, section: str, key: str, *, typed: bool) -> set[Any]:
        """The values of `key` over the section's rows, each used once. `typed`: the field
        checks already report a value of the wrong type."""
        seen: set[Any] = set()
        for where, row in self.rows(section):
            if not isinstance(row, dict) or key not in row:
                continue
            value = row[key]
            if isinstance(value, bool) or not isinstance(value, int | str):
                if not typed:
                    self.add(f"{where}.{key}", f"must be a number or text, not {_kind(value)}")
                continue
            if value in seen:
                self.add(f"{where}.{key}", f"{_short(value)} is used twice in {section}")
            seen.add(value)
        return seen

    def _points(self, where: str, target: str, value: Any) -> None:
        known: Any = {PLAYER: self.players, MATCH_KEY: self.matches, TABLE_NUMBER: self.tables}
        if target == SEQ or value is None:
            return
        ok = isinstance(value, int | str) and not isinstance(value, bool)
        if not ok or value not in known[target]:
            self.add(where, f"{_short(value)} is not a {target} of this document")

    def links(self) -> None:
        # Rows with a bad field still count as link targets: one problem is reported once.
        self.players = self.unique("players", "ref", typed=False)
        self.tables = self.unique("tables", "number", typed=True)
        keys = self.unique("matches", "key", typed=True)
        self.matches = {
            row["key"]: row
            for _where, row in self.rows("matches")
            if isinstance(row, dict) and row.get("key") in keys
        }
        for section in ("registrations", "matches", "events", "rating_changes", "audit"):
            for where, row in self.good.get(section, []):
                for name, (target, _nullable) in LINKS[section].items():
                    self._points(f"{where}.{name}", target, row.get(name))
        registered: set[Any] = set()
        for where, row in self.good.get("registrations", []):
            player = row["player"]
            if isinstance(player, int | str) and player in registered:
                self.add(f"{where}.player", f"{_short(player)} is registered twice")
            registered.add(player if isinstance(player, int | str) else None)
        self._bracket()

    def _bracket(self) -> None:
        live_tables: dict[Any, str] = {}
        for where, row in self.good.get("matches", []):
            sides = {row.get("player_a"), row.get("player_b")} - {None}
            for name in ("winner", "loser"):
                if row.get(name) is not None and row[name] not in sides:
                    self.add(f"{where}.{name}", "is not one of the match's two players")
            if row.get("winner") is not None and row.get("winner") == row.get("loser"):
                self.add(f"{where}.loser", "is the winner too")
            for link in ("winner_to", "loser_to"):
                slot = row.get(link.replace("_to", "_slot"), "")
                if row.get(link) == row["key"]:
                    self.add(f"{where}.{link}", "leads to the match itself")
                if (row.get(link) is None) != (slot == "") or slot not in ("", "a", "b"):
                    self.add(f"{where}.{link}", f"needs a slot 'a' or 'b' (has {_short(slot)})")
            if row.get("table") is not None and row.get("status") in LIVE:
                table = row["table"]
                if table in live_tables:
                    self.add(f"{where}.table", f"{table} is held by {live_tables[table]} too")
                live_tables[table] = row["key"]

    def bracket(self) -> None:
        """A drawn tournament's matches are the bracket its format makes for its seeds (the
        pages rebuild that bracket and look the matches up in it), between seeded players."""
        rows = self.good.get("matches", [])
        if not rows:
            return
        registrations = [row for _where, row in self.good.get("registrations", [])]
        seeds = sorted(row["seed"] for row in registrations if row.get("seed") is not None)
        if seeds != list(range(1, len(seeds) + 1)):
            self.add("registrations", f"the seeds must be 1 to {len(seeds)}, each once")
            return
        seeded = {row["player"] for row in registrations if row.get("seed") is not None}
        for where, row in rows:
            for name in ("player_a", "player_b", "winner", "loser"):
                if row.get(name) is not None and row[name] not in seeded:
                    self.add(f"{where}.{name}", "is not a seeded player of the tournament")
        settings = Tournament()
        for name in BRACKET_SETTINGS:
            if name in self.doc["tournament"]:
                setattr(settings, name, self.doc["tournament"][name])
        try:
            specs = {spec.key: spec for spec in generate_bracket(settings, len(seeds)).matches}
        except TournamentError:
            self.add("matches", f"the tournament's format cannot be drawn for {len(seeds)} seeds")
            return
        found = {row["key"] for _where, row in rows}
        for what, keys in (("missing", set(specs) - found), ("not in it", found - set(specs))):
            if keys:
                listed = ", ".join(sorted(keys)[:8]) + (", ..." if len(keys) > 8 else "")
                self.add("matches", f"the bracket of this format has {what}: {listed}")
        for where, row in rows:
            if row["key"] in specs:
                self._like_spec(where, row, specs[row["key"]])

    def _like_spec(self, where: str, row: dict[str, Any], spec: Any) -> None:
        expected = {
            "stage": spec.stage,
            "round": spec.round,
            "order": spec.order,
            "group": spec.group,
            "conditional": spec.conditional,
            "winner_to": spec.winner_to[0] if spec.winner_to else None,
            "winner_slot": spec.winner_to[1] if spec.winner_to else "",
            "loser_to": spec.loser_to[0] if spec.loser_to else None,
            "loser_slot": spec.loser_to[1] if spec.loser_to else "",
        }
        default = plain_fields(Match)
        for name, value in expected.items():
            given = row.get(name, default[name].get_default() if name in default else None)
            if given != value:
                self.add(f"{where}.{name}", f"is {_short(given)}; the bracket has {_short(value)}")

    def logs(self) -> None:
        """Each match's log is whole, its undos point at its events, and its stored state is
        what the rules engine makes of the events in force."""
        by_match: dict[str, list[tuple[str, dict[str, Any]]]] = {}
        for where, row in self.good.get("events", []):
            if row["match"] in self.matches:
                by_match.setdefault(row["match"], []).append((where, row))
        ruleset = self.doc["tournament"].get("ruleset") or default_ruleset()
        for where, row in self.good.get("matches", []):
            if row.get("key") not in self.matches:
                continue
            log = sorted(by_match.get(row["key"], []), key=lambda item: item[1]["seq"])
            if self._log_problems(where, row, log):
                continue
            self._state(where, row, log, ruleset)

    def _log_problems(self, where: str, match: dict[str, Any], log: list[Any]) -> bool:
        before = len(self.problems)
        seqs = [row["seq"] for _w, row in log]
        if seqs != list(range(1, len(log) + 1)) or len(log) != match.get("version", 0):
            self.add(
                f"{where}.version",
                f"is {match.get('version', 0)} but the log has the entries {_short(seqs)}",
            )
            return True
        undone = {row["undoes"] for _w, row in log if row.get("undoes") is not None}
        for ewhere, row in log:
            is_undo = row.get("kind") == MatchEvent.Kind.UNDO
            target = row.get("undoes")
            if is_undo != (target is not None):
                self.add(f"{ewhere}.undoes", "an undo entry, and only one, names what it undoes")
            elif is_undo and not (
                isinstance(target, int)
                and 0 < target < row["seq"]
                and log[target - 1][1].get("kind") == MatchEvent.Kind.EVENT
            ):
                self.add(f"{ewhere}.undoes", f"{_short(target)} is not an earlier event")
            if bool(row.get("undone")) != (row["seq"] in undone):
                self.add(f"{ewhere}.undone", "does not match the undo entries of the log")
        return len(self.problems) > before

    def _state(self, where: str, match: dict[str, Any], log: list[Any], ruleset: Any) -> None:
        events = [
            row.get("payload", {})
            for _w, row in log
            if row.get("kind", MatchEvent.Kind.EVENT) == MatchEvent.Kind.EVENT
            and not row.get("undone")
        ]
        try:
            replayed = rules.replay(match.get("ruleset") or ruleset, events)
        except rules.RuleError as err:
            at = f" (event {err.index + 1} in force)" if err.index is not None else ""
            self.add(f"{where}.state", f"the rules engine refuses the log{at}: {err.message}")
            return
        state = match.get("state") or {}
        if (state or events) and state != json.loads(json.dumps(replayed)):
            self.add(f"{where}.state", "is not what the rules engine makes of the match's log")


def document_problems(*, document: Any, logins: Mapping[str, frozenset[str]]) -> list[str]:
    """Every problem of `document` found before it would be imported, one line each.

    `logins`: the active users of this database by username, with the names of their groups.
    """
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        return ["the file is not a Luza tournament export"]
    if document.get("version") != VERSION:
        return [
            f"export version {_short(document.get('version'))} is not supported (only {VERSION})"
        ]
    check = _Check(document, logins)
    # The command's operator reads these lines; the models' and settings' messages in English.
    with translation.override("en"):
        try:
            _run(check, document)
        except _Full:
            check.problems.append(f"... stopped after {MAX_PROBLEMS} problems")
    return list(check.problems)


def _run(check: _Check, document: dict[str, Any]) -> None:
    if not check.sections():
        return
    for section in SECTIONS:
        if section in document:
            check.fields(section)
    check.settings()
    check.people()
    check.links()
    if not check.problems:
        check.bracket()
        check.logs()
