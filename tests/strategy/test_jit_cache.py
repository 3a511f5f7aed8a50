"""The kernels' disk cache follows every source file of ``strategy``, not only the kernel's own.

Numba validates a cached function against its own file alone: a kernel that inlines a
helper from another file keeps running the helper's old code after that file changes.
``strategy.jit`` names the cache directory by a fingerprint of all the package's sources,
so the edit starts a new cache.  The first test shows the stale answer with numba's own
scheme (so the second one can fail), the second the fresh one with ours.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from strategy import jit
from strategy.jit import HAVE_NUMBA, cache_dir, sources_fingerprint

pytestmark = pytest.mark.skipif(not HAVE_NUMBA, reason="numba's cache only")

HELPER = ("from numba import njit\n\n@njit(cache=True, inline='always')\n"
          "def step(x):\n    return x + {add}\n")
CALLER = ("from numba import njit\nfrom pkg.helper import step\n\n"
          "@njit(cache=True)\ndef run(x):\n    return step(x) * 10\n")
PROBE = """
import os, sys
sys.path.insert(0, {root!r})
import numba
if {fingerprinted}:
    from strategy.jit import sources_fingerprint
    numba.config.CACHE_DIR = os.path.join({root!r}, "cache", sources_fingerprint({pkg!r}))
from pkg.caller import run
print(run(1))
"""


def _package(tmp_path: Path, add: int) -> Path:
    pkg = tmp_path / "pkg"
    pkg.mkdir(exist_ok=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "helper.py").write_text(HELPER.format(add=add))
    if not (pkg / "caller.py").exists():
        (pkg / "caller.py").write_text(CALLER)
    return pkg


def _run(tmp_path: Path, pkg: Path, fingerprinted: bool) -> int:
    code = PROBE.format(root=str(tmp_path), pkg=str(pkg), fingerprinted=fingerprinted)
    env = {**os.environ, "PYTHONPATH": str(Path(jit.__file__).parents[1])}
    env.pop("NUMBA_CACHE_DIR", None)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, timeout=300, check=True)
    return int(out.stdout.split()[-1])


def _edit_helper(tmp_path: Path) -> Path:
    time.sleep(0.01)  # a new modification time even on coarse clocks
    return _package(tmp_path, add=2)


@pytest.mark.parametrize("fingerprinted, after_edit", [(False, 20), (True, 30)],
                         ids=["numba-alone-stale", "fingerprinted-fresh"])
def test_an_edited_helper_reaches_its_cached_caller(tmp_path: Path, fingerprinted: bool,
                                                    after_edit: int) -> None:
    pkg = _package(tmp_path, add=1)
    assert _run(tmp_path, pkg, fingerprinted) == 20  # (1 + 1) * 10, compiled and cached
    pkg = _edit_helper(tmp_path)
    assert _run(tmp_path, pkg, fingerprinted) == after_edit  # (1 + 2) * 10 when fresh


def test_the_fingerprint_changes_with_any_source_file(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "a.py").write_text("x = 1\n")
    (tmp_path / "sub" / "b.py").write_text("y = 1\n")
    (tmp_path / "notes.txt").write_text("not a source")
    first = sources_fingerprint(str(tmp_path))
    (tmp_path / "notes.txt").write_text("still not a source")
    assert sources_fingerprint(str(tmp_path)) == first
    (tmp_path / "sub" / "b.py").write_text("y = 22\n")
    assert sources_fingerprint(str(tmp_path)) != first


def test_the_cache_is_under_numba_cache_dir_when_set(monkeypatch: pytest.MonkeyPatch) -> None:
    import numba

    assert cache_dir() == numba.config.CACHE_DIR
    monkeypatch.setenv("NUMBA_CACHE_DIR", "/opt/cache")
    assert cache_dir() == f"/opt/cache/mjbot-kernels-{sources_fingerprint()}"
    monkeypatch.delenv("NUMBA_CACHE_DIR")
    assert cache_dir().startswith(os.path.join(os.path.dirname(jit.__file__), "__pycache__"))
