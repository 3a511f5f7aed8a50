"""A core install (``pip install mjbot``: numpy, numba, PyMahjongGB, structlog), simulated
in a subprocess by making every extra's modules unimportable (:mod:`support.core_only`):
the game, strategy and bot tests load without them."""

from __future__ import annotations

import subprocess
import sys

from support import ROOT

BLOCKED = "import sys; sys.path.insert(0, 'tests'); import support.core_only as c; c.block(); "


def core_python(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh interpreter of this environment with the extras blocked."""
    return subprocess.run([sys.executable, "-c", BLOCKED + code, *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)


def test_the_game_strategy_and_bot_tests_load_on_a_core_install() -> None:
    done = core_python(
        "import pytest; code = pytest.main(['--collect-only', '-q', '-p', 'no:cacheprovider', "
        "'tests/game', 'tests/strategy', 'tests/bot']); "
        "print('imported extras:', c.imported()); sys.exit(code)")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "imported extras: []" in done.stdout
    assert " error" not in done.stdout.splitlines()[-2]


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
    import json

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
            assert err.rstrip().endswith(f"pip install 'mjbot[{extra}]'"), err
        else:
            assert code == 0, (argv, code, err)
    assert report["extras"] == []
    # nothing of the refused commands was imported: the check came first
    refused = {"arena.selfplay", "arena.commands.selfplay", "arena.commands.view",
               "arena.commands.referee", "arena.commands.match", "arena.bench.deficiency",
               "arena.bench.selfplay", "bot.olympiad_client"}
    assert refused.isdisjoint(report["loaded"]), refused & set(report["loaded"])


def test_the_extras_table_matches_pyproject() -> None:
    import re
    import tomllib

    from arena.cli import EXTRAS

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    optional = project["optional-dependencies"]

    def names(extra: str) -> set[str]:
        out: set[str] = set()
        for requirement in optional[extra]:
            name = re.split(r"[\[<>=!~ ;]", requirement, maxsplit=1)[0].lower()
            out |= names(requirement[6:-1]) if name == "mjbot" else {name}
        return out

    assert set(EXTRAS["olympiad"]) == names("olympiad")
    assert set(EXTRAS["arena"]) == names("arena")
    assert set(EXTRAS["dev"]) <= names("dev")


def test_the_benchmarks_marked_core_import_on_a_core_install() -> None:
    """The extras table is not too lenient: a benchmark it lets run on a core install
    imports there (one that needs an extra is in ``Command.sub_extras``)."""
    import json

    from arena.cli import COMMANDS
    from arena.commands.bench import BENCHES

    core = sorted(BENCHES[name] for name in BENCHES if name not in COMMANDS["bench"].sub_extras)
    assert core  # call at least
    done = core_python("import importlib, json; "
                       "[importlib.import_module(m) for m in json.loads(sys.argv[1])]; "
                       "print(c.imported())", json.dumps(core))
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "[]"
