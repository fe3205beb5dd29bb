"""A hall of spectators on the push channel: `python bench/push_hall.py`.

A 256-player double elimination on 32 tables, a scorer on every table (the table clients of
bench/scenario.py, one event every --pace seconds each), served by the production processes:
gunicorn (2 workers x 4 threads) for the pages and the API, the stream server
(`python -m config.serve`, uvicorn) for the Server-Sent Events, PostgreSQL and Redis. Then, in
phases of --seconds each:

- idle: the scorers alone (their write latency without spectators);
- 1,000 / 2,000 / 5,000 spectators (loopback SSE clients in a child process, asyncio, on the
  tournament's stream, as the bracket page holds it): the time from each event's commit (the
  `at` of its payload) to its arrival at every spectator, p50/p95/p99; the stream server's
  memory and CPU per 1,000 connections; the scorers' write latency beside the idle one;
- the overlay after a tap: one client that fetches the table overlay's fragment at each pushed
  event, against a poller every 2 s (today's live.js) over the same events;
- a reconnect storm: all 5,000 drop at once and reconnect within 10 s with Last-Event-ID;
  every client's ids are checked against the stream afterwards (nothing lost, nothing twice).

Every loop is bounded in time; the whole run takes about 4 minutes on 2 cores. Everything runs
on 127.0.0.1. The figures go to bench/out/push_hall.json and docs/performance.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import resource
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
    cpu_seconds,
    free_port,
    gunicorn,
    percentiles,
    rss_mb,
    service_env,
    start,
    throwaway_database,
    wait_http,
    write_report,
)

FRAME = re.compile(rb"id: (\d+-\d+)\nevent: ([^\n]+)\ndata: ([^\n]*)\n")
AT = re.compile(rb'"at": (\d+)')
PROBES = 50  # spectators that time every event (see _run_spectators)


# --- the spectators (a child process) ----------------------------------------------------------


async def _spectator(
    port: int, path: str, until: float, storm: tuple[float, float] | None, out: dict[str, Any]
) -> None:
    last_id = ""
    first_ready = ""
    seen: list[str] = []
    dropped = storm is None
    while time.time() < until:
        writer = None
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            head = f"GET {path} HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n"
            if last_id:
                head += f"Last-Event-ID: {last_id}\r\n"
            writer.write((head + "\r\n").encode())
            status = await asyncio.wait_for(reader.readline(), 30)
            if b" 200 " not in status:
                out["refused"] += 1
                await asyncio.sleep(1 + random.random() * 2)
                continue
            while (await reader.readline()) not in (b"\r\n", b""):
                pass
            out["connections"] += 1
            buf = b""
            resumed = bool(last_id)
            while time.time() < until:
                if not dropped and storm is not None and time.time() >= storm[0]:
                    dropped = True
                    writer.close()
                    await asyncio.sleep(random.uniform(0, storm[1]))  # back within 10 s
                    break
                try:
                    chunk = await asyncio.wait_for(reader.read(65536), 1.0)
                except TimeoutError:
                    continue
                if not chunk:
                    break
                now = time.time() * 1000
                buf += chunk
                end = 0
                for found in FRAME.finditer(buf):
                    end = found.end()
                    sid, kind, data = found.group(1).decode(), found.group(2), found.group(3)
                    if kind == b"ready":
                        if not first_ready:
                            first_ready = sid
                        last_id = sid
                        continue
                    last_id = sid
                    seen.append(sid)
                    at = AT.search(data)
                    if at and out["measure"]:
                        delay = now - int(at.group(1))
                        (out["backlog"] if resumed and delay > 500 else out["delays"]).append(delay)
                buf = buf[end:] if end else buf[-4096:]
        except (OSError, TimeoutError):
            out["errors"] += 1
            await asyncio.sleep(0.5 + random.random())
        finally:
            if writer is not None:
                writer.close()
    out["clients"].append((first_ready, seen))


async def _spectators(args: argparse.Namespace) -> dict[str, Any]:
    out: dict[str, Any] = {
        "measure": args.measure,
        "connections": 0,
        "refused": 0,
        "errors": 0,
        "delays": [],
        "backlog": [],
        "clients": [],
    }
    until = time.time() + args.seconds
    storm = (time.time() + args.storm_after, 10.0) if args.storm_after else None
    tasks = []
    started = time.time()
    for i in range(args.count):
        tasks.append(asyncio.create_task(_spectator(args.port, args.path, until, storm, out)))
        if i % 200 == 199:
            await asyncio.sleep(0.05)  # a hall arriving, not one SYN flood
    out["connect_seconds"] = round(time.time() - started, 1)
    await asyncio.gather(*tasks)
    return out


def spectators_main(args: argparse.Namespace) -> None:
    """The child: runs the spectators, checks their ids against the stream, prints JSON."""
    import redis

    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    out = asyncio.run(_spectators(args))
    usage = resource.getrusage(resource.RUSAGE_SELF)
    out["cpu_seconds"] = usage.ru_utime + usage.ru_stime
    out["lifetime_seconds"] = args.seconds  # the child's own: the phase plus its 8 s margin
    client = redis.Redis.from_url(args.redis)
    entries = [e[0].decode() for e in client.xrange(args.key, min="-", max="+")]
    missing = twice = checked = 0
    for first_ready, seen in out.pop("clients"):
        if not first_ready or not seen:
            continue
        expected = [e for e in entries if _key(first_ready) < _key(e) <= _key(seen[-1])]
        checked += 1
        missing += len(set(expected) - set(seen))
        twice += len(seen) - len(set(seen))
    delays, backlog = out.pop("delays"), out.pop("backlog")
    out.update(
        clients_checked=checked,
        events_missing=missing,
        events_twice=twice,
        delay_ms=_ms(delays),
        resumed_backlog_ms=_ms(backlog),
        deliveries=len(delays) + len(backlog),
    )
    print(json.dumps(out))


def _key(sid: str) -> tuple[int, int]:
    ms, seq = sid.split("-")
    return int(ms), int(seq)


def _ms(values: list[float]) -> dict[str, float]:
    """Percentiles of milliseconds (harness.percentiles takes seconds)."""
    return percentiles([v / 1000 for v in values])


# --- the parent --------------------------------------------------------------------------------


def _run_spectators(
    port: int,
    tournament_id: int,
    count: int,
    seconds: float,
    storm_after: float,
    key: str,
    measure: bool,
) -> subprocess.Popen[bytes]:
    """A child process of spectators. Most only read (as a phone does); `measure`: the probes,
    a few spectators in a process of their own that time each event, so that the delay is the
    server's and the network's, not that of one client process juggling thousands."""
    return subprocess.Popen(
        [
            PYTHON,
            str(Path(__file__).resolve()),
            "--spectators",
            f"--port={port}",
            f"--path=/api/v1/tournaments/{tournament_id}/stream/",
            f"--count={count}",
            f"--seconds={seconds}",
            f"--storm-after={storm_after}",
            f"--key={key}",
            f"--redis={os.environ['REDIS_URL']}",
            *(["--measure"] if measure else []),
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
    )


def _overlay(web: int, stream: int, tournament_id: int, until: float, out: dict[str, Any]) -> None:
    """One overlay following the push channel as live.js does: a pushed event makes it fetch
    its fragment, one fetch at a time (events during a fetch make one more after it); each
    event's delay is from its commit to the end of the first fetch begun after it arrived."""
    import http.client

    arrived: list[tuple[float, int]] = []  # (arrival, commit) in ms
    lock = threading.Condition()

    def listen() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", stream, timeout=30)
        conn.request("GET", f"/api/v1/tournaments/{tournament_id}/stream/")
        answer = conn.getresponse()
        while time.time() < until:
            line = answer.fp.readline()
            if not line:
                break
            found = AT.search(line)
            if found:
                with lock:
                    arrived.append((time.time() * 1000, int(found.group(1))))
                    lock.notify()
        conn.close()

    threading.Thread(target=listen, daemon=True).start()
    client = Client(web)
    path = f"/t/{tournament_id}/tables/1/overlay/?fragment=1"
    etag = ""
    while time.time() < until:
        with lock:
            if not arrived:
                lock.wait(0.5)
            waiting, arrived[:] = list(arrived), []
        if not waiting:
            continue
        _status, _, headers, took = client.request("GET", path, headers={"If-None-Match": etag})
        etag = headers.get("ETag", etag)
        done = time.time() * 1000
        for _came, commit in waiting:
            out["push"].append(done - commit)
            out["fetch"].append(took * 1000)
            out["commits"].append(commit)


