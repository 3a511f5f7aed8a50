"""The Botzone upload plays a whole game in a fresh venv holding only numpy and PyMahjongGB."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np

from bot.botzone import KEEP_RUNNING
from bot.package import build
from bot.players import make_player
from game.events import Penalized
from game.rules import MCR_BOTZONE
from game.table import BotzoneTable, random_walltiles
from protocols.botzone_codec import decode_response, format_request


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
    proc = subprocess.Popen([str(py), str(zip_path)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            cwd=tmp_path)
    assert proc.stdin is not None and proc.stdout is not None
    table = BotzoneTable(random_walltiles(np.random.default_rng(5)), 0)
    others = [make_player(n, MCR_BOTZONE, s) for s, n in ((1, "greedy"), (2, "mjbot"),
                                                          (3, "greedy"))]
    first = True
    try:
        while not table.finished:
            requests = table.requests
            line = format_request(requests[0], 0)
            proc.stdin.write(("1\n" + line + "\n\n\n") if first else (line + "\n"))
            proc.stdin.flush()
            first = False
            answer = proc.stdout.readline().strip()
            assert proc.stdout.readline().strip() == KEEP_RUNNING
            responses = [decode_response(answer)]
            responses += [others[s - 1].answer(requests[s]) for s in (1, 2, 3)]
            table.respond(responses)
    finally:
        proc.kill()
    assert table.result is not None
    ending = table.result.ending
    assert not (isinstance(ending, Penalized) and ending.seat == 0), ending
