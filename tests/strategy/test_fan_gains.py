"""The draws that raise a route's overlap, found in one programme (strategy.fan.gains),
against the oracle that adds each draw to the hand and runs the route's own programme
again; and the all-types groups by enumeration against the regular programme."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from game.tiles import parse_counts
from strategy.deficiency.kernel import regular_overlap
from strategy.fan.gains import bonus_gains, pungs_gains
from strategy.fan.kernels import all_types_gains, all_types_overlap, bonus_overlap, pungs_overlap
from strategy.fan.table import ALL_TYPES_CONCEALED, ALL_TYPES_WIND_PUNG

EVERY_KIND = (1 << 34) - 1


def _case(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Counts as a route sees them: many kinds out of reach, hands with pairs, pungs and
    four of a kind, honours included."""
    avail = rng.integers(0, 5, 34)
    avail[rng.random(34) < 0.35] = 0
    hand = np.minimum(avail, rng.choice([0, 0, 1, 1, 2, 3, 4], 34))
    return hand.astype(np.int8), avail.astype(np.int8)


def _raised_by(overlap: Callable[..., int], hand: np.ndarray, avail: np.ndarray,
               *rest: object) -> set[int]:
    """The oracle: the kinds whose draw (one more in the hand, room permitting) raises
    ``overlap(hand, avail, *rest)``."""
    now = overlap(hand, avail, *rest)
    raised = set()
    for t in range(34):
        if hand[t] < avail[t]:
            h = hand.copy()
            h[t] += 1
            if overlap(h, avail, *rest) > now:
                raised.add(t)
    return raised


def _kinds(mask: int) -> set[int]:
    return {t for t in range(34) if (mask >> t) & 1}


def _draws(hand: np.ndarray, avail: np.ndarray) -> int:
    return sum(1 << t for t in range(34) if hand[t] < avail[t])


def test_bonus_and_regular_gains_match_a_programme_per_draw() -> None:
    rng = np.random.default_rng(3401)
    for i in range(300):
        hand, avail = _case(rng)
        melds, pairs = int(rng.integers(0, 5)), int(rng.integers(0, 2))
        need, seat, wind = int(rng.integers(0, 3)), int(rng.integers(0, 4)), int(rng.integers(0, 4))
        no_pungs, outside = bool(rng.random() < 0.3), bool(rng.random() < 0.2)
        kernels = (bonus_gains, bonus_gains.py_func) if i < 8 else (bonus_gains,)
        for kernel in kernels:
            value, mask = kernel(hand, avail, melds, pairs, need, seat, wind, no_pungs, outside,
                                 2, _draws(hand, avail))
            assert value == bonus_overlap(hand, avail, melds, pairs, need, seat, wind, no_pungs,
                                          outside)
            if value >= 0:
                assert _kinds(mask) == _raised_by(bonus_overlap, hand, avail, melds, pairs,
                                                  need, seat, wind, no_pungs, outside)
            work = np.empty(36, np.int64)
            value, mask = kernel(hand, avail, melds, pairs, 0, 0, 0, False, False, 0,
                                 _draws(hand, avail))
            assert value == regular_overlap(hand, avail, melds, pairs, work)
            if value >= 0:
                assert _kinds(mask) == _raised_by(regular_overlap, hand, avail, melds, pairs,
                                                  work)


def test_pungs_gains_match_a_programme_per_draw() -> None:
    rng = np.random.default_rng(3402)
    for i in range(300):
        hand, avail = _case(rng)
        melds, need, chows = int(rng.integers(0, 5)), int(rng.integers(0, 5)), int(i % 2)
        seat, wind = int(rng.integers(0, 4)), int(rng.integers(0, 4))
        for kernel in (pungs_gains, pungs_gains.py_func) if i < 8 else (pungs_gains,):
            value, mask = kernel(hand, avail, melds, need, seat, wind, chows,
                                 _draws(hand, avail))
            assert value == pungs_overlap(hand, avail, melds, need, seat, wind, chows)
            if value >= 0:
                assert _kinds(mask) == _raised_by(pungs_overlap, hand, avail, melds, need,
                                                  seat, wind, chows)


def _all_types_oracle(hand: np.ndarray, avail: np.ndarray, taken: np.ndarray, variant: int,
                      seat: int, wind: int) -> int:
    """All types by the regular programme: one group per category on its counts alone."""
    work = np.empty(36, np.int64)
    category = [t // 9 if t < 27 else (3 if t < 31 else 4) for t in range(34)]

    def group(c: int, melds: int, only: int = -1) -> int:
        a = np.array([avail[t] if category[t] == c and only in (-1, t) else 0
                      for t in range(34)], np.int8)
        return int(regular_overlap(hand, a, melds, 1 - melds, work))

    best = -1
    for pc in range(5):
        if taken[pc] or (variant == ALL_TYPES_WIND_PUNG and pc == 3) or (variant == 1 and pc == 4):
            continue
        total = group(pc, 0)
        for c in range(5):
            if c == pc or taken[c] or total < 0:
                continue
            if c == 3 and variant == ALL_TYPES_WIND_PUNG:
                v = max(group(3, 1, 27 + w) for w in {seat, wind})
            else:
                v = group(c, 1)
            total = -1 if v < 0 else total + v
        best = max(best, total)
    return best


def test_all_types_by_enumeration_matches_the_regular_programme() -> None:
    rng = np.random.default_rng(3403)
    for i in range(400):
        hand, avail = _case(rng)
        taken = (rng.random(5) < 0.2).astype(np.int64)
        variant, seat, wind = i % 3, int(rng.integers(0, 4)), int(rng.integers(0, 4))
        want = _all_types_oracle(hand, avail, taken, variant, seat, wind)
        assert all_types_overlap(hand, avail, taken, variant, seat, wind) == want
        kernels = (all_types_gains, all_types_gains.py_func) if i < 8 else (all_types_gains,)
        for kernel in kernels:
            value, mask = kernel(hand, avail, taken, variant, seat, wind, _draws(hand, avail))
            assert value == want
            if value >= 0:
                assert _kinds(mask) == _raised_by(all_types_overlap, hand, avail, taken,
                                                  variant, seat, wind)


def test_a_draw_that_completes_a_group_is_found() -> None:
    """1m2m in the hand, 11223m unseen: the 3m (a chow) or another 1m or 2m (a pair) raises a
    one-meld-and-a-pair overlap of 2; with four melds declared in the other categories,
    all types needs only a pair of winds, which 111z holds already: no draw raises it."""
    hand = parse_counts("12m").astype(np.int8)
    avail = (hand + parse_counts("11223m")).astype(np.int8)
    value, mask = bonus_gains(hand, avail, 1, 1, 0, 0, 0, False, False, 0, EVERY_KIND)
    assert value == 2
    assert _kinds(mask) == {0, 1, 2}
    hand = parse_counts("111z").astype(np.int8)
    avail = parse_counts("1111z").astype(np.int8)
    value, mask = all_types_gains(hand, avail, np.array([1, 1, 1, 0, 1]), ALL_TYPES_CONCEALED,
                                  0, 0, EVERY_KIND)
    assert (value, _kinds(mask)) == (2, set())
