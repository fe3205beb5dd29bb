#!/usr/bin/env bash
# Deployment smoke test: the shipped configuration on this machine, checked over HTTPS, then
# torn down. Run as root on Debian 12 with PostgreSQL and Redis up (.ci/run does, after the
# tests). What runs is what is shipped: deploy/bin/* (releases from a clone of this checkout's
# commit, the units' ExecStart), deploy/systemd/* (run by deploy/smoke_systemctl: no systemd
# here), deploy/env.example, deploy/nginx/luza.conf (ports, host name and certificate rewritten).
#
#   SMOKE_PG_URL     a PostgreSQL server where databases may be created (postgres@127.0.0.1)
#   SMOKE_REDIS_URL  a Redis database; only this run's keys are touched and deleted (DB 3)
#   SMOKE_PORT_BASE  loopback ports BASE+1..BASE+3 (gunicorn), BASE+80, BASE+443 (nginx)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
PG_URL="${SMOKE_PG_URL:-postgresql://postgres@127.0.0.1:5432}"
REDIS_URL="${SMOKE_REDIS_URL:-redis://127.0.0.1:6379/3}"
BASE="${SMOKE_PORT_BASE:-18400}"
WEB1=$((BASE + 1)) WEB2=$((BASE + 2)) WEB_RESTORED=$((BASE + 3))
HTTP=$((BASE + 80)) HTTPS=$((BASE + 443))
HOST=luza.test
RUN="$(date +%s)$$"
INSTANCE="smoke-$RUN"
DB="luza_smoke_$RUN"
DB_RESTORED="luza_smoke_${RUN}_restored"
TMP="$(mktemp -d /tmp/luza-smoke.XXXXXX)"
LOGS="$TMP/logs"
mkdir -p "$LOGS"
PY="$ROOT/.venv/bin/python"
groups=()
# LUZA_HOME of the run (/srv/luza in production) and the emulated systemd (its unit files, as
# copied to /etc/systemd/system, and its state).
LUZA_HOME="$TMP/srv"
export LUZA_SYSTEMCTL="$ROOT/deploy/smoke_systemctl" SMOKE_UNITS="$TMP/systemd" \
  SMOKE_STATE="$TMP/systemd-state" SMOKE_LOGS="$LOGS" SMOKE_HOME="$LUZA_HOME"
systemctl() { "$LUZA_SYSTEMCTL" "$@"; }

say() { printf '\n== %s %s\n' "$(date -u +%T)" "$*"; }

stop_group() {  # a process group started here, by its id: its leader first, as systemd's
  # KillMode=mixed does (a Celery worker or gunicorn master stops its own children), then
  # whatever is left of the group
  kill -TERM "$1" 2>/dev/null
  for _ in $(seq 1 60); do kill -0 -- "-$1" 2>/dev/null || return 0; sleep 0.25; done
  kill -KILL -- "-$1" 2>/dev/null || true
}

