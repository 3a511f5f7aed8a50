"""Median time of one call to the public ``strategy.deficiency.deficiency()`` from Python.

Issue 13, item 6: the target is a median of at most 2 µs for one 14-tile (or 13-tile) hand
given as an int8 count vector, with and without a knowledge base (random hands from the
136 tiles, each timed alone, cycling through them).  The kernel alone is timed beside it, so
the cost of the public wrapper shows, and a jitted function that does nothing with the same
arguments gives the floor of any call; the "checked" row passes lists, which take the slow
path that converts and checks every count.  On a loaded machine every row grows: compare
rows of one run.

    mjbot bench call [--quick] [--json]
    python -m arena.bench.deficiency_call [--hands N] [--passes P] [--seed S] [--json]
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable

import numpy as np

from arena.bench.targets import Target, missed_line
from strategy.deficiency import deficiency
from strategy.deficiency.kernel import kernel_deficiency
from strategy.jit import njit


@njit(cache=False)
def _no_op(hand: np.ndarray, unseen: np.ndarray, melds: int) -> int:
    """A jitted function that does nothing with the kernel's arguments: the call's floor."""
    return melds


def random_hand(rng: np.random.Generator, size: int) -> np.ndarray:
    return np.bincount(rng.choice(136, size, replace=False) // 4, minlength=34).astype(np.int8)


def medians_us(calls: list[Callable[[np.ndarray, np.ndarray], object]],
               hands: list[np.ndarray], kbs: list[np.ndarray], passes: int,
               cpu: bool = False) -> list[float]:
    """Per call, the median time of one call, cycling through the hands; the calls take
    turns batch by batch (50 hands), so a load that comes and goes hits them alike.

    Wall time of each single call by default; with ``cpu`` the thread's CPU time of each
    batch divided by its size (time spent descheduled on a loaded machine not counted)."""
    pairs = list(zip(hands, kbs, strict=True))
    for call in calls:
        for h, k in pairs[:200]:
            call(h, k)
    batch = 50
    samples: list[list[float]] = [[] for _ in calls]
    wall = time.perf_counter_ns
    cpu_clock = time.thread_time_ns
    for _ in range(passes):
        for i in range(0, len(pairs) - batch + 1, batch):
            chunk = pairs[i:i + batch]
            for c, call in enumerate(calls):
                if cpu:
                    t0 = cpu_clock()
                    for h, k in chunk:
                        call(h, k)
                    samples[c].append((cpu_clock() - t0) / batch)
                    continue
                for h, k in chunk:
                    t0 = wall()
                    call(h, k)
                    samples[c].append(wall() - t0)
    return [float(np.median(x)) / 1000.0 for x in samples]


def measure(hands_per_size: int, passes: int, seed: int) -> list[dict[str, object]]:
    """Rows of (tiles, call, median wall µs of one call, median thread-CPU µs per call)."""
    rng = np.random.default_rng(seed)
    full = np.zeros(0, dtype=np.int8)
    cases: list[tuple[str, Callable[[np.ndarray, np.ndarray], object]]] = [
        ("deficiency(hand, 4)", lambda h, k: deficiency(h, 4)),
        ("deficiency(hand, 4, kb)", lambda h, k: deficiency(h, 4, k)),
        ("deficiency(list, 4, list) (checked)", lambda h, k: deficiency(h.tolist(), 4, k.tolist())),
        ("kernel_deficiency(hand, FULL, 4)", lambda h, k: kernel_deficiency(h, full, 4)),
        ("kernel_deficiency(hand, kb, 4)", lambda h, k: kernel_deficiency(h, k, 4)),
        ("jitted no-op(hand, kb, 4) (the floor)", lambda h, k: _no_op(h, k, 4)),
    ]
    rows: list[dict[str, object]] = []
    for size in (14, 13):
        hands = [random_hand(rng, size) for _ in range(hands_per_size)]
        kbs = []
        for h in hands:
            kb = (4 - h).astype(np.int8)
            kb[rng.integers(0, 34, 12)] = 0  # some tiles seen elsewhere
            kbs.append(kb)
        calls = [call for _, call in cases]
        wall = medians_us(calls, hands, kbs, passes)
        cpu = medians_us(calls, hands, kbs, passes, cpu=True)
        for (name, _), w, c in zip(cases, wall, cpu, strict=True):
            rows.append({"tiles": size, "call": name, "median_us": w, "cpu_median_us": c})
    return rows


TARGET = Target("≤", 2.0, "µs")
"""The median wall time of one ``deficiency(hand, 4[, kb])`` call."""
TARGETED = ("deficiency(hand, 4)", "deficiency(hand, 4, kb)")


def with_targets(rows: list[dict[str, object]]) -> list[dict[str, object]]:
    """The rows, the targeted calls' with their target and whether it was met."""
    return [{**r, **TARGET.to_json(float(r["median_us"]))}  # type: ignore[arg-type]
            if r["call"] in TARGETED else r for r in rows]


def render(rows: list[dict[str, object]]) -> str:
    lines = [f"{'tiles':>5}  {'call':<38} {'median µs':>10} {'CPU µs':>8} {'× kernel':>9}"]
    kernel = {r["tiles"]: r["median_us"] for r in rows
              if r["call"] == "kernel_deficiency(hand, kb, 4)"}
    missed = 0
    for r in rows:
        ratio = float(r["median_us"]) / float(kernel[r["tiles"]])  # type: ignore[arg-type]
        mark = ""
        if r["call"] in TARGETED:
            mark = "  " + TARGET.mark(float(r["median_us"]))  # type: ignore[arg-type]
            missed += not TARGET.met(float(r["median_us"]))  # type: ignore[arg-type]
        lines.append(f"{r['tiles']:>5}  {r['call']:<38} {r['median_us']:>10.2f} "
                     f"{r['cpu_median_us']:>8.2f} {ratio:>9.2f}{mark}")
    lines.append("median µs: wall time of one call; CPU µs: the thread's CPU time of 50-call "
                 "batches per call (robust on a loaded machine); the target is the median "
                 "wall time")
    lines.append(missed_line(missed, sum(r["call"] in TARGETED for r in rows)))
    return "\n".join(lines)


def main(args: argparse.Namespace | None = None) -> int:
    """``mjbot bench call`` (``args`` from the bench command) or run as a module."""
    if args is None:
        parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
        parser.add_argument("--hands", type=int, default=2_000, help="random hands per size")
        parser.add_argument("--passes", type=int, default=10, help="calls per hand")
        parser.add_argument("--seed", type=int, default=13)
        parser.add_argument("--json", action="store_true")
        args = parser.parse_args()
        hands, passes = args.hands, args.passes
    else:
        hands, passes = (200, 3) if args.quick else (2_000, 10)
    rows = measure(hands, passes, args.seed)
    if args.json:
        print(json.dumps({"bench": "call", "seed": args.seed, "rows": with_targets(rows)}))
    else:
        print(render(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
