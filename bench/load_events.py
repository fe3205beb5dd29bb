"""Event POST throughput and latency with 64 table clients against gunicorn and PostgreSQL,
side by side with a minimal DRF endpoint that inserts one row (the ceiling), then a check that
nothing was lost or doubled. Optionally several web servers and Celery workers (scale-out) and
500 phones polling the public pages at the same time.

    python bench/load_events.py                       # 64 tables, 120 s, 1 web server
    python bench/load_events.py --web-servers 2 --celery-workers 2 --clock-minutes 1
    python bench/load_events.py --phones 500 --seconds 60

Needs PostgreSQL and Redis (BENCH_PG_URL, BENCH_REDIS_URL; defaults: 127.0.0.1). It creates a
throwaway database and drops it at the end. Figures go to stdout and bench/out/load_events.json.
"""

from __future__ import annotations

import argparse
import json
import os
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


def ceiling_phase(ports: list[int], token: str, clients: int, seconds: float) -> dict[str, Any]:
    until = time.monotonic() + seconds
    latencies: list[list[float]] = [[] for _ in range(clients)]
    failures = [0] * clients

    def worker(i: int) -> None:
        client = Client(ports[i % len(ports)], token=token)
        n = 0
        while time.monotonic() < until:
            status, _, _, took = client.request("POST", "/bench/ceiling/", {"table": i, "n": n})
            n += 1
            if status == 201:
                latencies[i].append(took)
            else:
                failures[i] += 1

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(clients)]
    started = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - started
    flat = [x for xs in latencies for x in xs]
    return {
        "requests": len(flat),
        "rps": round(len(flat) / elapsed, 1),
        "failures": sum(failures),
        **percentiles(flat),
    }


def events_phase(
    ports: list[int], seeded: Any, seconds: float, start_clock: bool
) -> tuple[dict[str, Any], list[Any]]:
    from bench.scenario import run_tables

    started = time.monotonic()
    logs = run_tables(port=ports, seeded=seeded, seconds=seconds, start_clock=start_clock)
    elapsed = time.monotonic() - started
    flat = [x for log in logs for x in log.latencies]
    statuses: dict[str, int] = {}
    for log in logs:
        for code, n in log.statuses.items():
            statuses[str(code)] = statuses.get(str(code), 0) + n
    accepted = sum(len(ev) for log in logs for ev in log.accepted.values())
    return (
        {
            "requests": len(flat),
            "accepted_events": accepted,
            "rps": round(len(flat) / elapsed, 1),
            "statuses": statuses,
            "conflicts": sum(log.conflicts for log in logs),
            "matches_finished": sum(log.matches_finished for log in logs),
            "client_errors": [e for log in logs for e in log.errors][:20],
            **percentiles(flat),
        },
        logs,
    )


def phones_phase(
    ports: list[int], tournament_id: int, phones: int, until: float, results: dict[str, Any]
) -> None:
    """Phones poll the bracket and live scoreboards every 2 s, as the live pages do."""
    from bench.harness import Client as PhoneClient

    pages: dict[str, list[float]] = {}
    queries: dict[str, list[int]] = {}
    statuses: dict[str, int] = {}
    lock = threading.Lock()
    match_ids = _match_ids(tournament_id)

    def phone(i: int) -> None:
        client = PhoneClient(ports[i % len(ports)])
        etags: dict[str, str] = {}
        k = 0
        while time.monotonic() < until:
            if k % 2 == 0:
                name, path = "bracket", f"/t/{tournament_id}/bracket/"
            else:
                name, path = "scoreboard", f"/m/{match_ids[(i + k) % len(match_ids)]}/"
            headers = {"If-None-Match": etags[path]} if path in etags else {}
            status, _, response_headers, took = client.request("GET", path, headers=headers)
            k += 1
            with lock:
                pages.setdefault(name, []).append(took)
                statuses[f"{name} {status}"] = statuses.get(f"{name} {status}", 0) + 1
                if "X-Queries" in response_headers:
                    queries.setdefault(name, []).append(int(response_headers["X-Queries"]))
            if "ETag" in response_headers:
                etags[path] = response_headers["ETag"]
            time.sleep(2.0)

    threads = [threading.Thread(target=phone, args=(i,), daemon=True) for i in range(phones)]
    for i, t in enumerate(threads):
        t.start()
        if i % 50 == 49:
            time.sleep(0.2)  # phones arrive over a few seconds, not in one burst
    for t in threads:
        t.join(timeout=max(0.0, until - time.monotonic()) + 30)
    results.update(
        {
            name: {**percentiles(values), "queries_max": max(queries.get(name, [0]))}
            for name, values in pages.items()
        }
    )
    results["statuses"] = statuses


