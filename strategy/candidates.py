"""The numbers of every discard candidate in one jitted pass.

For each tile kind a 3m+2 hand holds: the least deficiency over the winning
shapes the rules allow after discarding it (:func:`strategy.deficiency.shapes.every_shape`,
the rules :func:`strategy.deficiency.shapes_of` uses), and the regular shape's
deficiency and completion ways (:func:`strategy.completions.completion_ways`),
from which the policy takes its chance estimate.
"""

import numpy as np

from strategy.completions import completion_ways, completion_ways_after_discards
from strategy.deficiency.changes import after_discards
from strategy.deficiency.kernel import UNREACHABLE
from strategy.deficiency.shapes import every_shape
from strategy.jit import njit


@njit()
def best_shape_deficiency(hand: "np.ndarray", unseen: "np.ndarray", melds: int, special: bool,
                          concealed: bool, regular: int = -1) -> int:
    """The least deficiency over the shapes :func:`every_shape` allows (the knitted
    straight is only looked at where it could be less than the others)."""
    out = np.empty(5, np.int64)
    every_shape(hand, unseen, melds, special, concealed, out, True, regular)
    best = out[0]
    for j in range(1, 5):
        if out[j] < best:
            best = out[j]
    return best


@njit()
def discard_numbers(hand: "np.ndarray", unseen: "np.ndarray", melds: int, special: bool,
                    concealed: bool, i: int) -> "tuple[int, int, float]":
    """(least shape deficiency, regular deficiency, ways) of ``hand`` less one ``i``."""
    h = hand.copy()
    h[i] -= 1
    d = best_shape_deficiency(h, unseen, melds, special, concealed)
    regular, ways = completion_ways(h, unseen, melds)
    return d, regular, ways


@njit()
def discard_table(hand: "np.ndarray", unseen: "np.ndarray", melds: int, special: bool,
                  concealed: bool, deficiency: "np.ndarray", regular: "np.ndarray",
                  ways: "np.ndarray", tables: "np.ndarray", rest: "np.ndarray", keys: "np.ndarray",
                  words: "np.ndarray", state: "np.ndarray", work: "np.ndarray") -> None:
    """:func:`discard_numbers` for every kind the hand holds (UNREACHABLE, 0 elsewhere); the
    arrays after ``ways`` are a :class:`SuitCache`'s."""
    completion_ways_after_discards(hand, unseen, melds, regular, ways)
    kernel = np.empty(34, np.int64)
    h = hand.copy()
    after_discards(h, unseen, melds, kernel, tables, rest, keys, words, state, work)
    for i in range(34):
        deficiency[i] = UNREACHABLE
        if hand[i] > 0:
            h[i] -= 1
            deficiency[i] = best_shape_deficiency(h, unseen, melds, special, concealed,
                                                  kernel[i])
            h[i] += 1
