"""The per-suit minRound DP of "GuoShiWuShuang", with its chance estimate.

GuoShiWuShuang computes, suit by suit, the fewest rounds to make i melds and
j pairs and an approximate chance of doing so, then merges the suits like a
knapsack.  Here the rounds are exact (they are the knowledge-aware
deficiency of :mod:`strategy.deficiency.kernel`: the same rank DP) and each
(melds, pairs) lane also carries ``ways``: the number of ways to draw, from
the unseen copies, the missing tiles of the cheapest completions
(prod over tiles of C(unseen[t], missing[t]), summed over cheapest
decompositions; a completion reachable by two decompositions is counted
twice, so this is an estimate).  The chance estimate is ``ways`` divided by
the number of ways to draw that many tiles from the KB, capped at 1.

Used for discards when the deficiency is too large for the exact search.
"""

from __future__ import annotations

import math

import numpy as np

from strategy.deficiency.kernel import UNREACHABLE
from strategy.jit import njit

_NEG = -1000


@njit()
def _comb(n: int, k: int) -> float:
    if k < 0 or k > n:
        return 0.0
    r = 1.0
    for i in range(k):
        r = r * (n - i) / (i + 1)
    return r


@njit()
def completion_ways(hand: np.ndarray, unseen: np.ndarray, melds: int) -> tuple[int, float]:
    """(deficiency, ways) of the regular shape; (UNREACHABLE, 0.0) if none fits."""
    best = np.full((2, 9, 12), _NEG, np.int64)
    ways = np.zeros((2, 9, 12), np.float64)
    best[0, 0, 0] = 0
    ways[0, 0, 0] = 1.0
    cur = 0
    for r in range(34):
        h = int(hand[r])
        kb = int(unseen[r])
        a = h + kb
        nxt = 1 - cur
        for s in range(9):
            for lane in range(12):
                best[nxt, s, lane] = _NEG
                ways[nxt, s, lane] = 0.0
        kmax = 0
        if r < 27 and r % 9 <= 6:
            kmax = min(2, int(hand[r + 1]) + int(unseen[r + 1]),
                       int(hand[r + 2]) + int(unseen[r + 2]))
        for s in range(9):
            p1 = s // 3
            p2 = s - 3 * p1
            for pair in range(2):
                for pong in range(2):
                    for k in range(kmax + 1):
                        c = p1 + p2 + k + 2 * pair + 3 * pong
                        if c > a:
                            continue
                        gain = c if c < h else h
                        need = c - gain
                        w = _comb(kb, need)
                        dm = pong + k
                        t = 3 * k + p1
                        for j in range(2 - pair):
                            for i in range(melds + 1 - dm):
                                src = 6 * j + i
                                v = best[cur, s, src]
                                if v < 0:
                                    continue
                                dst = 6 * (j + pair) + i + dm
                                nv = v + gain
                                if nv > best[nxt, t, dst]:
                                    best[nxt, t, dst] = nv
                                    ways[nxt, t, dst] = ways[cur, s, src] * w
                                elif nv == best[nxt, t, dst]:
                                    ways[nxt, t, dst] += ways[cur, s, src] * w
        cur = nxt
    v = best[cur, 0, 6 + melds]
    if v < 0:
        return UNREACHABLE, 0.0
    return 3 * melds + 2 - v, ways[cur, 0, 6 + melds]


def chance_estimate(deficiency: int, ways: float, unseen_total: int) -> float:
    """ways / C(unseen, tiles to draw), capped at 1 (0 for an unreachable hand).

    Each change is one draw, so a hand of either size draws ``deficiency`` tiles.
    """
    if deficiency >= UNREACHABLE or ways <= 0:
        return 0.0
    if deficiency == 0:
        return 1.0
    denom = math.comb(unseen_total, deficiency) if unseen_total >= deficiency else 0
    return 1.0 if denom == 0 else min(1.0, ways / denom)
