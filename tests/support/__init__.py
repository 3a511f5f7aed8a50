"""Test helpers, imported as a plain package (``from support import ...``).

``support`` (this module) and :mod:`support.game` need only a core install; the arena's
helpers (the Olympiad referee's configuration, the viewer's reading of a Botzone log) are
in :mod:`support.arena`, imported only by the arena's tests.  ``tests/`` is on the path
through pytest's ``pythonpath`` setting (pyproject.toml).

The data the tests read is the repository's ``data/`` (its README names each file's
source).  A test that reads a folder of it fails, not skips, when the folder is empty.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "data"
BOTZONE_LOG_DIR = DATA / "botzone-match-logs"
PKU_SAMPLE = DATA / "pku-datatxt" / "sample.txt"
ORACLES = DATA / "oracles.md"


class MissingTestData(AssertionError):
    """The repository's data/ lacks what a test reads (a failure, never a skip)."""


def botzone_logs() -> list[Path]:
    """The 8 real Botzone match logs, sorted; raises when there are none (at collection, so
    the test module errors instead of parametrizing over nothing)."""
    logs = sorted(BOTZONE_LOG_DIR.glob("*_lite.json"))
    if not logs:
        raise MissingTestData(f"no Botzone match logs (*_lite.json) in {BOTZONE_LOG_DIR}")
    return logs


def botzone_log(name: str) -> Path:
    """One Botzone match log by file name; raises when it is not there."""
    path = BOTZONE_LOG_DIR / name
    if not path.is_file():
        raise MissingTestData(f"no Botzone match log {path}")
    return path


def pku_sample() -> Path:
    """The PKU sample's path; raises when it is not there."""
    if not PKU_SAMPLE.is_file():
        raise MissingTestData(f"no PKU sample at {PKU_SAMPLE}")
    return PKU_SAMPLE



def needs_extra(extra: str) -> str:
    """The skip reason of a test module that plays through the arena, on an install without
    ``extra``: ``pytest.importorskip("pydantic", reason=needs_extra("olympiad"))`` (the
    game, strategy and bot tests otherwise run on a core install)."""
    return f"needs the {extra} extra: pip install -e '.[{extra}]'"