def _phase(
    name: str,
    *,
    ports: tuple[int, int],
    seeded: Any,
    spectators: int,
    seconds: float,
    pace: float,
    procs: dict[str, Any],
    storm_after: float = 0.0,
    key: str,
    overlay: bool = False,
) -> dict[str, Any]:
    from bench.scenario import run_tables

    web, stream = ports
    children = []
    if spectators:
        # The probes first: behind thousands of connections at once, a probe's SYN could wait
        # for a retransmission and it would time only the end of the phase.
        for count, measure in ((PROBES, True), (spectators - PROBES, False)):
            children.append(
                _run_spectators(
                    stream, seeded.tournament_id, count, seconds + 8, storm_after, key, measure
                )
            )
            time.sleep(1.0 if measure else min(8.0, 2 + spectators / 1000))
    rss_before = rss_mb(procs["stream"].popen.pid)
    cpu_before = {k: sum(cpu_seconds(p) for p in v.children_pids()) for k, v in procs.items()}
    overlay_out: dict[str, Any] = {"push": [], "fetch": [], "commits": []}
    watcher = None
    if overlay:
        watcher = threading.Thread(
            target=_overlay,
            args=(web, stream, seeded.tournament_id, time.time() + seconds, overlay_out),
            daemon=True,
        )
        watcher.start()
    logs = run_tables(port=web, seeded=seeded, seconds=seconds, pace=pace, rng_offset=len(name))
    cpu = {
        k: round(sum(cpu_seconds(p) for p in v.children_pids()) - cpu_before[k], 1)
        for k, v in procs.items()
    }
    result: dict[str, Any] = {
        "spectators": spectators,
        "seconds": seconds,
        "scorer_write_ms": percentiles([t for log in logs for t in log.latencies]),
        "writes": sum(len(log.latencies) for log in logs),
        "cpu_seconds": cpu,
        "cpu_share_of_2_cores": {k: round(v / seconds / 2, 2) for k, v in cpu.items()},
        "stream_rss_mb": round(rss_mb(procs["stream"].popen.pid), 1),
        "stream_rss_growth_mb": round(rss_mb(procs["stream"].popen.pid) - rss_before, 1),
    }
    if children:
        probes, bulk = (
            json.loads(c.communicate(timeout=seconds + 60)[0] or b"{}") for c in children
        )
        result["spectators_seen"] = {
            k: bulk.get(k, 0) + probes.get(k, 0)
            for k in (
                "connections",
                "refused",
                "errors",
                "clients_checked",
                "events_missing",
                "events_twice",
                "deliveries",
            )
        }
        result["spectators_seen"]["connect_seconds"] = bulk.get("connect_seconds")
        # The loopback clients run on the same two cores as the server: what they took is
        # CPU a hall's phones would not take from the box.
        clients = sum(
            c.get("cpu_seconds", 0.0) / c.get("lifetime_seconds", 1) for c in (bulk, probes)
        )
        result["cpu_share_of_2_cores"]["spectator_clients"] = round(clients / 2, 2)
        result["spectators_seen"]["delay_ms"] = probes.get("delay_ms")
        result["spectators_seen"]["resumed_backlog_ms"] = probes.get("resumed_backlog_ms")
        if spectators:
            result["per_1000_connections"] = {
                "stream_cpu_share": round(cpu["stream"] / seconds / (spectators / 1000), 3),
                "stream_rss_mb": round(rss_mb(procs["stream"].popen.pid) / (spectators / 1000), 1),
            }
    if overlay and overlay_out["push"]:
        fetch = sorted(overlay_out["fetch"])[len(overlay_out["fetch"]) // 2]
        # Today's polling over the same commits: the first poll of a 2 s period after each
        # commit, at a random phase, plus the same fetch time.
        phase = random.Random(7).uniform(0, 2000)
        polled = [((phase - c) % 2000) + fetch for c in overlay_out["commits"]]
        result["overlay_after_tap_ms"] = {
            "pushed": _ms(overlay_out["push"]),
            "polled_every_2s": _ms(polled),
        }
    print(name, json.dumps({k: v for k, v in result.items() if k != "cpu_seconds"}), flush=True)
    return result


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--spectators", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--path", default="", help=argparse.SUPPRESS)
    parser.add_argument("--count", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--storm-after", type=float, default=0.0, help=argparse.SUPPRESS)
    parser.add_argument("--key", default="", help=argparse.SUPPRESS)
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--redis", default="", help=argparse.SUPPRESS)
    parser.add_argument("--players", type=int, default=256)
    parser.add_argument("--tables", type=int, default=32)
    parser.add_argument("--levels", default="1000,2000,5000")
    parser.add_argument("--seconds", type=float, default=20.0, help="per phase")
    # A referee enters a shot every 10-20 s in a real match; 6 s is a busy hall.
    parser.add_argument("--pace", type=float, default=6.0, help="a scorer's seconds per event")
    parser.add_argument("--storm-spectators", type=int, default=0, help="default: the top level")
    parser.add_argument("--report", default="push_hall")
    args = parser.parse_args()
    if args.spectators:
        spectators_main(args)
        return 0

    log_dir = Path(tempfile.mkdtemp(prefix="luza-bench-"))
    report: dict[str, Any] = {"setup": vars(args), "load_average_at_start": os.getloadavg()}
    with throwaway_database() as database_url:
        env = service_env(database_url)
        subprocess.run(
            [PYTHON, "manage.py", "migrate", "--no-input", "-v", "0"], cwd=ROOT, env=env, check=True
        )
        os.environ.update(env)
        import django

        django.setup()
        from django.conf import settings
        from django.core.cache import cache
        from django.db import connections

        from bench.scenario import seed
        from config.push import redis_client

        cache.clear()
        started = time.monotonic()
        seeded = seed(players=args.players, tables=args.tables)
        report["seed_seconds"] = round(time.monotonic() - started, 1)
        connections.close_all()
        key = f"{settings.INSTANCE}:live:t:{seeded.tournament_id}"
        redis_client().delete(key)
        web_port, stream_port = free_port(), free_port()
        procs = {
            "gunicorn": gunicorn("web", web_port, env, log_dir, workers=2, threads=4),
            "stream": start(
                "stream",
                [PYTHON, "-m", "config.serve", "--port", str(stream_port)],
                env,
                log_dir,
            ),
        }
        try:
            wait_http(web_port)
            wait_http(stream_port, "/api/v1/tournaments/0/stream/")
            common = {
                "ports": (web_port, stream_port),
                "seeded": seeded,
                "seconds": args.seconds,
                "pace": args.pace,
                "procs": procs,
                "key": key,
            }
            report["idle"] = _phase("idle", spectators=0, overlay=True, **common)
            for level in [int(n) for n in args.levels.split(",") if n]:
                report[f"spectators_{level}"] = _phase(
                    f"spectators_{level}", spectators=level, overlay=True, **common
                )
            top = args.storm_spectators or max(int(n) for n in args.levels.split(","))
            report["reconnect_storm"] = _phase(
                "reconnect_storm", spectators=top, storm_after=12.0, **common
            )
        finally:
            for proc in procs.values():
                proc.stop()
    report["load_average_at_end"] = os.getloadavg()
    path = write_report(args.report, report)
    print("report:", path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
