"""How precisely match clocks expire: N matches with short clocks started within one second,
a real Celery worker and beat; how late was each expiry after its deadline?

    DATABASE_URL=postgresql://... REDIS_URL=redis://... .venv/bin/python bench/clock_precision.py

A throwaway database is created beside DATABASE_URL's (and dropped afterwards); with
--use-given-db the tables of DATABASE_URL itself are used (migrated first). The Redis database
of REDIS_URL is the broker: use one nothing else is using. Goal: p99 under 500 ms late, none
early, none missed.
"""

from __future__ import annotations

import argparse
import datetime as dt
import multiprocessing
import os
import secrets
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a script: the project's packages beside bench/

import rules  # noqa: E402

MISSED_AFTER_S = 15.0  # beyond the default 5-second sweep: an expiry this late never came


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--seconds", type=int, default=5, help="each clock's net time limit")
    parser.add_argument("--spread", type=float, default=1.0, help="start all clocks within this")
    parser.add_argument("--concurrency", type=int, default=4, help="Celery worker processes")
    parser.add_argument("--starters", type=int, default=2, help="processes starting the clocks")
    parser.add_argument("--use-given-db", action="store_true")
    parser.add_argument("--logs", type=Path, help="keep the worker and beat logs in this folder")
    parser.add_argument("--loglevel", default="WARNING", help="of the worker and beat")
    return parser.parse_args()


@contextmanager
def database(url: str, *, throwaway: bool) -> Iterator[str]:
    if not throwaway:
        yield url
        return
    import psycopg

    parts = urlsplit(url)
    name = f"luza_clockbench_{uuid.uuid4().hex[:8]}"
    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield urlunsplit(parts._replace(path=f"/{name}"))
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def process(args: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    out = log.open("ab")
    return subprocess.Popen(args, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)


def stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)


def celery(kind: str, loglevel: str, *extra: str) -> list[str]:
    return [sys.executable, "-m", "celery", "-A", "config", kind, f"--loglevel={loglevel}", *extra]


def set_up_matches(count: int, seconds: int) -> tuple[Any, list[int]]:
    # Imported here: Django is set up at run time, against the database under load.
    from django.contrib.auth import get_user_model

    from matches.models import Match
    from tournaments.models import Player, Tournament

    stamp = uuid.uuid4().hex[:6]
    organiser = get_user_model().objects.create_user(f"clockbench-{stamp}")
    tournament = Tournament.objects.create(
        name=f"Clock bench {stamp}", date="2026-12-05", status=Tournament.Status.RUNNING
    )
    tournament.organisers.add(organiser)
    ruleset = {"discipline": "free_pyramid"}
    players = Player.objects.bulk_create(Player(name=f"Игрок {i}") for i in range(2 * count))
    matches = Match.objects.bulk_create(
        Match(
            tournament=tournament,
            key=f"B-{i + 1}",
            stage="upper",
            round=1,
            order=i + 1,
            player_a=players[2 * i],
            player_b=players[2 * i + 1],
            ruleset=ruleset,
            state=rules.initial_state(ruleset),
            status=Match.Status.READY,
            clock_limit_seconds=seconds,
        )
        for i in range(count)
    )
    return organiser, [m.pk for m in matches]


def _start_share(job: tuple[list[tuple[int, float]], int]) -> float:
    """In a starter process: start each (match, wall-clock time) clock; returns when the last
    start was done."""
    slots, actor_id = job
    import django

    django.setup()
    # Imported here: Django is set up at run time, against the database under load.
    from django.contrib.auth import get_user_model
    from django.db import connection

    from matches import services

    actor = get_user_model().objects.get(pk=actor_id)
    done = time.time()
    for match_id, at in slots:
        pause = at - time.time()
        if pause > 0:
            time.sleep(pause)
        services.match_clock(match_id=match_id, action="start", actor=actor)
        done = time.time()
    connection.close()
    return done


