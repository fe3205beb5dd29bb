"""`make run` keeps the site up by itself: scripts/run.sh with its private Redis on a socket,
the worker killed, the web answering throughout, the worker back; one Ctrl-C stops it all."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import require_service
from tests.workers import ROOT, process_env, wait_for

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


# Python as the shell's parent: SIGINT back to its default, then exec (the same process).
_DEFAULT_INT = (
    "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
    "os.execvp(sys.argv[1], sys.argv[1:])"
)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _children(pid: int) -> dict[int, str]:
    """Every process below `pid` (its children, theirs...), with its command line."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat.rpartition(")")[2].split()[1])
    found: dict[int, str] = {}
    todo = [pid]
    while todo:
        parent = todo.pop()
        for child, ppid in parents.items():
            if ppid == parent and child not in found:
                try:
                    found[child] = (Path(f"/proc/{child}/cmdline").read_bytes()).decode()
                except OSError:
                    continue
                todo.append(child)
    return found


def _started_with(var: Path) -> list[int]:
    """The processes whose environment names `var` as LUZA_VAR_DIR (run.sh's and theirs), or
    whose command line names it (Redis writes its title over its environment)."""
    mark = f"LUZA_VAR_DIR={var}\0".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != os.getpid():
            try:
                environ = (entry / "environ").read_bytes()
                cmdline = (entry / "cmdline").read_bytes()
                if mark in environ or str(var).encode() in cmdline:
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        return False
    return state != "Z"


def _health(port: int) -> dict[str, object] | None:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as response:
            return dict(json.load(response))
    except urllib.error.HTTPError as exc:
        return {"status": exc.code}
    except OSError:
        return None


def _until(what: str, check, seconds: float = 90.0):  # type: ignore[no-untyped-def]
    value = wait_for(check, seconds, interval=0.3)
    assert value, f"never: {what}"
    return value


@pytest.fixture
def run_sh(transactional_db) -> Iterator[tuple[subprocess.Popen[bytes], int, Path]]:
    if shutil.which("redis-server") is None:
        require_service("redis-server (scripts/system-deps.sh installs it)")
    var = Path(tempfile.mkdtemp(prefix="luza-run-"))  # short: the socket's path has a limit
    port = _free_port()
    env = process_env(
        DJANGO_SETTINGS_MODULE="config.settings",
        DJANGO_DEBUG="1",
        LUZA_VAR_DIR=str(var),
        LUZA_PORT=str(port),
        LUZA_DEMO="0",
        LUZA_HEALTH_PING_SECONDS="1",
    )
    env.pop("REDIS_URL", None)  # make run's own Redis, on a socket under var/
    log = var / "out.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            # Ctrl-C as a terminal's foreground job has it, whatever started the test runner:
            # a shell ignores for good a SIGINT ignored when it starts (a runner in the
            # background has it ignored), and run.sh could not trap it.
            [sys.executable, "-c", _DEFAULT_INT, "bash", "scripts/run.sh"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own group, as a terminal's foreground job is
        )
    try:
        yield proc, port, var
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        # Whatever it started and left (a failed test's), found by the folder it was given.
        for pid in _started_with(var):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        shutil.rmtree(var, ignore_errors=True)


def _worker(run_pid: int) -> int | None:
    return next(
        (pid for pid, cmd in _children(run_pid).items() if "worker\0" in cmd and "celery" in cmd),
        None,
    )


def test_a_killed_worker_comes_back_while_the_web_answers(run_sh) -> None:
    proc, port, var = run_sh
    log = var / "out.log"
    up = _until("the stack answers with one worker", lambda: (_health(port) or {}).get("workers"))
    assert up == 1, log.read_text()[-3000:]
    assert log.read_text().count("celery.apps.worker: ") == 1
    assert (var / "redis" / "redis.sock").is_socket()

    worker = _worker(proc.pid)
    assert worker is not None
    os.kill(worker, signal.SIGKILL)
    statuses = []

    def back() -> bool:
        health = _health(port)
        statuses.append((health or {}).get("status"))
        ready = log.read_text().count("celery.apps.worker: ")  # "luza@host ready."
        return ready == 2 and _worker(proc.pid) not in (None, worker)

    _until("the worker is back", back)
    # The web answered at every probe while the worker was down and coming back.
    assert set(statuses) == {"ok"}, statuses
    lines = [line for line in log.read_text().splitlines() if "run.sh:" in line]
    assert len(lines) == 1 and "worker exited" in lines[0], lines
    assert "LocalTime ->" not in log.read_text() and "[config]" not in log.read_text()  # --quiet

    everything = _children(proc.pid)
    os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C in the terminal
    assert proc.wait(timeout=90) == 0
    assert not [pid for pid in everything if _alive(pid)], "processes left behind"
    assert not (var / "redis" / "redis.sock").exists()


@pytest.mark.skipif(
    shutil.which("setpriv") is None, reason="no util-linux setpriv: run.sh starts without the guard"
)
def test_nothing_outlives_a_killed_run_sh(run_sh) -> None:
    """kill -9 of run.sh (or of make above it) leaves no web server on the port, no worker and
    no Redis on the socket: each was started with the parent-death signal, so the next
    `make run` finds the folder and the port free."""
    proc, port, var = run_sh
    _until("the stack answers with one worker", lambda: (_health(port) or {}).get("workers"))
    everything = _children(proc.pid)
    assert any("config.serve" in cmd for cmd in everything.values()), everything
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)
    left = wait_for(lambda: not [pid for pid in everything if _alive(pid)], 45, interval=0.3)
    assert left, {pid: cmd for pid, cmd in everything.items() if _alive(pid)}
    assert not (var / "redis" / "redis.sock").exists()
    with socket.socket() as probe:
        assert probe.connect_ex(("127.0.0.1", port)) != 0, "the port still answers"
