"""Fixtures for every test.  The helpers are plain modules in ``tests/support``
(``from support import ...``, ``from support.game import ...``); this file imports
nothing beyond the core install, so ``pytest tests/game`` needs no extra."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# Ray in the tests (a local Ray, the two-node test cluster) resolves "this node" to the
# loopback address, as it does on a laptop, so no test traffic leaves 127.0.0.1; read by
# ray when it is imported, so set before any test imports it
os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"

import support


def pytest_sessionstart(session: pytest.Session) -> None:
    """Every kernel compiled once before the tests (or nothing, when the cache is stamped),
    so the bots the tests start as programs (which use numba only from a stamped cache,
    bot.start) decide with the compiled kernels rather than as plain Python."""
    if session.config.option.collectonly:
        return
    from strategy import jit

    if jit.HAVE_NUMBA and not jit.kernels_cached():
        from strategy.warmup import warm_up, write_stamp

        warm_up()
        write_stamp()


@pytest.fixture
def botzone_logs() -> list[Path]:
    """The repository's real Botzone match logs (fails when there are none)."""
    return support.botzone_logs()


@pytest.fixture
def pku_sample() -> Path:
    """The repository's PKU sample (fails when it is missing)."""
    return support.pku_sample()


@pytest.fixture
def data_dir() -> Path:
    """The repository's ``data/`` folder."""
    return support.DATA
