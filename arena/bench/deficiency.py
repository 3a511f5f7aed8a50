"""``mjbot bench deficiency``: the deficiency implementations side by side.

The data follow the experiments of Yan, Li & Li, "A Fast Algorithm for
Computing the Deficiency Number of a Mahjong Hand" (tables 1-3): random one-,
two- and three-colour 14-tile hands; for each hand several random knowledge
bases drawn from the copies of the hand's colours that are not in the hand,
their size normal around half that pool (sd a sixth of it, clipped).  Every
method runs on the same pairs in one process; slow methods get a seeded
sub-sample, and every method's answers are compared with the production
kernel's on the pairs it ran.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass

import numpy as np

from strategy.deficiency.kernel import kernel_deficiency, kernel_deficiency_batch

Pairs = tuple[np.ndarray, np.ndarray]


@dataclass(frozen=True)
class Row:
    colours: int
    method: str
    knowledge_aware: bool
    pairs: int
    median_us: float
    max_us: float
    ratio_to_kernel: float
    agree_with_kernel: int


def make_pairs(rng: np.random.Generator, colours: int, hands: int, kbs_per_hand: int) -> Pairs:
    """Hands (N x 34) and unseen vectors (N x 34) as in the paper's tables 1-3."""
    hand_rows, kb_rows = [], []
    for _ in range(hands):
        suits = rng.choice(3, colours, replace=False)
        pool = np.concatenate([np.repeat(np.arange(9 * s, 9 * s + 9), 4) for s in suits])
        while True:
            tiles = rng.choice(pool, 14, replace=False)
            hand = np.bincount(tiles, minlength=34).astype(np.int8)
            if len(set(np.nonzero(hand)[0] // 9)) == colours:
                break
        rest = np.zeros(34, dtype=np.int64)
        for s in suits:
            rest[9 * s : 9 * s + 9] = 4 - hand[9 * s : 9 * s + 9]
        copies = np.repeat(np.arange(34), rest)
        for _ in range(kbs_per_hand):
            size = int(np.clip(round(rng.normal(len(copies) / 2, len(copies) / 6)), 0, len(copies)))
            chosen = rng.choice(copies, size, replace=False)
            hand_rows.append(hand)
            kb_rows.append(np.bincount(chosen, minlength=34).astype(np.int8))
    return np.array(hand_rows), np.array(kb_rows)


def time_each(fn: Callable[[int], int], n: int) -> tuple[list[float], list[int]]:
    """Per-call wall time in microseconds and the answers."""
    times, answers = [], []
    clock = time.perf_counter_ns
    for i in range(n):
        t0 = clock()
        answers.append(fn(i))
        times.append((clock() - t0) / 1000.0)
    return times, answers


def optional_methods() -> dict[str, tuple[bool, Callable[[np.ndarray, np.ndarray], int], int]]:
    """name -> (knowledge aware, fn(hand, unseen), sample cap) for the papers' algorithms."""
    import strategy.deficiency.block as block
    import strategy.deficiency.quadtree as quadtree

    return {
        "quadtree 6-ary (Python)": (True, lambda h, u: quadtree.quadtree6(h, u, 4), 60),
        "block algorithm (Python)": (True, lambda h, u: block.block_deficiency_py(h, u, 4), 400),
        "block algorithm (numba)": (True, lambda h, u: block.block_deficiency(h, u, 4), 100_000),
    }


def run_colour(colours: int, hands: Pairs, seed: int) -> list[Row]:
    H, U = hands
    n = len(H)
    hand_rows = [H[i] for i in range(n)]
    kb_rows = [U[i] for i in range(n)]
    kernel_deficiency(hand_rows[0], kb_rows[0], 4)  # load or compile outside the timing
    k_times, k_answers = time_each(lambda i: kernel_deficiency(hand_rows[i], kb_rows[i], 4), n)
    kernel_median = statistics.median(k_times)
    rows = [Row(colours, "production kernel (single call)", True, n, kernel_median,
                max(k_times), 1.0, n)]

    out = np.zeros(n, dtype=np.int32)
    kernel_deficiency_batch(H[:1], U[:1], 4, out[:1])
    batch = []
    for _ in range(7):
        t0 = time.perf_counter_ns()
        kernel_deficiency_batch(H, U, 4, out)
        batch.append((time.perf_counter_ns() - t0) / 1000.0 / n)
    rows.append(Row(colours, "production kernel (batch, per hand)", True, n,
                    statistics.median(batch), max(batch), statistics.median(batch) / kernel_median,
                    int((out == np.array(k_answers)).sum())))

    rng = np.random.default_rng(seed)
    for name, (aware, fn, cap) in optional_methods().items():
        idx = rng.choice(n, min(cap, n), replace=False) if cap < n else np.arange(n)
        fn(hand_rows[idx[0]], kb_rows[idx[0]])
        def call(j: int, fn: Callable[[np.ndarray, np.ndarray], int] = fn,
                 idx: np.ndarray = idx) -> int:
            return fn(hand_rows[idx[j]], kb_rows[idx[j]])

        times, answers = time_each(call, len(idx))
        agree = sum(1 for j, a in enumerate(answers) if a == k_answers[idx[j]])
        med = statistics.median(times)
        rows.append(Row(colours, name, aware, len(idx), med, max(times), med / kernel_median,
                        agree))

    # the mahjong package is not knowledge-aware: compare with the kernel's hand-only answers
    from mahjong.shanten import Shanten

    shanten = Shanten()
    lists = [h.tolist() for h in hand_rows]
    full = np.zeros((n, 0), dtype=np.int8)
    hand_only = np.zeros(n, dtype=np.int32)
    kernel_deficiency_batch(H, full, 4, hand_only)
    times, answers = time_each(lambda i: shanten.calculate_shanten_for_regular_hand(lists[i]), n)
    med = statistics.median(times)
    agree = sum(1 for i, a in enumerate(answers) if a + 1 == hand_only[i])
    rows.append(Row(colours, "mahjong 2.1.0 Shanten (hand only)", False, n, med, max(times),
                    med / kernel_median, agree))
    return rows


def render(rows: list[Row]) -> str:
    head = (f"{'colours':>7}  {'method':<38} {'KB':>3} {'pairs':>6} {'median µs':>10} "
            f"{'max µs':>10} {'× kernel':>9} {'agree':>7}")
    lines = [head, "-" * len(head)]
    for r in rows:
        lines.append(
            f"{r.colours:>7}  {r.method:<38} {'yes' if r.knowledge_aware else 'no':>3} "
            f"{r.pairs:>6} {r.median_us:>10.2f} {r.max_us:>10.1f} {r.ratio_to_kernel:>9.1f} "
            f"{r.agree_with_kernel:>7}"
        )
    return "\n".join(lines)


def main(args: argparse.Namespace) -> int:
    rng = np.random.default_rng(args.seed)
    hands, per_hand = (40, 5) if args.quick else (400, 10)
    rows: list[Row] = []
    started = time.perf_counter()
    for colours in (1, 2, 3):
        print(f"bench deficiency: {colours}-colour hands ({hands} x {per_hand} pairs, every "
              f"method; {time.perf_counter() - started:.0f} s so far)", file=sys.stderr,
              flush=True)
        rows.extend(run_colour(colours, make_pairs(rng, colours, hands, per_hand), args.seed))
    print(f"bench deficiency: done in {time.perf_counter() - started:.0f} s", file=sys.stderr,
          flush=True)
    if args.json:
        print(json.dumps({"bench": "deficiency", "seed": args.seed,
                          "lookup_tables_mb": 0.0, "rows": [asdict(r) for r in rows]}))
    else:
        print(render(rows))
        print("lookup tables: none (the kernel is a rank DP; 0 MB, nothing to load)")
        print("agree = answers equal to the production kernel's (hand-only kernel for mahjong)")
    return 0
