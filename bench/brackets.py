"""Bracket generation speed: ours against the peer library (brackets-manager).

    .venv/bin/python bench/brackets.py [--quick] [--json] [--no-peer]

Copies the peer harness (``../shared/peers/brackets`` next to the repository) into a
temporary folder, runs ``npm ci --prefer-offline`` and ``node bench.mjs`` there, and
times our generation for the same sizes in the same run: double elimination with
a grand-final reset and single elimination, N = 8 .. 1024. Our figure is the median
of many cold runs after warm-up (nothing is cached between runs: every call
recomputes the seed order, the byes, the drop orders and all links).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import re
import shutil
import stat
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PEER = REPO.parent / "shared" / "peers" / "brackets"
sys.path.insert(0, str(REPO))

from tournaments.algorithms.brackets import Bracket, double_elimination, single_elimination  # noqa: E402

SIZES = (8, 16, 32, 64, 128, 256, 512, 1024)
FORMATS: dict[str, Callable[[int], Bracket]] = {
    "double": lambda n: double_elimination(n, grand_final="reset"),
    "single": lambda n: single_elimination(n),
}
PEER_SECTIONS = {"double": "double_elimination", "single": "single_elimination"}


def time_ours(make: Callable[[int], Bracket], n: int, budget: float) -> dict[str, float]:
    """Median/min/max milliseconds of ``make(n)`` over runs filling about ``budget`` seconds."""
    for _ in range(5):
        make(n)
    t0 = time.perf_counter()
    make(n)
    once = time.perf_counter() - t0
    runs = max(21, min(2001, int(budget / max(once, 1e-6))))
    gc.collect()
    samples = []
    for _ in range(runs):
        t0 = time.perf_counter()
        make(n)
        samples.append(time.perf_counter() - t0)
    ms = [s * 1000 for s in samples]
    return {
        "median_ms": statistics.median(ms),
        "min_ms": min(ms),
        "max_ms": max(ms),
        "runs": runs,
        "matches": len(make(n).matches),
    }


def run_peer(quick: bool) -> tuple[dict[str, dict[int, dict[str, float]]], str]:
    """The peer's creation medians, parsed from ``node bench.mjs``; raises when it cannot run."""
    if not PEER.is_dir():
        raise RuntimeError(f"peer harness not found at {PEER}")
    for tool in ("node", "npm"):
        if shutil.which(tool) is None:
            raise RuntimeError(f"{tool} is not installed")
    with tempfile.TemporaryDirectory(prefix="brackets-peer-") as tmp:
        work = Path(tmp) / "brackets"
        shutil.copytree(PEER, work, ignore=shutil.ignore_patterns("node_modules"))
        # The shared copy is read-only; npm needs to write next to package.json.
        for root, dirs, files in os.walk(work):
            for path in (root, *(os.path.join(root, f) for f in (*dirs, *files))):
                os.chmod(path, os.stat(path).st_mode | stat.S_IWUSR)
        subprocess.run(
            ["npm", "ci", "--prefer-offline", "--no-audit", "--no-fund"],
            cwd=work,
            check=True,
            capture_output=True,
        )
        args = ["node", "bench.mjs", *(["--quick"] if quick else [])]
        out = subprocess.run(args, cwd=work, check=True, capture_output=True, text=True).stdout
    return parse_peer(out), out


def parse_peer(text: str) -> dict[str, dict[int, dict[str, float]]]:
    result: dict[str, dict[int, dict[str, float]]] = {}
    section = None
    for line in text.splitlines():
        head = re.match(r"## creation only: (\w+)", line)
        if head:
            section = next((k for k, v in PEER_SECTIONS.items() if v == head.group(1)), None)
            continue
        if line.startswith("## "):
            section = None
        row = re.match(r"\s*(\d+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)", line)
        if section and row:
            n, matches, med, lo, hi, size_only = row.groups()
            result.setdefault(section, {})[int(n)] = {
                "matches": int(matches),
                "median_ms": float(med),
                "min_ms": float(lo),
                "max_ms": float(hi),
                "size_only_median_ms": float(size_only),
            }
    return result


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="fewer runs (ours and the peer's)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of the table")
    parser.add_argument("--no-peer", action="store_true", help="time ours only")
    opts = parser.parse_args()

    peer: dict[str, dict[int, dict[str, float]]] = {}
    peer_error = None
    if not opts.no_peer:
        try:
            peer, _ = run_peer(opts.quick)
        except (RuntimeError, subprocess.CalledProcessError, OSError) as exc:
            stderr = getattr(exc, "stderr", None)
            peer_error = (
                f"{exc}{': ' + stderr.decode()[-500:] if isinstance(stderr, bytes) else ''}"
            )

    budget = 0.05 if opts.quick else 0.3
    ours = {fmt: {n: time_ours(make, n, budget) for n in SIZES} for fmt, make in FORMATS.items()}

    rows = []
    for n in SIZES:
        row: dict[str, object] = {"n": n}
        for fmt in FORMATS:
            mine = ours[fmt][n]
            theirs = peer.get(fmt, {}).get(n)
            row[fmt] = {
                "ours": mine,
                "peer": theirs,
                "ratio": mine["median_ms"] / theirs["median_ms"]
                if theirs and theirs["median_ms"]
                else None,
            }
        rows.append(row)
    ratios = [r[fmt]["ratio"] for r in rows for fmt in FORMATS]  # type: ignore[index]
    goal = all(x is not None and x <= 1 for x in ratios) if peer else None
    env = {
        "python": platform.python_version(),
        "machine": f"{os.cpu_count()} x {platform.processor() or platform.machine()}",
        "quick": opts.quick,
    }

    if opts.json:
        print(
            json.dumps(
                {"env": env, "rows": rows, "peer_error": peer_error, "goal_met": goal}, indent=1
            )
        )
        return 0
    print(
        f"# bracket creation, median ms; ours: Python {env['python']}, cold runs; peer: brackets-manager"
    )
    if peer_error:
        print(f"# peer not run: {peer_error}")
    print(
        f"{'N':>5} | {'DE ours':>8} {'DE peer':>8} {'ratio':>6} | {'SE ours':>8} {'SE peer':>8} {'ratio':>6}"
        f" | {'DE matches ours/peer':>20}"
    )
    for r in rows:
        cells = []
        for fmt in FORMATS:
            c = r[fmt]  # type: ignore[index]
            p = c["peer"]
            cells.append(
                f"{c['ours']['median_ms']:8.3f} {p['median_ms'] if p else float('nan'):8.2f} "
                f"{c['ratio'] if c['ratio'] is not None else float('nan'):6.2f}"
            )
        de = r["double"]  # type: ignore[index]
        counts = f"{de['ours']['matches']}/{de['peer']['matches'] if de['peer'] else '-'}"
        print(f"{r['n']:>5} | {cells[0]} | {cells[1]} | {counts:>20}")
    if goal is not None:
        print(f"# ours at most as slow as the peer at every size: {'yes' if goal else 'NO'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
