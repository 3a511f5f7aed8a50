"""The import rules of DESIGN.md, enforced: game <- strategy <- bot <- arena, game <- protocols
<- bot; bot (the player that is submitted) never imports arena; game/ and strategy/ do no I/O,
read no clock and draw no hidden randomness."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ALLOWED = {
    "game": {"game"},
    "strategy": {"game", "strategy"},
    "protocols": {"game", "protocols"},
    "bot": {"game", "strategy", "protocols", "bot"},
    "arena": {"game", "strategy", "protocols", "bot", "arena"},
}
PROJECT = set(ALLOWED)
PURE_FORBIDDEN = {
    "asyncio", "socket", "subprocess", "random", "time", "datetime", "threading",
    "multiprocessing", "pathlib", "shutil", "tempfile", "urllib", "http", "io",
    "websockets", "aiomqtt", "amqtt", "structlog", "logging", "sys",
}


def imports_of(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
    return found


def files_of(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_imports_go_one_way(package: str) -> None:
    bad = []
    for path in files_of(package):
        for line, name in imports_of(path):
            top = name.split(".")[0]
            if top in PROJECT and top not in ALLOWED[package]:
                bad.append(f"{path.relative_to(ROOT)}:{line} imports {name}")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("package", ["game", "strategy"])
def test_pure_layers_do_no_io(package: str) -> None:
    bad = []
    for path in files_of(package):
        for line, name in imports_of(path):
            if name.split(".")[0] in PURE_FORBIDDEN:
                bad.append(f"{path.relative_to(ROOT)}:{line} imports {name}")
    assert not bad, "\n".join(bad)


def test_the_check_catches_a_violation(tmp_path: Path) -> None:
    """The checker itself must fail on a lower layer importing a higher one."""
    f = tmp_path / "x.py"
    f.write_text("import time\nfrom arena.cli import main\n")
    names = [n for _, n in imports_of(f)]
    assert "arena.cli" in names and "time" in names


def test_pymahjonggb_is_imported_only_by_the_mcr_scorer() -> None:
    """One place asks PyMahjongGB for a hand's worth (game/scoring/mcr.py's WinContext)."""
    users = sorted(str(path.relative_to(ROOT)) for package in PROJECT
                   for path in files_of(package)
                   if any(name.split(".")[0] == "MahjongGB" for _, name in imports_of(path)))
    assert users == ["game/scoring/mcr.py"]


def test_the_player_does_not_import_the_arena_or_the_benchmarks() -> None:
    bad = [f"{path.relative_to(ROOT)}:{line} imports {name}"
           for path in files_of("bot") for line, name in imports_of(path)
           if name.split(".")[0] == "arena" or "bench" in name.split(".")]
    assert not bad, "\n".join(bad)
