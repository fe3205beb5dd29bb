"""Cost of one event POST in a single process: CPU and wall time, SQL queries, and where the
time goes (cProfile), through the whole Django stack (middleware, DRF, service, answer).

    python bench/profile_events.py [--requests 2000] [--profile 30]

The load benchmark (load_events.py) says how fast the server is; this one says why: with no
concurrency and no network, every millisecond here is work a gunicorn worker does per event.
It creates a throwaway database (BENCH_PG_URL), seeds the load scenario and scores its
first-round matches round-robin, as 64 tables would. Figures go to stdout and
bench/out/profile_events.json.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import random
import statistics
import subprocess
import sys
import time
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.harness import (
    PYTHON,
    ROOT,
    cpu_seconds,
    service_env,
    throwaway_database,
    write_report,
)
from bench.scenario import seed
from rules.simulate import random_event


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--requests", type=int, default=2000, help="event POSTs timed")
    parser.add_argument("--profile", type=int, default=0, help="print the top N functions")
    parser.add_argument("--report", default="profile_events")
    args = parser.parse_args()

    with throwaway_database("luza_profile") as database_url:
        env = service_env(database_url)
        subprocess.run(
            [PYTHON, "manage.py", "migrate", "--no-input", "-v", "0"], cwd=ROOT, env=env, check=True
        )
        os.environ.update(env)
        import django

        django.setup()
        try:
            report = run(args)
        finally:
            from django.db import connections

            connections.close_all()
    path = write_report(args.report, report)
    print(json.dumps({k: v for k, v in report.items() if k != "profile"}, indent=1))
    print(f"report: {path}")
    return 0


def run(args: argparse.Namespace) -> dict[str, Any]:
    # Imported here: Django is set up at run time, against the database under load.
    from django.db import connection
    from django.test import Client

    seeded = seed(tables=64)
    from matches.models import Match

    matches = list(
        Match.objects.filter(tournament_id=seeded.tournament_id, table__isnull=False)
        .order_by("table__number")
        .values_list("pk", flat=True)
    )
    client = Client(HTTP_AUTHORIZATION=f"Token {seeded.token}", HTTP_ACCEPT_LANGUAGE="ru")
    rng = random.Random(11)
    current: dict[int, dict[str, Any]] = {
        pk: json.loads(client.get(f"/api/v1/matches/{pk}/").content) for pk in matches
    }
    queries: Counter[str] = Counter()
    per_request: list[int] = []
    cpu: list[float] = []
    wall: list[float] = []
    statuses: Counter[int] = Counter()

    def counter(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        queries[sql.split(" ", 1)[0]] += 1
        return execute(sql, params, many, context)

    def post(pk: int) -> None:
        match = current[pk]
        if match["state"].get("finished"):
            return
        event = random_event(match["state"], rng)
        if event["type"] == "time_expired":
            return
        body = {
            "event": event,
            "expected_version": match["version"],
            "idempotency_key": uuid.uuid4().hex,
        }
        before = sum(queries.values())
        c0, w0 = time.process_time(), time.perf_counter()
        response = client.post(
            f"/api/v1/matches/{pk}/events/", body, content_type="application/json"
        )
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)
        per_request.append(sum(queries.values()) - before)
        statuses[response.status_code] += 1
        if response.status_code == 201:
            current[pk] = response.json()

    # Warm-up: the first event of a match starts play (tournament hooks), not the hot path.
    for pk in matches:
        post(pk)
    cpu.clear(), wall.clear(), per_request.clear(), statuses.clear()
    # CPU time, not wall: waiting for PostgreSQL is not work this process does.
    profiler = cProfile.Profile(time.process_time) if args.profile else None
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (backend,) = cursor.fetchone()
    backend_before = cpu_seconds(backend)  # the one PostgreSQL backend serving every request
    with connection.execute_wrapper(counter):
        queries.clear()
        if profiler:
            profiler.enable()
        i = 0
        while len(cpu) < args.requests and i < args.requests * 3:
            post(matches[i % len(matches)])
            i += 1
        if profiler:
            profiler.disable()
    backend_cpu = cpu_seconds(backend) - backend_before
    n = len(cpu)
    report: dict[str, Any] = {
        "requests": n,
        "statuses": dict(statuses),
        "cpu_ms_median": round(statistics.median(cpu) * 1000, 2),
        "cpu_ms_mean": round(statistics.fmean(cpu) * 1000, 2),
        "wall_ms_median": round(statistics.median(wall) * 1000, 2),
        "postgres_cpu_ms_mean": round(backend_cpu / max(1, n) * 1000, 2),
        "queries_per_request_median": statistics.median(per_request),
        "queries_by_kind_per_request": {k: round(v / n, 2) for k, v in queries.most_common()},
    }
    if profiler:
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(args.profile)
        if os.environ.get("BENCH_PROFILE_DUMP"):
            profiler.dump_stats(os.environ["BENCH_PROFILE_DUMP"])
        report["profile"] = out.getvalue()
        print(out.getvalue())
    return report


if __name__ == "__main__":
    sys.exit(main())