teardown() {
  local status=$?
  set +e
  trap - EXIT INT TERM
  say "tearing down"
  if [ -n "${POLLER:-}" ]; then touch "$TMP/poll.stop"; wait "$POLLER"; fi
  [ -f "$TMP/nginx/nginx.pid" ] && kill -QUIT "$(cat "$TMP/nginx/nginx.pid")" 2>/dev/null
  for state in "$SMOKE_STATE"/*.pid; do [ -e "$state" ] && systemctl stop "$(basename "$state" .pid)"; done
  for pgid in "${groups[@]}"; do stop_group "$pgid"; done
  sleep 0.5
  for db in "$DB" "$DB_RESTORED"; do
    psql -q "$PG_URL/postgres" -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null 2>&1
  done
  "$PY" - "$REDIS_URL" "$INSTANCE" <<'PYEOF'
import sys, redis
client = redis.Redis.from_url(sys.argv[1])
keys = list(client.scan_iter(match=f"{sys.argv[2]}*", count=1000))
if keys:
    client.delete(*keys)
PYEOF
  if [ "$status" -ne 0 ]; then
    say "FAILED (exit $status): the last lines of each log"
    for log in "$LOGS"/*.log "$TMP"/nginx/*.log; do
      [ -f "$log" ] && { echo "--- $log"; tail -n 25 "$log"; }
    done
  fi
  rm -rf "$TMP"
  exit "$status"
}
trap teardown EXIT INT TERM

start() {  # start NAME COMMAND...: in its own process group, logged to $LOGS/NAME.log
  local name="$1"
  shift
  setsid "$@" >"$LOGS/$name.log" 2>&1 &
  groups+=("$!")
  eval "PGID_${name//-/_}=$!"
}

say "nginx from Debian (if missing)"
if ! command -v nginx >/dev/null; then
  made_policy=0
  if [ ! -e /usr/sbin/policy-rc.d ]; then  # the package must not start a system nginx
    printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d
    made_policy=1
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nginx >/dev/null
  [ "$made_policy" = 1 ] && rm -f /usr/sbin/policy-rc.d
fi
nginx -v

say "environment file from deploy/env.example"
psql -q "$PG_URL/postgres" -c "CREATE DATABASE $DB"
ENV_FILE="$TMP/env"
SECRET="$("$PY" -c 'import secrets; print(secrets.token_urlsafe(50))')"
sed -e "s|^LUZA_INSTANCE=.*|LUZA_INSTANCE=$INSTANCE|" \
  -e "s|^LUZA_USER=.*|LUZA_USER=root|" \
  -e "s|^LUZA_HOME=.*|LUZA_HOME=$LUZA_HOME|" \
  -e "s|^LUZA_VAR_DIR=.*|LUZA_VAR_DIR=$TMP/var|" \
  -e "s|^DJANGO_SECRET_KEY=.*|DJANGO_SECRET_KEY=$SECRET|" \
  -e "s|luza\.example\.org|$HOST|g" \
  -e "s|^DJANGO_CSRF_TRUSTED_ORIGINS=.*|DJANGO_CSRF_TRUSTED_ORIGINS=https://$HOST:$HTTPS|" \
  -e "s|^DATABASE_URL=.*|DATABASE_URL=$PG_URL/$DB|" \
  -e "s|^REDIS_URL=.*|REDIS_URL=$REDIS_URL|" \
  -e "s|^LUZA_WORKER_CONCURRENCY=.*|LUZA_WORKER_CONCURRENCY=1|" \
  -e "s|^LUZA_BACKUP_DIR=.*|LUZA_BACKUP_DIR=$TMP/backups|" \
  deploy/env.example >"$ENV_FILE"
# Faster than production so that the run stays short: the health ping every 2 s.
echo "LUZA_HEALTH_PING_SECONDS=2" >>"$ENV_FILE"
export LUZA_ENV_FILE="$ENV_FILE" SMOKE_ENV_FILE="$ENV_FILE"
# This checkout belongs to root (CI): the service user is root here; in production it is luza.

say "the repository and the first release (deploy/bin/release)"
git clone --quiet --no-checkout "$ROOT" "$LUZA_HOME/repo"
git -C "$LUZA_HOME/repo" checkout --quiet "$(git -C "$ROOT" rev-parse HEAD)"
# The virtualenv of these requirements exists already (this checkout's): installing its
# packages again would only download them. A release with other requirements makes its own.
key="$(bash -c '. deploy/bin/_common.sh && luza_venv_key requirements.txt')"
mkdir -p "$LUZA_HOME/venvs"
ln -s "$ROOT/.venv" "$LUZA_HOME/venvs/$key"
touch "$LUZA_HOME/venvs/$key.ok"
"$LUZA_HOME/repo/deploy/bin/release"
CURRENT="$LUZA_HOME/current"
FIRST="$(readlink "$CURRENT")"
manage() { "$CURRENT/deploy/bin/manage" "$@"; }

say "first logins, twice: the second run changes no password"
manage ensure_superuser --username smoke-admin | tee "$TMP/superuser.txt"
manage ensure_organiser --username smoke-organiser | tee "$TMP/organiser.txt"
PASSWORD="$(sed -n 's/.*password: \([^ ]*\).*/\1/p' "$TMP/organiser.txt")"
[ -n "$PASSWORD" ] || { echo "no password printed" >&2; exit 1; }
manage ensure_superuser --username smoke-admin | grep -q unchanged
manage ensure_organiser --username smoke-organiser | tee "$TMP/organiser2.txt" | grep -q unchanged
if grep -q "$PASSWORD" "$TMP/organiser2.txt"; then echo "the password was shown again" >&2; exit 1; fi
TOKEN="$(manage api_token smoke-organiser --issue --quiet-key)"

say "the units: two gunicorn instances, two workers, one beat"
mkdir -p "$SMOKE_UNITS"
cp "$CURRENT"/deploy/systemd/luza-* "$SMOKE_UNITS/"
grep -q '^ExecStart=/srv/luza/current/deploy/bin/web %i$' "$SMOKE_UNITS/luza-web@.service"
grep -q '^ExecStart=/srv/luza/current/deploy/bin/worker %i$' "$SMOKE_UNITS/luza-worker@.service"
grep -q '^ExecStart=/srv/luza/current/deploy/bin/beat$' "$SMOKE_UNITS/luza-beat.service"
systemctl start "luza-web@$WEB1" "luza-web@$WEB2" luza-worker@1 luza-worker@2 luza-beat

say "nginx with a self-signed certificate (deploy/nginx/luza.conf)"
mkdir -p "$TMP/nginx/tls"
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj "/CN=$HOST" \
  -addext "subjectAltName=DNS:$HOST" -keyout "$TMP/nginx/tls/privkey.pem" \
  -out "$TMP/nginx/tls/fullchain.pem" 2>/dev/null
sed -e "s|luza\.example\.org|$HOST|g" \
  -e "s|/etc/letsencrypt/live/$HOST/|$TMP/nginx/tls/|g" \
  -e "/listen \[::\]/d" \
  -e "s|listen 80|listen 127.0.0.1:$HTTP|" \
  -e "s|listen 443|listen 127.0.0.1:$HTTPS|" \
  -e "s|server 127.0.0.1:8001|server 127.0.0.1:$WEB1|" \
  -e "s|server 127.0.0.1:8002|server 127.0.0.1:$WEB2|" \
  -e "s|root /var/www/html|root $TMP/nginx/acme|" \
  deploy/nginx/luza.conf >"$TMP/nginx/luza.conf"
cat >"$TMP/nginx/nginx.conf" <<CONF
user root;
worker_processes 1;
pid $TMP/nginx/nginx.pid;
error_log $TMP/nginx/error.log warn;
events { worker_connections 256; }
http {
    include /etc/nginx/mime.types;
    access_log $TMP/nginx/access.log;
    client_body_temp_path $TMP/nginx/body;
    proxy_temp_path $TMP/nginx/proxy;
    fastcgi_temp_path $TMP/nginx/fastcgi;
    uwsgi_temp_path $TMP/nginx/uwsgi;
    scgi_temp_path $TMP/nginx/scgi;
    include $TMP/nginx/luza.conf;
}
CONF
nginx -t -q -c "$TMP/nginx/nginx.conf"
nginx -c "$TMP/nginx/nginx.conf"

say "checks over HTTPS: health, login, a tournament, scoring with a gunicorn killed"
STATE="$TMP/state.json"
# `--password=...`: a generated password may begin with "-", which argparse would take for an option.
check() {
  "$PY" deploy/smoke_check.py "$1" --state "$STATE" --host "$HOST" --https "$HTTPS" \
    --http "$HTTP" --cert "$TMP/nginx/tls/fullchain.pem" --instance "$INSTANCE" \
    --token="$TOKEN" --username smoke-organiser --password="$PASSWORD" \
    --kill-group "$(systemctl show -p MainPID --value "luza-web@$WEB1")" \
    --restored-port "$WEB_RESTORED" "${@:2}"
}
check live
grep -q "login failed: address=127.0.0.1 username='smoke-organiser'" "$LOGS"/luza-web@*.log
grep -q "limiting requests" "$TMP/nginx/error.log"
# The killed instance comes back, as systemd's Restart=always brings it.
systemctl start "luza-web@$WEB1"
"$CURRENT/deploy/bin/wait-ready" "$WEB1"

say "backup, restored into a new database named explicitly, served beside production"
DUMP="$("$CURRENT/deploy/bin/backup")"
[ -s "$DUMP" ]
refused() {  # refused TARGET: restore must say no, loudly, and touch nothing
  if "$CURRENT/deploy/bin/restore" "$DUMP" "$1" 2>"$TMP/refusal.txt"; then
    echo "restore accepted the target '$1'" >&2
    exit 1
  fi
  echo "refused '$1': $(cat "$TMP/refusal.txt")"
}
refused ""
refused "$PG_URL/$DB?application_name=same-database-written-otherwise"
refused "$("$CURRENT/deploy/bin/database-url" "${DB_RESTORED}_missing")"
psql -q "$PG_URL/postgres" -c "CREATE DATABASE $DB_RESTORED"
TARGET="$("$CURRENT/deploy/bin/database-url" "$DB_RESTORED")"
"$CURRENT/deploy/bin/restore" "$DUMP" "$TARGET"
sed -e "s|^LUZA_INSTANCE=.*|LUZA_INSTANCE=$INSTANCE-restored|" "$ENV_FILE" >"$TMP/env-restored"
LUZA_ENV_FILE="$TMP/env-restored" "$CURRENT/deploy/bin/use-database" "$TARGET"
grep -q "^DATABASE_URL=$TARGET\$" "$TMP/env-restored"
LUZA_ENV_FILE="$TMP/env-restored" start web-restored "$CURRENT/deploy/bin/web" "$WEB_RESTORED"
LUZA_ENV_FILE="$TMP/env-restored" "$CURRENT/deploy/bin/wait-ready" "$WEB_RESTORED"
check restored

say "a new release while clients poll, then a rollback: nothing reinstalled, no request failed"
MARKER="smoke release $RUN"
sed -i "s|</body>|<!-- $MARKER --></body>|" "$LUZA_HOME/repo/templates/base.html"
git -C "$LUZA_HOME/repo" -c user.name=smoke -c user.email=smoke@luza.test commit --quiet -am "$MARKER"
check poll --until "$TMP/poll.stop" &
POLLER=$!
"$LUZA_HOME/repo/deploy/bin/release" 2>&1 | tee "$TMP/release2.log"
grep -q "packages unchanged" "$TMP/release2.log"
grep -q "static files unchanged" "$TMP/release2.log"
grep -q "ready" "$TMP/release2.log"
[ "$(readlink "$CURRENT")" != "$FIRST" ]
check marker --marker "$MARKER" --expect present
say "rollback, clients still polling"
"$CURRENT/deploy/bin/rollback"
[ "$(readlink "$CURRENT")" = "$FIRST" ]
check marker --marker "$MARKER" --expect absent
touch "$TMP/poll.stop"
wait "$POLLER"

say "the 1-minute clocks expire once each"
check clocks
grep -q "clock expired: match=" "$LOGS"/luza-worker@*.log

say "logs: one format, UTC"
"$PY" deploy/smoke_check.py logs --logs "$LOGS"/*.log
say "deployment smoke test passed"
