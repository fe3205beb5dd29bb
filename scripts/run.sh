#!/usr/bin/env bash
# Web server, Celery worker and beat in the foreground; one Ctrl-C (or any of them dying) stops all.
set -uo pipefail
BIN=.venv/bin
PORT=${LUZA_PORT:-8000}
pids=()
stop() {
  trap - INT TERM EXIT
  kill "${pids[@]}" 2>/dev/null
  wait 2>/dev/null
}
trap stop INT TERM EXIT
$BIN/celery -A config worker --loglevel=INFO --concurrency=2 --hostname="luza@%h" &
pids+=($!)
# Beat says only what goes wrong: at INFO it logs every sweep it sends (every 5 s).
$BIN/celery -A config beat --loglevel=WARNING &
pids+=($!)
$BIN/python manage.py runserver 127.0.0.1:$PORT --noreload &
pids+=($!)
echo "Luza is starting on http://127.0.0.1:$PORT/ ..."
# The logins and addresses as the last lines, once the web server and the worker answer.
$BIN/python manage.py run_banner --url http://127.0.0.1:$PORT &
wait -n "${pids[@]}"
