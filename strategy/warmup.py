"""Compile (or load from numba's cache) every kernel once: ``python -m strategy.warmup``."""

from __future__ import annotations

import numpy as np


def warm_up() -> None:
    from strategy.candidates import best_shape_deficiency, discard_numbers, discard_table
    from strategy.completions import completion_ways
    from strategy.deficiency import shapes
    from strategy.deficiency.changes import SuitCache
    from strategy.deficiency.kernel import kernel_deficiency, kernel_deficiency_batch
    from strategy.fan.routes import NUM_ROUTES, after_each_discard, after_each_draw, route_table
    from strategy.search import StepSearch, rehash
    from strategy.stepvalue import delta

    hand = np.zeros(34, dtype=np.int8)
    hand[:14] = 1
    full = np.zeros(0, dtype=np.int8)
    kernel_deficiency(hand, full, 4)
    kernel_deficiency(hand, (4 - hand).astype(np.int8), 4)
    out = np.zeros(1, dtype=np.int32)
    kernel_deficiency_batch(hand[None, :], np.zeros((1, 0), dtype=np.int8), 4, out)
    avail = np.full(34, 4, dtype=np.int8)
    shapes.seven_pairs(hand, avail)
    shapes.thirteen_orphans(hand, avail)
    shapes.honors_and_knitted(hand, avail)
    shapes.knitted_straight(hand, avail, 4)
    kb = (4 - hand).astype(np.int8)
    delta(hand, kb, 4, SuitCache(16))
    completion_ways(hand, kb, 4)
    d = np.zeros(34, dtype=np.int64)
    c = SuitCache(16)
    discard_table(hand, kb, 4, True, True, d, d.copy(), np.zeros(34), c.tables, c.rest,
                  c.keys, c.words, c.state, c.work)
    discard_numbers(hand, kb, 4, True, True, 0)
    best_shape_deficiency(hand, kb, 4, True, True)
    shapes.every_shape(hand, kb, 4, True, True, d)
    h13 = hand.copy()
    h13[0] -= 1
    StepSearch(4, kb, complete=lambda counts: True).partial(h13, kb, 2)
    # the memo table grows in long searches: found missing by tests/test_dockerfile.py,
    # where a whole game after the warm-up compiled it
    rehash(np.zeros((16, 4), np.int64), np.zeros(16), np.zeros((32, 4), np.int64),
           np.zeros(32), np.zeros(7, np.int64))
    declared = np.zeros((0, 2), dtype=np.int64)
    route_table(hand, kb, 4, declared, 0, 0, np.zeros(NUM_ROUTES, dtype=np.int64), True)
    after_each_discard(hand, kb, 4, declared, 0, 0, d)
    after_each_draw(h13, kb, 4, declared, 0, 0, d)


if __name__ == "__main__":
    warm_up()
