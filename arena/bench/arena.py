"""``mjbot bench arena``: arena games per second in this process and on Ray, and
Ray's overhead per game.

The match is the stable-draw-wall paper's (taiwan-16, stable draw wall, teams seating): our
agent with a search budget of 500 against ``mjbot-eps:0.5``, the experiment
``mjbot experiment sdw`` runs.  Rows:

- ``in-process``: the games one after another in this process (its kernels
  compiled by a warm-up game first);
- ``Ray 1 CPU, 1 game/task`` and ``... 1 wall/task``: a local Ray with one CPU,
  one task per game or per wall (two games); timed on a second run of the
  same games (the first warms every worker process Ray may use); Ray's
  start-up is given apart;
- ``Ray 2 CPUs, 10 walls/task``: how the experiment runs by default.

Ray's overhead per game is measured within one run: the 1-CPU Ray run's wall
time less the time its worker spent playing the games (each task times its own
games), over the games.  The one worker plays the tasks one after another, so
this cannot be negative, and the machine's load weighs on both terms alike.
(It used to be the 1-CPU Ray time less a separate in-process run's time: two
totals of seconds, timed in different processes at different moments of a
shared machine, whose difference of a few milliseconds per game drowned in
their noise of a few percent, and printed -13.5 ms once.)  Ray's own cost of
a task is timed on empty tasks; every timing is the fastest of three runs, and
on a shared machine every figure still moves with the load, which the table
prints.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Sequence
from typing import Any

from arena.lab.experiments.sdw import cell_batches
from arena.tables.games import GameSpec
from arena.tables.runner import Runner, play_batch
from game.stable_wall import WallMode

BUDGET = 500
REPEATS = 3
"""Every timing is the fastest of this many runs (the machine is shared)."""


def _noop() -> None:
    return None


def empty_task_ms(tasks: int = 200) -> float:
    """Ray's own cost of one task: submit and fetch tasks that do nothing (local Ray,
    one CPU), the fastest of ``REPEATS`` rounds."""
    import ray

    runner = Runner(workers=1)
    runner.start()
    try:
        noop = ray.remote(num_cpus=1)(_noop)
        ray.get([noop.remote() for _ in range(10)])
        best = float("inf")
        for _ in range(REPEATS):
            t0 = time.perf_counter()
            for _ in range(tasks):
                ray.get(noop.remote())
            best = min(best, time.perf_counter() - t0)
        return 1000 * best / tasks
    finally:
        runner.close()


def _specs(games: int, seed: int) -> list[GameSpec]:
    return [s for batch in cell_batches(0.5, WallMode.SDW, games, seed, BUDGET, 1) for s in batch]


def _batches(specs: Sequence[GameSpec], size: int) -> list[list[GameSpec]]:
    return [list(specs[i : i + size]) for i in range(0, len(specs), size)]


def _timed_batch(specs: Sequence[GameSpec]) -> float:
    """A Ray task: play ``specs``; the seconds it took inside the worker."""
    t0 = time.perf_counter()
    play_batch(specs)
    return time.perf_counter() - t0


def _ray_seconds(workers: int, specs: Sequence[GameSpec], size: int,
                 warm: Sequence[GameSpec]) -> tuple[float, float, float]:
    """(Ray start-up seconds, seconds for ``specs`` in batches of ``size``, and of these the
    seconds the workers spent playing the games), of the fastest of ``REPEATS`` runs."""
    import ray

    t0 = time.perf_counter()
    runner = Runner(workers=workers)
    runner.start()
    started = time.perf_counter() - t0
    try:
        timed = ray.remote(num_cpus=1)(_timed_batch)
        in_flight = max(1, runner.cpus * runner.in_flight_per_cpu)

        def run(batches: list[list[GameSpec]]) -> tuple[float, float]:
            """Wall seconds and the workers' seconds in the games (as ``Runner.run``
            submits: a few tasks in flight per CPU)."""
            t1 = time.perf_counter()
            pending: list[Any] = []
            inside = 0.0
            for batch in batches:
                if len(pending) >= in_flight:
                    inside += ray.get(pending.pop(0))
                pending.append(timed.remote(batch))
            inside += sum(ray.get(pending))
            return time.perf_counter() - t1, inside

        # Ray may hand a task to any of its idle worker processes, each of which pays
        # its imports and kernel loading once: play the set once to warm them all, then
        # time the second run
        run([list(warm)] * workers)
        run(_batches(specs, size))
        wall, inside = min(run(_batches(specs, size)) for _ in range(REPEATS))
        return started, wall, inside
    finally:
        runner.close()


def main(args: argparse.Namespace) -> int:
    games = 10 if args.quick else 60
    specs = _specs(games, args.seed)
    warm = _specs(2, args.seed + 1)
    play_batch(warm)
    local = float("inf")
    for _ in range(REPEATS):
        t0 = time.perf_counter()
        play_batch(specs)
        local = min(local, time.perf_counter() - t0)
    rows: list[dict[str, object]] = [
        {"where": "in-process", "games": games, "seconds": local, "games_per_s": games / local}]
    start_1, per_game, per_game_inside = _ray_seconds(1, specs, 1, warm)
    _, per_wall, per_wall_inside = _ray_seconds(1, specs, 2, warm)
    start_2, two, _ = _ray_seconds(2, specs, 20, warm)
    rows += [
        {"where": "Ray 1 CPU, 1 game/task", "games": games, "seconds": per_game,
         "games_per_s": games / per_game},
        {"where": "Ray 1 CPU, 1 wall/task", "games": games, "seconds": per_wall,
         "games_per_s": games / per_wall},
        {"where": "Ray 2 CPUs, 10 walls/task", "games": games, "seconds": two,
         "games_per_s": games / two},
    ]
    overhead = {"empty_task_ms": empty_task_ms(),
                "per_game_task_ms": 1000 * (per_game - per_game_inside) / games,
                "per_wall_task_ms": 1000 * (per_wall - per_wall_inside) / games,
                "worker_vs_in_process": per_game_inside / local,
                "ray_start_1cpu_s": start_1, "ray_start_2cpu_s": start_2,
                "load_average": os.getloadavg()[0]}
    if args.json:
        print(json.dumps({"budget": BUDGET, "rows": rows, "overhead": overhead}))
        return 0
    print(f"taiwan-16 SDW, mjbot:budget={BUDGET} vs mjbot-eps:0.5 (teams), {games} games; "
          f"load average {overhead['load_average']:.1f} on {os.cpu_count()} CPUs")
    print(f"{'where':<28} {'games':>6} {'seconds':>8} {'games/s':>8}")
    for r in rows:
        print(f"{r['where']:<28} {r['games']:>6} {r['seconds']:>8.2f} {r['games_per_s']:>8.2f}")
    print(f"Ray's own cost of a task (an empty one, submitted and fetched): "
          f"{overhead['empty_task_ms']:.2f} ms")
    print(f"Ray overhead per game (1 CPU; wall time less the worker's time in the games, "
          f"same run): {overhead['per_game_task_ms']:.1f} ms with a task per game, "
          f"{overhead['per_wall_task_ms']:.1f} ms with a task per wall; Ray start-up "
          f"{start_1:.1f} s (1 CPU), {start_2:.1f} s (2 CPUs)")
    print(f"the games themselves took {overhead['worker_vs_in_process']:.2f}× as long in the "
          "Ray worker as in this process (a different process at a different moment: not "
          "Ray's overhead)")
    return 0
