"""A core install with the test extra (``pip install -e '.[test]'``: numpy, numba,
PyMahjongGB, structlog, and pytest with its plugins and hypothesis) runs the game,
strategy and bot tests: a real virtual environment, ``.venv-core`` beside the clone's
``.venv``, built once and kept while pyproject.toml's core and test requirements stay the
same.  The commands' extras are checked faster, in this environment with every extra's
modules made unimportable (:mod:`support.core_only`)."""

from __future__ import annotations

import fcntl
import hashlib
import json
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from support import ROOT
from support.core_only import EXTRAS as EXTRA_MODULES

BLOCKED = "import sys; sys.path.insert(0, 'tests'); import support.core_only as c; c.block(); "
CORE_VENV = ROOT / ".venv-core"
"""The core install's virtual environment (git ignores it)."""
STAMP = CORE_VENV / ".mjbot-requirements"
"""What the environment was built from: the core and test requirements and this Python."""
CORE_TESTS = ("tests/game", "tests/strategy", "tests/bot")


def core_python(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh interpreter of this environment with the extras blocked."""
    return subprocess.run([sys.executable, "-c", BLOCKED + code, *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)


def _requirements() -> str:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = {"python": sys.version, "dependencies": project["dependencies"],
              "test": project["optional-dependencies"]["test"]}
    return hashlib.sha256(json.dumps(wanted, sort_keys=True).encode()).hexdigest()


def core_venv() -> Path:
    """The Python of ``.venv-core`` (the core install and the test extra, editable), built
    when missing or when its requirements changed.  Skips, naming it, only when this Python
    cannot make a virtual environment; a failed install fails."""
    CORE_VENV.parent.mkdir(exist_ok=True)
    python = CORE_VENV / "bin" / "python"
    with open(ROOT / ".venv-core.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one build at a time (pytest -n 2, two runs)
        wanted = _requirements()
        if python.exists() and STAMP.exists() and STAMP.read_text() == wanted:
            return python
        shutil.rmtree(CORE_VENV, ignore_errors=True)
        made = subprocess.run([sys.executable, "-m", "venv", str(CORE_VENV)],
                              capture_output=True, text=True, timeout=300)
        if made.returncode != 0:
            shutil.rmtree(CORE_VENV, ignore_errors=True)
            pytest.skip(f"{sys.executable} -m venv cannot make a virtual environment (the "
                        f"venv module or ensurepip is missing: Debian's python3-venv): "
                        f"{made.stderr.strip()[-300:]}")
        installed = subprocess.run([str(python), "-m", "pip", "install", "-q", "-e",
                                    ".[test]"], cwd=ROOT, capture_output=True, text=True,
                                   timeout=1200)
        assert installed.returncode == 0, installed.stdout[-2000:] + installed.stderr[-3000:]
        STAMP.write_text(wanted)
        return python


@pytest.mark.timeout(3600)
def test_the_game_strategy_and_bot_tests_pass_on_a_core_install_with_the_test_extra(
        ) -> None:
    """What the README says: ``pip install -e '.[test]'`` and ``pytest tests/game
    tests/strategy tests/bot`` passes, with no warning about pytest's configuration (an
    option of a plugin the test extra lacks) and skips only naming what they need."""
    python = core_venv()
    found = subprocess.run(
        [str(python), "-c", "import importlib.util, json, sys; print(json.dumps("
         "[m for m in sys.argv[1:] if importlib.util.find_spec(m)]))", *EXTRA_MODULES],
        capture_output=True, text=True, timeout=120)
    assert found.returncode == 0 and json.loads(found.stdout) == [], found
    done = subprocess.run(
        [str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rs",
         "-W", "error::pytest.PytestConfigWarning", *CORE_TESTS],
        cwd=ROOT, capture_output=True, text=True, timeout=3500)
    out = done.stdout + done.stderr
    assert done.returncode == 0, out[-5000:]
    assert "PytestConfigWarning" not in out and "Unknown config option" not in out
    closing = out.strip().splitlines()[-1]
    assert " passed" in closing and "failed" not in closing and "error" not in closing, closing
    for line in out.splitlines():
        if line.startswith("SKIPPED"):  # each skip names the module or extra it lacks
            assert re.search(r" extra\b|could not import|numba", line), line


CORE_COMMANDS = [
    ["--help"], ["deficiency", "--help"], ["bench", "--help"],
    ["bench", "call", "--help"], ["package", "--help"], ["play", "--help"],
    ["play", "botzone", "--help"], ["deficiency", "123m456p789s1122z", "--json"],
]
EXTRA_COMMANDS = {
    ("selfplay", "--help"): ("selfplay", "arena"),
    ("arena", "mjbot", "greedy"): ("arena", "arena"),
    ("view", "x.jsonl"): ("view", "arena"),
    ("referee", "botzone", "--help"): ("referee", "arena"),
    ("match", "olympiad", "--json"): ("match", "arena"),
    ("replay", "--help"): ("replay", "arena"),
    ("experiment", "sdw", "--quick"): ("experiment", "arena"),
    ("play", "olympiad", "--help"): ("play olympiad", "olympiad"),
    ("wrap", "--help"): ("wrap", "olympiad"),
    ("advise", "--help"): ("advise", "arena"),
    ("bench", "decide", "--quick"): ("bench decide", "arena"),
    ("bench", "selfplay", "--quick"): ("bench selfplay", "arena"),
    ("bench", "arena", "--quick"): ("bench arena", "cluster"),
    ("bench", "--seed", "3", "deficiency"): ("bench deficiency", "dev"),
}
RUN_ALL = """
import contextlib, io, json
from arena.cli import main
results = []
for argv in json.loads(sys.argv[1]):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except BaseException as exc:  # what a user would see as a traceback
            code = f"{type(exc).__name__}: {exc}"
    results.append([code, out.getvalue(), err.getvalue()])
