"""The production deficiency kernel: exact, knowledge-aware, numba-jitted.

Knowledge-aware deficiency (definition 9 of Yan, Li & Li, "A Fast Algorithm
for Computing the Deficiency Number of a Mahjong Hand") counts the tile
changes that turn a hand into a complete one when every tile brought in must
come from the unseen counts (the knowledge base, KB).  Changing a tile out
never returns it to the KB, so the changes can be made in any order and

    dfncy(H, KB) = min over complete hands C with (C - H)+ <= KB of |(C - H)+|
                 = (3m + 2) - max over such C of |C ∩ H|

for a hand of 3m+1 or 3m+2 tiles that needs m melds and a pair (a 13-tile hand
gets its 14th tile from the KB, as the paper's definition for 13-tiles says).
The overlap |C ∩ H| = sum_t min(C[t], H[t]) is a sum over tiles and the cap
C[t] <= H[t] + KB[t] is per tile, so the problem splits exactly by suit: a
dynamic programme over the nine ranks of each suit gives the best overlap for
every (melds, pairs) pair, honours are independent tiles, and a knapsack over
the four parts (the merge of "GuoShiWuShuang"'s per-suit minRound, made exact
here) gives the answer.  Nothing is approximated, so the result is exact for
every hand and KB, including those where no unseen tile can make a needed
pair (the answer is then :data:`UNREACHABLE`).

Rank DP state: (chows begun at the previous rank, chows begun two ranks back).
Three equal chows hold exactly the tiles of three pongs, so at most two chows
begin at any rank without loss of exactness.
"""

from __future__ import annotations

import numpy as np

from strategy.jit import njit

UNREACHABLE = 99
"""Deficiency of a hand that no sequence of changes from the KB can complete."""
ERR_SIZE = -100
"""Kernel return code: the hand size is not 3m+1 or 3m+2."""
NEG = -100
"""Overlap of an infeasible (melds, pairs) lane."""
LANES = 12
"""Overlap lanes: index melds + 6 * pairs, melds 0-5, pairs 0-1."""

_INT8 = np.int8
_INT16 = np.int16


@njit()
def _availability(hand: np.ndarray, unseen: np.ndarray, full_kb: bool, avail: np.ndarray) -> int:
    """avail[t] = H[t] + KB[t] (capped at 4); returns -(1+t) for a bad tile, else 0."""
    n = hand.shape[0]
    for t in range(34):
        h = hand[t] if t < n else 0
        if full_kb:
            k = 4 - h
        else:
            k = unseen[t] if t < unseen.shape[0] else 0
        if h < 0 or k < 0 or h + k > 4:
            return -(1 + t)
        avail[t] = h + k
    return 0


# SWAR lanes: one int64 word per pair count, six 6-bit lanes (melds 0-5) per
# word; a lane holds overlap + 1 (0 = infeasible) in its low 5 bits, bit 5 is a
# guard that stays clear so lane-wise max and add need no loop.
_GUARD = sum(32 << (6 * i) for i in range(6))
_ONES = sum(1 << (6 * i) for i in range(6))


@njit()
def _lane_max(x: int, y: int) -> int:
    ge = (((x | _GUARD) - y) & _GUARD) >> 5
    m = ge * 31
    return (x & m) | (y & ~m)


@njit()
def _lane_add(x: int, g: int) -> int:
    feasible = (((x | _GUARD) - _ONES) & _GUARD) >> 5
    return x + feasible * g


@njit()
def _suit_lanes(
    hand: np.ndarray,
    avail: np.ndarray,
    base: int,
    max_melds: int,
    work: np.ndarray,
    out: np.ndarray,
) -> None:
    """Best overlap of one suit (ranks base..base+8) for every (melds, pairs) lane.

    ``work`` is an int64 scratch array of 36; ``out`` receives 12 lanes
    (index melds + 6 * pairs), NEG where infeasible.
    """
    keep = (1 << (6 * (max_melds + 1))) - 1
    for s in range(36):
        work[s] = 0
    work[0] = 1  # state (0 chows pending), no pair: overlap 0
    cur = 0
    active = 1
    for r in range(9):
        h = hand[base + r] if base + r < hand.shape[0] else 0
        a = avail[base + r]
        nxt = 18 - cur
        next_active = 0
        # chows begun here need ranks r+1 and r+2: cap them by what those can supply
        kmax = 0
        if r <= 6:
            kmax = min(2, avail[base + r + 1], avail[base + r + 2])
        for s in range(9):
            if not (active >> s) & 1:
                continue
            p1 = s // 3
            used = p1 + s - 3 * p1
            if used > a:
                continue
            kcap = kmax
            if r <= 6 and kcap > avail[base + r + 1] - p1:
                kcap = avail[base + r + 1] - p1
            x0 = work[cur + s]
            x1 = work[cur + 9 + s]
            for pair in range(2):
                for pong in range(2):
                    c0 = used + 2 * pair + 3 * pong
                    if c0 > a:
                        break
                    for k in range(kcap + 1):
                        c = c0 + k
                        if c > a:
                            break
                        gain = c if c < h else h
                        sh = 6 * (pong + k)
                        t = 3 * k + p1
                        if not (next_active >> t) & 1:
                            next_active |= 1 << t
                            work[nxt + t] = 0
                            work[nxt + 9 + t] = 0
                        if pair == 0:
                            y0 = _lane_add((x0 << sh) & keep, gain)
                            work[nxt + t] = _lane_max(work[nxt + t], y0)
                            y1 = _lane_add((x1 << sh) & keep, gain)
                            work[nxt + 9 + t] = _lane_max(work[nxt + 9 + t], y1)
                        else:
                            y1 = _lane_add((x0 << sh) & keep, gain)
                            work[nxt + 9 + t] = _lane_max(work[nxt + 9 + t], y1)
        active = next_active
        cur = nxt
    w0 = work[cur] if active & 1 else 0
    w1 = work[cur + 9] if active & 1 else 0
    for i in range(6):
        v0 = (w0 >> (6 * i)) & 31
        v1 = (w1 >> (6 * i)) & 31
        out[i] = v0 - 1 if v0 > 0 else NEG
        out[6 + i] = v1 - 1 if v1 > 0 else NEG


