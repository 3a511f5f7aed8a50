"""The README's own commands, run or checked as a doctest would: each test reads README.md
(its tables, sentences and fenced blocks), so a sentence that stops being true fails here,
naming its line.  Nothing of the README is copied in: the install forms and the commands of
its tables, the core-install claim, the local Olympiad match with its secrets and the
Botzone zip by hand are parsed out of it.  Only what cannot run here is substituted: a free
port for the README's, one game for its two, this environment's ``mjbot`` and Python, and
the CPython 3.6 of ``.venv-py36`` for ``python3.6``."""

from __future__ import annotations

import ast
import contextlib
import io
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import time
import tomllib
import zipfile
from pathlib import Path

import pytest
from support import ROOT, needs_extra
from support.readme import Readme, code_spans, continued

README = Readme()
BIN = Path(sys.executable).parent
MJBOT = BIN / "mjbot"
PY36 = ROOT / ".venv-py36" / "bin" / "python"
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
OPTIONAL: dict[str, list[str]] = PROJECT["optional-dependencies"]


def _name(requirement: str) -> str:
    return re.split(r"[\[<>=!~ ;]", requirement, maxsplit=1)[0].lower()


def _with_included(extras: set[str]) -> set[str]:
    """The extras and those they include (``mjbot[a,b]`` in pyproject.toml)."""
    out = set(extras)
    for extra in extras:
        for requirement in OPTIONAL[extra]:
            if _name(requirement) == "mjbot":
                out |= _with_included(set(requirement[6:-1].split(",")))
    return out


def _install_extras(form: str, where: str) -> set[str]:
    """The extras of ``pip install -e .`` / ``pip install -e '.[a,b]'``."""
    args = shlex.split(form)
    assert args[:3] == ["pip", "install", "-e"] and len(args) == 4, (
        f"{where}: {form!r} is not the clone's install form pip install -e '.[EXTRA]'")
    found = re.fullmatch(r"\.(?:\[([\w,-]+)\])?", args[3])
    assert found, f"{where}: {args[3]!r} is not . or .[EXTRA]"
    extras = set(found.group(1).split(",")) if found.group(1) else set()
    unknown = extras - set(OPTIONAL)
    assert not unknown, (f"{where}: no extra {sorted(unknown)} in pyproject.toml's "
                         f"[project.optional-dependencies] ({sorted(OPTIONAL)})")
    return extras


def _main(argv: list[str]) -> tuple[int, str]:
    """``mjbot ARGV`` in this process: its exit code and what it printed."""
    from arena.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue() + err.getvalue()


def _extra_of(argv: list[str]) -> str | None:
    """The extra a command line needs by arena.cli's table (installed or not)."""
    from arena.cli import COMMANDS

    words = [a for a in argv if not a.startswith("-")]
    command = COMMANDS[words[0]]
    sub = next((w for w in words[1:] if w in command.sub_extras), None)
    return command.sub_extras[sub] if sub is not None else command.extra


def _mjbot_commands(cell: str) -> list[list[str]]:
    """The ``mjbot ...`` commands backticked in a table cell, as argv; ``a|b`` alternatives
    of a word give one command each."""
    out = []
    for span in code_spans(cell):
        if not span.startswith("mjbot "):
            continue
        words = span.split()[1:]
        choices = [w.split("|") if re.fullmatch(r"[a-z][\w-]*(\|[a-z][\w-]*)+", w) else [w]
                   for w in words]
        variants: list[list[str]] = [[]]
        for options in choices:
            variants = [[*v, o] for v in variants for o in options]
        out += variants
    return out


# ------------------------------------------------------------------ the install forms
def test_the_install_table_names_real_extras_and_real_commands() -> None:
    """"Installs and their extras": each install form names extras pyproject.toml has, its
    listed core packages are the core dependencies, and each ``mjbot ...`` command of its
    "what works" column is a command (``--help`` exits 0) that needs no extra beyond the
    row's."""
    rows = README.table("install, in the clone")
    assert len(rows) >= 6, README.at(rows[0].line)
    seen: set[str] = set()
    for row in rows:
        where = README.at(row.line)
        forms = [s for s in code_spans(row.cells[0]) if s.startswith("pip ")]
        assert len(forms) == 1, f"{where}: one pip install form per row"
        extras = _install_extras(forms[0], where)
        seen |= extras or {"core"}
        listed = re.search(r"\(([^)`]+)\)", row.cells[0].split("`", 2)[2])
        if not extras and listed:  # the core install: (numpy, numba, ...)
            names = {n.strip().lower() for n in listed.group(1).split(",")}
            assert names == {_name(r) for r in PROJECT["dependencies"]}, (
                f"{where}: the core install is {PROJECT['dependencies']}")
        allowed = _with_included(extras)
        for argv in _mjbot_commands(row.cells[1]):
            code, printed = _main([*argv, "--help"])
            assert code == 0, f"{where}: mjbot {' '.join(argv)} --help exits {code}: {printed}"
            needed = _extra_of(argv)
            assert needed is None or needed in allowed, (
                f"{where}: mjbot {' '.join(argv)} needs the {needed} extra, not in {forms[0]}")
        for span in code_spans(row.cells[1]):
            if span.startswith("python -m "):
                module = span.split()[2]
                assert (ROOT / module / "__main__.py").is_file(), f"{where}: no {module}"
    assert seen == {"core", *OPTIONAL}, (
        f"{README.at(rows[0].line)}: the table's extras {sorted(seen)} are not pyproject's "
        f"{sorted(OPTIONAL)} and the core")


