"""``mjbot bench selfplay``: how fast games go, how fast the bot starts, how much it holds.

- in-process games per second with four ``mjbot`` players (one process, and
  ``--workers`` processes);
- games per second through the judge mock (``mjbot referee botzone``) with four
  ``mjbot play botzone`` subprocesses in keep-running mode: fresh processes every
  game, each answer on the wall-clock deadline the bot uses on Botzone;
- start-up of ``mjbot play botzone``: wall time from spawning the process to
  its first answer, and to its first real decision (the answer to its first
  draw, which loads every kernel from numba's cache);
- peak resident memory (VmHWM) of one ``mjbot play botzone`` process that
  plays a whole game in keep-running mode against the judge mock.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import structlog

from arena.bench.targets import Target, missed_line
from arena.botzone_judge.match import MatchConfig, play_match
from arena.lineup import ArenaSeat, parse_player
from arena.selfplay import play_one
from bot.logging import configure_logging
from game.rules import MCR_BOTZONE
from game.table import BotzoneTable, random_walltiles
from protocols.botzone_codec import decode_response, format_request
from protocols.botzone_envelope import KEEP_RUNNING


def _mjbot() -> list[str]:
    exe = shutil.which("mjbot") or str(Path(sys.executable).parent / "mjbot")
    return [exe] if Path(exe).exists() else [sys.executable, "-m", "arena"]


def games_per_second(games: int, workers: int, seed: int) -> float:
    jobs = [(g, seed, ["mjbot"] * 4, "mcr-botzone", None) for g in range(games)]
    t0 = time.perf_counter()
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            list(pool.map(play_one, jobs, chunksize=2))
    else:
        for job in jobs:
            play_one(job)
    return games / (time.perf_counter() - t0)


def referee_games_per_second(games: int, seed: int) -> float:
    """Games per second of ``mjbot referee botzone`` with four ``mjbot play botzone`` bots."""
    command = shlex.join([*_mjbot(), "play", "botzone"])
    logging = structlog.get_config()
    configure_logging("WARNING")  # not a line per game on stderr
    try:
        t0 = time.perf_counter()
        report = play_match(MatchConfig(commands=(command,) * 4, games=games, seed=seed))
        elapsed = time.perf_counter() - t0
    finally:
        structlog.configure(**logging)
    faults = [d for t in report.totals for d in t.penalty_details]
    if faults:
        raise RuntimeError(f"the referee penalised a bot: {faults[0]}")
    return games / elapsed


def startup(seed: int) -> tuple[float, float]:
    """Seconds to the first answer and to the first decision (own draw), fresh process."""
    table = BotzoneTable(random_walltiles(np.random.default_rng(seed)), 0)
    proc = subprocess.Popen([*_mjbot(), "play", "botzone"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert proc.stdin is not None and proc.stdout is not None
    t0 = time.perf_counter()
    try:
        first = decision = 0.0
        turn = 0
        while decision == 0.0 and not table.finished:
            requests = table.requests
            line = format_request(requests[0], 0)
            proc.stdin.write(("1\n" + line + "\n\n\n") if turn == 0 else line + "\n")
            proc.stdin.flush()
            answer = proc.stdout.readline().strip()
            proc.stdout.readline()
            now = time.perf_counter() - t0
            first = first or now
            if line.startswith("2 "):
                decision = now
            table.respond([decode_response(answer)] + [decode_response("PASS")] * 3)
            turn += 1
        return first, decision
    finally:
        proc.kill()
        proc.wait()


def _cpu_seconds(pid: int) -> float:
    """User and system CPU time of process ``pid`` so far (0 where /proc has none)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def play_subprocess_seat(command: list[str], seed: int, cwd: Path | None = None,
                         turn_seconds: list[float] | None = None,
                         env: dict[str, str] | None = None,
                         on_turn: Callable[[str, float, float], None] | None = None,
                         ) -> tuple[BotzoneTable, float]:
    """A whole game with ``command`` (a keep-running Botzone bot) at seat 0 against the judge
    mock (greedy, mjbot, greedy in-process); returns the finished table and the bot's peak
    resident memory in MB (VmHWM, read before the process is killed).  ``turn_seconds``
    gets the wall time of each of the bot's turns (request written to answer read);
    ``on_turn`` is called with each turn's request line, that time and the CPU time the
    bot's process spent on it (user and system, from ``/proc``; 0 where there is none),
    once the bot has finished the turn (its keep-running line read)."""
    table = BotzoneTable(random_walltiles(np.random.default_rng(seed)), 0)
    others = [ArenaSeat(parse_player(n), MCR_BOTZONE, s) for s, n in ((1, "greedy"), (2, "mjbot"),
                                                                      (3, "greedy"))]
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, cwd=cwd, env=env)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        first = True
        while not table.finished:
            requests = table.requests
            line = format_request(requests[0], 0)
            cpu = _cpu_seconds(proc.pid) if on_turn is not None else 0.0
            asked = time.perf_counter()
            proc.stdin.write(("1\n" + line + "\n\n\n") if first else line + "\n")
            proc.stdin.flush()
            first = False
            answer = proc.stdout.readline().strip()
            took = time.perf_counter() - asked
            if turn_seconds is not None:
                turn_seconds.append(took)
            if proc.stdout.readline().strip() != KEEP_RUNNING:
                raise RuntimeError("the bot left keep-running mode")
            if on_turn is not None:
                on_turn(line, took, _cpu_seconds(proc.pid) - cpu)
            responses = [decode_response(answer)]
            for s in (1, 2, 3):
                others[s - 1].observe(requests[s])
                responses.append(others[s - 1].decide())
            table.respond(responses)
        status = Path(f"/proc/{proc.pid}/status").read_text()
        kb = next(int(line.split()[1]) for line in status.splitlines()
                  if line.startswith("VmHWM:"))
        return table, kb / 1024.0
    finally:
        proc.kill()
        proc.wait()