loaded = sorted(m for m in sys.modules if m.startswith(("arena.", "bot.")))
print(json.dumps({"results": results, "loaded": loaded, "extras": c.imported()}))
"""


def test_each_command_names_the_extra_it_lacks_before_doing_anything() -> None:
    argvs = [list(a) for a in EXTRA_COMMANDS] + CORE_COMMANDS
    done = core_python(RUN_ALL, json.dumps(argvs))
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.splitlines()[-1])
    for argv, (code, out, err) in zip(argvs, report["results"], strict=True):
        key = tuple(argv)
        if key in EXTRA_COMMANDS:
            words, extra = EXTRA_COMMANDS[key]
            assert code == 2 and out == "", (argv, code, out, err)
            assert err.startswith(f"mjbot {words} needs the {extra} extra (missing: "), err
            assert err.rstrip().endswith(f"pip install -e '.[{extra}]' in the mjbot clone"), err
        else:
            assert code == 0, (argv, code, err)
    assert report["extras"] == []
    # nothing of the refused commands was imported: the check came first
    refused = {"arena.tables.selfplay", "arena.commands.selfplay", "arena.commands.view",
               "arena.commands.referee", "arena.commands.match", "arena.bench.deficiency",
               "arena.bench.selfplay", "bot.olympiad_client"}
    assert refused.isdisjoint(report["loaded"]), refused & set(report["loaded"])


def test_the_extras_table_matches_pyproject() -> None:
    from arena.cli import EXTRAS

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    optional = project["optional-dependencies"]

    def names(extra: str) -> set[str]:
        out: set[str] = set()
        for requirement in optional[extra]:
            name = re.split(r"[\[<>=!~ ;]", requirement, maxsplit=1)[0].lower()
            if name == "mjbot":  # mjbot[a,b]: the extras it includes
                for included in requirement[6:-1].split(","):
                    out |= names(included)
            else:
                out.add(name)
        return out

    assert set(EXTRAS["olympiad"]) == names("olympiad")
    assert set(EXTRAS["arena"]) == names("arena")
    assert set(EXTRAS["cluster"]) == names("cluster")
    assert "ray" not in names("arena")  # the arena plays in this process without Ray
    assert names("test") <= names("dev") and set(EXTRAS["dev"]) <= names("dev")


def test_the_benchmarks_marked_core_import_on_a_core_install() -> None:
    """The extras table is not too lenient: a benchmark it lets run on a core install
    imports there (one that needs an extra is in ``Command.sub_extras``)."""
    from arena.cli import COMMANDS
    from arena.commands.bench import BENCHES

    core = sorted(BENCHES[name] for name in BENCHES if name not in COMMANDS["bench"].sub_extras)
    assert core  # call at least
    done = core_python("import importlib, json; "
                       "[importlib.import_module(m) for m in json.loads(sys.argv[1])]; "
                       "print(c.imported())", json.dumps(core))
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "[]"


def test_the_arena_extra_plays_a_match_without_ray() -> None:
    """The arena extra has no Ray (that is the cluster extra): a small match plays in this
    process, and a local Ray asked for is refused naming the extra."""
    code = ("import sys; sys.path.insert(0, 'tests'); import support.core_only as c; "
            "c.block(['ray']); from arena.cli import main; "
            "small = main(['arena', 'greedy', 'random', '--games', '2', '--no-progress']); "
            "asked = main(['arena', 'greedy', 'random', '--workers', '2', '--no-progress']); "
            "print('codes', small, asked, 'ray' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert done.stdout.splitlines()[-1] == "codes 0 2 False", done.stdout + done.stderr
    assert "2 games on 1 wall" in done.stdout
    assert "pip install -e '.[cluster]' in the mjbot clone" in done.stderr
