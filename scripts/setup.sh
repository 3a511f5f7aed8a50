#!/usr/bin/env bash
# Set up mjbot on a fresh Debian/Ubuntu machine or CI runner, in one of two sizes:
#
#   scripts/setup.sh VENV run    what `make run` needs: a virtual environment with mjbot and
#                                its arena extra (the referees, matches and tools; no Ray,
#                                no browser, no broker)
#   scripts/setup.sh VENV test   what `make test` needs (the default): the dev extra (the
#                                arena on Ray, the test and lint tools, Playwright) and the
#                                Debian packages the tests use: mosquitto, a real MQTT
#                                broker; chromium, a real browser for the replay viewer's
#                                test, which Playwright drives (it cannot download browsers
#                                of its own here); a CJK font for the viewer's fan names
#
# Both compile the numba kernels into the cache.  Prints what it installs as it goes.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${1:-.venv}
WHAT=${2:-test}
PYTHON=${PYTHON:-python3}
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
APT_UPDATED=""

case "$WHAT" in
  run) EXTRA=arena ;;
  test) EXTRA=dev ;;
  *) echo "setup: unknown size '$WHAT' (give run or test)" >&2; exit 2 ;;
esac

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

if [ "$WHAT" = test ]; then
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
fi

if [ ! -x "$VENV/bin/python" ]; then
  echo "setup: creating $VENV"
  "$PYTHON" -m venv "$VENV"
fi
# the requirements of mjbot[EXTRA], its extras' included, as pyproject.toml names them
REQUIREMENTS=$("$VENV/bin/python" - "$EXTRA" <<'EOF'
import re
import sys
import tomllib

project = tomllib.load(open("pyproject.toml", "rb"))["project"]


def names(requirements):
    for requirement in requirements:
        name = re.split(r"[\[<>=!~ ;]", requirement, maxsplit=1)[0]
        if name == "mjbot":
            for extra in requirement[6:-1].split(","):
                yield from names(project["optional-dependencies"][extra])
        else:
            yield name


print(", ".join(dict.fromkeys(names(project["dependencies"] + [f"mjbot[{sys.argv[1]}]"]))))
EOF
)
echo "setup: installing mjbot[$EXTRA] into $VENV: $REQUIREMENTS (and what they need)"
"$VENV/bin/python" -m pip install -q --upgrade pip >/dev/null
"$VENV/bin/python" -m pip install -q -e ".[$EXTRA]"
echo "setup: $VENV holds $(du -sh "$VENV" | cut -f1)"
echo "setup: compiling the numba kernels into the cache"
"$VENV/bin/python" -m strategy.warmup
echo "setup: done"
