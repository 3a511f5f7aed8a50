"""``mjbot bench startup``: a fresh Botzone player's cold start to its first answer.

A keep-running game starts a new process; the judge's clock runs from its first
request (the seat, answered ``PASS``).  For each way the player is started —
``mjbot play botzone``, ``python -m bot`` and the Botzone zip (numba off, as uploaded) —
``--runs`` fresh processes each get a new game's requests at seat 0, and the wall time
from spawning the process (``time.perf_counter`` around ``subprocess``) is taken

- to its first answer (the seat request: answered once the player is loaded,
  :mod:`bot.start`, since Botzone gives that turn 6 s and the later ones 4 s), and
- of each turn up to its first decision (request written to answer read; the first draw's
  decides with every kernel in use, from numba's cache or as plain Python): the slowest.

Targets: the first answer within 1 s (median: an idle machine) and 2.5 s (p99: the target
under load, two cores kept busy), the slowest early turn within Botzone's 4 s for a
kept-running turn.  ``--load N`` keeps N busy processes running during the runs, to
measure the loaded case; ``--python PATH`` runs the zip under that interpreter (default:
Botzone's CPython 3.6 where it is set up, and this Python).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from arena.bench.targets import Target, missed_line
from arena.platforms.botzone_judge.one_seat import mjbot_command
from arena.tools.package import build, python_version, zip_pythons
from game.table import BotzoneTable, random_walltiles
from protocols.botzone_codec import decode_response, format_request
from protocols.botzone_envelope import KEEP_RUNNING

FIRST_MEDIAN = Target("≤", 1.0, "s")
FIRST_P99 = Target("≤", 2.5, "s")
TURN_P99 = Target("≤", 4.0, "s")


def one_start(command: list[str], seed: int, env: dict[str, str],
              cwd: Path) -> tuple[float, float]:
    """Seconds from spawning ``command`` to its first answer, and the slowest turn (request
    written to answer read) up to and including its first decision."""
    table = BotzoneTable(random_walltiles(np.random.default_rng(seed)), 0)
    started = time.perf_counter()
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, env=env, cwd=cwd)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        first = slowest = 0.0
        opening, decided = True, False
        while not decided and not table.finished:
            line = format_request(table.requests[0], 0)
            asked = time.perf_counter()
            proc.stdin.write(f"1\n{line}\n\n\n" if opening else line + "\n")
            proc.stdin.flush()
            answer = proc.stdout.readline().strip()
            now = time.perf_counter()
            if proc.stdout.readline().strip() != KEEP_RUNNING:
                raise RuntimeError(f"{command[-1]}: left keep-running mode (answer {answer!r})")
            if opening:
                first = now - started
            else:
                slowest = max(slowest, now - asked)
            opening, decided = False, line.startswith("2 ")
            table.respond([decode_response(answer)] + [decode_response("PASS")] * 3)
        return first, slowest
    finally:
        proc.kill()
        proc.wait()


@contextmanager
def busy(processes: int) -> Iterator[None]:
    """``processes`` busy loops running meanwhile (the loaded machine of the targets)."""
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
            for _ in range(processes)]
    try:
        yield
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


@dataclass(frozen=True)
class StartRow:
    """One way of starting the player over ``runs`` fresh processes, in seconds."""

    way: str
    runs: int
    first_median: float
    first_p99: float
    first_max: float
    turn_median: float
    turn_p99: float

    def checks(self) -> list[tuple[str, Target, float]]:
        """(figure, target, value) for each of the row's targets."""
        return [("first answer, median", FIRST_MEDIAN, self.first_median),
                ("first answer, p99", FIRST_P99, self.first_p99),
                ("slowest early turn, p99", TURN_P99, self.turn_p99)]

    def to_json(self) -> dict[str, object]:
        return {"way": self.way, "runs": self.runs,
                "first_answer_median_s": round(self.first_median, 3),
                "first_answer_p99_s": round(self.first_p99, 3),
                "first_answer_max_s": round(self.first_max, 3),
                "slowest_turn_median_s": round(self.turn_median, 3),
                "slowest_turn_p99_s": round(self.turn_p99, 3),
                "targets": {name: t.to_json(v) for name, t, v in self.checks()}}


def measure(runs: int, seed: int, load: int, say: bool,
            pythons: Sequence[str] = ()) -> list[StartRow]:
    """Every way of starting, ``runs`` fresh processes each, ``load`` busy loops meanwhile;
    the zip under each of ``pythons`` (default this Python); ``say``: progress on stderr."""
    rows: list[StartRow] = []
    with tempfile.TemporaryDirectory() as tmp:
        zip_path = Path(tmp) / "mjbot.zip"
        build(zip_path)
        ways = {
            "mjbot play botzone": ([*mjbot_command(), "play", "botzone"], dict(os.environ)),
            "python -m bot": ([sys.executable, "-m", "bot"], dict(os.environ)),
        }
        for python in pythons or [sys.executable]:
            ways[f"zip on {python_version(python)}"] = (
                [python, str(zip_path)], {**os.environ, "MJBOT_NO_NUMBA": "1"})
        with busy(load):
            for name, (command, env) in ways.items():
                firsts: list[float] = []
                turns: list[float] = []
                for i in range(runs):
                    if say:
                        print(f"bench startup: {name}: run {i + 1}/{runs}", file=sys.stderr,
                              flush=True)
                    first, slowest = one_start(command, seed + i, env, Path(tmp))
                    firsts.append(first)
                    turns.append(slowest)
                rows.append(StartRow(name, runs, statistics.median(firsts),
                                     percentile(firsts, 0.99), max(firsts),
                                     statistics.median(turns), percentile(turns, 0.99)))
    return rows


def main(args: argparse.Namespace) -> int:
    runs = args.runs or (5 if args.quick else 20)
    pythons = zip_pythons(getattr(args, "python", None))
    rows = measure(runs, args.seed, args.load, say=not args.json, pythons=pythons)
    checks = [check for row in rows for check in row.checks()]
    missed = sum(not target.met(value) for _, target, value in checks)
    if args.json:
        print(json.dumps({"bench": "startup", "load": args.load, "cpus": os.cpu_count(),
                          "rows": [row.to_json() for row in rows]}))
        return 0
    print(f"cold start of a Botzone player, {runs} fresh processes per way, {args.load} busy "
          f"processes meanwhile, {os.cpu_count()} CPUs; seconds (first answer: from spawning "
          "the process; turns: request to answer, up to the first decision)")
    width = max(len(row.way) for row in rows)
    print(f"{'way':<{width}}  {'first answer: median':>20} {'p99':>6} {'max':>6}   "
          f"{'slowest early turn: median':>26} {'p99':>6}")
    for row in rows:
        print(f"{row.way:<{width}}  {row.first_median:>20.3f} {row.first_p99:>6.3f} "
              f"{row.first_max:>6.3f}   {row.turn_median:>26.3f} {row.turn_p99:>6.3f}")
    for row in rows:
        for name, target, value in row.checks():
            print(f"{row.way:<{width}}  {name:<23} {value:6.3f} s  {target.mark(value)}")
    print(missed_line(missed, len(checks)))
    return 0
