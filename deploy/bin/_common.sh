# Sourced by every deploy/bin script: the release's folder, its environment, its user.
# The environment file is read by the shell (KEY=value lines, # comments, single quotes around
# values with spaces), the same way for systemd units and for a command typed by hand.
set -euo pipefail
umask 027  # nothing written by hand (exports, dumps) is readable by other users
LUZA_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
LUZA_ENV_FILE="${LUZA_ENV_FILE:-/etc/luza/env}"
export LUZA_ENV_FILE

die() {
  echo "luza: $*" >&2
  exit 1
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
  export LUZA_USER LUZA_INSTANCE LUZA_VAR_DIR LUZA_LOG_LEVEL
}

# Run as the service user: started by root (an administrator's shell), start again as him, so
# that nothing in the release or in LUZA_VAR_DIR ends up owned by root.
luza_as_service_user() {
  if [ "$(id -u)" -eq 0 ] && [ "$LUZA_USER" != "root" ]; then
    id -u "$LUZA_USER" >/dev/null 2>&1 || die "the service user $LUZA_USER does not exist (LUZA_USER)"
    exec runuser -u "$LUZA_USER" -- env LUZA_ENV_FILE="$LUZA_ENV_FILE" "$0" "$@"
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