def _match_ids(tournament_id: int) -> list[int]:
    from matches.models import Match

    return list(
        Match.objects.filter(tournament_id=tournament_id)
        .order_by("pk")
        .values_list("pk", flat=True)[:64]
    )


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=120.0, help="duration of the event phase")
    parser.add_argument(
        "--ceiling-seconds", type=float, default=30.0, help="0 skips the ceiling phase"
    )
    parser.add_argument("--tables", type=int, default=64)
    parser.add_argument("--web-servers", type=int, default=1)
    parser.add_argument("--web-workers", type=int, default=4, help="gunicorn workers per server")
    parser.add_argument("--web-threads", type=int, default=4, help="threads per gunicorn worker")
    parser.add_argument("--celery-workers", type=int, default=1)
    parser.add_argument(
        "--clock-minutes", type=int, default=0, help="start each match's clock with this limit"
    )
    parser.add_argument(
        "--phones", type=int, default=0, help="phones polling public pages during the event phase"
    )
    parser.add_argument("--report", default="load_events")
    args = parser.parse_args()

    log_dir = Path(tempfile.mkdtemp(prefix="luza-bench-"))
    with throwaway_database() as database_url:
        env = service_env(database_url, LUZA_CLOCK_SWEEP_SECONDS="2")
        subprocess.run(
            [PYTHON, "manage.py", "migrate", "--no-input", "-v", "0"], cwd=ROOT, env=env, check=True
        )
        os.environ.update(env)
        import django

        django.setup()
        from django.core.cache import cache

        from bench.scenario import seed, verify

        cache.clear()
        seeded = seed(tables=args.tables, clock_minutes=args.clock_minutes or None)
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
        report: dict[str, Any] = {
            "machine": {"cores": os.cpu_count(), "python": sys.version.split()[0]},
            "setup": vars(args),
        }
        try:
            for port in ports:
                wait_http(port)
            with MemorySampler(procs) as memory:
                if args.ceiling_seconds > 0:
                    report["ceiling"] = ceiling_phase(
                        ports, seeded.token, args.tables, args.ceiling_seconds
                    )
                    print("ceiling:", json.dumps(report["ceiling"]), flush=True)
                phones: dict[str, Any] = {}
                phone_thread = None
                if args.phones:
                    until = time.monotonic() + args.seconds
                    phone_thread = threading.Thread(
                        target=phones_phase,
                        args=(ports, seeded.tournament_id, args.phones, until, phones),
                    )
                    phone_thread.start()
                report["events"], logs = events_phase(
                    ports, seeded, args.seconds, bool(args.clock_minutes)
                )
                print(
                    "events:",
                    json.dumps({k: v for k, v in report["events"].items() if k != "client_errors"}),
                    flush=True,
                )
                if phone_thread is not None:
                    phone_thread.join()
                    report["phones"] = phones
                    print("phones:", json.dumps(phones), flush=True)
                if args.clock_minutes:
                    time.sleep(5)  # let the last expiries land before counting them
            report["memory"] = memory.report()
        finally:
            for proc in procs:
                proc.stop()
        report["verify"] = verify(seeded=seeded, logs=logs)
        if "ceiling" in report:
            report["events_vs_ceiling"] = round(
                report["events"]["rps"] / max(1.0, report["ceiling"]["rps"]), 2
            )
        from django.db import connections

        connections.close_all()
    path = write_report(args.report, report)
    print(json.dumps({k: report[k] for k in ("verify", "memory") if k in report}, indent=1))
    print(f"report: {path}  logs: {log_dir}")
    ok = not report["verify"]["problems"] and not report["events"]["client_errors"]
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
