#!/usr/bin/env bash
# `make bench`: every benchmark under bench/, one after the other, in under 10 minutes on a
# 2-core machine. The load benchmarks need PostgreSQL and Redis: BENCH_PG_URL (an admin
# connection; each run creates a throwaway database and drops it) and BENCH_REDIS_URL (a Redis
# database nothing else uses: it is flushed, and it is the runs' Celery broker). Figures go to
# stdout and bench/out/*.json; docs/performance.md records them with the machine.
set -uo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
export BENCH_PG_URL="${BENCH_PG_URL:-postgresql://postgres@127.0.0.1:5432/postgres}"
export BENCH_REDIS_URL="${BENCH_REDIS_URL:-redis://127.0.0.1:6379/9}"

failed=()
step() {
  local name=$1
  shift
  echo
  echo "=== $name"
  local started=$SECONDS
  "$@" || failed+=("$name")
  echo "--- $name: $((SECONDS - started)) s"
}

step "rules engine replay" $PY bench/rules_replay.py
step "bracket generation, ours and brackets-manager" $PY bench/brackets.py
step "clock expiry lateness" \
  env DATABASE_URL="$BENCH_PG_URL" REDIS_URL="$BENCH_REDIS_URL" $PY bench/clock_precision.py
step "cost of one event POST, in process" $PY bench/profile_events.py --requests 1000
step "event POSTs and the ceiling, 64 tables" \
  $PY bench/load_events.py --seconds 45 --ceiling-seconds 24 --paced-seconds 20
# The tables at a ball every ~5 s each (a referee takes 10-20 s): the pages, not the tables,
# are the load here.
step "500 phones on a 256-player bracket while 64 tables score" \
  $PY bench/load_events.py --players 256 --phones 500 --seconds 0 --ceiling-seconds 0 \
  --paced-seconds 60 --pace 5 --report phones
# Saturated for 30 s, then at a ball per second per table: the clocks, started at the first
# answer, expire a minute later, during the paced phase.
step "two web servers, two Celery workers, 1-minute clocks" \
  $PY bench/load_events.py --web-servers 2 --celery-workers 2 --clock-minutes 1 --seconds 30 \
  --rounds 1 --ceiling-seconds 0 --paced-seconds 75 --report scale_out

echo
if ((${#failed[@]})); then
  printf 'failed or missed its goal: %s\n' "${failed[@]}"
  exit 1
fi
echo "all benchmarks ran (${SECONDS} s)"
