"""``mjbot bench startup``: the cold start of each way of starting the Botzone player,
with its targets (the figures themselves depend on the machine: only their shape is
checked here)."""

from __future__ import annotations

import json
import platform
import sys

import pytest

from arena.cli import main


def test_bench_startup_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "startup", "--runs", "1", "--json", "--python", sys.executable]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["bench"] == "startup" and out["load"] == 0
    ways = [row["way"] for row in out["rows"]]
    here = platform.python_version()
    assert ways == ["mjbot play botzone", "python -m bot", f"zip on CPython {here}"]
    for row in out["rows"]:
        assert row["first_answer_median_s"] > 0 and row["slowest_turn_median_s"] > 0
        assert set(row["targets"]) == {"first answer, median", "first answer, p99",
                                       "slowest early turn, p99"}
        assert all(isinstance(t["met"], bool) for t in row["targets"].values())
