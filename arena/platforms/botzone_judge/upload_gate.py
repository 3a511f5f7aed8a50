"""``python -m arena.platforms.botzone_judge.upload_gate``: the Botzone upload played on Botzone's
own interpreter.

Botzone runs a Python upload with CPython 3.6, numpy and MahjongGB, no numba, one core,
256 MB (``protocols/botzone.md``, "Runtime").  ``make test`` (and so CI) runs this gate
after ``scripts/setup_py36.sh`` has made its interpreters, and fails when the upload would
not start or play there:

1. the zip's modules are 3.6 code, by vermin (:func:`arena.tools.package.python36_problems`, the
   check ``mjbot package botzone`` makes before it writes a zip);
2. the zip plays whole games, four seats of it, through the judge mock under each 3.6
   interpreter: the newest numpy and PyMahjongGB that install on 3.6, and the oldest, the
   latter also with a MahjongGB of before March 2021, whose calculator takes no
   ``verbose`` (``tests/support/mahjonggb_without_verbose``); and one game without
   keep-running, a fresh process every turn.  A guard makes starting a
   process an error (the upload starts none).  Every game must end with 0 penalties and
   the bots' stderr hold no traceback;
3. the zip's peak resident memory over a whole game stays within :data:`MEMORY_TARGET_MB`;
4. on the same walls and the same work budget, the zip under 3.6 and ``mjbot play
   botzone`` under this Python, both with numba off, play the same games event for event
   and answer for answer: so what the arena measures of ``mjbot`` holds for the zip.

It prints each interpreter's version, numpy's and PyMahjongGB's, the games, penalties and
comparisons, and exits 1 when any check fails.  Without a CPython 3.6 on the machine it
says what is missing and exits 0; with one but without the environments, it fails.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from arena.platforms.botzone_judge.match import JudgeMatchConfig, MatchReport, play_match
from arena.tools.package import PY36_VENV, ROOT, UploadError, build, python36_problems
from bot.logging import configure_logging
from game.events import Penalized

VENVS = (PY36_VENV.name, ".venv-py36-oldest")
"""What ``scripts/setup_py36.sh`` makes: the newest numpy and PyMahjongGB on 3.6, then the
oldest."""
WITHOUT_VERBOSE = ROOT / "tests" / "support" / "mahjonggb_without_verbose"
NO_PROCESS = ROOT / "tests" / "support" / "no_process"
MEMORY_TARGET_MB = 200.0
WORK_BUDGET = 300
"""Kernel calls per decision in the comparison: small, so the gate stays quick."""
TIME_LIMIT = 60.0
"""The judge's per-turn limit here: generous, since the gate checks rules, not speed."""


@dataclass(frozen=True)
class Interpreter:
    """A CPython 3.6 environment and what it holds."""

    python: Path
    version: str
    numpy: str
    mahjonggb: str

    def describe(self) -> str:
        return (f"CPython {self.version}, numpy {self.numpy}, PyMahjongGB {self.mahjonggb} "
                f"({self.python})")


def python36_on_machine() -> str | None:
    """A CPython 3.6 that scripts/setup_py36.sh would find, or None."""
    done = subprocess.run(["bash", str(ROOT / "scripts" / "setup_py36.sh"), "--find"],
                          capture_output=True, text=True, timeout=60)
    found = done.stdout.strip()
    return found if done.returncode == 0 and found else None


def interpreter(venv: Path) -> Interpreter:
    probe = ("import platform, numpy, pkg_resources; print(platform.python_version(), "
             "numpy.__version__, pkg_resources.get_distribution('PyMahjongGB').version)")
    python = venv / "bin" / "python"
    done = subprocess.run([str(python), "-c", probe], capture_output=True, text=True,
                          timeout=120, cwd="/")
    if done.returncode != 0:
        raise RuntimeError(f"{python} cannot load numpy and MahjongGB: {done.stderr[-500:]}")
    version, numpy, mahjonggb = done.stdout.split()
    return Interpreter(python, version, numpy, mahjonggb)


def _command(python: Path, zip_path: Path, log: Path, *, path: tuple[Path, ...] = (),
             budget: int | None = None, keep_running: bool = True) -> str:
    """The zip under ``python`` with the no-process guard (and ``path``) first on its path,
    its stderr appended to ``log``."""
    pythonpath = ":".join(str(p) for p in (NO_PROCESS, *path))
    tail = f" --work-budget {budget}" if budget is not None else ""
    tail += "" if keep_running else " --no-keep-running"
    return (f"sh -c 'PYTHONPATH={pythonpath} exec {python} {zip_path}{tail} "
            f"2>>{log}'")


def _penalties(report: MatchReport) -> int:
    return sum(isinstance(g.result.ending, Penalized) for g in report.games)


def _problems_in(log: Path) -> list[str]:
    text = log.read_text(errors="replace") if log.exists() else ""
    return [line for line in text.splitlines()
            if line.startswith("Traceback") or "started a process" in line]


def play_zips(python: Path, zip_path: Path, games: int, seed: int, work: Path,
              path: tuple[Path, ...] = (), keep_running: bool = True,
              ) -> tuple[MatchReport, list[str]]:
    """``games`` games of four zips under ``python`` (without keep-running: every turn a
    fresh process, given the whole history); the report and any traceback or process start
    in the bots' stderr."""
    log = work / f"stderr-{seed}-{len(path)}-{keep_running}.txt"
    log.unlink(missing_ok=True)
    command = _command(python, zip_path, log, path=path, keep_running=keep_running)
    config = JudgeMatchConfig(commands=(command,) * 4, games=games, seed=seed,
                         time_limit=TIME_LIMIT, cwd=work)
    return play_match(config), _problems_in(log)


