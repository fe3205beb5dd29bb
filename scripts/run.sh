#!/usr/bin/env bash
# Web server, Celery worker and beat in the foreground; one Ctrl-C (or any of them dying) stops all.
set -uo pipefail
BIN=.venv/bin
pids=()
stop() {
  trap - INT TERM EXIT
  kill "${pids[@]}" 2>/dev/null
  wait 2>/dev/null
}
trap stop INT TERM EXIT
$BIN/celery -A config worker --loglevel=INFO --concurrency=2 --hostname="luza@%h" &
pids+=($!)
$BIN/celery -A config beat --loglevel=INFO &
pids+=($!)
$BIN/python manage.py runserver 127.0.0.1:8000 --noreload &
pids+=($!)
echo "Luza is starting on http://127.0.0.1:8000/ (Ctrl-C stops the web server, worker and beat)"
wait -n
