#!/usr/bin/env bash
# Set up everything mjbot needs on a fresh Debian/Ubuntu machine or CI runner:
# a virtual environment with the package and its dev tools, the Debian
# packages the tests use (mosquitto, a real MQTT broker; chromium, a real browser
# for the replay viewer's test, which Playwright drives: it cannot download browsers
# of its own here), and a warm numba cache.  Prints what it does as it goes.
set -euo pipefail
VENV=${1:-.venv}
PYTHON=${PYTHON:-python3}
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
APT_UPDATED=""

# debian_package NAME BINARY...: install NAME unless one of the binaries is there
debian_package() {
  local name=$1
  shift
  for binary in "$@"; do
    if command -v "$binary" >/dev/null 2>&1 || [ -x "$binary" ]; then
      echo "setup: $name is installed"
      return 0
    fi
  done
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "setup: no apt-get; $name is missing (the tests that need it skip)"
    return 0
  fi
  if [ -z "$APT_UPDATED" ]; then
    echo "setup: apt-get update"
    $SUDO apt-get update -qq >/dev/null
    APT_UPDATED=1
  fi
  echo "setup: installing $name (Debian)"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$name" >/dev/null
}

debian_package mosquitto mosquitto /usr/sbin/mosquitto
# the tests start their own broker on a free port; the system service is not needed
(command -v systemctl >/dev/null 2>&1 && $SUDO systemctl disable --now mosquitto) \
  >/dev/null 2>&1 || true
debian_package chromium chromium /usr/bin/chromium
# a CJK font: the viewer shows Chinese fan names, which chromium draws as boxes without one
if fc-list :lang=zh 2>/dev/null | grep -q .; then
  echo "setup: a CJK font is installed"
else
  debian_package fonts-wqy-zenhei
fi

if [ ! -x "$VENV/bin/python" ]; then
  echo "setup: creating $VENV"
  "$PYTHON" -m venv "$VENV"
fi
echo "setup: installing mjbot[dev] into $VENV"
"$VENV/bin/python" -m pip install -q --upgrade pip >/dev/null
"$VENV/bin/python" -m pip install -q -e '.[dev]'
echo "setup: compiling the numba kernels into the cache"
"$VENV/bin/python" -m strategy.warmup
echo "setup: done"
