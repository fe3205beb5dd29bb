"""The load scenario shared by the benchmarks and the reliability test: a running 128-player
double-elimination tournament on 64 tables, table clients that score matches through the API with
legal events from the rules engine, and a check that the database holds exactly what they sent.

Django must be set up (against the database under load) before `seed` or `verify` is called.
"""

from __future__ import annotations

import json
import os
import random
import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

import rules
from bench.harness import Client
from rules.simulate import random_event

# BENCH_AS_FORM=1: each event POST asks for the entry (?referee=1) as the referee form's do;
# without it the tables post as an integrator would, answered without the entry.
EVENTS_QUERY = "?referee=1" if os.environ.get("BENCH_AS_FORM") == "1" else ""

RACE_RULESET = {
    "discipline": "free_pyramid",
    "balls_to_win": 30,
    "continuation": True,
    "penalty": "shelf_to_table",
    "direct_call": True,
    "strict_break": True,
}


@dataclass
class Seeded:
    tournament_id: int
    token: str
    tables: int


def seed(
    *, players: int = 128, tables: int = 64, clock_minutes: int | None = None, rng_seed: int = 7
) -> Seeded:
    """A drawn, running double-elimination tournament whose first round fills the tables."""
    # Imported here: Django is set up at run time, against the database under load.
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group
    from rest_framework.authtoken.models import Token

    from matches import services as match_services
    from tournaments.models import Player, Tournament
    from tournaments.roles import roles_ensure
    from tournaments.services import registration_add, registration_set_paid, tournament_draw

    rng = random.Random(rng_seed)
    roles_ensure()
    user, _ = get_user_model().objects.get_or_create(username="bench-organiser")
    user.groups.add(Group.objects.get(name="organiser"))
    token, _ = Token.objects.get_or_create(user=user)
    tournament = Tournament.objects.create(
        name="Нагрузочный турнир",
        date="2026-12-01",
        venue="Бенчмарк",
        ruleset=RACE_RULESET,
        time_limit_minutes=clock_minutes,
        format=Tournament.Format.DOUBLE,
        grand_final=Tournament.GrandFinal.SINGLE,
        handicap_scheme="race_2_per_50",
        max_players=players,
        status=Tournament.Status.REGISTRATION,
        rated=True,
        created_by=user,
    )
    tournament.organisers.add(user)
    people = Player.objects.bulk_create(
        Player(name=f"Игрок {i:03d}", city="Москва", rating=rng.randint(700, 1200))
        for i in range(players)
    )
    for person in people:
        registration = registration_add(tournament=tournament, player=person, actor=user)
        registration_set_paid(registration=registration, paid=True, actor=user)
    tournament_draw(tournament=tournament, actor=user, method="seeded")
    match_services.tables_ensure(tournament=tournament, count=tables, actor=user)
    match_services.table_assign_next(tournament=tournament, actor=user)
    tournament.refresh_from_db()
    return Seeded(tournament_id=tournament.pk, token=token.key, tables=tables)


@dataclass
class TableLog:
    """What one table client sent and had accepted, per match, in order."""

    accepted: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    latencies: list[float] = field(default_factory=list)
    sent_at: list[float] = field(default_factory=list)  # time.monotonic() of each request
    statuses: dict[int, int] = field(default_factory=dict)
    conflicts: int = 0
    matches_finished: int = 0
    errors: list[str] = field(default_factory=list)


class TableWatcher:
    """Which match each table has, read by one thread with one database connection for all
    the tables: the table clients share its answer instead of each opening a connection to
    ask (a connection is a PostgreSQL process: that cost would be the benchmark's, counted
    against the server it shares the machine with)."""

    def __init__(self, tournament_id: int, until: float, interval: float = 0.25) -> None:
        self.tournament_id = tournament_id
        self.until = until
        self.interval = interval
        self.on_table: dict[int, int] = {}
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> TableWatcher:
        self._read()
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.until = 0.0
        self._thread.join(timeout=5)

    def match_on(self, number: int) -> int | None:
        return self.on_table.get(number)

    def _read(self) -> None:
        # Imported here: Django is set up at run time, against the database under load.
        from matches.models import Match

        rows = Match.objects.filter(
            tournament_id=self.tournament_id,
            table__isnull=False,
            status__in=[Match.Status.ON_TABLE, Match.Status.RUNNING, Match.Status.PAUSED],
        ).values_list("table__number", "pk")
        self.on_table = dict(rows)

    def _run(self) -> None:
        from django.db import connection

        try:
            while time.monotonic() < self.until:
                time.sleep(self.interval)
                self._read()
        finally:
            connection.close()


