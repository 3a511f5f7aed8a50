"""ruff and mypy stay clean (the project's own configuration in pyproject.toml)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def run(*cmd: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_ruff_is_clean() -> None:
    out = run(str(BIN / "ruff"), "check", ".")
    assert out.returncode == 0, out.stdout[-3000:]


def test_mypy_is_clean() -> None:
    out = run(str(BIN / "mypy"))
    assert out.returncode == 0, out.stdout[-3000:]