def test_the_example_refusal_is_what_mjbot_prints() -> None:
    """The sentence under the install table quotes a command's refusal: it is
    arena.cli's message (the missing modules elided as ``...``)."""
    from arena.cli import EXTRAS, extra_message

    line = README.find("A command that needs an extra says which")
    _, last = README.section("Installs and their extras")
    quoted = [s for s in code_spans(README.text(line, last)) if " needs the " in s]
    assert quoted, f"{README.at(line)}: no quoted refusal"
    words, extra = re.fullmatch(r"mjbot (.+) needs the (\w+) extra .*", quoted[0]).groups()  # type: ignore[union-attr]
    said = extra_message(words, extra, EXTRAS[extra])
    pattern = re.escape(quoted[0]).replace(r"\.\.\.", ".*")
    assert re.fullmatch(pattern, said), f"{README.at(line)}: mjbot prints {said!r}"


# ---------------------------------------------------------------- the core-install claim
def test_the_core_install_claim_is_what_test_core_install_runs() -> None:
    """"Test": the game, strategy and bot tests need the core install and the test extra
    (``pip install -e '.[test]'``, then ``pytest tests/game ...``), and
    ``tests/test_core_install.py`` checks it: the extra and the folders exist, and that test
    installs exactly that form and runs exactly those folders (read from its source; its
    venv is slow to build and is its own test's business)."""
    first, last = README.section("Test")
    line = README.find("pip install -e '.[", first)
    where = README.at(line)
    spans = code_spans(README.text(first + 1, last))
    install = next(s for s in spans if s.startswith("pip install -e "))
    assert _install_extras(install, where) == {"test"}, f"{where}: {install}"
    runs = next(s for s in spans[spans.index(install):] if s.startswith("pytest "))
    folders = runs.split()[1:]
    for folder in folders:
        assert (ROOT / folder).is_dir(), f"{where}: no folder {folder}"
    checker = next(s for s in spans[spans.index(runs):]
                   if s.startswith("tests/") and s.endswith(".py"))
    source = (ROOT / checker).read_text()
    assert "checks this" in README.text(line, last), where

    tree = ast.parse(source)
    assigned = {t.id: node.value for node in tree.body if isinstance(node, ast.Assign)
                for t in node.targets if isinstance(t, ast.Name)}
    assert ast.literal_eval(assigned["CORE_TESTS"]) == tuple(folders), (
        f"{where}: {checker} runs {ast.literal_eval(assigned['CORE_TESTS'])}, the README "
        f"says {runs}")
    installs = [[ast.literal_eval(e) for e in node.elts if isinstance(e, ast.Constant)]
                for node in ast.walk(tree) if isinstance(node, ast.List)
                and any(isinstance(e, ast.Constant) and e.value == "install"
                        for e in node.elts)]
    forms = [args[args.index("install"):] for args in installs]
    assert [a for a in forms if a[-2:] == ["-e", shlex.split(install)[-1]]], (
        f"{where}: {checker} installs {forms}, the README says {install}")
    # the install table's test row says the same
    row = next(r for r in README.table("install, in the clone")
               if install in code_spans(r.cells[0]))
    assert runs in code_spans(row.cells[1]), f"{README.at(row.line)}: not {runs}"


# ------------------------------------------------------------------ the first table
def test_each_command_of_the_first_table_parses() -> None:
    """"you want to | run": each ``mjbot ...`` command there parses as written (its options
    exist, its placeholders take the place of arguments) and ``--help`` on it exits 0."""
    from arena.cli import build_parser

    rows = README.table("you want to")
    commands = [(row, argv) for row in rows for argv in _mjbot_commands(row.cells[1])]
    assert len(commands) >= len(rows), README.at(rows[0].line)
    for row, argv in commands:
        where = README.at(row.line)
        code, printed = _main([*argv, "--help"])
        assert code == 0, f"{where}: mjbot {' '.join(argv)} --help exits {code}: {printed}"
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            try:
                build_parser(argv[0]).parse_args(argv)
            except SystemExit as exc:
                pytest.fail(f"{where}: mjbot {' '.join(argv)} is refused ({exc.code}): "
                            f"{err.getvalue()}")