def compare(python: Path, zip_path: Path, games: int, seed: int, work: Path) -> list[str]:
    """The zip under ``python`` and ``mjbot play botzone`` under this Python on the same walls
    and work budget, numba off: where they differ (empty when every game is equal)."""
    log = work / "compare-stderr.txt"
    zip_command = _command(python, zip_path, log, budget=WORK_BUDGET)
    ours = (f"sh -c 'MJBOT_NO_NUMBA=1 exec {sys.executable} -m bot "
            f"--work-budget {WORK_BUDGET} 2>>{log}'")
    reports = [play_match(JudgeMatchConfig(commands=(command,) * 4, games=games, seed=seed,
                                      time_limit=TIME_LIMIT, cwd=work))
               for command in (zip_command, ours)]
    differences = []
    for a, b in zip(reports[0].games, reports[1].games, strict=True):
        if a.history != b.history:
            shorter = min(len(a.history), len(b.history))
            at = next((i for i in range(shorter) if a.history[i] != b.history[i]), shorter)
            differences.append(f"game {a.game}: from event {at} on: "
                               f"{a.history[at:at + 1]} (zip) against {b.history[at:at + 1]}")
        elif a.responses != b.responses or a.result != b.result:
            differences.append(f"game {a.game}: the same events, other answers or result")
    differences += _problems_in(log)
    return differences


def peak_memory_mb(python: Path, zip_path: Path, seed: int, work: Path) -> float:
    """The zip's peak resident memory over one whole game at seat 0 (VmHWM)."""
    from arena.platforms.botzone_judge.one_seat import play_subprocess_seat

    env = {**os.environ, "PYTHONPATH": str(NO_PROCESS)}
    _, peak = play_subprocess_seat([str(python), str(zip_path)], seed=seed, cwd=work,
                                   env=env)
    return peak


def run_gate(games: int, seed: int) -> int:
    say = print
    configure_logging("WARNING")  # the judge's game lines: the gate says what counts
    venvs = [ROOT / v for v in VENVS]
    if not all((v / ".installed").exists() for v in venvs):
        found = python36_on_machine()
        if found is None:
            say("upload gate: skipped: no CPython 3.6 on this machine (python3.6, pyenv 3.6.x "
                "or MJBOT_PYTHON36), so the upload cannot be played as Botzone plays it")
            return 0
        say(f"upload gate: FAILED: {found} is CPython 3.6 but {', '.join(VENVS)} are not set "
            f"up: run scripts/setup_py36.sh")
        return 1
    failures: list[str] = []
    problems = python36_problems()
    say(f"upload gate: vermin over the upload's modules at Python 3.6: "
        f"{len(problems)} violation(s)")
    failures += problems
    with tempfile.TemporaryDirectory(prefix="mjbot-upload-gate-") as tmp:
        work = Path(tmp)
        zip_path = work / "mjbot-botzone.zip"
        try:
            names = build(zip_path, check=False)
        except UploadError as exc:
            say(f"upload gate: FAILED: {exc}")
            return 1
        say(f"upload gate: built {zip_path.name} ({len(names)} files)")
        newest, oldest = (interpreter(v) for v in venvs)
        plays = [(newest, (), True, games), (oldest, (), True, games),
                 (oldest, (WITHOUT_VERBOSE,), True, games), (newest, (), False, 1)]
        for which, path, keep_running, count in plays:
            label = which.describe() + (", MahjongGB without verbose" if path else "") + (
                "" if keep_running else ", a fresh process every turn (no keep-running)")
            report, stderr_problems = play_zips(which.python, zip_path, count, seed, work,
                                                path, keep_running)
            penalties = _penalties(report)
            say(f"upload gate: {label}: {len(report.games)} games through the judge mock, "
                f"{penalties} penalties, {len(stderr_problems)} tracebacks or process starts")
            if penalties:
                failures.append(f"{label}: {penalties} penalised games")
            failures += [f"{label}: {p}" for p in stderr_problems]
        peak = peak_memory_mb(newest.python, zip_path, seed, work)
        say(f"upload gate: {newest.describe()}: peak memory over a whole game {peak:.0f} MB "
            f"(target {MEMORY_TARGET_MB:.0f} MB)")
        if peak > MEMORY_TARGET_MB:
            failures.append(f"peak memory {peak:.0f} MB over {MEMORY_TARGET_MB:.0f} MB")
        differences = compare(newest.python, zip_path, games, seed, work)
        say(f"upload gate: the zip under CPython {newest.version} against mjbot play botzone "
            f"under CPython {sys.version.split()[0]}, work budget {WORK_BUDGET}, numba off: "
            f"{games} games, " + ("identical event for event and answer for answer"
                                  if not differences else f"{len(differences)} differences"))
        failures += differences
    for failure in failures:
        say(f"upload gate: FAILED: {failure}")
    say("upload gate: " + ("passed" if not failures else f"{len(failures)} failure(s)"))
    return 1 if failures else 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m arena.platforms.botzone_judge.upload_gate",
                                description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=2, help="games per interpreter (default 2)")
    p.add_argument("--seed", type=int, default=37, help="the walls' seed (default 37)")
    args = p.parse_args(argv)
    return run_gate(args.games, args.seed)


if __name__ == "__main__":
    sys.exit(main())
