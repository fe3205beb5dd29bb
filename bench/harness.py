"""Shared pieces of the load benchmarks: a throwaway PostgreSQL database, server and worker
processes, keep-alive HTTP clients, latency statistics and resident-memory sampling.

Everything runs on this machine against 127.0.0.1; every loop is bounded in time.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable

T = TypeVar("T")


def pg_admin_url() -> str:
    return os.environ.get("BENCH_PG_URL", "postgresql://postgres@127.0.0.1:5432/postgres")


def redis_url() -> str:
    return os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/9")


@contextmanager
def throwaway_database(prefix: str = "luza_bench") -> Iterator[str]:
    """CREATE DATABASE for the run, DROP it afterwards (kept, to look into, with
    BENCH_KEEP_DATABASE=1); yields its DATABASE_URL."""
    import psycopg

    name = f"{prefix}_{uuid.uuid4().hex[:8]}"
    admin = pg_admin_url()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    base = admin.rsplit("/", 1)[0]
    try:
        yield f"{base}/{name}"
    finally:
        if os.environ.get("BENCH_KEEP_DATABASE") == "1":
            print(f"database kept: {name}", file=sys.stderr)
        else:
            with psycopg.connect(admin, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def service_env(database_url: str, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env.update(
        DJANGO_SETTINGS_MODULE=extra.pop("DJANGO_SETTINGS_MODULE", "bench.settings"),
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY="bench-" + uuid.uuid4().hex + uuid.uuid4().hex,
        DATABASE_URL=database_url,
        REDIS_URL=redis_url(),
        LUZA_SSL_REDIRECT="0",
        LUZA_SECURE_COOKIES="0",
        LUZA_HSTS_SECONDS="0",
        LUZA_LOG_LEVEL="WARNING",
        # Every simulated phone comes from 127.0.0.1: one address would share one anonymous
        # budget (config/throttle.py). bench/anon_flood.py sets it when it measures the limit.
        LUZA_SCRAPER_RATE="",
        PYTHONPATH=str(ROOT),
    )
    env.update(extra)
    return env


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_http(port: int, path: str = "/healthz", timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", path)
            if conn.getresponse().status < 500:
                return
        except OSError:
            pass
        time.sleep(0.3)
    raise RuntimeError(f"nothing answered on port {port} within {timeout:.0f} s")


@dataclass
class Proc:
    name: str
    popen: subprocess.Popen[bytes]

    def children_pids(self) -> list[int]:
        """The process and its descendants (gunicorn and Celery workers fork)."""
        pids = [self.popen.pid]
        frontier = [self.popen.pid]
        while frontier:
            pid = frontier.pop()
            try:
                kids = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
            except OSError:
                kids = []
            for kid in kids:
                pids.append(int(kid))
                frontier.append(int(kid))
        return pids

    def stop(self) -> None:
        if self.popen.poll() is None:
            self.popen.send_signal(signal.SIGTERM)
            try:
                self.popen.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.popen.kill()
                self.popen.wait(timeout=5)


def start(name: str, args: list[str], env: dict[str, str], log_dir: Path) -> Proc:
    log_dir.mkdir(parents=True, exist_ok=True)
    log = open(log_dir / f"{name}.log", "ab")  # noqa: SIM115 - closed with the process
    popen = subprocess.Popen(args, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    return Proc(name, popen)


def gunicorn(
    name: str, port: int, env: dict[str, str], log_dir: Path, workers: int = 4, threads: int = 1
) -> Proc:
    return start(
        name,
        [
            PYTHON,
            "-m",
            "gunicorn",
            "config.wsgi:application",
            f"--bind=127.0.0.1:{port}",
            f"--workers={workers}",
            f"--threads={threads}",
            "--worker-class=gthread" if threads > 1 else "--worker-class=sync",
            "--keep-alive=30",
            "--backlog=2048",
            "--timeout=60",
            "--log-level=warning",
        ],
        env,
        log_dir,
    )


def celery_worker(name: str, env: dict[str, str], log_dir: Path, concurrency: int = 2) -> Proc:
    return start(
        name,
        [
            PYTHON,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--loglevel=WARNING",
            f"--concurrency={concurrency}",
            f"--hostname={name}@%h",
            "--without-gossip",
            "--without-mingle",
        ],
        env,
        log_dir,
    )


def celery_beat(name: str, env: dict[str, str], log_dir: Path) -> Proc:
    return start(
        name,
        [
            PYTHON,
            "-m",
            "celery",
            "-A",
            "config",
            "beat",
            "--loglevel=WARNING",
            f"--schedule={log_dir / (name + '.schedule')}",
        ],
        env,
        log_dir,
    )


# --- memory -----------------------------------------------------------------------------------


def rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process so far, with that of its children that have
    exited (PostgreSQL backends closed when a connection reaches its maximum age, gunicorn
    workers recycled after their maximum requests: their parent has reaped them); 0 once the
    process itself is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return sum(int(f) for f in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def _postgres_pids() -> list[int]:
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().strip() == "postgres":
                    pids.append(int(entry.name))
            except OSError:
                continue
    return pids


@dataclass
class CpuMeter:
    """CPU spent by the web servers, PostgreSQL and this process (the benchmark's clients)
    over a phase: where a request's cost goes when they all share the machine."""

    web: list[Proc]
    totals: dict[str, float] = field(default_factory=dict)

    def snapshot(self) -> dict[str, float]:
        times = os.times()
        return {
            "web": sum(cpu_seconds(pid) for proc in self.web for pid in proc.children_pids()),
            "postgres": sum(cpu_seconds(pid) for pid in _postgres_pids()),
            "clients": times.user + times.system,
        }

    def measure(self, run: Callable[[], T]) -> T:
        before = self.snapshot()
        result = run()
        after = self.snapshot()
        for key, value in after.items():
            self.totals[key] = self.totals.get(key, 0.0) + max(0.0, value - before[key])
        return result

    def per_request(self, requests: int) -> dict[str, float]:
        """Milliseconds of CPU per request, by group and in all."""
        out = {k: round(v * 1000 / max(1, requests), 2) for k, v in self.totals.items()}
        out["total"] = round(sum(self.totals.values()) * 1000 / max(1, requests), 2)
        return out


@dataclass
class MemorySampler:
    """Samples the resident memory of every process of each Proc, every `interval` seconds."""

    procs: list[Proc]
    interval: float = 1.0
    samples: dict[str, list[tuple[float, float]]] = field(
        default_factory=dict
    )  # name/pid -> (t, MB)
    _stop: threading.Event = field(default_factory=threading.Event)

    def __enter__(self) -> MemorySampler:
        self._t0 = time.monotonic()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            now = time.monotonic() - self._t0
            for proc in self.procs:
                # Every process: gunicorn's arbiter is small, but Celery's main process is the
                # consumer that holds the clocks' ETA tasks.
                for pid in proc.children_pids():
                    self.samples.setdefault(f"{proc.name}/{pid}", []).append((now, rss_mb(pid)))

    def report(self) -> dict[str, dict[str, float]]:
        """Per process: peak MB, and the growth between the first and last fifth of the run."""
        out = {}
        for key, series in self.samples.items():
            if len(series) < 5:
                continue
            values = [mb for _, mb in series]
            fifth = max(1, len(values) // 5)
            out[key] = {
                "peak_mb": round(max(values), 1),
                "early_mb": round(statistics.median(values[:fifth]), 1),
                "late_mb": round(statistics.median(values[-fifth:]), 1),
            }
        return out


# --- latency ----------------------------------------------------------------------------------


def percentiles(values: list[float]) -> dict[str, float]:
    if not values:
        return {"n": 0, "p50": 0.0, "p95": 0.0, "p99": 0.0, "max": 0.0}
    ordered = sorted(values)

    def pick(q: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000, 1)

    return {
        "n": len(ordered),
        "p50": pick(0.50),
        "p95": pick(0.95),
        "p99": pick(0.99),
        "max": round(ordered[-1] * 1000, 1),
    }


class Client:
    """One keep-alive HTTP/1.1 connection, as a phone or a table tablet would hold."""

    def __init__(self, port: int, token: str | None = None) -> None:
        self.port = port
        self.headers = {"Content-Type": "application/json", "Accept-Language": "ru"}
        if token:
            self.headers["Authorization"] = f"Token {token}"
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def request(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> tuple[int, bytes, dict[str, str], float]:
        data = json.dumps(body).encode() if body is not None else None
        all_headers = {**self.headers, **(headers or {})}
        for attempt in range(2):
            started = time.perf_counter()
            try:
                self.conn.request(method, path, body=data, headers=all_headers)
                response = self.conn.getresponse()
                payload = response.read()
                return (
                    response.status,
                    payload,
                    dict(response.getheaders()),
                    time.perf_counter() - started,
                )
            except (http.client.HTTPException, ConnectionError, OSError):
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                if attempt:
                    raise
        raise AssertionError("unreachable")


def write_report(name: str, report: dict[str, Any]) -> Path:
    out = ROOT / "bench" / "out"
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{name}.json"
    path.write_text(json.dumps(report, indent=2, ensure_ascii=False))
    return path
