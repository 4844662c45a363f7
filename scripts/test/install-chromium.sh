#!/usr/bin/env bash
# Installs Debian's chromium for the end-to-end tests (playwright-core drives it; Playwright's
# own browser download cannot be used here). Idempotent: does nothing when /usr/bin/chromium
# exists. Runs `apt-get update` only when the plain install fails (stale or empty package lists).
set -euo pipefail

CHROMIUM=${CHROMIUM_PATH:-/usr/bin/chromium}
if [ -x "$CHROMIUM" ]; then
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || { echo "install-chromium: need root or sudo to apt-get install chromium" >&2; exit 1; }
  SUDO="sudo"
fi

export DEBIAN_FRONTEND=noninteractive
install() { $SUDO apt-get install -y --no-install-recommends chromium fonts-liberation >&2; }

echo "install-chromium: installing Debian's chromium" >&2
if ! install; then
  $SUDO apt-get update >&2
  install
fi
[ -x "$CHROMIUM" ] || { echo "install-chromium: $CHROMIUM still missing after install" >&2; exit 1; }
"$CHROMIUM" --version >&2 || true