def peak_memory_mb(seed: int) -> float:
    """VmHWM of a keep-running ``mjbot play botzone`` over a whole game."""
    return play_subprocess_seat([*_mjbot(), "play", "botzone"], seed)[1]


IN_PROCESS = "in-process games/s (1 process, 4 mjbot seats)"
FIRST_ANSWER = "start-up to first answer, s (median)"
PEAK = "peak resident memory over a game, MB"
TARGETS = {IN_PROCESS: Target("≥", 20, "games/s"),
           FIRST_ANSWER: Target("≤", 1.5, "s (warm cache)"),
           PEAK: Target("≤", 200, "MB")}


def main(args: argparse.Namespace) -> int:
    games = 8 if args.quick else 40
    refereed = 2 if args.quick else 8
    workers = min(2, os.cpu_count() or 1)
    play_one((0, args.seed, ["mjbot"] * 4, "mcr-botzone", None))  # load kernels
    rows = {
        IN_PROCESS: games_per_second(games, 1, args.seed),
        f"in-process games/s ({workers} workers, 4 mjbot seats)":
            games_per_second(games, workers, args.seed + 1),
        f"referee botzone games/s (4 mjbot play botzone processes, {refereed} games)":
            referee_games_per_second(refereed, args.seed),
    }
    starts = [startup(args.seed + i) for i in range(3 if args.quick else 5)]
    rows[FIRST_ANSWER] = statistics.median(s[0] for s in starts)
    rows["start-up to first decision, s (median)"] = statistics.median(s[1] for s in starts)
    rows[PEAK] = peak_memory_mb(args.seed)
    if args.json:
        print(json.dumps({"bench": "selfplay", "games": games, "refereed_games": refereed,
                          "rows": rows, "targets": {k: t.to_json(rows[k])
                                                    for k, t in TARGETS.items()}}))
        return 0
    width = max(len(k) for k in rows)
    for name, value in rows.items():
        target = TARGETS.get(name)
        print(f"{name:<{width}}  {value:8.2f}{'  ' + target.mark(value) if target else ''}")
    print(missed_line(sum(not t.met(rows[k]) for k, t in TARGETS.items()), len(TARGETS)))
    return 0