# ------------------------------------------------------------------ the Botzone zip
@pytest.fixture(scope="module")
def built_zip(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, int]:
    """The README's ``mjbot package botzone`` command run in a fresh folder: (the folder,
    what it printed, the README line)."""
    first, _ = README.section("Submit to Botzone")
    block = README.block_after(first, "sh")
    command = continued(block.lines)[0]
    args = shlex.split(command)
    assert Path(args[0]).name == "mjbot", README.at(block.line)
    here = tmp_path_factory.mktemp("botzone")
    done = subprocess.run([str(MJBOT), *args[1:]], cwd=here, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, f"{README.at(block.line)}: {done.stdout}{done.stderr}"
    return here, done.stdout + done.stderr, block.line


def test_the_package_command_writes_the_upload_the_readme_describes(
        built_zip: tuple[Path, str, int]) -> None:
    """The zip has ``__main__.py`` at its root and about the size the README says, and the
    command's next step names Python 3.6 and is the README's command by hand."""
    here, printed, line = built_zip
    out = shlex.split(README.lines[line - 1])[-1]
    with zipfile.ZipFile(here / out) as upload:
        assert "__main__.py" in upload.namelist(), README.at(line)
    about = README.find("about ", line)
    size = re.search(r"about (\d+) KiB", README.lines[about - 1])
    assert size, README.at(about)
    kib = (here / out).stat().st_size / 1024
    assert 0.75 * int(size.group(1)) <= kib <= 1.25 * int(size.group(1)), (
        f"{README.at(about)}: the zip is {kib:.0f} KiB")
    assert "Python 3.6" in printed, f"{README.at(line)}: its next step is {printed!r}"
    console = README.block_after(line, "console")
    by_hand = console.lines[0].removeprefix("$ ")
    assert by_hand in " ".join(printed.split()), (
        f"{README.at(console.line)}: mjbot package botzone says to try {printed!r}")


def test_the_zip_by_hand_answers_as_the_readme_shows(
        built_zip: tuple[Path, str, int]) -> None:
    """The ```console block: the first request of a game piped into the zip on CPython 3.6
    gives exactly the lines shown."""
    here, _, line = built_zip
    if not PY36.exists():
        pytest.skip(f"no CPython 3.6 at {PY36} (scripts/setup_py36.sh makes it)")
    block = README.block_after(line, "console")
    commands: list[tuple[int, str, list[str]]] = []
    for offset, text in enumerate(block.lines):
        if text.startswith("$ "):
            commands.append((block.line + offset, text[2:], []))
        else:
            assert commands, README.at(block.line + offset)
            commands[-1][2].append(text)
    assert commands, README.at(block.line)
    for number, command, expected in commands:
        assert re.search(r"(?<!\S)python3\.6(?!\S)", command), README.at(number)
        local = re.sub(r"(?<!\S)python3\.6(?!\S)", shlex.quote(str(PY36)), command)
        done = subprocess.run(["bash", "-c", local], cwd=here, capture_output=True, text=True,
                              timeout=300, stdin=subprocess.DEVNULL)
        assert done.returncode == 0, f"{README.at(number)}: exit {done.returncode}: {done.stderr}"
        assert done.stdout.splitlines() == expected, (
            f"{README.at(number)}: it prints {done.stdout!r}, the README shows {expected}")


# ------------------------------------------------------------------ the Olympiad match
def _segments(lines: list[str], where: str) -> dict[str, list[str]]:
    """The block's ``# terminal ...`` comments, each with the command lines under it."""
    out: dict[str, list[str]] = {}
    current = None
    for line in lines:
        if line.startswith("# terminal"):
            current = line
            out[current] = []
        elif line.strip():
            assert current is not None, f"{where}: a command before any # terminal comment"
            out[current].append(line)
    return out


def _localize(command: str, port: int, readme_port: str) -> str:
    """This environment's ``mjbot`` and Python, a free port, one game."""
    command = re.sub(r"(?<!\S)mjbot(?!\S)", shlex.quote(str(MJBOT)), command)
    command = re.sub(r"(?<!\S)python3(?!\S)", shlex.quote(sys.executable), command)
    command = command.replace(readme_port, f"127.0.0.1:{port}")
    return re.sub(r"--games \d+", "--games 1", command)


def _start(command: str, here: Path, name: str) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if k != "MJBOT_SEAT_SECRET"}
    with open(here / f"{name}.out", "wb") as out, open(here / f"{name}.err", "wb") as err:
        return subprocess.Popen(["bash", "-c", command], cwd=here, stdout=out, stderr=err,
                                stdin=subprocess.DEVNULL, env=env, start_new_session=True)


