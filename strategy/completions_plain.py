"""Plain-Python twins of :mod:`strategy.completions` (the Botzone zip, no numba).

The completion-ways DP of "GuoShiWuShuang" (see :mod:`strategy.completions`) as the
kernels run it, on nested lists instead of numpy arrays: every product and sum in the
same order, so the same floats to the last bit (tests compare the two), in a fraction of
the time numpy's scalar indexing takes in plain Python.
"""

import numpy as np

from strategy.deficiency.kernel import UNREACHABLE

_NEG = -1000
_COMB: "list[list[float]]" = []
"""``strategy.completions._COMB`` as Python floats (set by :func:`use_comb`)."""


def use_comb(table: "np.ndarray") -> None:
    """Take the kernels' table of C(n, k) (the same doubles)."""
    _COMB[:] = table.tolist()


def _fresh() -> "tuple[list[int], list[float]]":
    return [_NEG] * 12, [0.0] * 12


def _ways_rank(hand: "list[int]", unseen: "list[int]", r: int, melds: int,
               best: "list[list[list[int]]]", ways: "list[list[list[float]]]", cur: int,
               nxt: int, active: int) -> int:
    """:func:`strategy.completions._ways_rank` on lists (``best[g][s][lane]``)."""
    h = hand[r]
    kb = unseen[r]
    a = h + kb
    next_active = 0
    kmax = 0
    if r < 27 and r % 9 <= 6:
        kmax = min(2, hand[r + 1] + unseen[r + 1], hand[r + 2] + unseen[r + 2])
    comb = _COMB[kb]
    bc = best[cur]
    wc = ways[cur]
    bn = best[nxt]
    wn = ways[nxt]
    for s in range(9):
        if not (active >> s) & 1:
            continue
        p1 = s // 3
        p2 = s - 3 * p1
        bs = bc[s]
        ws = wc[s]
        for pair in range(2):
            for pung in range(2):
                for k in range(kmax + 1):
                    c = p1 + p2 + k + 2 * pair + 3 * pung
                    if c > a:
                        continue
                    gain = c if c < h else h
                    w = comb[c - gain]
                    dm = pung + k
                    t = 3 * k + p1
                    if not (next_active >> t) & 1:
                        next_active |= 1 << t
                        bn[t], wn[t] = _fresh()
                    bt = bn[t]
                    wt = wn[t]
                    for j in range(2 - pair):
                        for i in range(melds + 1 - dm):
                            src = 6 * j + i
                            v = bs[src]
                            if v < 0:
                                continue
                            dst = 6 * (j + pair) + i + dm
                            nv = v + gain
                            if nv > bt[dst]:
                                bt[dst] = nv
                                wt[dst] = ws[src] * w
                            elif nv == bt[dst]:
                                wt[dst] += ws[src] * w
    return next_active


def _generations(n: int) -> "tuple[list[list[list[int]]], list[list[list[float]]]]":
    best = [[[_NEG] * 12 for _ in range(9)] for _ in range(n)]
    ways = [[[0.0] * 12 for _ in range(9)] for _ in range(n)]
    best[0][0][0] = 0
    ways[0][0][0] = 1.0
    return best, ways


def _result(best: "list[list[list[int]]]", ways: "list[list[list[float]]]", g: int, active: int,
            melds: int) -> "tuple[int, float]":
    if not active & 1:
        return UNREACHABLE, 0.0
    v = best[g][0][6 + melds]
    if v < 0:
        return UNREACHABLE, 0.0
    return 3 * melds + 2 - v, ways[g][0][6 + melds]


def completion_ways(hand: "np.ndarray", unseen: "np.ndarray", melds: int) -> "tuple[int, float]":
    """:func:`strategy.completions.completion_ways`: (deficiency, ways) of the regular
    shape; (UNREACHABLE, 0.0) if none fits."""
    h = hand.tolist()
    u = unseen.tolist()
    best, ways = _generations(2)
    cur = 0
    active = 1
    for r in range(34):
        active = _ways_rank(h, u, r, melds, best, ways, cur, 1 - cur, active)
        cur = 1 - cur
    return _result(best, ways, cur, active, melds)


def completion_ways_after_discards(hand: "np.ndarray", unseen: "np.ndarray", melds: int,
                                   deficiency: "np.ndarray", ways_out: "np.ndarray") -> None:
    """:func:`strategy.completions.completion_ways_after_discards`: the completion ways of
    hand - i for every kind i the hand holds (UNREACHABLE, 0 elsewhere), each candidate
    resuming from the full hand's generation two ranks before its discard."""
    h = hand.tolist()
    u = unseen.tolist()
    best, ways = _generations(35)
    act = [0] * 35
    act[0] = 1
    last = -1
    dfc = [UNREACHABLE] * 34
    wo = [0.0] * 34
    for i in range(34):
        if h[i] > 0:
            last = i
    top = max(0, last - 2)
    for r in range(top):
        act[r + 1] = _ways_rank(h, u, r, melds, best, ways, r, r + 1, act[r])
    for i in range(last, -1, -1):
        if h[i] <= 0:
            continue
        h[i] -= 1
        start = max(0, i - 2)
        active = act[start]
        for r in range(start, 34):
            active = _ways_rank(h, u, r, melds, best, ways, r, r + 1, active)
        dfc[i], wo[i] = _result(best, ways, 34, active, melds)
        h[i] += 1
    deficiency[:34] = dfc
    ways_out[:34] = wo