def start_clocks(match_ids: list[int], actor_id: int, *, spread: float, starters: int) -> float:
    """Start every clock, evenly over `spread` seconds, from a few processes (as the devices
    of many tables through several web processes); returns how long the starts took."""
    ready_at = time.time() + 5  # the starter processes set Django up first
    slots = [(pk, ready_at + spread * i / len(match_ids)) for i, pk in enumerate(match_ids)]
    jobs = [(slots[k::starters], actor_id) for k in range(starters)]
    with multiprocessing.get_context("spawn").Pool(starters) as pool:
        finished = pool.map(_start_share, jobs)
    return max(finished) - ready_at


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process and its children (Linux /proc)."""
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    frontier = [pid]
    while frontier:
        current = frontier.pop()
        try:
            fields = Path(f"/proc/{current}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
            children = Path(f"/proc/{current}/task/{current}/children").read_text().split()
        except (OSError, IndexError, ValueError):
            continue
        frontier.extend(int(child) for child in children)
    return total


def percentile(values: list[float], q: int) -> float:
    if len(values) < 2:
        return values[0] if values else float("nan")
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


def run(args: argparse.Namespace, database_url: str, redis_url: str, logs: Path) -> int:
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY=env.get("DJANGO_SECRET_KEY") or "clockbench-" + secrets.token_hex(32),
        DATABASE_URL=database_url,
        REDIS_URL=redis_url,
        LUZA_LOG_LEVEL="WARNING",
        PYTHONPATH=str(ROOT),
    )
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    os.environ.update(env)
    import django

    django.setup()
    # Imported here: Django is set up at run time, against the database under load.
    from django.utils import timezone

    from audit.models import AuditEntry
    from config.celery import app
    from matches.models import Match

    organiser, match_ids = set_up_matches(args.matches, args.seconds)
    hostname = f"clockbench-{uuid.uuid4().hex[:6]}@localhost"
    worker = process(
        celery(
            "worker",
            args.loglevel,
            f"--hostname={hostname}",
            f"--concurrency={args.concurrency}",
            "--without-gossip",
            "--without-mingle",
        ),
        env,
        logs / "worker.log",
    )
    beat = process(
        celery("beat", args.loglevel, f"--schedule={logs / 'beat-schedule'}"),
        env,
        logs / "beat.log",
    )
    try:
        ready = time.monotonic() + 60
        while not app.control.ping(destination=[hostname], timeout=0.5):
            if time.monotonic() > ready or worker.poll() is not None:
                tail = (logs / "worker.log").read_text(errors="replace")[-3000:]
                print("the worker did not start:\n" + tail, file=sys.stderr)
                return 2
        took = start_clocks(match_ids, organiser.pk, spread=args.spread, starters=args.starters)
        deadlines = dict(Match.objects.filter(pk__in=match_ids).values_list("pk", "clock_deadline"))
        last = max(deadlines.values())
        cpu_before = cpu_seconds(worker.pid)
        while timezone.now() < last + dt.timedelta(seconds=MISSED_AFTER_S):
            if not Match.objects.filter(pk__in=match_ids, clock_expired_at__isnull=True).exists():
                break
            time.sleep(0.2)
        expired = dict(Match.objects.filter(pk__in=match_ids).values_list("pk", "clock_expired_at"))
        cpu_used = cpu_seconds(worker.pid) - cpu_before
        via = list(
            AuditEntry.objects.filter(
                match_id__in=match_ids, action="match.clock_expired"
            ).values_list("data__via", flat=True)
        )
    finally:
        stop(beat)
        stop(worker)

    late_ms = [
        (expired[pk] - deadlines[pk]).total_seconds() * 1000
        for pk in match_ids
        if expired[pk] is not None
    ]
    early = sum(1 for ms in late_ms if ms < 0)
    missed = sum(1 for pk in match_ids if expired[pk] is None)
    print(
        f"{len(match_ids)} clocks of {args.seconds} s started in {took:.2f} s; "
        f"worker concurrency {args.concurrency}; {os.cpu_count()} CPUs, "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    print(f"worker CPU per expiry: {cpu_used / len(match_ids) * 1000:.1f} ms")
    if late_ms:
        print(
            f"late after the deadline: p50 {percentile(late_ms, 50):.0f} ms, "
            f"p99 {percentile(late_ms, 99):.0f} ms, max {max(late_ms):.0f} ms"
        )
    print(
        f"early: {early}, missed: {missed}, "
        f"expired by the task: {via.count('task')}, by the sweep: {via.count('sweep')}"
    )
    ok = bool(late_ms) and not early and not missed and percentile(late_ms, 99) < 500
    print("goal (p99 < 500 ms, none early, none missed):", "met" if ok else "NOT met")
    return 0 if ok else 1


def main() -> int:
    args = parse_args()
    database_url = os.environ.get("DATABASE_URL", "")
    redis_url = os.environ.get("REDIS_URL", "")
    if not database_url.startswith("postgres") or not redis_url.startswith("redis"):
        print("set DATABASE_URL (PostgreSQL) and REDIS_URL (Redis)", file=sys.stderr)
        return 2
    with (
        tempfile.TemporaryDirectory(prefix="clockbench-") as tmp,
        database(database_url, throwaway=not args.use_given_db) as url,
    ):
        logs = args.logs or Path(tmp)
        logs.mkdir(parents=True, exist_ok=True)
        return run(args, url, redis_url, logs)


if __name__ == "__main__":
    sys.exit(main())
