"""Rules engine speed: replay of long, realistic match logs.

Usage: python bench/rules_replay.py [--json] [--runs N] [--check]

The logs are built deterministically (seeded random legal games driven by the engine's
`awaiting`): a race to 30 with continuation under the regulation R (300+ events with fouls,
fools and re-racks), the same race with the general-practice penalty and a head start, a
classic best-of-5 race to 8 without continuation, and a full Duplex game. For each log it
reports the median time of one full replay over several runs, the events per second of
replay(), and of apply() one event at a time. The goal is 100,000 events/s for replay().
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import rules
from rules.simulate import random_game

GOAL_EVENTS_PER_S = 100_000

Log = tuple[str, dict[str, Any], list[dict[str, Any]]]


def _kinds(events: list[dict[str, Any]]) -> Counter[str]:
    kinds: Counter[str] = Counter(e["type"] for e in events)
    kinds["fouls"] = sum(1 for e in events if e.get("foul") or e.get("legal") is False)
    kinds["fools"] = sum(1 for e in events if e.get("fools"))
    return kinds


def _first_log(
    name: str,
    ruleset: dict[str, Any],
    accept: Callable[[list[dict[str, Any]], Counter[str]], bool],
    skill: float,
) -> Log:
    """The log of the first seed whose finished game fits `accept`: deterministic."""
    for seed in range(10_000):
        events = random_game(ruleset, random.Random(seed), skill=skill, rare=0.0)
        if rules.replay(ruleset, events)["finished"] and accept(events, _kinds(events)):
            return name, ruleset, events
    raise SystemExit(f"no seed gives a {name} log")


def build_logs() -> list[Log]:
    race = {"discipline": "free_pyramid"}  # R defaults: race to 30, continuation
    return [
        _first_log(
            "race to 30, R",
            race,
            lambda ev, k: len(ev) >= 300 and k["fouls"] >= 5 and k["fools"] >= 3 and k["rerack"],
            skill=0.3,
        ),
        _first_log(
            "race to 30, opponent_takes, head start 5",
            {**race, "penalty": "opponent_takes", "head_start": {"a": 0, "b": 5}},
            lambda ev, k: len(ev) >= 200 and k["fouls"] >= 5 and k["rerack"],
            skill=0.2,
        ),
        _first_log(
            "classic race to 8, best of 5",
            {
                "discipline": "free_pyramid",
                "balls_to_win": 8,
                "frames_to_win": 3,
                "continuation": False,
                "direct_call": False,
            },
            lambda ev, k: len(ev) >= 200 and k["fouls"] >= 5,
            skill=0.35,
        ),
        _first_log(
            "Duplex game",
            {"discipline": "duplex"},
            lambda ev, k: k["choose_breaker"] == 1 and k["penalty_removal"] >= 5,
            skill=0.35,
        ),
    ]


def _median_seconds(fn: Callable[[], object], runs: int) -> float:
    """Median wall time of one call, each run repeating the call for about 50 ms."""
    start = time.perf_counter()
    fn()
    once = max(time.perf_counter() - start, 1e-6)
    number = max(1, int(0.05 / once))
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        samples.append((time.perf_counter() - start) / number)
    return statistics.median(samples)


def measure(log: Log, runs: int) -> dict[str, Any]:
    name, ruleset, events = log

    def by_replay() -> object:
        return rules.replay(ruleset, events)

    def by_apply() -> object:
        state = rules.initial_state(ruleset)
        for ev in events:
            state = rules.apply(state, ev)
        return state

    assert by_replay() == by_apply()
    replay_s = _median_seconds(by_replay, runs)
    apply_s = _median_seconds(by_apply, runs)
    kinds = _kinds(events)
    return {
        "log": name,
        "events": len(events),
        "fouls": kinds["fouls"],
        "fools": kinds["fools"],
        "reracks": kinds["rerack"],
        "replay_ms": round(replay_s * 1000, 3),
        "replay_events_per_s": round(len(events) / replay_s),
        "apply_events_per_s": round(len(events) / apply_s),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--runs", type=int, default=7, help="timed runs per figure (median)")
    parser.add_argument(
        "--check", action="store_true", help=f"exit 1 below {GOAL_EVENTS_PER_S:,} events/s"
    )
    args = parser.parse_args(argv)
    results = [measure(log, max(1, args.runs)) for log in build_logs()]
    met = all(r["replay_events_per_s"] >= GOAL_EVENTS_PER_S for r in results)
    if args.json:
        print(json.dumps({"goal_events_per_s": GOAL_EVENTS_PER_S, "met": met, "logs": results}))
    else:
        head = f"{'log':<42} {'events':>6} {'fouls':>5} {'fools':>5} {'reracks':>7} "
        head += f"{'replay ms':>9} {'replay ev/s':>12} {'apply ev/s':>11}"
        print(head)
        print("-" * len(head))
        for r in results:
            print(
                f"{r['log']:<42} {r['events']:>6} {r['fouls']:>5} {r['fools']:>5} "
                f"{r['reracks']:>7} {r['replay_ms']:>9.3f} {r['replay_events_per_s']:>12,} "
                f"{r['apply_events_per_s']:>11,}"
            )
        verdict = "met" if met else "NOT met"
        print(f"goal {GOAL_EVENTS_PER_S:,} replay events/s: {verdict} (median of {args.runs} runs)")
    return 1 if args.check and not met else 0


if __name__ == "__main__":
    sys.exit(main())