@njit()
def _honour_lanes(hand: np.ndarray, avail: np.ndarray, max_melds: int, out: np.ndarray) -> None:
    """Best overlap of the seven honours (each a pair, a pong or nothing)."""
    for lane in range(LANES):
        out[lane] = NEG
    out[0] = 0
    for t in range(27, 34):
        a = avail[t]
        if a < 2:
            continue
        h = hand[t] if t < hand.shape[0] else 0
        g2 = 2 if h > 2 else h
        g3 = 3 if h > 3 else h
        # walk lanes downwards so each honour is used once (0/1 knapsack)
        for j in range(1, -1, -1):
            for i in range(max_melds, -1, -1):
                best = out[6 * j + i]
                if j == 1 and out[i] + g2 > best:
                    best = out[i] + g2
                if a >= 3 and i >= 1 and out[6 * j + i - 1] + g3 > best:
                    best = out[6 * j + i - 1] + g3
                out[6 * j + i] = best


@njit()
def _merge_lanes(acc: np.ndarray, part: np.ndarray, max_melds: int, tmp: np.ndarray) -> None:
    """acc <- max-plus convolution of acc and part over (melds, pairs)."""
    for lane in range(LANES):
        tmp[lane] = NEG
    for j1 in range(2):
        for i1 in range(max_melds + 1):
            x = acc[6 * j1 + i1]
            if x < 0:
                continue
            for j2 in range(2 - j1):
                for i2 in range(max_melds + 1 - i1):
                    y = part[6 * j2 + i2]
                    if y < 0:
                        continue
                    lane = 6 * (j1 + j2) + i1 + i2
                    if x + y > tmp[lane]:
                        tmp[lane] = x + y
    for lane in range(LANES):
        acc[lane] = tmp[lane]


@njit()
def regular_overlap(
    hand: np.ndarray,
    avail: np.ndarray,
    melds: int,
    pairs: int,
    work: np.ndarray,
    words: np.ndarray,
) -> int:
    """Max |C ∩ H| over completions C <= avail with ``melds`` melds and ``pairs`` pairs.

    ``work`` is an int16 scratch array of shape (3, 12) and ``words`` an int64
    scratch array of 36.  Returns a negative number when no completion exists.
    """
    acc = work[0]
    part = work[1]
    tmp = work[2]
    for lane in range(LANES):
        acc[lane] = NEG
    acc[0] = 0
    for base in (0, 9, 18):
        _suit_lanes(hand, avail, base, melds, words, part)
        _merge_lanes(acc, part, melds, tmp)
    _honour_lanes(hand, avail, melds, part)
    _merge_lanes(acc, part, melds, tmp)
    return acc[6 * pairs + melds]


@njit()
def hand_size_ok(total: int, melds_needed: int) -> bool:
    return total == 3 * melds_needed + 1 or total == 3 * melds_needed + 2


@njit()
def kernel_deficiency(hand: np.ndarray, unseen: np.ndarray, melds_needed: int) -> int:
    """Exact knowledge-aware deficiency of the regular shape (m melds + a pair).

    ``hand`` and ``unseen`` are integer count vectors (27 or 34 entries);
    an empty ``unseen`` (length 0) means every copy not in the hand is unseen.
    Returns the deficiency, :data:`UNREACHABLE`, :data:`ERR_SIZE`, or
    ``-(1 + t)`` when tile ``t`` has a negative count or more than four copies
    between hand and KB.
    """
    avail = np.empty(34, _INT8)
    err = _availability(hand, unseen, unseen.shape[0] == 0, avail)
    if err != 0:
        return err
    total = 0
    for t in range(hand.shape[0]):
        total += hand[t]
    if melds_needed < 0 or melds_needed > 5 or not hand_size_ok(total, melds_needed):
        return ERR_SIZE
    work = np.empty((3, LANES), _INT16)
    words = np.empty(36, np.int64)
    best = regular_overlap(hand, avail, melds_needed, 1, work, words)
    if best < 0:
        return UNREACHABLE
    return 3 * melds_needed + 2 - best


@njit()
def kernel_deficiency_batch(
    hands: np.ndarray, unseen: np.ndarray, melds_needed: int, out: np.ndarray
) -> None:
    """``kernel_deficiency`` for every row; ``unseen`` has one row per hand or zero columns."""
    n = hands.shape[0]
    avail = np.empty(34, _INT8)
    work = np.empty((3, LANES), _INT16)
    words = np.empty(36, np.int64)
    full = unseen.shape[1] == 0
    for row in range(n):
        hand = hands[row]
        err = _availability(hand, unseen[row], full, avail)
        if err != 0:
            out[row] = err
            continue
        total = 0
        for t in range(hand.shape[0]):
            total += hand[t]
        if not hand_size_ok(total, melds_needed):
            out[row] = ERR_SIZE
            continue
        best = regular_overlap(hand, avail, melds_needed, 1, work, words)
        out[row] = UNREACHABLE if best < 0 else 3 * melds_needed + 2 - best
