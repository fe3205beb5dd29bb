"""Anonymous load against a referee: how long the referee's match read takes while anonymous
clients hammer the full bracket page of a 1024-player tournament.

    .venv/bin/python bench/anon_flood.py [--players 1024] [--anon 20] [--seconds 20]
        [--anon-rate 120/min] [--forwarded] [--report anon_flood]

A throwaway PostgreSQL database, the production web server (gunicorn, 2 workers x 4 threads
unless told otherwise) on 127.0.0.1, a running double-elimination tournament (bench.scenario).
Two phases, each bounded in time: the referee alone reads his match every `--pace` seconds
(quiet), then the same while `--anon` clients request `/t/<id>/bracket/` back to back, with
no ETag, as a scraper or a page reloaded in a loop would (flood).

`--anon-rate` is LUZA_SCRAPER_RATE for the server ("" switches the anonymous readers' limit off).
With `--forwarded` the server trusts X-Forwarded-For (as behind nginx) and every anonymous
client comes from its own address; without it they all share 127.0.0.1, as the referee does,
so leave the limit off then (the referee is authenticated and never throttled, but the flood
would be measured mostly as 429s).
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
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.harness import (
    PYTHON,
    ROOT,
    Client,
    CpuMeter,
    free_port,
    gunicorn,
    percentiles,
    service_env,
    throwaway_database,
    wait_http,
    write_report,
)
from bench.scenario import seed


def referee_loop(
    port: int, token: str, match_id: int, until: float, pace: float, out: list[float]
) -> list[int]:
    client = Client(port, token=token)
    statuses = []
    while time.monotonic() < until:
        status, _, _, took = client.request("GET", f"/api/v1/matches/{match_id}/")
        statuses.append(status)
        out.append(took)
        time.sleep(pace)
    return statuses


def anon_loop(
    port: int, path: str, address: str | None, until: float, stats: dict[str, Any]
) -> None:
    client = Client(port)
    headers = {"X-Forwarded-For": address} if address else {}
    while time.monotonic() < until:
        status, body, _, took = client.request("GET", path, headers=headers)
        with stats["lock"]:
            stats["statuses"][status] += 1
            stats["latencies"].append(took)
            stats["bytes"] += len(body)
        if status == 429:
            time.sleep(0.05)  # a real client backs off a little; still far faster than a phone


def phase(
    port: int,
    *,
    token: str,
    match_id: int,
    bracket: str,
    seconds: float,
    pace: float,
    anon: int,
    forwarded: bool,
) -> dict[str, Any]:
    until = time.monotonic() + seconds
    referee: list[float] = []
    stats: dict[str, Any] = {
        "lock": threading.Lock(),
        "statuses": Counter(),
        "latencies": [],
        "bytes": 0,
    }
    threads = [
        threading.Thread(
            target=anon_loop,
            args=(port, bracket, f"203.0.113.{i + 1}" if forwarded else None, until, stats),
            daemon=True,
        )
        for i in range(anon)
    ]
    for thread in threads:
        thread.start()
    statuses = referee_loop(port, token, match_id, until, pace, referee)
    for thread in threads:
        thread.join(timeout=60)
    requests = sum(stats["statuses"].values())
    return {
        "referee_ms": percentiles(referee),
        "referee_statuses": dict(Counter(statuses)),
        "anon_requests": requests,
        "anon_rps": round(requests / seconds, 1),
        "anon_statuses": dict(stats["statuses"]),
        "anon_ms": percentiles(stats["latencies"]),
        "anon_kb_per_200": round(stats["bytes"] / 1024 / max(1, stats["statuses"][200]), 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--players", type=int, default=1024, help="double elimination")
    parser.add_argument("--tables", type=int, default=32)
    parser.add_argument("--anon", type=int, default=20, help="anonymous clients in the flood")
    parser.add_argument("--seconds", type=float, default=20.0, help="per phase")
    parser.add_argument("--pace", type=float, default=0.2, help="referee's pause between reads")
    parser.add_argument("--anon-rate", default="", help='LUZA_SCRAPER_RATE ("": off)')
    parser.add_argument("--forwarded", action="store_true", help="one address per client")
    parser.add_argument("--web-workers", type=int, default=2)
    parser.add_argument("--web-threads", type=int, default=4)
    parser.add_argument("--report", default="anon_flood")
    args = parser.parse_args()

    log_dir = Path(tempfile.mkdtemp(prefix="luza-bench-"))
    report: dict[str, Any] = {"setup": vars(args)}
    with throwaway_database() as database_url:
        extra = {"LUZA_SCRAPER_RATE": args.anon_rate}
        if args.forwarded:
            extra.update(LUZA_TRUSTED_PROXY_HEADER="X-Forwarded-For", LUZA_TRUSTED_PROXY_COUNT="1")
        env = service_env(database_url, **extra)
        subprocess.run(
            [PYTHON, "manage.py", "migrate", "--no-input", "-v", "0"], cwd=ROOT, env=env, check=True
        )
        os.environ.update(env)
        import django

        django.setup()
        # Imported from here on: only now is Django set up (against the database under load).
        from django.core.cache import cache
        from django.db import connections

        from matches.models import Match

        cache.clear()
        started = time.monotonic()
        seeded = seed(players=args.players, tables=args.tables)
        report["seed_seconds"] = round(time.monotonic() - started, 1)
        match_id = (
            Match.objects.filter(tournament_id=seeded.tournament_id, table__isnull=False)
            .order_by("pk")
            .values_list("pk", flat=True)
            .first()
        )
        connections.close_all()
        port = free_port()
        web = gunicorn(
            "web", port, env, log_dir, workers=args.web_workers, threads=args.web_threads
        )
        bracket = f"/t/{seeded.tournament_id}/bracket/"
        try:
            wait_http(port)
            probe = Client(port)
            for name in ("first_bracket_page", "second_bracket_page"):  # rendered, then again
                status, body, _, took = probe.request("GET", bracket)
                report[name] = {
                    "status": status,
                    "kb": round(len(body) / 1024, 1),
                    "ms": round(took * 1000, 1),
                }
            print("bracket page:", report["first_bracket_page"], report["second_bracket_page"])
            common = {
                "token": seeded.token,
                "match_id": match_id,
                "bracket": bracket,
                "seconds": args.seconds,
                "pace": args.pace,
                "forwarded": args.forwarded,
            }
            for name, anon in (("quiet", 0), ("flood", args.anon)):
                meter = CpuMeter([web])
                report[name] = meter.measure(lambda anon=anon: phase(port, anon=anon, **common))
                report[name]["cpu_seconds"] = {k: round(v, 1) for k, v in meter.totals.items()}
                print(name, json.dumps(report[name]), flush=True)
        finally:
            web.stop()
        connections.close_all()
    path = write_report(args.report, report)
    print(f"report: {path}  logs: {log_dir}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
