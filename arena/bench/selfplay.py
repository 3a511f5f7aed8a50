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
import statistics
import subprocess
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import structlog

from arena.bench.targets import Target, missed_line
from arena.platforms.botzone_judge.match import JudgeMatchConfig, play_match
from arena.platforms.botzone_judge.one_seat import mjbot_command, play_subprocess_seat
from arena.tables.selfplay import play_one
from bot.logging import configure_logging
from game.table import BotzoneTable, random_walltiles
from protocols.botzone_codec import decode_response, format_request


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
    command = shlex.join([*mjbot_command(), "play", "botzone"])
    logging = structlog.get_config()
    configure_logging("WARNING")  # not a line per game on stderr
    try:
        t0 = time.perf_counter()
        report = play_match(JudgeMatchConfig(commands=(command,) * 4, games=games, seed=seed))
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
    proc = subprocess.Popen([*mjbot_command(), "play", "botzone"], stdin=subprocess.PIPE,
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


def peak_memory_mb(seed: int) -> float:
    """VmHWM of a keep-running ``mjbot play botzone`` over a whole game."""
    return play_subprocess_seat([*mjbot_command(), "play", "botzone"], seed)[1]


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
