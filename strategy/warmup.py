"""Compile (or load from numba's cache) every kernel once: ``python -m strategy.warmup``.

The command prints each step as it starts and, once every kernel is in the cache, writes
the stamp (:data:`strategy.jit.STAMP`) that lets a platform player use the compiled
kernels (:mod:`bot.start`; without it a player runs them as plain Python rather than
compile during a turn).  ``scripts/setup.sh`` and the Docker image run it; a player
started without it runs it in the background.
"""

from __future__ import annotations

import os
from collections.abc import Callable

import numpy as np


def steps() -> list[tuple[str, Callable[[], object]]]:
    """(name, call) for every kernel the bot uses, each with the argument types it uses."""
    from strategy.candidates import best_shape_deficiency, discard_numbers, discard_table
    from strategy.completions import completion_ways
    from strategy.deficiency import shapes
    from strategy.deficiency.changes import SuitCache
    from strategy.deficiency.kernel import kernel_deficiency, kernel_deficiency_batch
    from strategy.fan.lowering import draws_lowering
    from strategy.fan.routes import after_each_discard, after_each_draw, route_table
    from strategy.fan.table import NUM_ROUTES
    from strategy.search import StepSearch, rehash
    from strategy.stepvalue import delta

    hand = np.zeros(34, dtype=np.int8)
    hand[:14] = 1
    full = np.zeros(0, dtype=np.int8)
    out = np.zeros(1, dtype=np.int32)
    avail = np.full(34, 4, dtype=np.int8)
    kb = (4 - hand).astype(np.int8)
    d = np.zeros(34, dtype=np.int64)
    c = SuitCache(16)
    h13 = hand.copy()
    h13[0] -= 1
    declared = np.zeros((0, 2), dtype=np.int64)
    return [
        ("the deficiency kernel", lambda: (kernel_deficiency(hand, full, 4),
                                           kernel_deficiency(hand, kb, 4))),
        ("the batch deficiency kernel", lambda: kernel_deficiency_batch(
            hand[None, :], np.zeros((1, 0), dtype=np.int8), 4, out)),
        ("the special shapes", lambda: (
            shapes.seven_pairs(hand, avail), shapes.thirteen_orphans(hand, avail),
            shapes.honors_and_knitted(hand, avail), shapes.knitted_straight(hand, avail, 4))),
        ("the step value (delta)", lambda: delta(hand, kb, 4, SuitCache(16))),
        ("the completion ways", lambda: completion_ways(hand, kb, 4)),
        ("the discard table", lambda: discard_table(
            hand, kb, 4, True, True, d, d.copy(), np.zeros(34), c.tables, c.rest, c.keys,
            c.words, c.state, c.work)),
        ("the discard numbers", lambda: discard_numbers(hand, kb, 4, True, True, 0)),
        ("the best shape", lambda: (best_shape_deficiency(hand, kb, 4, True, True),
                                    shapes.every_shape(hand, kb, 4, True, True, d))),
        ("the step search", lambda: StepSearch(
            4, kb, complete=lambda counts: True).partial(h13, kb, 2)),
        # the memo table grows in long searches: found missing by tests/test_dockerfile.py,
        # where a whole game after the warm-up compiled it
        ("the search's memo table", lambda: rehash(
            np.zeros((16, 4), np.int64), np.zeros(16), np.zeros((32, 4), np.int64),
            np.zeros(32), np.zeros(7, np.int64))),
        ("the fan routes", lambda: (
            route_table(hand, kb, 4, declared, 0, 0, np.zeros(NUM_ROUTES, dtype=np.int64),
                        True),
            after_each_discard(hand, kb, 4, declared, 0, 0, d),
            after_each_draw(h13, kb, 4, declared, 0, 0, d),
            # the useful draws: each route's changes where a draw can lower them
            [draws_lowering(h13, kb, 4, declared, 0, 0, distance) for distance in (1, 3, 6)])),
    ]


def warm_up(say: Callable[[str], None] | None = None) -> None:
    """Compile or load every kernel; ``say`` hears each step's name as it starts."""
    todo = steps()
    for i, (name, call) in enumerate(todo, 1):
        if say is not None:
            say(f"[{i}/{len(todo)}] {name}")
        call()


def write_stamp() -> str:
    """Mark this version's cache complete (what :func:`strategy.jit.kernels_cached` reads);
    returns the stamp's path."""
    from strategy.jit import STAMP, cache_dir

    folder = cache_dir()
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, STAMP)
    with open(path, "w", encoding="utf-8") as f:
        f.write("every kernel of these sources is in this cache\n")
    return path


def main() -> int:
    """``python -m strategy.warmup``: warm the cache, saying what it does."""
    os.environ.pop("MJBOT_JIT", None)  # this process compiles: it must not fall back itself
    from strategy import jit

    if not jit.HAVE_NUMBA:
        why = "MJBOT_NO_NUMBA is set" if os.environ.get("MJBOT_NO_NUMBA") else \
            "numba is not installed"
        print(f"strategy.warmup: {why}: the kernels run as plain Python, nothing to compile",
              flush=True)
        return 0
    folder = jit.cache_dir()
    state = "loading them from" if jit.kernels_cached() else \
        "compiling them (a few minutes the first time) into"
    print(f"strategy.warmup: the numba kernels: {state} {folder}", flush=True)
    warm_up(lambda step: print(f"strategy.warmup: {step}", flush=True))
    print(f"strategy.warmup: done; every kernel is cached (stamp: {write_stamp()})",
          flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
