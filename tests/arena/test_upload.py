"""The Botzone upload is CPython 3.6 code (Botzone's interpreter), checked by vermin before a
zip is written, and the gate that plays it there fails rather than skip when 3.6 is on the
machine.  The games themselves are played by ``python -m
arena.platforms.botzone_judge.upload_gate`` in ``make
test``; these tests check its parts."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import arena.platforms.botzone_judge.upload_gate as gate
from arena.cli import main
from arena.tools.package import (
    ROOT,
    VENDOR,
    UploadError,
    build,
    player_files,
    python36_problems,
)
from game.melds import Pung
from game.scoring import mcr
from game.scoring.mcr import WinContext, mcr_fans
from game.tiles import parse_tiles

OLDEST = ROOT / ".venv-py36-oldest" / "bin" / "python"


def test_the_upload_is_python_3_6_code() -> None:
    assert python36_problems() == []


def _tree_copy(tmp_path: Path) -> Path:
    root = tmp_path / "tree"
    for package in ("game", "strategy", "protocols", "bot", "vendor"):
        shutil.copytree(ROOT / package, root / package,
                        ignore=shutil.ignore_patterns("__pycache__"))
    return root


def test_a_newer_construct_in_the_upload_is_named_and_nothing_is_written(
        tmp_path: Path) -> None:
    root = _tree_copy(tmp_path)
    compat = root / "game" / "compat.py"
    lines = compat.read_text().splitlines()
    compat.write_text("\n".join([*lines, "MAYBE_INT = int | None", ""]))
    wrong = len(lines) + 1
    assert python36_problems(root) == [
        f"game/compat.py:{wrong}: union types as `X | Y` (needs Python 3.10)"]
    out = tmp_path / "mjbot.zip"
    with pytest.raises(UploadError, match=f"game/compat.py:{wrong}: union types"):
        build(out, root)
    assert not out.exists()


def test_mjbot_package_refuses_such_an_upload(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    import arena.tools.package

    monkeypatch.setattr(arena.tools.package, "python36_problems",
                        lambda root=ROOT: ["bot/agent.py:7: walrus operator (needs Python 3.8)"])
    out = tmp_path / "mjbot.zip"
    assert main(["package", "botzone", str(out)]) == 2
    err = capsys.readouterr().err
    assert "would not run on Botzone's Python 3.6" in err
    assert "bot/agent.py:7: walrus operator" in err and "nothing written" in err
    assert not out.exists()


def test_mjbot_package_says_the_next_step(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "mjbot.zip"
    assert main(["package", "botzone", str(out)]) == 0
    said = capsys.readouterr().out
    assert "Python 3.6" in said and "keep-running" in said and str(out) in said
    assert out.exists()


def test_the_zip_carries_the_data_classes_backport_for_3_6(tmp_path: Path) -> None:
    names = build(tmp_path / "mjbot.zip", check=False)
    assert set(VENDOR) <= set(names)


def test_ruff_reads_exactly_the_upload_as_old_python() -> None:
    """pyproject's per-file target versions name the upload's files, no more, no fewer."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    listed = set(config["tool"]["ruff"]["per-file-target-version"])
    assert listed == {p.relative_to(ROOT).as_posix() for p in player_files()}


class _CalculatorOfBefore2021:
    """The binding before ``verbose``: its keyword refused, the old answer."""

    def __init__(self) -> None:
        self.real = mcr.MahjongFanCalculator

    def __call__(self, **kwargs: object) -> object:
        if "verbose" in kwargs:
            raise TypeError("'verbose' is an invalid keyword argument for this function")
        return self.real(verbose=False, **kwargs)


WINS = [
    # (concealed tiles without the winning tile, melds, winning tile, context)
    ("111999m111p99p55s", (), "9p", WinContext(seat=0, prevalent_wind=0)),
    ("123m123m123m555p5s", (), "5s", WinContext(seat=1, prevalent_wind=2, self_drawn=True,
                                                 flower_count=2)),
    ("123456789m1122p", (), "2p", WinContext(seat=2, prevalent_wind=1)),
    ("1122334455667z", (), "7z", WinContext(seat=3, prevalent_wind=3, wall_last=True)),
    ("234567s111m2p", (Pung(31, provider=2),), "2p", WinContext(seat=0, prevalent_wind=0)),
]


