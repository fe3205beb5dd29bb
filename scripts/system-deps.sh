#!/usr/bin/env bash
# Installs the Debian packages Luza needs: gettext (translations), Pango and a Cyrillic font
# (PDF diplomas); to run and test also redis-server (make run's private Redis on a socket under
# var/); for the tests also Chromium (browser tests), pdftoppm and zbarimg (QR codes), and
# Node.js with the npm packages of package-lock.json (the generated TypeScript client).
#   scripts/system-deps.sh check|run|test
set -euo pipefail
want=(gettext libpango-1.0-0 libpangoft2-1.0-0 fonts-dejavu-core)
if [ "${1:-run}" != "check" ]; then
  want+=(redis-server)
fi
if [ "${1:-run}" = "test" ]; then
  # Chromium for the browser tests; poppler and zbar read the printouts' QR codes back.
  want+=(chromium poppler-utils zbar-tools)
  command -v npm >/dev/null || want+=(nodejs npm)
fi
missing=()
for pkg in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  if ! command -v apt-get >/dev/null; then
    echo "Please install these system packages: ${missing[*]}" >&2
    exit 1
  fi
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    sudo="sudo"
  fi
  echo "Installing system packages: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# npm ci writes node_modules/.package-lock.json last: newer than the lock file, nothing to do.
if [ "${1:-run}" = "test" ] && [ ! node_modules/.package-lock.json -nt package-lock.json ]; then
  echo "Installing npm packages (package-lock.json)"
  npm ci --no-audit --no-fund --loglevel=error
fi
