"""A core install (``pip install mjbot``: numpy, numba, PyMahjongGB, structlog), simulated
in a subprocess by making every extra's modules unimportable (:mod:`support.core_only`):
the game, strategy and bot tests load without them."""

from __future__ import annotations

import subprocess
import sys

from support import ROOT

BLOCKED = "import sys; sys.path.insert(0, 'tests'); import support.core_only as c; c.block(); "


def core_python(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh interpreter of this environment with the extras blocked."""
    return subprocess.run([sys.executable, "-c", BLOCKED + code, *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)


def test_the_game_strategy_and_bot_tests_load_on_a_core_install() -> None:
    done = core_python(
        "import pytest; code = pytest.main(['--collect-only', '-q', '-p', 'no:cacheprovider', "
        "'tests/game', 'tests/strategy', 'tests/bot']); "
        "print('imported extras:', c.imported()); sys.exit(code)")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "imported extras: []" in done.stdout
    assert " error" not in done.stdout.splitlines()[-2]