@pytest.mark.parametrize(("hand", "melds", "tile", "context"), WINS)
def test_the_totals_are_the_same_without_verbose(monkeypatch: pytest.MonkeyPatch, hand: str,
                                                 melds: tuple[Pung, ...], tile: str,
                                                 context: WinContext) -> None:
    concealed = parse_tiles(hand)
    win_tile = parse_tiles(tile)[0]
    with_verbose = mcr_fans(concealed, melds, win_tile, context)
    assert with_verbose is not None
    monkeypatch.setattr(mcr, "MahjongFanCalculator", _CalculatorOfBefore2021())
    monkeypatch.setattr(mcr, "TAKES_VERBOSE", mcr._takes_verbose())
    assert mcr.TAKES_VERBOSE is False
    without = mcr_fans(concealed, melds, win_tile, context)
    assert without is not None
    assert sum(f.total for f in without) == sum(f.total for f in with_verbose)
    assert [f.name for f in without] == [f.name for f in with_verbose]


def test_a_hand_that_does_not_win_is_no_win_without_verbose(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mcr, "MahjongFanCalculator", _CalculatorOfBefore2021())
    monkeypatch.setattr(mcr, "TAKES_VERBOSE", False)
    context = WinContext(seat=0, prevalent_wind=0)
    assert mcr_fans(parse_tiles("111999m111p99p56s"), (), parse_tiles("9p")[0], context) is None


@pytest.mark.skipif(not OLDEST.exists(), reason="no .venv-py36-oldest (scripts/setup_py36.sh "
                    "makes it where a CPython 3.6 is installed)")
def test_the_gate_s_old_binding_is_the_one_without_verbose() -> None:
    probe = ("import sys; sys.path.insert(0, 'ROOT'); from game.scoring import mcr; "
             "print(mcr.TAKES_VERBOSE)").replace("ROOT", str(ROOT))
    env = {"PYTHONPATH": f"{gate.WITHOUT_VERBOSE}:{ROOT / 'vendor'}", "MJBOT_NO_NUMBA": "1"}
    done = subprocess.run([str(OLDEST), "-c", probe], capture_output=True, text=True,
                          timeout=120, env=env, cwd="/")
    assert done.stdout.strip() == "False", done.stderr[-1000:]


def test_the_gate_s_guard_makes_starting_a_process_an_error() -> None:
    code = "import subprocess; subprocess.run(['true'])"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, env={"PYTHONPATH": str(gate.NO_PROCESS)})
    assert done.returncode != 0
    assert "the upload started a process" in done.stderr


def test_the_gate_fails_when_python_3_6_is_there_but_not_set_up(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(gate, "VENVS", (".venv-py36-missing", ".venv-py36-missing-too"))
    monkeypatch.setattr(gate, "python36_on_machine", lambda: "/usr/bin/python3.6")
    assert gate.run_gate(games=1, seed=1) == 1
    assert "run scripts/setup_py36.sh" in capsys.readouterr().out


def test_the_gate_skips_only_without_python_3_6(monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(gate, "VENVS", (".venv-py36-missing", ".venv-py36-missing-too"))
    monkeypatch.setattr(gate, "python36_on_machine", lambda: None)
    assert gate.run_gate(games=1, seed=1) == 0
    assert "skipped: no CPython 3.6" in capsys.readouterr().out


@pytest.mark.parametrize("argv", [["--work-budget"], ["--work-budget", "0"],
                                  ["--work-budget", "lots"]])
def test_a_bad_work_budget_is_refused_by_name(argv: list[str]) -> None:
    done = subprocess.run([sys.executable, "-m", "bot", *argv], input="", capture_output=True,
                          text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 2
    assert "--work-budget takes a positive whole number" in done.stderr
