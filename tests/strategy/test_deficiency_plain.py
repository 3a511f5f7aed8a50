"""The plain-Python rank DP (:mod:`strategy.deficiency.plain`, what the Botzone zip runs)
gives the kernel's numbers: the overlap block by block against the 34-kind chain, a suit's
words against the suit DP, on hands in tile notation and on random counts."""

from __future__ import annotations

import numpy as np
import pytest

from game.tiles import parse_counts
from strategy.deficiency import changes, kernel
from strategy.deficiency.plain import (
    block_suit_words,
    blocks_after_discards,
    blocks_after_draws,
    honour_words,
    merge_words,
    regular_overlap_blocks,
)
from strategy.jit import HAVE_NUMBA

pytestmark = pytest.mark.skipif(not HAVE_NUMBA, reason="the twins are compared with the "
                                "kernels' originals (py_func), rebound without numba")

WORK = np.empty(36, np.int64)


def kernel_overlap(hand: np.ndarray, avail: np.ndarray, melds: int, pairs: int) -> int:
    return int(kernel.regular_overlap.py_func(  # type: ignore[attr-defined]
        hand, avail, melds, pairs, WORK))


@pytest.mark.parametrize(("hand", "deficiency"), [
    ("122334777s11m456p", 0),   # Li & Yan, eq. 1
    ("11222233s128m228p", 2),   # Li & Yan, Example 1
    ("11258s12258m3689p", 6),   # Li & Yan, eq. 3
    ("11225566888899m", 3),     # Li & Yan, eq. 2
    ("1568889s1245567p", 3),    # the fast-algorithm paper, Example 1
])
def test_the_blocks_give_the_papers_deficiencies_on_a_full_kb(hand: str,
                                                              deficiency: int) -> None:
    """oracles.md's single hands, full knowledge base: the overlap is 14 minus the
    deficiency, for the blocks as for the kernel's chain."""
    h = np.asarray(parse_counts(hand), np.int8)
    avail = np.full(34, 4, np.int8)
    assert kernel_overlap(h, avail, 4, 1) == 14 - deficiency
    assert regular_overlap_blocks(h, avail, 4, 1) == 14 - deficiency


def random_case(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, int, int]:
    melds, pairs = int(rng.integers(0, 5)), int(rng.integers(0, 2))
    wall = np.repeat(np.arange(34), 4)
    rng.shuffle(wall)
    size = 3 * melds + int(rng.integers(1, 3))
    hand = np.bincount(wall[:size], minlength=34).astype(np.int8)
    unseen = np.bincount(wall[size:size + int(rng.integers(0, 110))], minlength=34)
    avail = (hand + unseen).astype(np.int8)
    if rng.random() < 0.5:  # a route's restriction: some kinds neither held nor allowed
        off = rng.random(34) < 0.4
        avail[off] = 0
        if rng.random() < 0.5:
            hand[off] = 0
    return hand, avail, melds, pairs


def test_the_blocks_give_the_chain_s_overlap_on_random_counts() -> None:
    rng = np.random.default_rng(2026)
    reached = 0
    for _ in range(1500):
        hand, avail, melds, pairs = random_case(rng)
        want = kernel_overlap(hand, avail, melds, pairs)
        assert regular_overlap_blocks(hand, avail, melds, pairs) == want, (hand, avail)
        assert regular_overlap_blocks(hand, avail, melds, pairs) == want  # remembered
        reached += want >= 0
    assert reached > 500


def test_a_suit_s_words_are_the_suit_dp_s_in_the_lanes_asked() -> None:
    found = 0
    rng = np.random.default_rng(7)
    for _ in range(600):
        hand, avail, melds, _ = random_case(rng)
        lo = 9 * int(rng.integers(0, 3))
        w = np.empty(2 * changes.GEN + 3, np.int64)
        want = changes.suit_words.py_func(hand, avail, lo, melds, w)  # type: ignore[attr-defined]
        got = block_suit_words(hand, avail, lo, melds)
        found += max(lanes(got, melds)) >= 0
        assert lanes(got, melds) == lanes((int(want[0]), int(want[1])), melds)
    assert found > 300


def lanes(words: tuple[int, int], melds: int) -> list[int]:
    """The overlap in each lane up to ``melds`` (no pair, then pair), -1 where infeasible:
    what a caller reads (an infeasible lane's bits are not part of the answer)."""
    out = []
    for w in words:
        for m in range(melds + 1):
            v = (w >> (7 * m)) & 63
            out.append(v - kernel._BIAS if v >= kernel._BIAS else -1)
    return out


def test_merging_words_is_the_chain_through_both_blocks() -> None:
    """Honours merged after the suits: the 34-kind chain's last lanes (123m 789s, pungs of
    5p and 1z held two each: 10 tiles of a complete hand)."""
    h = np.asarray(parse_counts("123m55p789s11z"), np.int8)
    avail = np.full(34, 4, np.int8)
    suits = [block_suit_words(h, avail, lo, 4) for lo in (0, 9, 18)]
    acc = suits[0]
    for s in suits[1:]:
        acc = merge_words(acc, s, 4)
    acc = merge_words(acc, honour_words(h[27:].tolist(), avail[27:].tolist()), 4)
    assert ((acc[1] >> 28) & 63) - kernel._BIAS == kernel_overlap(h, avail, 4, 1) == 10


def test_every_draw_and_discard_is_the_kernel_s() -> None:
    """after_draws and after_discards block by block against the kernels, on random hands
    of 3m+1 and 3m+2 tiles (the unseen tiles a random part of the rest)."""
    rng = np.random.default_rng(11)
    for _ in range(150):
        melds = int(rng.integers(1, 5))
        wall = np.repeat(np.arange(34), 4)
        rng.shuffle(wall)
        for spare, ours, theirs in ((1, blocks_after_draws, changes.after_draws),
                                    (2, blocks_after_discards, changes.after_discards)):
            size = 3 * melds + spare
            hand = np.bincount(wall[:size], minlength=34).astype(np.int8)
            unseen = np.bincount(wall[size:size + int(rng.integers(10, 120))],
                                 minlength=34).astype(np.int8)
            c = changes.SuitCache(64)
            want = np.zeros(34, np.int64)
            theirs(hand.copy(), unseen, melds, want, c.tables, c.rest, c.keys, c.words,
                   c.state, c.work)
            got = np.zeros(34, np.int64)
            ours(hand, unseen, melds, got)
            assert got.tolist() == want.tolist(), (hand, unseen, melds)
