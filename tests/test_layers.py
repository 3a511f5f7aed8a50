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


ARENA_ORDER = ("tools", "stats", "records", "players", "platforms", "tables", "review", "lab",
               "bench", "commands")
"""arena/'s sub-packages, each importing only those before it (and itself); ``arena.cli`` and
``arena.__main__`` sit on top.  Inside, ``lab.fits`` may use ``lab.experiments`` (not the
other way), and the two platforms do not import each other."""
INSIDE = {("lab", "experiments"): {"fits"}, ("platforms", "botzone_judge"): {"olympiad"},
          ("platforms", "olympiad"): {"botzone_judge"}}
"""Per sub-package's part: the parts of the same sub-package it may not import."""


def _arena_part(name: str) -> tuple[str, str] | None:
    """(sub-package, part) of a module under arena/ (part: its next name, or '')."""
    parts = name.split(".")
    if parts[0] != "arena" or len(parts) < 2 or parts[1] not in ARENA_ORDER:
        return None
    return parts[1], parts[2] if len(parts) > 2 else ""


def arena_violations(root: Path = ROOT) -> list[str]:
    """Imports between arena/'s sub-packages against :data:`ARENA_ORDER` and :data:`INSIDE`."""
    bad = []
    for path in files_of("arena", root):
        here = _arena_part(_module_name(path, root))
        if here is None:
            continue
        for line, name in imports_of(path, root):
            there = _arena_part(name)
            if there is None:
                continue
            if (ARENA_ORDER.index(there[0]) > ARENA_ORDER.index(here[0])
                    or (there[0] == here[0] and there[1] in INSIDE.get(here, set()))):
                bad.append(f"{path.relative_to(root)}:{line} imports {name}")
    return bad


def test_arena_sub_packages_import_downwards() -> None:
    bad = arena_violations()
    assert not bad, "\n".join(bad)


def test_every_arena_sub_package_is_ordered() -> None:
    found = {p.name for p in (ROOT / "arena").iterdir()
             if p.is_dir() and (p / "__init__.py").exists()}
    assert found == set(ARENA_ORDER)


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    """Each project module and the project modules it imports (anywhere in the file, lazy
    imports included; ``from a import b`` counts as importing ``a.b`` when that is a module)."""
    modules = {_module_name(path, root): path for package in PROJECT
               for path in files_of(package, root)}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets = set()
        for _, imported in [*imports_of(path, root), *_imported_members(path, root)]:
            while imported and imported not in modules:
                imported = imported.rpartition(".")[0]
            if imported and imported != name and not name.startswith(imported + "."):
                targets.add(imported)
        graph[name] = targets
    return graph


def _imported_members(path: Path, root: Path) -> list[tuple[int, str]]:
    """``a.b`` for every ``from a import b`` (relative ones resolved), whether or not ``b``
    is a module: :func:`import_graph` keeps those that are."""
    names = {node.lineno: [alias.name for alias in node.names]
             for node in ast.walk(ast.parse(path.read_text()))
             if isinstance(node, ast.ImportFrom) and node.module}
    return [(line, f"{module}.{name}") for line, module in imports_of(path, root)
            for name in names.get(line, ())]


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(start: str) -> None:  # iterative, so a deep graph cannot overflow
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        top = stack.pop()
                        on_stack.discard(top)
                        component.append(top)
                        if top == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(graph.get(child, ())))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_import_circles() -> None:
    found = circles(import_graph())
    assert not found, "\n".join(" <-> ".join(c) for c in found)


def test_the_circle_check_finds_a_planted_circle(tmp_path: Path) -> None:
    """A circle through three modules (one import lazy, one relative) is found; a chain is
    not; and arena's order catches a records module importing the tables."""
    for package in ("game", "arena", "arena/records", "arena/tables"):
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("")
    (tmp_path / "game" / "a.py").write_text("from game import b\n")
    (tmp_path / "game" / "b.py").write_text("def f():\n    from . import c\n")
    (tmp_path / "game" / "c.py").write_text("import game.a\n")
    (tmp_path / "game" / "d.py").write_text("import game.a\n")
    (tmp_path / "arena" / "records" / "files.py").write_text("from arena.tables.games import x\n")
    (tmp_path / "arena" / "tables" / "games.py").write_text("from arena.records import files\n")
    assert circles(import_graph(tmp_path)) == [
        ["arena.records.files", "arena.tables.games"], ["game.a", "game.b", "game.c"]]
    assert arena_violations(tmp_path) == [
        "arena/records/files.py:1 imports arena.tables.games"]
    assert circles({"x": {"y"}, "y": set()}) == []