@pytest.mark.timeout(1500)
def test_the_local_olympiad_match_by_hand_plays_with_each_seats_secret(
        tmp_path: Path) -> None:
    """"A local match by hand": the README's referee, its three seats of our bot (each with
    the secret its own line reads from secrets.json) and the wrapped example program play
    on loopback; every process exits 0, all four seats joined, the records are written and
    ``mjbot referee verify`` accepts their walls."""
    pytest.importorskip("websockets", reason=needs_extra("arena"))
    from protocols.olympiad_transport import free_port

    line = README.find("A local match by hand")
    block = README.block_after(line, "sh")
    where = README.at(block.line)
    segments = _segments(continued(block.lines), where)
    referee = next(c for c in segments if "referee" in c)
    seats = next(c for c in segments if re.search(r"seats \d", c))
    wrapped = next(c for c in segments if re.search(r"seat \d", c) and c != seats)
    assert len(segments[referee]) == 1, f"{where}: the referee is one command"
    referee_args = shlex.split(segments[referee][0])
    listen = referee_args[referee_args.index("--listen") + 1]
    secrets = referee_args[referee_args.index("--write-secrets") + 1]
    records = referee_args[referee_args.index("--records") + 1]
    seat_numbers = [int(s) for s in re.findall(
        r"\d+", re.search(r"seats ((?:\d+(?:, | and ))*\d+)", seats).group(1))]  # type: ignore[union-attr]
    assert seat_numbers == [0, 1, 2], f"{where}: {seats}"
    assert re.fullmatch(r"SEAT=\d+", segments[seats][0]), f"{where}: {segments[seats][0]}"

    lines = {"referee": README.at(README.find(referee, block.line)),
             "wrapped": README.at(README.find(wrapped, block.line)),
             **{f"seat{n}": README.at(README.find(seats, block.line)) for n in seat_numbers}}
    (tmp_path / "examples").symlink_to(ROOT / "examples")  # the README runs in the clone
    port = free_port()
    processes: dict[str, subprocess.Popen[bytes]] = {}
    try:
        processes["referee"] = _start(_localize(segments[referee][0], port, listen),
                                      tmp_path, "referee")
        ready = time.monotonic() + 300
        while True:
            with contextlib.suppress(OSError, json.JSONDecodeError):
                json.loads((tmp_path / secrets).read_text())
                break
            assert processes["referee"].poll() is None, (
                f"{lines['referee']}: the referee exited {processes['referee'].returncode}: "
                f"{(tmp_path / 'referee.err').read_text()}")
            assert time.monotonic() < ready, f"{where}: no {secrets} after 300 s"
            time.sleep(0.2)
        for seat in seat_numbers:
            seat_lines = [f"SEAT={seat}", *segments[seats][1:]]
            processes[f"seat{seat}"] = _start(
                "\n".join(_localize(c, port, listen) for c in seat_lines), tmp_path, f"seat{seat}")
        processes["wrapped"] = _start(
            "\n".join(_localize(c, port, listen) for c in segments[wrapped]), tmp_path,
            "wrapped")
        deadline = time.monotonic() + 1200
        running = dict(processes)
        while running:  # a process that fails fails the test at once, naming its line
            for name, process in list(running.items()):
                code = process.poll()
                if code is None:
                    continue
                del running[name]
                assert code == 0, (f"{lines[name]}: {name} exited {code}: "
                                   f"{(tmp_path / f'{name}.err').read_text()[-3000:]}")
            assert time.monotonic() < deadline, (
                f"{where}: {sorted(running)} still running after 1200 s")
            time.sleep(0.2)
    finally:
        for process in processes.values():
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()

    written = sorted((tmp_path / records).glob("*.jsonl"))
    assert len(written) == 1, f"{where}: records {written}"
    header = json.loads(written[0].read_text().splitlines()[0])
    never = [line for line in written[0].read_text().splitlines() if "never joined" in line]
    assert all(header["seats"]) and not never, (
        f"{where}: not every seat joined (names {header['seats']}): {never[:2]}")
    verified = subprocess.run([str(MJBOT), "referee", "verify", str(tmp_path / records)],
                              capture_output=True, text=True, timeout=300)
    assert verified.returncode == 0, f"{where}: verify: {verified.stdout}{verified.stderr}"
