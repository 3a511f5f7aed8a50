"""The Botzone upload plays a whole game in a fresh venv holding only numpy and PyMahjongGB."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from arena.bench.selfplay import play_subprocess_seat
from arena.package import build
from game.events import Penalized


def fresh_venv(where: Path) -> Path:
    subprocess.run([sys.executable, "-m", "venv", str(where)], check=True, timeout=300)
    py = where / "bin" / "python"
    subprocess.run([str(py), "-m", "pip", "install", "-q", "numpy", "PyMahjongGB"],
                   check=True, timeout=600)
    listed = subprocess.run([str(py), "-m", "pip", "list", "--format=freeze"], check=True,
                            capture_output=True, text=True).stdout.lower()
    assert "numba" not in listed and "structlog" not in listed and "pydantic" not in listed
    return py


def test_the_zip_plays_a_whole_game_with_numpy_and_pymahjonggb_only(tmp_path: Path) -> None:
    zip_path = tmp_path / "mjbot.zip"
    names = build(zip_path)
    assert names[0] == "__main__.py"
    py = fresh_venv(tmp_path / "venv")
    table, _ = play_subprocess_seat([str(py), str(zip_path)], seed=5, cwd=tmp_path)
    assert table.result is not None
    ending = table.result.ending
    assert not (isinstance(ending, Penalized) and ending.seat == 0), ending
