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
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
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

from bot.start import main  # noqa: E402

if os.environ.get("MJBOT_DECISION_LOG"):  # mjbot bench zip: each decision's reasons, a line
    import functools

    import bot.botzone

    _log = open(os.environ["MJBOT_DECISION_LOG"], "a", buffering=1, encoding="utf-8")

    def _write(line):
        _log.write(line + "\\n")

    bot.botzone.run = functools.partial(bot.botzone.run, log=_write)

sys.exit(main(sys.argv[1:]))
'''


def _path_of(module: str, root: Path = ROOT) -> Path | None:
    base = root.joinpath(*module.split("."))
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


def player_modules(entry: str = ENTRY, root: Path = ROOT) -> list[str]:
    """The project modules ``entry`` imports, directly or not, with their packages."""
    seen: set[str] = set()
    todo = [entry]
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        path = _path_of(module, root)
        if path is None:
            continue  # a name imported from a module, not a module
        seen.add(module)
        parts = module.split(".")
        todo += [".".join(parts[:i]) for i in range(1, len(parts))]
        todo += sorted(_imports(path, module))
    return sorted(seen)


def player_files(root: Path = ROOT) -> list[Path]:
    """The files of :func:`player_modules`: what the zip carries beside ``__main__.py``."""
    return [path for module in player_modules(root=root)
            if (path := _path_of(module, root)) is not None]


BOTZONE_PYTHON_ENV = "MJBOT_BOTZONE_PYTHON"
PY36_VENV = ROOT / ".venv-py36"
"""The CPython 3.6 environment scripts/setup_py36.sh makes (numpy 1.19.5, PyMahjongGB)."""


def botzone_python() -> str:
    """The interpreter that runs the upload where this process measures it: the one named by
    ``$MJBOT_BOTZONE_PYTHON``, else Botzone's CPython 3.6 when scripts/setup_py36.sh has set
    it up (:data:`PY36_VENV`), else this Python."""
    named = os.environ.get(BOTZONE_PYTHON_ENV)
    if named:
        return named
    py36 = PY36_VENV / "bin" / "python"
    if (PY36_VENV / ".installed").exists() and py36.exists():
        return str(py36)
    return sys.executable


def zip_pythons(given: Sequence[str] | None) -> list[str]:
    """The interpreters a benchmark runs the zip under: ``given`` (``--python``), else
    Botzone's CPython 3.6 where it is set up (:func:`botzone_python`) and this Python."""
    if given:
        return list(given)
    return list(dict.fromkeys([botzone_python(), sys.executable]))


@functools.cache
def python_version(python: str) -> str:
    """``CPython 3.6.15`` for an interpreter's path (asked once)."""
    done = subprocess.run([python, "-c", "import platform; print(platform.python_version())"],
                          capture_output=True, text=True, timeout=60, cwd="/")
    return f"CPython {done.stdout.strip()}" if done.returncode == 0 else f"{python} (broken)"


class UploadError(ValueError):
    """The source tree cannot make an upload that runs on Botzone; says why."""


VERMIN_ARGUMENTS = ("-t=3.6-", "--eval-annotations", "--feature", "union-types",
                    "--backport", "dataclasses", "--no-tips", "--violations",
                    "--format", "parsable")
"""Botzone's CPython 3.6: every annotation counted as evaluated (the player quotes them),
``X | Y`` unions seen, the data classes backport the zip carries taken as present."""


_RUN_VERMIN = "import sys; from vermin import main; sys.argv[0] = 'vermin'; sys.exit(main())"


def python36_problems(root: Path = ROOT) -> list[str]:
    """What in the upload's files needs a Python newer than 3.6, by vermin (the tool made
    for it): ``file:line: what (needs 3.x)``, empty when the closure is 3.6 code.  Raises
    :class:`UploadError` when vermin is missing."""
    files = [str(path) for path in player_files(root)]
    try:
        done = subprocess.run([sys.executable, "-c", _RUN_VERMIN, *VERMIN_ARGUMENTS, *files],
                              capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired as exc:
        raise UploadError("vermin did not finish in 300 s") from exc
    if "No module named 'vermin'" in done.stderr:
        raise UploadError("checking the upload for Python 3.6 needs vermin: pip install vermin")
    problems = []
    for line in done.stdout.splitlines():
        path, line_no, _column, _py2, needs, what = (line.split(":", 5) + [""] * 6)[:6]
        if not line_no or not what:
            continue  # a file's or the run's summary line
        where = Path(path).resolve().relative_to(root.resolve()).as_posix()
        problems.append(f"{where}:{line_no}: {what} (needs Python {needs})")
    if done.returncode not in (0, 1) or (done.returncode == 1 and not problems):
        raise UploadError(f"vermin failed (exit {done.returncode}): {done.stderr.strip()[-500:]}")
    return problems


def build(out: Path, root: Path = ROOT, *, check: bool = True) -> list[str]:
    """Write the zip; returns the archive names.  With ``check`` (the default) a closure
    that would not run on Botzone's Python 3.6 is refused (:class:`UploadError`, naming
    each place) and nothing is written."""
    if check:
        problems = python36_problems(root)
        if problems:
            raise UploadError("the upload would not run on Botzone's Python 3.6:\n  "
                              + "\n  ".join(problems))
    names = ["__main__.py"]
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("__main__.py", MAIN)
        for name in VENDOR:
            zf.write(root / name, name)
            names.append(name)
        for path in player_files(root):
            name = path.relative_to(root).as_posix()
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
    for path in player_files():
        digest.update(path.relative_to(ROOT).as_posix().encode() + b"\0" + path.read_bytes())
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


NEXT_STEP = """next: on Botzone, "My bots" -> a new bot (or a new version) for Chinese Standard
  Mahjong, language Python 3.6 (py36), upload {out}, keep-running on (README, "Submit to
  Botzone").  Try it first: printf '1\\n0 0 0\\n' | python3.6 {out}
  (it answers PASS, then the keep-running line)"""


def run(args: argparse.Namespace) -> int:
    try:
        names = build(args.out)
    except UploadError as exc:
        print(f"mjbot package: {exc}", file=sys.stderr)
        print("mjbot package: nothing written", file=sys.stderr)
        return 2
    print(f"wrote {args.out} ({len(names)} files, {args.out.stat().st_size // 1024} KiB)")
    print(NEXT_STEP.format(out=args.out))
    return 0
