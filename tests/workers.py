"""Starting real Celery processes (worker, beat) against the test database and broker."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from celery import Celery
from django.db import connection

from config.celery import app as luza_app

ROOT = Path(__file__).resolve().parent.parent


def _database_url() -> str:
    s = connection.settings_dict
    if s["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{Path(s['NAME']).resolve()}"
    host = s.get("HOST") or "127.0.0.1"
    port = s.get("PORT") or 5432
    auth = s.get("USER") or "postgres"
    if s.get("PASSWORD"):
        auth += f":{s['PASSWORD']}"
    return f"postgresql://{auth}@{host}:{port}/{s['NAME']}"


def process_env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env["DJANGO_SETTINGS_MODULE"] = "config.settings_test"
    env["DATABASE_URL"] = _database_url()
    env["PYTHONPATH"] = str(ROOT)
    env.update(extra)
    return env


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)


def wait_for_worker(hostname: str, timeout: float = 30.0, app: Celery | None = None) -> None:
    if app is None:
        app = luza_app
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        replies = app.control.ping(destination=[hostname], timeout=0.5) or []
        if replies:
            return
        time.sleep(0.2)
    raise RuntimeError(f"Celery worker {hostname} did not answer within {timeout:.0f} s")


@contextmanager
def celery_worker(
    *,
    include: tuple[str, ...] = (),
    concurrency: int = 2,
    log: Path | None = None,
    env: dict[str, str] | None = None,
    app: Celery | None = None,
) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """A real `celery worker` process; yields (process, hostname) once it answers a ping."""
    hostname = f"test-{uuid.uuid4().hex[:8]}@localhost"
    args = [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "config",
        "worker",
        "--loglevel=INFO",
        f"--hostname={hostname}",
        f"--concurrency={concurrency}",
        "--pool=threads",
        "--without-mingle",
        "--without-gossip",
    ]
    if include:
        args.append("--include=" + ",".join(include))
    out = open(log, "ab") if log else subprocess.DEVNULL  # noqa: SIM115
    proc = subprocess.Popen(
        args, cwd=ROOT, env=process_env(**(env or {})), stdout=out, stderr=subprocess.STDOUT
    )
    try:
        wait_for_worker(hostname, app=app)
        yield proc, hostname
    finally:
        _stop(proc)
        if log:
            out.close()


@contextmanager
def celery_beat(
    *, log: Path | None = None, env: dict[str, str] | None = None
) -> Iterator[subprocess.Popen[bytes]]:
    schedule = ROOT / "var" / "test" / f"beat-{uuid.uuid4().hex[:8]}"
    schedule.parent.mkdir(parents=True, exist_ok=True)
    args = [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "config",
        "beat",
        "--loglevel=INFO",
        f"--schedule={schedule}",
    ]
    out = open(log, "ab") if log else subprocess.DEVNULL  # noqa: SIM115
    proc = subprocess.Popen(
        args,
        cwd=ROOT,
        # Its "Sending due task" lines tell the tests that beat runs (config.logs.beat_level).
        env=process_env(**{"LUZA_BEAT_LOG_LEVEL": "INFO", **(env or {})}),
        stdout=out,
        stderr=subprocess.STDOUT,
    )
    try:
        yield proc
    finally:
        _stop(proc)
        if log:
            out.close()
        for suffix in ("", ".db", ".dat", ".dir", ".bak"):
            Path(f"{schedule}{suffix}").unlink(missing_ok=True)


def wait_for(check: Callable[[], Any], timeout: float, interval: float = 0.05) -> Any:
    """The first true value of `check` within `timeout` seconds, else its last value."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = check()
        if value:
            return value
        time.sleep(interval)
    return check()
