#!/usr/bin/env bash
# Set up everything mjbot needs on a fresh Debian/Ubuntu machine or CI runner:
# a virtual environment with the package and its dev tools, the Debian
# packages the tests use (mosquitto, a real MQTT broker; chromium, a real browser),
# and a warm numba cache.
set -euo pipefail
VENV=${1:-.venv}
PYTHON=${PYTHON:-python3}

if command -v apt-get >/dev/null 2>&1 && ! command -v mosquitto >/dev/null 2>&1 \
   && [ ! -x /usr/sbin/mosquitto ]; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq mosquitto >/dev/null
  # the tests start their own broker on a free port; the system service is not needed
  (command -v systemctl >/dev/null 2>&1 && $SUDO systemctl disable --now mosquitto) \
    >/dev/null 2>&1 || true
fi

# Debian's Chromium for the replay viewer's browser test (Playwright drives it; it cannot
# download browsers of its own here)
if command -v apt-get >/dev/null 2>&1 && ! command -v chromium >/dev/null 2>&1 \
   && [ ! -x /usr/bin/chromium ]; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi

if [ ! -x "$VENV/bin/python" ]; then
  "$PYTHON" -m venv "$VENV"
fi
"$VENV/bin/python" -m pip install -q --upgrade pip >/dev/null
"$VENV/bin/python" -m pip install -q -e '.[dev]'
# compile the numba kernels once so later starts load them from the cache
"$VENV/bin/python" -m strategy.warmup
