"""The public ``deficiency()``: its fast path (int8 34-vectors straight to the kernel) gives
the checked path's answers, and bad input on either path still gets an error naming it."""

from __future__ import annotations

import numpy as np
import pytest

from game.tiles import parse_counts
from strategy.deficiency import UNREACHABLE, DeficiencyError, deficiency


def test_fast_and_checked_paths_agree() -> None:
    rng = np.random.default_rng(6)
    for _ in range(300):
        size = int(rng.choice([13, 14]))
        hand = np.bincount(rng.choice(136, size, replace=False) // 4, minlength=34).astype(np.int8)
        kb = (4 - hand).astype(np.int8)
        kb[rng.integers(0, 34, 15)] = 0
        # lists take the checked path, int8 arrays the fast one
        assert deficiency(hand, 4) == deficiency(hand.tolist(), 4)
        assert deficiency(hand, 4, kb) == deficiency(hand.tolist(), 4, kb.tolist())
        assert deficiency(hand, 4, kb) == deficiency(hand.astype(np.int64), 4, kb)


def test_known_values_on_the_fast_path() -> None:
    # Li & Yan, Example 1: deficiency 2; an unreachable pair; a complete hand
    assert deficiency(parse_counts("11223333s128m228p"), 4) == 2
    assert deficiency(parse_counts("123456789m123p55s"), 4) == 0
    assert deficiency(parse_counts("5p"), 0, np.zeros(34, np.int8)) == UNREACHABLE


def test_bad_int8_input_is_named_after_the_fast_path_refuses_it() -> None:
    hand = parse_counts("123456789m123p55s")
    five = hand.copy()
    five[0] = 5
    five[9:12] -= 1
    five[22] -= 1  # 1111 23456789m 5s: still 14 tiles
    with pytest.raises(DeficiencyError, match=r"hand holds 5 of 1m"):
        deficiency(five, 4)
    negative = hand.copy()
    negative[30] = -1
    negative[22] += 1
    with pytest.raises(DeficiencyError, match=r"hand holds -1 of 4z"):
        deficiency(negative, 4)
    kb = (4 - hand).astype(np.int8)
    kb[22] = 3  # 2 + 3 copies of 5s
    with pytest.raises(DeficiencyError, match=r"hold 5 of 5s"):
        deficiency(hand, 4, kb)
    with pytest.raises(DeficiencyError, match="14"):
        deficiency(parse_counts("123m"), 4)
    with pytest.raises(DeficiencyError, match="melds_needed"):
        deficiency(hand, 6)
    with pytest.raises(DeficiencyError, match="27 or 34"):
        deficiency(np.zeros(33, np.int8), 4)
    with pytest.raises(DeficiencyError, match="honours"):
        deficiency(parse_counts("123456789m123p11z"), 4, honours=False)
