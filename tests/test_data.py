"""The repository carries the data its tests and tools read (data/, README naming each
source), nothing reads a folder beside the checkout, and an empty data folder fails."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
import support

from arena.tools import data as arena_data

ROOT = support.ROOT


def test_the_data_folder_holds_what_its_readme_names(data_dir: Path, botzone_logs: list[Path],
                                                     pku_sample: Path) -> None:
    readme = (data_dir / "README.md").read_text(encoding="utf-8")
    for name in ("botzone-match-logs", "pku-datatxt/sample.txt", "oracles.md"):
        assert f"`{name}" in readme, name
    assert len(botzone_logs) == 8 and all(p.parent.parent == data_dir for p in botzone_logs)
    assert pku_sample.stat().st_size > 0
    assert (data_dir / "oracles.md").is_file()
    for source in ("SuuTTT/IJCAI-mahjong", "hujianzhong/Mahjong_Botzone"):
        assert source in readme


def test_the_commands_the_data_readme_names_exist(data_dir: Path) -> None:
    """Every ``mjbot ...`` the README names is a command line the CLI accepts, every
    ``python -m ...`` a module that is there."""
    import importlib.util

    from arena.cli import build_parser

    readme = (ROOT / "data" / "README.md").read_text(encoding="utf-8")
    commands = re.findall(r"`mjbot ([^`]+)`", readme)
    modules = re.findall(r"`python -m ([\w.]+)`", readme)
    assert commands and modules
    for words in commands:
        argv = words.split()
        build_parser(argv[0]).parse_args(argv)  # an unknown command or name exits
    for module in modules:
        assert importlib.util.find_spec(module) is not None, module


def test_nothing_reads_a_folder_beside_the_checkout() -> None:
    tracked = subprocess.run(["git", "ls-files", "*.py", "*.toml", "Makefile", "*.sh"],
                             cwd=ROOT, capture_output=True, text=True, check=True).stdout
    pattern = re.compile(r"MJBOT_SHARED|\.\./shared|/work/shared|parent / \"shared\"")
    offenders = [name for name in tracked.split()
                 if name != "tests/test_data.py"
                 and (ROOT / name).is_file()
                 and pattern.search((ROOT / name).read_text(encoding="utf-8"))]
    assert offenders == []


def test_an_empty_log_folder_fails_instead_of_skipping(monkeypatch: pytest.MonkeyPatch,
                                                      tmp_path: Path) -> None:
    monkeypatch.setattr(support, "BOTZONE_LOG_DIR", tmp_path)
    monkeypatch.setattr(support, "PKU_SAMPLE", tmp_path / "sample.txt")
    with pytest.raises(support.MissingTestData, match="no Botzone match logs"):
        support.botzone_logs()
    with pytest.raises(support.MissingTestData, match="no PKU sample"):
        support.pku_sample()
    # AssertionError: pytest reports it as a failure (a collection error at module level)
    assert issubclass(support.MissingTestData, AssertionError)


def test_the_tools_say_where_they_looked(monkeypatch: pytest.MonkeyPatch,
                                         tmp_path: Path) -> None:
    assert arena_data.botzone_logs() == support.botzone_logs()
    monkeypatch.setenv(arena_data.ENV, str(tmp_path))
    with pytest.raises(arena_data.DataMissing, match=f"{arena_data.ENV}"):
        arena_data.botzone_logs()
    with pytest.raises(arena_data.DataMissing, match="no PKU sample"):
        arena_data.pku_sample()
