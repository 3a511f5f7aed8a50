"""The overlaps the route loops ask for: the numba kernels, or without numba their
remembered plain-Python twins.

The route loops (:mod:`strategy.fan.rows`, :mod:`strategy.fan.routes`,
:mod:`strategy.fan.lowering`, :mod:`strategy.fan.plain_routes`) call every dynamic
programme through the names here, never the kernels' modules directly, so the choice is
made once.  With numba they are the kernels (:mod:`strategy.deficiency.kernel`,
:mod:`strategy.deficiency.shapes`, :mod:`strategy.fan.kernels`).  Without numba (the
Botzone zip) every kernel runs as Python, where the dense DP arrays cost a Python step per
state, reached or not; the names are then the block twins
(:mod:`strategy.deficiency.plain`, :mod:`strategy.fan.plain_dp`), each remembered by its
arguments: the fan routes meet the same restricted hands again and again (a flush route
sees one suit, a draw in another suit leaves it as it was).  The twins give the kernels'
answers; the tests that compare them are named in :mod:`strategy.fan.plain_dp`.
"""

from typing import Any, Callable, Dict, Tuple

import numpy as np

from strategy.deficiency.kernel import regular_overlap
from strategy.deficiency.plain import regular_overlap_blocks
from strategy.deficiency.shapes import (
    honors_and_knitted,
    knitted_straight,
    knitted_straight_below,
    seven_pairs,
    thirteen_orphans,
)
from strategy.fan.kernels import bonus_overlap, pungs_overlap
from strategy.fan.plain_dp import bonus_overlap_blocks, pungs_overlap_blocks
from strategy.jit import HAVE_NUMBA, njit

__all__ = [
    "bonus_overlap",
    "honors_and_knitted",
    "knitted_below",
    "pungs_overlap",
    "regular_overlap",
    "seven_pairs",
    "thirteen_orphans",
]


@njit()
def knitted_below(hand: "np.ndarray", avail: "np.ndarray", melds_needed: int, limit: int) -> int:
    """The knitted straight's deficiency where it is below ``limit``, else a number at least
    ``limit`` (:func:`strategy.deficiency.shapes.knitted_straight_below`; without numba the
    remembered :func:`knitted_straight`, the same answer below ``limit``)."""
    return knitted_straight_below(hand, avail, melds_needed, limit)


_MEMO_LIMIT = 1 << 16
"""Answers remembered per overlap before its memory is cleared."""


def _memo(kernel: "Callable[..., int]", arrays: int) -> "Callable[..., int]":
    """``kernel`` remembering its answers by its arguments (its first ``arrays`` are
    count vectors, by their bytes; a trailing scratch array is not part of the key)."""
    memo: "Dict[Tuple[object, ...], int]" = {}

    def remembered(*args: "Any") -> int:
        key = (*(a.tobytes() for a in args[:arrays]),
               *(int(x) for x in args[arrays:] if not isinstance(x, np.ndarray)))
        got = memo.get(key)
        if got is None:
            if len(memo) >= _MEMO_LIMIT:
                memo.clear()
            got = memo[key] = int(kernel(*args))
        return got

    remembered.py_func = remembered  # type: ignore[attr-defined]
    remembered.__wrapped__ = kernel  # type: ignore[attr-defined]
    return remembered


if not HAVE_NUMBA:
    regular_overlap = _memo(regular_overlap_blocks, 2)  # type: ignore[assignment]
    pungs_overlap = _memo(pungs_overlap_blocks, 2)  # type: ignore[assignment]
    bonus_overlap = _memo(bonus_overlap_blocks, 2)  # type: ignore[assignment]
    seven_pairs = _memo(seven_pairs, 2)  # type: ignore[assignment]
    honors_and_knitted = _memo(honors_and_knitted, 2)  # type: ignore[assignment]
    _knitted_straight = _memo(knitted_straight, 2)

    def _remembered_knitted_below(hand: "np.ndarray", avail: "np.ndarray", melds_needed: int,
                                  limit: int) -> int:
        return _knitted_straight(hand, avail, melds_needed)

    knitted_below = _remembered_knitted_below  # type: ignore[assignment]
