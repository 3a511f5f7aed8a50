#!/usr/bin/env bash
# The Botzone upload's interpreters: CPython 3.6 virtual environments, made once and kept
# (a stamp names what each holds), for the upload gate (python -m arena.platforms.botzone_judge.upload_gate):
#   .venv-py36        numpy 1.19.5 (the newest on 3.6) and PyMahjongGB 1.4.0 (the newest)
#   .venv-py36-oldest numpy 1.13.3 and PyMahjongGB 0.2.0 (the oldest that install on 3.6)
# Botzone runs a Python upload with /usr/bin/python3.6 (protocols/botzone.md, "Runtime").
# Without a CPython 3.6 it makes nothing and says what is missing; the gate then skips.
set -euo pipefail
cd "$(dirname "$0")/.."

find_python36() {
  local candidate
  for candidate in "${MJBOT_PYTHON36:-}" python3.6 /usr/bin/python3.6 \
      "$(pyenv prefix 3.6.15 2>/dev/null)/bin/python" "$HOME"/.pyenv/versions/3.6*/bin/python \
      /root/.pyenv/versions/3.6*/bin/python; do
    [ -n "$candidate" ] || continue
    if "$candidate" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 6))' >/dev/null 2>&1; then
      command -v "$candidate" 2>/dev/null || echo "$candidate"
      return 0
    fi
  done
  return 1
}

# make_venv DIR NUMPY PYMAHJONGGB
make_venv() {
  local dir=$1 numpy=$2 mahjonggb=$3
  local want="python $PY36_VERSION, numpy $numpy, PyMahjongGB $mahjonggb"
  if [ -f "$dir/.installed" ] && [ "$(cat "$dir/.installed")" = "$want" ]; then
    echo "setup py36: $dir is ready ($want)"
    return 0
  fi
  echo "setup py36: creating $dir ($want; PyMahjongGB compiles, about a minute)"
  rm -rf "$dir"
  "$PY36" -m venv "$dir"
  (cd / && "$OLDPWD/$dir/bin/python" -m pip install -q "numpy==$numpy" >/dev/null 2>&1)
  (cd / && "$OLDPWD/$dir/bin/python" -m pip install -q "PyMahjongGB==$mahjonggb" >/dev/null 2>&1)
  "$dir/bin/python" -c 'import numpy, MahjongGB' >/dev/null
  echo "$want" > "$dir/.installed"
}

if [ "${1:-}" = "--find" ]; then  # the gate asks which CPython 3.6 this would use
  find_python36
  exit $?
fi
if ! PY36=$(find_python36); then
  echo "setup py36: no CPython 3.6 found (python3.6, pyenv 3.6.x, or MJBOT_PYTHON36): the upload gate will skip"
  exit 0
fi
PY36_VERSION=$("$PY36" -c 'import platform; print(platform.python_version())')
echo "setup py36: using $PY36 ($PY36_VERSION)"
make_venv .venv-py36 1.19.5 1.4.0
make_venv .venv-py36-oldest 1.13.3 0.2.0
