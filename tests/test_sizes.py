"""Files and functions a reader can hold: no project file over 600 lines unless its module
docstring says why ("over 600 lines because ..."), and no function over 150 lines."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("game", "strategy", "protocols", "bot", "arena", "scripts", "examples")
MAX_FILE_LINES = 600
MAX_FUNCTION_LINES = 150


def _files() -> list[Path]:
    return sorted(p for package in PACKAGES for p in (ROOT / package).rglob("*.py"))


def long_files(files: list[Path]) -> list[str]:
    """The files over :data:`MAX_FILE_LINES` whose docstring does not say why."""
    bad = []
    for path in files:
        text = path.read_text()
        lines = text.count("\n")
        doc = ast.get_docstring(ast.parse(text)) or ""
        if lines > MAX_FILE_LINES and "over 600 lines because" not in " ".join(doc.split()):
            bad.append(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}: "
                       f"{lines} lines")
    return bad


def long_functions(files: list[Path]) -> list[str]:
    """The functions (methods, nested ones) over :data:`MAX_FUNCTION_LINES` lines."""
    bad = []
    for path in files:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                size = (node.end_lineno or node.lineno) - node.lineno + 1
                if size > MAX_FUNCTION_LINES:
                    bad.append(f"{path.name}:{node.lineno} {node.name}: {size} lines")
    return bad


def test_no_file_is_over_600_lines_without_saying_why() -> None:
    bad = long_files(_files())
    assert not bad, "\n".join(bad)


def test_no_function_is_over_150_lines() -> None:
    bad = long_functions(_files())
    assert not bad, "\n".join(bad)


def test_the_size_checks_catch_a_long_file_and_function(tmp_path: Path) -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(160))
    long = tmp_path / "long.py"
    long.write_text('"""A long module."""\n\n\ndef f() -> None:\n' + body + "\n"
                    + "\n" * 500)
    said = tmp_path / "said.py"
    said.write_text('"""A module over 600 lines because\nit must be."""\n' + "\n" * 700)
    assert long_files([long, said]) == [f"{long}: {long.read_text().count(chr(10))} lines"]
    assert long_functions([long, said]) == ["long.py:4 f: 161 lines"]
