"""The Botzone upload plays a whole game in a fresh venv holding only numpy and PyMahjongGB."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from arena.platforms.botzone_judge.one_seat import play_subprocess_seat
from arena.tools.package import build, player_modules
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
    # every module the zip carries imports without the extras (numba, structlog, pydantic,
    # websockets, aiomqtt, amqtt, ray ... are all absent from this venv)
    modules = [n[:-3].replace("/", ".").removesuffix(".__init__") for n in names[1:]
               if not n.startswith("vendor/")]
    probe = ("import os, sys, importlib; os.environ['MJBOT_NO_NUMBA'] = '1'; "
             f"sys.path.insert(0, {str(zip_path)!r}); "
             f"[importlib.import_module(m) for m in {modules!r}]; print('ok')")
    done = subprocess.run([str(py), "-c", probe], capture_output=True, text=True, timeout=300)
    assert done.stdout.strip() == "ok", done.stderr[-2000:]


def test_the_zip_carries_exactly_what_play_botzone_imports() -> None:
    """The static closure equals what the Botzone loop really loads without numba, as the
    zip runs (the sampler of ``--sample`` is the arena's, never in the zip)."""
    probe = ("import sys, bot.start, bot.botzone; "
             "print(' '.join(sorted(m for m in sys.modules "
             "if m.split('.')[0] in ('bot', 'game', 'strategy', 'protocols', 'arena'))))")
    env = {**os.environ, "MJBOT_NO_NUMBA": "1"}
    loaded = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            check=True, timeout=120, env=env).stdout.split()
    assert player_modules() == loaded
    assert not [m for m in loaded if m.startswith("arena") or "olympiad" in m]
