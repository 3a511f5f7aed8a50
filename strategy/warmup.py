"""Compile (or load from numba's cache) every kernel once: ``python -m strategy.warmup``."""

from __future__ import annotations

import numpy as np


def warm_up() -> None:
    from strategy.completions import completion_ways
    from strategy.deficiency import shapes
    from strategy.deficiency.kernel import kernel_deficiency, kernel_deficiency_batch
    from strategy.stepvalue import deficiency_after_discards, deficiency_after_draws, delta_vector

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
    buf = np.zeros(34, dtype=np.int64)
    kb = (4 - hand).astype(np.int8)
    delta_vector(hand, kb, 4, buf)
    deficiency_after_discards(hand, kb, 4, buf)
    deficiency_after_draws(hand, kb, 4, buf)
    completion_ways(hand, kb, 4)


if __name__ == "__main__":
    warm_up()
