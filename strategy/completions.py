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

import numpy as np

from game.compat import comb
from strategy import completions_plain
from strategy.deficiency.kernel import UNREACHABLE
from strategy.jit import HAVE_NUMBA, njit

_NEG = -1000


def _comb(n: int, k: int) -> float:
    if k < 0 or k > n:
        return 0.0
    r = 1.0
    for i in range(k):
        r = r * (n - i) / (i + 1)
    return r


_COMB = np.array([[_comb(n, k) for k in range(5)] for n in range(5)])
"""_COMB[n, k] = C(n, k) as the DP has always computed it, for n, k <= 4 (no count exceeds
4); a table keeps every product the same float."""


@njit(inline=True)
def _ways_rank(hand: "np.ndarray", unseen: "np.ndarray", r: int, melds: int, best: "np.ndarray",
               ways: "np.ndarray", cur: int, nxt: int, active: int) -> int:
    """One rank of the DP: generation ``cur`` (states in ``active``) to generation ``nxt``;
    returns the states written.  A state is reset when first written, so only states in
    the returned set hold valid lanes; skipping the others changes no sum (every ``ways``
    entry is added to in the same order)."""
    h = int(hand[r])
    kb = int(unseen[r])
    a = h + kb
    next_active = 0
    kmax = 0
    if r < 27 and r % 9 <= 6:
        kmax = min(2, int(hand[r + 1]) + int(unseen[r + 1]),
                   int(hand[r + 2]) + int(unseen[r + 2]))
    for s in range(9):
        if not (active >> s) & 1:
            continue
        p1 = s // 3
        p2 = s - 3 * p1
        for pair in range(2):
            for pung in range(2):
                for k in range(kmax + 1):
                    c = p1 + p2 + k + 2 * pair + 3 * pung
                    if c > a:
                        continue
                    gain = c if c < h else h
                    need = c - gain
                    w = _COMB[kb, need]
                    dm = pung + k
                    t = 3 * k + p1
                    if not (next_active >> t) & 1:
                        next_active |= 1 << t
                        for lane in range(12):
                            best[nxt, t, lane] = _NEG
                            ways[nxt, t, lane] = 0.0
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
    return next_active


@njit(inline=True)
def _ways_result(best: "np.ndarray", ways: "np.ndarray", g: int, active: int,
                 melds: int) -> "tuple[int, float]":
    if not active & 1:
        return UNREACHABLE, 0.0
    v = best[g, 0, 6 + melds]
    if v < 0:
        return UNREACHABLE, 0.0
    return 3 * melds + 2 - v, ways[g, 0, 6 + melds]


@njit()
def completion_ways(hand: "np.ndarray", unseen: "np.ndarray", melds: int) -> "tuple[int, float]":
    """(deficiency, ways) of the regular shape; (UNREACHABLE, 0.0) if none fits."""
    best = np.empty((2, 9, 12), np.int64)
    ways = np.empty((2, 9, 12), np.float64)
    best[0, 0, :] = _NEG
    ways[0, 0, :] = 0.0
    best[0, 0, 0] = 0
    ways[0, 0, 0] = 1.0
    cur = 0
    active = 1
    for r in range(34):
        active = _ways_rank(hand, unseen, r, melds, best, ways, cur, 1 - cur, active)
        cur = 1 - cur
    return _ways_result(best, ways, cur, active, melds)


@njit()
def completion_ways_after_discards(hand: "np.ndarray", unseen: "np.ndarray", melds: int,
                                   deficiency: "np.ndarray", ways_out: "np.ndarray") -> None:
    """:func:`completion_ways` of hand-i for every kind i the hand holds (UNREACHABLE, 0
    elsewhere), with the same numbers to the last bit.

    Ranks below i-2 see the same counts with or without the discard (a rank looks two
    ahead), so every candidate resumes from the full hand's DP state there.  Taking the
    candidates from the last kind down, each resumes from a generation no later candidate
    wrote, so the generations are kept in one array."""
    best = np.empty((35, 9, 12), np.int64)
    ways = np.empty((35, 9, 12), np.float64)
    act = np.zeros(35, np.int64)
    best[0, 0, :] = _NEG
    ways[0, 0, :] = 0.0
    best[0, 0, 0] = 0
    ways[0, 0, 0] = 1.0
    act[0] = 1
    last = -1
    for i in range(34):
        deficiency[i] = UNREACHABLE
        ways_out[i] = 0.0
        if hand[i] > 0:
            last = i
    top = max(0, last - 2)
    for r in range(top):  # the full hand's states before each rank up to ``top``
        act[r + 1] = _ways_rank(hand, unseen, r, melds, best, ways, r, r + 1, act[r])
    h = hand.copy()
    for i in range(last, -1, -1):
        if hand[i] <= 0:
            continue
        h[i] -= 1
        start = max(0, i - 2)
        active = act[start]
        for r in range(start, 34):
            active = _ways_rank(h, unseen, r, melds, best, ways, r, r + 1, active)
        deficiency[i], ways_out[i] = _ways_result(best, ways, 34, active, melds)
        h[i] += 1


def chance_estimate(deficiency: int, ways: float, unseen_total: int) -> float:
    """ways / C(unseen, tiles to draw), capped at 1 (0 for an unreachable hand).

    Each change is one draw, so a hand of either size draws ``deficiency`` tiles.
    """
    if deficiency >= UNREACHABLE or ways <= 0:
        return 0.0
    if deficiency == 0:
        return 1.0
    denom = comb(unseen_total, deficiency) if unseen_total >= deficiency else 0
    return 1.0 if denom == 0 else min(1.0, ways / denom)


if not HAVE_NUMBA:
    # plain Python (the Botzone zip): the same DP on nested lists, the same floats
    completions_plain.use_comb(_COMB)
    completion_ways = completions_plain.completion_ways  # type: ignore[assignment]
    completion_ways_after_discards = (  # type: ignore[assignment]
        completions_plain.completion_ways_after_discards)
