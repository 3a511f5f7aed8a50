"""``mjbot bench zip``: the Botzone upload's turn times over whole games, numba off.

Botzone runs the zip as it is uploaded: numpy and PyMahjongGB only, so every kernel runs
as plain Python.  Python bots get 6 s per turn (the first turns double); the zip thinks
for at most 2 s.  This bench plays whole games with the zip at seat 0 of the judge mock
(``python OUT.zip``, ``MJBOT_NO_NUMBA=1``) and prints the turn times: median, p99 and the
slowest turn, against the platform's limit.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from arena.bench.selfplay import play_subprocess_seat
from arena.package import build
from game.events import Penalized

BOTZONE_LIMIT_SECONDS = 6.0
ZIP_CLOCK_SECONDS = 1.6
"""The zip's own clock (80 % of its 2 s): a turn past it is one where the planner ran out
of time and today's agent answered (``over_clock``, the fallback's count)."""


def main(args: argparse.Namespace) -> int:
    games = 2 if args.quick else 20
    with tempfile.TemporaryDirectory() as tmp:
        zip_path = Path(tmp) / "mjbot.zip"
        build(zip_path)
        env = {**os.environ, "MJBOT_NO_NUMBA": "1"}
        turns: list[float] = []
        peak, penalties = 0.0, 0
        start = time.perf_counter()
        for g in range(games):
            table, mb = play_subprocess_seat([sys.executable, str(zip_path)], args.seed + g,
                                             cwd=Path(tmp), turn_seconds=turns, env=env)
            peak = max(peak, mb)
            ending = table.result.ending if table.result is not None else None
            penalties += isinstance(ending, Penalized) and ending.seat == 0
        wall = time.perf_counter() - start
    ordered = sorted(turns)
    row = {"games": games, "turns": len(turns),
           "median_s": round(statistics.median(ordered), 4),
           "p99_s": round(ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))], 4),
           "max_s": round(ordered[-1], 4), "limit_s": BOTZONE_LIMIT_SECONDS,
           "over_clock": sum(t >= ZIP_CLOCK_SECONDS for t in ordered),
           "margin": round(BOTZONE_LIMIT_SECONDS / ordered[-1], 2),
           "peak_mb": round(peak, 1), "penalties": penalties, "seconds": round(wall, 1)}
    if args.json:
        print(json.dumps({"bench": "zip", **row}))
        return 0
    print("the Botzone zip at seat 0 of the judge mock, numba off (plain-Python kernels)")
    for key, value in row.items():
        print(f"{key:<12} {value}")
    return 0
