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


def imports_of(path: Path, root: Path = ROOT) -> list[tuple[int, str]]:
    """Every module ``path`` imports, relative imports resolved against its package (a
    file under ``root``; elsewhere, a module of no package)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    inside = path.is_relative_to(root)
    parts = list(path.relative_to(root).with_suffix("").parts) if inside else [path.stem]
    package = parts if parts[-1] == "__init__" else parts[:-1]
    if package and package[-1] == "__init__":
        package = package[:-1]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                if node.module:
                    found.append((node.lineno, node.module))
                continue
            base = package[:len(package) - node.level + 1] if node.level > 1 else package
            target = ".".join([*base, *([node.module] if node.module else [])])
            if node.module:
                found.append((node.lineno, target))
            else:
                found += [(node.lineno, f"{target}.{alias.name}") for alias in node.names]
    return found


def files_of(package: str, root: Path = ROOT) -> list[Path]:
    return sorted((root / package).rglob("*.py"))


def violations(package: str, root: Path = ROOT) -> list[str]:
    """The imports of ``package``'s files that :data:`ALLOWED` forbids."""
    bad = []
    for path in files_of(package, root):
        for line, name in imports_of(path, root):
            top = name.split(".")[0]
            if top in PROJECT and top not in ALLOWED[package]:
                bad.append(f"{path.relative_to(root)}:{line} imports {name}")
    return bad


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_imports_go_one_way(package: str) -> None:
    bad = violations(package)
    assert not bad, "\n".join(bad)


def test_the_layer_rule_fails_on_a_forbidden_import(tmp_path: Path) -> None:
    """The rule itself, on a planted tree: a game module importing the bot (absolutely or
    relatively) and a bot module importing the arena are caught; allowed imports are not."""
    for package in ("game", "bot", "arena"):
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("")
    (tmp_path / "game" / "rules.py").write_text("from game.tiles import x\n")
    (tmp_path / "game" / "bad.py").write_text("import bot.seat\nfrom ..bot import seat\n")
    (tmp_path / "bot" / "seat.py").write_text("from . import agent\nfrom game import rules\n")
    (tmp_path / "bot" / "worse.py").write_text("from ..arena.lineup import ArenaSeat\n")
    assert violations("game", tmp_path) == ["game/bad.py:1 imports bot.seat",
                                            "game/bad.py:2 imports bot"]
    assert violations("bot", tmp_path) == ["bot/worse.py:1 imports arena.lineup"]
    assert violations("arena", tmp_path) == []


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
