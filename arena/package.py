"""``mjbot package botzone OUT.zip``: a Botzone upload.

The zip has ``__main__.py`` at its root and, beside it, exactly the project modules
that ``mjbot play botzone`` imports (:func:`player_modules`: the static import
closure of :mod:`bot.start`, which loads :mod:`bot.botzone`, with each package's
``__init__``), so ``python OUT.zip`` runs the bot and nothing of the arena, the Olympiad
transports or the benchmarks rides along.  On Botzone the only third-party packages are
numpy and PyMahjongGB: numba is switched off (``MJBOT_NO_NUMBA=1``; every kernel runs
as plain Python) and structlog is not needed (nothing on that path logs through it).
With ``MJBOT_DECISION_LOG=PATH`` (never set on Botzone) the zip appends each decision's
reasons to PATH as a JSON line, as it decides (``mjbot bench zip`` counts its fallbacks).
"""

from __future__ import annotations

import argparse
import ast
import functools
import hashlib
import os
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROJECT = ("game", "strategy", "protocols", "bot", "arena")
VENDOR = ("vendor/dataclasses.py", "vendor/LICENSE.dataclasses.txt")
"""Carried beside the modules for Python 3.6 (``vendor/README.md``)."""
ENTRY = "bot.start"
MAIN = '''"""mjbot for Botzone: keep-running, simple or JSON interaction (detected)."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
os.environ.setdefault("MJBOT_NO_NUMBA", "1")
sys.path.insert(0, HERE)
if sys.version_info < (3, 7):  # Botzone's CPython 3.6: the data classes backport (vendor/)
    sys.path.insert(1, os.path.join(HERE, "vendor"))
try:
    import MahjongGB  # noqa: F401
except ImportError:
    sys.stderr.write("mjbot: this Python (%s) has no MahjongGB, the fan calculator Botzone "
                     "provides: pip install PyMahjongGB\\n" % sys.executable)
    sys.exit(1)

from bot.start import play_botzone  # noqa: E402

if os.environ.get("MJBOT_DECISION_LOG"):  # mjbot bench zip: each decision's reasons, a line
    import functools

    import bot.botzone

    _log = open(os.environ["MJBOT_DECISION_LOG"], "a", buffering=1, encoding="utf-8")

    def _write(line):
        _log.write(line + "\\n")

    bot.botzone.run = functools.partial(bot.botzone.run, log=_write)

_argv = sys.argv[1:]  # Botzone passes none; the gate and the benches do
_budget = int(_argv[_argv.index("--work-budget") + 1]) if "--work-budget" in _argv else None
sys.exit(play_botzone(keep_running="--no-keep-running" not in _argv, work_budget=_budget))
'''


def _path_of(module: str) -> Path | None:
    base = ROOT.joinpath(*module.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.exists():
            return path
    return None


def _imports(path: Path, module: str) -> set[str]:
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[:len(parts) - node.level + 1])
                target = f"{base}.{node.module}" if node.module else base
            else:
                target = node.module or ""
            found.add(target)
            found |= {f"{target}.{alias.name}" for alias in node.names}
    return {name for name in found if name.split(".")[0] in PROJECT}


def player_modules(entry: str = ENTRY) -> list[str]:
    """The project modules ``entry`` imports, directly or not, with their packages."""
    seen: set[str] = set()
    todo = [entry]
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        path = _path_of(module)
        if path is None:
            continue  # a name imported from a module, not a module
        seen.add(module)
        parts = module.split(".")
        todo += [".".join(parts[:i]) for i in range(1, len(parts))]
        todo += sorted(_imports(path, module))
    return sorted(seen)


def build(out: Path) -> list[str]:
    """Write the zip; returns the archive names."""
    names = ["__main__.py"]
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("__main__.py", MAIN)
        for name in VENDOR:
            zf.write(ROOT / name, name)
            names.append(name)
        for module in player_modules():
            path = _path_of(module)
            assert path is not None
            name = path.relative_to(ROOT).as_posix()
            zf.write(path, name)
            names.append(name)
    return names


def built_zip(directory: Path | None = None) -> Path:
    """The Botzone upload of this source tree, built once per source fingerprint (in the
    temporary directory unless ``directory`` is given) and reused: what the arena's
    ``mjbot-zip`` player runs, exactly as ``mjbot package botzone`` writes it."""
    digest = hashlib.sha256(MAIN.encode())
    for name in VENDOR:
        digest.update(name.encode() + b"\0" + (ROOT / name).read_bytes())
    for module in player_modules():
        path = _path_of(module)
        assert path is not None
        digest.update(module.encode() + b"\0" + path.read_bytes())
    where = Path(tempfile.gettempdir()) if directory is None else directory
    out = where / f"mjbot-botzone-{digest.hexdigest()[:16]}.zip"
    if not out.exists():
        fd, partial = tempfile.mkstemp(dir=where, suffix=".zip.partial")
        os.close(fd)
        try:
            build(Path(partial))
            os.replace(partial, out)  # whole or not at all, for a concurrent worker
        finally:
            if os.path.exists(partial):
                os.unlink(partial)
    return out


@functools.cache
def pinned_zip() -> Path:
    """:func:`built_zip` as it was at this process's first call: a match's games all play
    the same upload even when the source tree changes while it runs (each process of a Ray
    run pins its own at its first game)."""
    return built_zip()


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("platform", choices=["botzone"])
    p.add_argument("out", type=Path, help="the zip to write")


def run(args: argparse.Namespace) -> int:
    names = build(args.out)
    print(f"wrote {args.out} ({len(names)} files, {args.out.stat().st_size // 1024} KiB)")
    return 0
