"""The plain-Python completion ways (:mod:`strategy.completions_plain`, what the Botzone
zip runs) are the kernels' numbers to the last bit."""

from __future__ import annotations

import numpy as np
import pytest

from game.tiles import parse_counts
from strategy import completions, completions_plain
from strategy.deficiency.kernel import UNREACHABLE
from strategy.jit import HAVE_NUMBA

pytestmark = pytest.mark.skipif(not HAVE_NUMBA, reason="compared with the kernels, which "
                                "plain Python rebinds to the twins")


def test_a_hand_one_from_complete_has_the_papers_deficiency() -> None:
    """oracles.md: (B1B2B2B3B3B4B7B7B7)(C1C1)(D4D5D6) is complete (deficiency 0) with a
    full KB; one tile off (the 7s pung broken) it is 1 away."""
    hand = np.asarray(parse_counts("122334777s11m456p"), np.int8)
    unseen = (4 - hand).astype(np.int8)
    completions_plain.use_comb(completions._COMB)
    assert completions_plain.completion_ways(hand, unseen, 4)[0] == 0
    hand[24] -= 1  # one 7s fewer: 13 tiles
    d, w = completions_plain.completion_ways(hand, unseen, 4)
    assert (d, w) == completions.completion_ways(hand, unseen, 4)
    assert d == 1


def test_the_twins_give_the_kernels_numbers_on_random_hands() -> None:
    rng = np.random.default_rng(19)
    completions_plain.use_comb(completions._COMB)
    reached = 0
    for _ in range(120):
        melds = int(rng.integers(1, 5))
        wall = np.repeat(np.arange(34), 4)
        rng.shuffle(wall)
        size = 3 * melds + int(rng.integers(1, 3))
        hand = np.bincount(wall[:size], minlength=34).astype(np.int8)
        unseen = np.bincount(wall[size:size + int(rng.integers(5, 120))],
                             minlength=34).astype(np.int8)
        want = completions.completion_ways.py_func(hand, unseen, melds)  # type: ignore[attr-defined]
        got = completions_plain.completion_ways(hand, unseen, melds)
        assert (int(got[0]), float(got[1])) == (int(want[0]), float(want[1]))
        reached += got[0] < UNREACHABLE
        if size == 3 * melds + 2:
            d0, w0 = np.zeros(34, np.int64), np.zeros(34)
            completions.completion_ways_after_discards.py_func(  # type: ignore[attr-defined]
                hand, unseen, melds, d0, w0)
            d1, w1 = np.zeros(34, np.int64), np.zeros(34)
            completions_plain.completion_ways_after_discards(hand, unseen, melds, d1, w1)
            assert d1.tolist() == d0.tolist()
            assert w1.tolist() == w0.tolist()  # the same doubles, bit for bit
    assert reached > 60