def play_table(
    *,
    port: int,
    seeded: Seeded,
    watcher: TableWatcher,
    number: int,
    until: float,
    rng_seed: int,
    start_clock: bool = False,
    pace: float = 0.0,
) -> TableLog:
    """One table's tablet: takes the match called to its table, scores it to the end, repeats.
    `pace`: mean seconds between an answer and the next event (0: as fast as the server
    answers); each wait is drawn from pace x [0.5, 1.5) and the tables start at random moments,
    as independent referees would, so that they do not send their events in waves."""
    rng = random.Random(rng_seed)
    client = Client(port, token=seeded.token)
    log = TableLog()
    if pace:
        time.sleep(rng.uniform(0, pace))
    finished: set[int] = set()
    while time.monotonic() < until:
        match_id = watcher.match_on(number)
        if match_id is None or match_id in finished:
            time.sleep(0.1)  # the watcher has not seen the table's next match yet
            continue
        _play_match(client, match_id, until, rng, log, start_clock, pace)
        finished.add(match_id)
    return log


def _play_match(
    client: Client,
    match_id: int,
    until: float,
    rng: random.Random,
    log: TableLog,
    start_clock: bool,
    pace: float = 0.0,
) -> None:
    status, body, _, _ = client.request("GET", f"/api/v1/matches/{match_id}/")
    if status != 200:
        log.errors.append(f"GET {match_id}: {status}")
        time.sleep(0.2)
        return
    match = json.loads(body)
    if start_clock and match["clock"].get("limit_seconds") and not match["clock"].get("running"):
        client.request("POST", f"/api/v1/matches/{match_id}/clock/", {"action": "start"})
    sent = log.accepted.setdefault(match_id, [])
    while time.monotonic() < until:
        state = match["state"]
        if state.get("finished") or match["status"] in ("finished", "walkover", "void"):
            log.matches_finished += 1
            return
        event = random_event(state, rng)
        if event["type"] == "time_expired":
            continue  # only the clock says when time is up
        key = uuid.uuid4().hex
        payload = {"event": event, "expected_version": match["version"], "idempotency_key": key}
        status, body, _, took = client.request(
            "POST", f"/api/v1/matches/{match_id}/events/{EVENTS_QUERY}", payload
        )
        log.latencies.append(took)
        log.sent_at.append(time.monotonic() - took)
        log.statuses[status] = log.statuses.get(status, 0) + 1
        if pace:
            time.sleep(pace * rng.uniform(0.5, 1.5))
        if status == 201:
            sent.append(event)
            match = json.loads(body)
        elif status == 409:
            log.conflicts += 1
            match = json.loads(body).get("match") or match
        elif status == 422:
            answer = json.loads(body)
            if answer.get("code") == "finished":
                return  # the clock ended it between two shots
            log.errors.append(f"422 on match {match_id}: {answer}")
            return
        else:
            log.errors.append(f"{status} on match {match_id}: {body[:200]!r}")
            return


def run_tables(
    *,
    port: int | list[int],
    seeded: Seeded,
    seconds: float,
    start_clock: bool = False,
    pace: float = 0.0,
    rng_offset: int = 0,
) -> list[TableLog]:
    """All tables at once, each in its own thread with its own HTTP connection."""
    ports = port if isinstance(port, list) else [port]
    until = time.monotonic() + seconds
    logs: list[TableLog] = [TableLog() for _ in range(seeded.tables)]
    watcher = TableWatcher(seeded.tournament_id, until)

    def worker(i: int) -> None:
        try:
            logs[i] = play_table(
                port=ports[i % len(ports)],
                seeded=seeded,
                watcher=watcher,
                number=i + 1,
                until=until,
                rng_seed=1000 + rng_offset + i,
                start_clock=start_clock,
                pace=pace,
            )
        except Exception as exc:  # a crashed client is a finding, not a hang
            logs[i].errors.append(repr(exc))

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(seeded.tables)]
    with watcher:
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=seconds + 120)
    return logs


