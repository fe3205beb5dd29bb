#!/usr/bin/env bash
# `make run`: the product in the foreground. Unless REDIS_URL is set, a private redis-server on a
# Unix socket under var/ (no TCP port, nothing saved) is the Celery broker and the cache, as Redis
# is in production; then the database is migrated and the demo loaded, and the web server, the
# Celery worker and beat start. Each of them is supervised: one that dies is started again, with
# one log line, while the others keep serving. One Ctrl-C stops them all, Redis last.
set -uo pipefail
cd "$(dirname "$0")/.."
BIN=.venv/bin
PORT=${LUZA_PORT:-8000}
# The settings' default (the checkout's var/), made absolute: every process names one folder.
VAR="$(realpath -m "${LUZA_VAR_DIR:-$PWD/var}")"
export LUZA_VAR_DIR="$VAR"
mkdir -p "$VAR"
# The processes write to the terminal (fd 3); bash's own notices ("line 9: 4242 Killed ...", when
# a supervised process is killed) go to var/run.log instead of breaking the one log format.
exec 3>&2 2>>"$VAR/run.log"

# The web server: uvicorn with config.asgi, the pages and the live streams (Server-Sent Events)
# on one port, as nginx puts gunicorn and the stream server behind one address in production.
# The one place its command is written.
web_command=("$BIN/python" -m config.serve --host 127.0.0.1 --port "$PORT" --access-log)
# --quiet: no banner, so that every line has the one format of config/logs.py.
worker_command=("$BIN/celery" -A config --quiet worker --loglevel=INFO --concurrency=2 --hostname="luza@%h")
# Beat says only what goes wrong (LUZA_BEAT_LOG_LEVEL): at INFO it logs every sweep it sends.
beat_command=("$BIN/celery" -A config --quiet beat --loglevel=WARNING)

log() {  # one line in the format of the other processes (UTC, level, pid, logger)
  printf '%s %s [%d] run.sh: %s\n' "$(date -u +%Y-%m-%dT%H:%M:%S.%3NZ)" "$1" "$$" "$2" >&3
}

private_redis=0
if [ -z "${REDIS_URL:-}" ]; then
  private_redis=1
  REDIS_DIR="$VAR/redis"
  SOCKET="$REDIS_DIR/redis.sock"
  if [ ${#SOCKET} -gt 100 ]; then  # the kernel's limit for a socket's path is 107 bytes
    log ERROR "the Redis socket path $SOCKET is too long for a Unix socket; set LUZA_VAR_DIR to a shorter folder"
    exit 1
  fi
  mkdir -p "$REDIS_DIR"
  chmod 700 "$REDIS_DIR"
  if redis-cli -s "$SOCKET" ping >/dev/null 2>&1; then
    log ERROR "another make run is using $VAR (its Redis answers on $SOCKET); stop it first"
    exit 1
  fi
  # The same URL the settings derive when REDIS_URL is unset (config.env.embedded_redis_url),
  # exported so that every process, and anything else that wants Redis, names it.
  export REDIS_URL="unix://$SOCKET?db=0"
  # Its own lines (another format) go to a file; run.sh says when it stops or restarts.
  redis_command=(redis-server --port 0 --unixsocket "$SOCKET" --unixsocketperm 700 --save ""
    --appendonly no --dir "$REDIS_DIR" --logfile "$REDIS_DIR/redis.log" --loglevel warning)
fi

# Each process is told to stop when run.sh goes, however it goes (a kill -9 of it or of make
# would leave the web server on the port and Redis on the socket, and the next make run would
# find them): the kernel's parent-death signal, set by util-linux's setpriv where there is one.
orphan_guard=()
if setpriv --pdeathsig TERM true >/dev/null 2>&1; then
  orphan_guard=(setpriv --pdeathsig TERM)
fi

declare -A pid_of=() started_at=() failures=()
order=()  # the names, in the order they first started
stopping=0

start() {  # start NAME: its command in a process group of its own, so that the group
  # (a Celery worker's pool processes, say) can be stopped with it
  local name=$1 command_var="${1}_command[@]"
  setsid "${orphan_guard[@]}" "${!command_var}" 2>&3 3>&- &
  pid_of[$name]=$!
  started_at[$name]=$SECONDS
  [[ " ${order[*]} " == *" $name "* ]] || order+=("$name")
}

stop_group() {  # TERM the leader (Celery and gunicorn stop their own children), then the rest
  local pid=$1
  kill -TERM "$pid" 2>/dev/null
  for _ in $(seq 1 80); do
    kill -0 -- "-$pid" 2>/dev/null || return 0
    sleep 0.25
  done
  kill -KILL -- "-$pid" 2>/dev/null
}

stop_all() {  # stop_all EXIT_STATUS
  trap - INT TERM HUP EXIT
  stopping=1
  [ -n "${banner_pid:-}" ] && kill "$banner_pid" 2>/dev/null
  local name stoppers=()
  for name in "${order[@]}"; do
    [ "$name" = redis ] && continue
    stop_group "${pid_of[$name]}" &
    stoppers+=($!)
  done
  wait "${stoppers[@]}"
  # Redis last: a worker that stops hands its reserved tasks back to it.
  [ -n "${pid_of[redis]:-}" ] && stop_group "${pid_of[redis]}"
  exit "$1"
}
trap 'stop_all 0' INT TERM HUP
trap 'stop_all $?' EXIT

wait_for_redis() {
  for _ in $(seq 1 100); do
    redis-cli -s "$SOCKET" ping >/dev/null 2>&1 && return 0
    kill -0 "${pid_of[redis]}" 2>/dev/null || break
    sleep 0.1
  done
  log ERROR "the private redis-server does not answer: $REDIS_DIR/redis.log says why"
  tail -n 5 "$REDIS_DIR/redis.log" >&3
  return 1
}

if [ "$private_redis" = 1 ]; then
  start redis
  wait_for_redis || exit 1
fi
$BIN/python manage.py migrate --no-input -v 0 2>&3 || exit 1
if [ "${LUZA_DEMO:-1}" != 0 ]; then
  $BIN/python manage.py load_demo 2>&3 || exit 1
fi
start worker
start beat
start web
echo "Luza is starting on http://127.0.0.1:$PORT/ ..."
# The logins and addresses as the last lines, once the web server and the worker answer.
"${orphan_guard[@]}" $BIN/python manage.py run_banner --url "http://127.0.0.1:$PORT" 2>&3 &
banner_pid=$!

# Supervision: whichever process ends is started again, after a pause that grows while it keeps
# dying at once (a port in use, a broken setting), so that a loop never floods the terminal.
while :; do
  wait -n -p ended
  status=$?
  [ "$stopping" = 1 ] && break
  for name in "${!pid_of[@]}"; do
    [ "${pid_of[$name]}" = "${ended:-}" ] || continue
    kill -KILL -- "-$ended" 2>/dev/null  # what it left behind (pool processes)
    if ((SECONDS - started_at[$name] < 10)); then
      failures[$name]=$((${failures[$name]:-0} + 1))
    else
      failures[$name]=0
    fi
    pause=$((1 << (failures[$name] < 5 ? failures[$name] : 5)))
    log WARNING "$name exited (status $status); starting it again in ${pause} s"
    sleep "$pause" &
    wait $!  # a Ctrl-C meanwhile stops everything at once
    start "$name"
    if [ "$name" = redis ]; then wait_for_redis || true; fi  # if it died again: the next round
  done
done
