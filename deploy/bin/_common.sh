# Sourced by every deploy/bin script: the release's folder, its environment, its user.
# The environment file is read by the shell (KEY=value lines, # comments, single quotes around
# values with spaces), the same way for systemd units and for a command typed by hand.
set -euo pipefail
umask 027  # nothing written by hand (exports, dumps) is readable by other users
# The release's own folder, links resolved: a process started through LUZA_HOME/current keeps
# its release (its code, its virtualenv) when `current` is switched to another one.
LUZA_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)"
LUZA_ENV_FILE="${LUZA_ENV_FILE:-/etc/luza/env}"
export LUZA_ENV_FILE

die() {
  echo "luza: $*" >&2
  exit 1
}

shown_url() {  # a database URL with its password hidden, to print
  sed -E 's#(://[^:/@]*):[^@/]*@#\1:***@#' <<<"$1"
}

# "name@server": the same for two URLs only when they reach one database, however written
# (localhost or 127.0.0.1, with or without the port).
database_identity() {
  psql --no-psqlrc -tAq --dbname="$1" \
    -c "SELECT current_database() || '@' || pg_postmaster_start_time() || ':' || coalesce(inet_server_port(), 0)"
}

luza_load_env() {
  [ -r "$LUZA_ENV_FILE" ] || die "cannot read the environment file $LUZA_ENV_FILE (LUZA_ENV_FILE)"
  set -a
  # shellcheck disable=SC1090
  . "$LUZA_ENV_FILE"
  set +a
  : "${LUZA_USER:=luza}"
  : "${LUZA_INSTANCE:=luza}"
  : "${LUZA_VAR_DIR:=/var/lib/luza}"
  : "${LUZA_LOG_LEVEL:=INFO}"
  : "${LUZA_HOME:=/srv/luza}"
  export LUZA_USER LUZA_INSTANCE LUZA_VAR_DIR LUZA_LOG_LEVEL LUZA_HOME
}

# systemd's command; the smoke test points LUZA_SYSTEMCTL at its emulation (no systemd there).
SYSTEMCTL="${LUZA_SYSTEMCTL:-systemctl}"

# A release folder of this machine: LUZA_HOME/releases/<UTC time>-<commit>. Their names sort
# by age; `current` links the one the units run.
luza_releases() {
  find "$LUZA_HOME/releases" -mindepth 1 -maxdepth 1 -type d -name '[0-9]*' ! -name '*.partial' \
    -exec test -e '{}/.installed' ';' -printf '%f\n' 2>/dev/null | sort
}

luza_current() {  # the folder name of the current release, or nothing
  local target
  target="$(readlink "$LUZA_HOME/current" 2>/dev/null)" || return 0
  basename "$target"
}

# The virtualenv of a requirements file: releases with the same requirements (and Python)
# share one, LUZA_HOME/venvs/<key>, so a release that changes no package installs none.
luza_venv_key() {
  printf '%s-py%s\n' "$(sha256sum "$1" | cut -c1-16)" \
    "$(python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
}

# Run as the service user: started by root (an administrator's shell), start again as him, so
# that nothing in the release or in LUZA_VAR_DIR ends up owned by root.
luza_as_service_user() {
  if [ "$(id -u)" -eq 0 ] && [ "$LUZA_USER" != "root" ]; then
    local home
    home="$(getent passwd "$LUZA_USER" | cut -d: -f6)" ||
      die "the service user $LUZA_USER does not exist (LUZA_USER)"
    # setpriv replaces this process (runuser would stay as its parent, and on SIGTERM kill it
    # two seconds later: no graceful stop for gunicorn, no warm shutdown for a worker).
    exec setpriv --reuid="$LUZA_USER" --regid="$LUZA_USER" --init-groups \
      env HOME="$home" USER="$LUZA_USER" LOGNAME="$LUZA_USER" LUZA_ENV_FILE="$LUZA_ENV_FILE" "$0" "$@"
  fi
}

luza_var_dir() {
  mkdir -p "$LUZA_VAR_DIR" 2>/dev/null && [ -w "$LUZA_VAR_DIR" ] ||
    die "LUZA_VAR_DIR=$LUZA_VAR_DIR cannot be created or written by $(id -un); create it: install -d -o $LUZA_USER -g $LUZA_USER $LUZA_VAR_DIR"
}

luza_venv() {
  [ -x "$LUZA_ROOT/.venv/bin/python" ] || die "no virtualenv in $LUZA_ROOT/.venv: run deploy/bin/install first"
  cd "$LUZA_ROOT"
  PATH="$LUZA_ROOT/.venv/bin:$PATH"
}
