"""Compile (or load from numba's cache) every kernel once: ``python -m strategy.warmup``."""

from __future__ import annotations

import numpy as np


def warm_up() -> None:
    from strategy.deficiency import shapes
    from strategy.deficiency.kernel import kernel_deficiency, kernel_deficiency_batch

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


if __name__ == "__main__":
    warm_up()