def verify(
    *, seeded: Seeded, logs: list[TableLog], clocks_checked_at: Any = None
) -> dict[str, Any]:
    """Every match's log, version and score equal what the clients sent: no gap, no duplicate.
    Clocks: none expired twice (log or audit), none early, and with `clocks_checked_at` (when
    the workers were still running) none left running past its deadline."""
    # Imported here: Django is set up at run time, against the database under load.
    from matches.models import Match, MatchEvent

    accepted: dict[int, list[dict[str, Any]]] = {}
    for log in logs:
        for match_id, events in log.accepted.items():
            accepted.setdefault(match_id, []).extend(events)
    problems: list[str] = []
    checked = events_total = expiries = 0
    matches = Match.objects.filter(tournament_id=seeded.tournament_id).in_bulk()
    entries: dict[int, list[MatchEvent]] = {}
    for entry in MatchEvent.objects.filter(match__tournament_id=seeded.tournament_id).order_by(
        "match_id", "seq"
    ):
        entries.setdefault(entry.match_id, []).append(entry)
    for match_id, match in matches.items():
        log = entries.get(match_id, [])
        seqs = [e.seq for e in log]
        if seqs != list(range(1, len(log) + 1)):
            problems.append(f"match {match_id}: seq gaps or duplicates {seqs[:10]}…")
        if match.version != len(log):
            problems.append(f"match {match_id}: version {match.version} but {len(log)} log entries")
        from_clients = [e.payload for e in log if e.kind == "event" and e.source != "clock"]
        clock_events = [e for e in log if e.source == "clock"]
        expiries += len(clock_events)
        if len(clock_events) > 1:
            problems.append(f"match {match_id}: the clock expired {len(clock_events)} times")
        if from_clients != accepted.get(match_id, []):
            problems.append(
                f"match {match_id}: {len(from_clients)} events stored, {len(accepted.get(match_id, []))} accepted"
            )
        if log:
            replayed = rules.replay(
                match.ruleset, [e.payload for e in log if e.kind == "event" and not e.undone]
            )
            if replayed != match.state:
                problems.append(
                    f"match {match_id}: stored state differs from the replay of its log"
                )
            checked += 1
            events_total += len(log)
    clocks = _verify_clocks(seeded, matches, clocks_checked_at)
    problems += clocks.pop("problems")
    return {
        "matches_checked": checked,
        "events": events_total,
        "clock_expiries": expiries,
        **clocks,
        "problems": problems,
    }


def _verify_clocks(seeded: Seeded, matches: dict[int, Any], checked_at: Any) -> dict[str, Any]:
    # Imported here: Django is set up at run time, against the database under load.
    from datetime import timedelta

    from audit.models import AuditEntry

    problems: list[str] = []
    per_match: dict[int, int] = {}
    late: list[int] = []
    via: dict[str, int] = {}
    for match_id, data in AuditEntry.objects.filter(
        tournament_id=seeded.tournament_id, action="match.clock_expired"
    ).values_list("match_id", "data"):
        per_match[match_id] = per_match.get(match_id, 0) + 1
        late.append(int(data.get("late_ms", 0)))
        via[str(data.get("via"))] = via.get(str(data.get("via")), 0) + 1
    problems += [f"match {m}: clock expired {n} times" for m, n in per_match.items() if n > 1]
    if late and min(late) < 0:
        problems.append(f"a clock expired {-min(late)} ms before its deadline")
    missed = 0
    if checked_at is not None:
        grace = timedelta(seconds=10)  # the sweep runs every few seconds
        missed = sum(
            1
            for m in matches.values()
            if m.status == "running"
            and m.clock_running_since is not None
            and m.clock_deadline is not None
            and m.clock_expired_at is None
            and m.clock_deadline < checked_at - grace
        )
        if missed:
            problems.append(f"{missed} clocks ran past their deadline without expiring")
    late.sort()
    return {
        "clock_expiries_audited": sum(per_match.values()),
        "clock_late_ms": {
            "p50": late[len(late) // 2] if late else None,
            "p95": late[int(len(late) * 0.95)] if late else None,
            "max": late[-1] if late else None,
        },
        "clock_expired_via": via,  # "task" at the deadline, "sweep" when it was lost
        "clocks_missed": missed,
        "problems": problems,
    }
