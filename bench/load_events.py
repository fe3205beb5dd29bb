"""Event POST throughput and latency with 64 table clients against gunicorn and PostgreSQL,
side by side with a minimal DRF endpoint that inserts one row (the ceiling), then a check that
nothing was lost or doubled. Optionally several web servers and Celery workers (scale-out) and
500 phones polling the public pages at the same time.

    python bench/load_events.py                       # 64 tables, 1 web server
    python bench/load_events.py --web-servers 2 --celery-workers 2 --clock-minutes 1
    python bench/load_events.py --players 256 --phones 500

Two kinds of figures:

- throughput: every table sends its next event as soon as the last one is answered (a closed
  loop, no think time), so the server is saturated. The ceiling and the events take turns in
  `--rounds` rounds, so that other load on the machine weighs on both alike; the ratio of
  their request rates is the figure. At saturation a latency is mostly queueing (64 clients /
  throughput), so it says little.
- latency: every table waits about `--pace` seconds after each answer (0.5 to 1.5 times it, at
  random, as independent referees; a real one is slower still), so the server is not
  saturated and these p50/p95/p99 are what a tablet feels. The ceiling is then run at the same
  pace. Phones (`--phones`) poll the bracket and scoreboards during this phase.

Needs PostgreSQL and Redis (BENCH_PG_URL, BENCH_REDIS_URL; defaults: 127.0.0.1). It creates a
throwaway database and drops it at the end. Figures go to stdout and bench/out/<report>.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.harness import (
    PYTHON,
    ROOT,
    Client,
    CpuMeter,
    MemorySampler,
    celery_beat,
    celery_worker,
    free_port,
    gunicorn,
    percentiles,
    service_env,
    throwaway_database,
    wait_http,
    write_report,
)
from bench.scenario import run_tables, seed, verify

# Gunicorn per web server on this 2-core machine: see docs/performance.md ("Gunicorn").
WEB_WORKERS = 2
WEB_THREADS = 4
# The phones' figures are also given without their first seconds: 500 phones opening the
# bracket within 4 s (all cold: 200 KB each) is the benchmark's arrival, not a steady state.
WARM_UP_SECONDS = 15.0


def ceiling_phase(
    ports: list[int], token: str, clients: int, seconds: float, pace: float = 0.0
) -> dict[str, Any]:
    until = time.monotonic() + seconds
    latencies: list[list[float]] = [[] for _ in range(clients)]
    failures = [0] * clients

    def worker(i: int) -> None:
        client = Client(ports[i % len(ports)], token=token)
        jitter = random.Random(i)  # as the tables: independent, not in waves
        if pace:
            time.sleep(jitter.uniform(0, pace))
        n = 0
        while time.monotonic() < until:
            status, _, _, took = client.request("POST", "/bench/ceiling/", {"table": i, "n": n})
            n += 1
            if status == 201:
                latencies[i].append(took)
            else:
                failures[i] += 1
            if pace:
                time.sleep(pace * jitter.uniform(0.5, 1.5))

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(clients)]
    started = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - started
    flat = [x for xs in latencies for x in xs]
    return {
        "seconds": round(elapsed, 1),
        "requests": len(flat),
        "rps": round(len(flat) / elapsed, 1),
        "failures": sum(failures),
        "latencies": flat,
    }


def events_phase(
    ports: list[int],
    seeded: Any,
    seconds: float,
    start_clock: bool,
    pace: float = 0.0,
    rng_offset: int = 0,
) -> tuple[dict[str, Any], list[Any]]:
    started = time.monotonic()
    logs = run_tables(
        port=ports,
        seeded=seeded,
        seconds=seconds,
        start_clock=start_clock,
        pace=pace,
        rng_offset=rng_offset,
    )
    elapsed = time.monotonic() - started
    flat = [x for log in logs for x in log.latencies]
    steady = [
        took
        for log in logs
        for took, at in zip(log.latencies, log.sent_at, strict=True)
        if at - started > WARM_UP_SECONDS
    ]
    return {
        "seconds": round(elapsed, 1),
        "requests": len(flat),
        "latencies": flat,
        "steady": steady,
    }, logs


def summary(phases: list[dict[str, Any]], logs: list[Any] | None = None) -> dict[str, Any]:
    """Rounds of one kind put together: requests per second over their total time."""
    flat = [x for p in phases for x in p["latencies"]]
    seconds = sum(p["seconds"] for p in phases)
    out: dict[str, Any] = {
        "seconds": round(seconds, 1),
        "requests": len(flat),
        "rps": round(len(flat) / max(seconds, 0.001), 1),
        "rounds_rps": [round(p["requests"] / max(p["seconds"], 0.001), 1) for p in phases],
        **percentiles(flat),
    }
    if "steady" in phases[0] and len(phases) == 1:
        out["steady"] = percentiles(phases[0]["steady"])  # without the first seconds
    if "failures" in phases[0]:
        out["failures"] = sum(p["failures"] for p in phases)
    if logs is not None:
        statuses: dict[str, int] = {}
        for log in logs:
            for code, n in log.statuses.items():
                statuses[str(code)] = statuses.get(str(code), 0) + n
        out.update(
            {
                "accepted_events": sum(len(ev) for log in logs for ev in log.accepted.values()),
                "statuses": statuses,
                "conflicts": sum(log.conflicts for log in logs),
                "matches_finished": sum(log.matches_finished for log in logs),
                "client_errors": [e for log in logs for e in log.errors][:20],
            }
        )
    return out


def phones_phase(
    ports: list[int], tournament_id: int, phones: int, until: float, results: dict[str, Any]
) -> None:
    """Phones poll the bracket and the scoreboard of one match (each phone follows one table)
    in turn every 2 s, as static/js/live.js polls a page: the live fragment (`?fragment=1`)
    with the ETag of their last copy (If-None-Match)."""
    pages: dict[str, list[float]] = {}
    queries: dict[str, list[int]] = {}
    statuses: dict[str, int] = {}
    sizes: dict[str, list[int]] = {}
    lock = threading.Lock()
    match_ids = _live_match_ids(tournament_id)
    started = time.monotonic()
    steady: dict[str, list[float]] = {}

    def phone(i: int) -> None:
        client = Client(ports[i % len(ports)])
        etags: dict[str, str] = {}
        # People open the page at different moments: phones poll out of step, not in waves.
        jitter = random.Random(10_000 + i)
        time.sleep(jitter.uniform(0, 4.0))
        k = 0
        while time.monotonic() < until:
            if k % 2 == 0:
                name, path = "bracket", f"/t/{tournament_id}/bracket/?fragment=1"
            else:
                name, path = "scoreboard", f"/m/{match_ids[i % len(match_ids)]}/?fragment=1"
            headers = {"If-None-Match": etags[path]} if path in etags else {}
            status, body, response_headers, took = client.request("GET", path, headers=headers)
            k += 1
            with lock:
                pages.setdefault(name, []).append(took)
                if time.monotonic() - started > WARM_UP_SECONDS:
                    steady.setdefault(name, []).append(took)
                statuses[f"{name} {status}"] = statuses.get(f"{name} {status}", 0) + 1
                sizes.setdefault(name, []).append(len(body))
                if "X-Queries" in response_headers:
                    queries.setdefault(f"{name} {status}", []).append(
                        int(response_headers["X-Queries"])
                    )
            if "ETag" in response_headers:
                etags[path] = response_headers["ETag"]
            time.sleep(2.0 * jitter.uniform(0.9, 1.1))

    threads = [threading.Thread(target=phone, args=(i,), daemon=True) for i in range(phones)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=max(0.0, until - time.monotonic()) + 30)
    for name, values in pages.items():
        results[name] = {
            **percentiles(values),
            "rps": round(len(values) / max(1.0, until - started), 1),
            "steady": percentiles(steady.get(name, [])),
            "mean_bytes": round(sum(sizes[name]) / max(1, len(sizes[name]))),
        }
    results["queries_max"] = {key: max(values) for key, values in queries.items()}
    results["statuses"] = statuses


def _live_match_ids(tournament_id: int) -> list[int]:
    """The matches at the tables (their scoreboards change), the first 64 by id otherwise."""
    # Imported here: Django is set up at run time, against the database under load.
    from django.db import connection

    from matches.models import Match

    try:
        ids = list(
            Match.objects.filter(tournament_id=tournament_id, table__isnull=False)
            .order_by("pk")
            .values_list("pk", flat=True)[:64]
        )
        return ids or list(
            Match.objects.filter(tournament_id=tournament_id)
            .order_by("pk")
            .values_list("pk", flat=True)[:64]
        )
    finally:
        connection.close()


def memory_summary(samples: dict[str, dict[str, float]]) -> dict[str, Any]:
    """The worst process of each kind (gunicorn worker, Celery worker) and its early/late RSS."""
    out: dict[str, Any] = {}
    for kind in ("web", "worker", "beat"):
        mine = {k: v for k, v in samples.items() if k.startswith(kind)}
        if not mine:
            continue
        worst = max(mine, key=lambda k: mine[k]["peak_mb"])
        out[kind] = {"process": worst, **mine[worst], "processes": len(mine)}
    return out


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--seconds", type=float, default=60.0, help="event phase, saturated (all rounds)"
    )
    parser.add_argument(
        "--ceiling-seconds", type=float, default=30.0, help="ceiling phase (0: none)"
    )
    parser.add_argument("--rounds", type=int, default=3, help="ceiling and events take turns")
    parser.add_argument(
        "--paced-seconds", type=float, default=30.0, help="latency phase at --pace (0: none)"
    )
    parser.add_argument(
        "--pace", type=float, default=1.0, help="seconds a table waits after each answer"
    )
    parser.add_argument("--players", type=int, default=128, help="double elimination")
    parser.add_argument("--tables", type=int, default=64)
    parser.add_argument("--web-servers", type=int, default=1)
    parser.add_argument("--web-workers", type=int, default=WEB_WORKERS, help="per server")
    parser.add_argument("--web-threads", type=int, default=WEB_THREADS, help="per worker")
    parser.add_argument("--celery-workers", type=int, default=1)
    parser.add_argument(
        "--clock-minutes", type=int, default=0, help="start each match's clock with this limit"
    )
    parser.add_argument(
        "--phones", type=int, default=0, help="phones polling public pages in the paced phase"
    )
    parser.add_argument("--report", default="load_events")
    args = parser.parse_args()
    if args.phones and not args.paced_seconds:
        parser.error("phones poll during the paced phase: give --paced-seconds")

    log_dir = Path(tempfile.mkdtemp(prefix="luza-bench-"))
    report: dict[str, Any] = {
        "machine": {
            "cores": os.cpu_count(),
            "cpu": _cpu_model(),
            "python": sys.version.split()[0],
            "system": platform.platform(),
        },
        "setup": {**vars(args), "without": os.environ.get("BENCH_WITHOUT", "")},
    }
    with throwaway_database() as database_url:
        env = service_env(database_url, LUZA_CLOCK_SWEEP_SECONDS="2")
        subprocess.run(
            [PYTHON, "manage.py", "migrate", "--no-input", "-v", "0"], cwd=ROOT, env=env, check=True
        )
        os.environ.update(env)
        import django

        django.setup()
        # Imported from here on: only now is Django set up (against the database under load).
        from django.core.cache import cache
        from django.db import connections
        from django.utils import timezone

        cache.clear()
        seeded = seed(
            players=args.players, tables=args.tables, clock_minutes=args.clock_minutes or None
        )
        connections.close_all()
        ports = [free_port() for _ in range(args.web_servers)]
        procs = [
            gunicorn(
                f"web{i + 1}",
                port,
                env,
                log_dir,
                workers=args.web_workers,
                threads=args.web_threads,
            )
            for i, port in enumerate(ports)
        ]
        procs += [celery_worker(f"worker{i + 1}", env, log_dir) for i in range(args.celery_workers)]
        if args.celery_workers:
            procs.append(celery_beat("beat", env, log_dir))
        logs: list[Any] = []
        clocks_checked_at = None
        start_clock = bool(args.clock_minutes)
        try:
            for port in ports:
                wait_http(port)
            web = procs[: len(ports)]
            ceiling_cpu, events_cpu = CpuMeter(web), CpuMeter(web)
            with MemorySampler(procs) as memory:
                ceiling_rounds, event_rounds = [], []
                rounds = max(1, args.rounds)
                for r in range(rounds):
                    if args.ceiling_seconds > 0:
                        ceiling_rounds.append(
                            ceiling_cpu.measure(
                                lambda: ceiling_phase(
                                    ports, seeded.token, args.tables, args.ceiling_seconds / rounds
                                )
                            )
                        )
                    if args.seconds > 0:
                        phase, round_logs = events_cpu.measure(
                            lambda r=r: events_phase(
                                ports, seeded, args.seconds / rounds, start_clock, rng_offset=r
                            )
                        )
                        event_rounds.append(phase)
                        logs += round_logs
                if ceiling_rounds:
                    report["ceiling"] = summary(ceiling_rounds)
                    report["ceiling"]["cpu_ms_per_request"] = ceiling_cpu.per_request(
                        report["ceiling"]["requests"]
                    )
                    print("ceiling:", json.dumps(report["ceiling"]), flush=True)
                if event_rounds:
                    report["events"] = summary(event_rounds, logs)
                    report["events"]["cpu_ms_per_request"] = events_cpu.per_request(
                        report["events"]["requests"]
                    )
                    print("events:", _brief(report["events"]), flush=True)
                if ceiling_rounds and event_rounds:
                    report["events_vs_ceiling"] = round(
                        report["events"]["rps"] / max(1.0, report["ceiling"]["rps"]), 2
                    )
                    print("events / ceiling:", report["events_vs_ceiling"], flush=True)
                if args.paced_seconds > 0:
                    _paced(args, ports, seeded, start_clock, report, logs)
                if args.clock_minutes:
                    time.sleep(5)  # let the last expiries land before counting them
                clocks_checked_at = timezone.now()
            report["memory"] = memory.report()
            report["memory_summary"] = memory_summary(report["memory"])
        finally:
            for proc in procs:
                proc.stop()
        report["verify"] = verify(seeded=seeded, logs=logs, clocks_checked_at=clocks_checked_at)
        connections.close_all()
    path = write_report(args.report, report)
    print(json.dumps({k: report[k] for k in ("verify", "memory_summary") if k in report}, indent=1))
    print(f"report: {path}  logs: {log_dir}")
    errors = [
        e for key in ("events", "paced") for e in report.get(key, {}).get("client_errors", [])
    ]
    return 0 if not report["verify"]["problems"] and not errors else 1


def _paced(
    args: argparse.Namespace,
    ports: list[int],
    seeded: Any,
    start_clock: bool,
    report: dict[str, Any],
    logs: list[Any],
) -> None:
    """Latency at a referee's pace (and the ceiling at the same pace), phones alongside."""
    phones: dict[str, Any] = {}
    phone_thread = None
    if args.phones:
        until = time.monotonic() + args.paced_seconds
        phone_thread = threading.Thread(
            target=phones_phase, args=(ports, seeded.tournament_id, args.phones, until, phones)
        )
        phone_thread.start()
    phase, paced_logs = events_phase(
        ports, seeded, args.paced_seconds, start_clock, pace=args.pace, rng_offset=100
    )
    logs += paced_logs
    report["paced"] = {"pace_seconds": args.pace, **summary([phase], paced_logs)}
    print("paced events:", _brief(report["paced"]), flush=True)
    if phone_thread is not None:
        phone_thread.join()
        report["phones"] = phones
        print("phones:", json.dumps(phones), flush=True)
    if args.ceiling_seconds > 0:
        ceiling = ceiling_phase(
            ports, seeded.token, args.tables, min(15.0, args.paced_seconds), pace=args.pace
        )
        report["paced_ceiling"] = {"pace_seconds": args.pace, **summary([ceiling])}
        print("paced ceiling:", json.dumps(report["paced_ceiling"]), flush=True)


def _brief(figures: dict[str, Any]) -> str:
    return json.dumps({k: v for k, v in figures.items() if k != "client_errors"})


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


if __name__ == "__main__":
    sys.exit(main())
