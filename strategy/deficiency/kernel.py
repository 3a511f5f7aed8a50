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
Three equal chows hold exactly the tiles of three pungs, so at most two chows
begin at any rank without loss of exactness.
"""

import numpy as np

from strategy.jit import njit

UNREACHABLE = 99
"""Deficiency of a hand that no sequence of changes from the KB can complete."""
ERR_SIZE = -100
"""Kernel return code: the hand size is not 3m+1 or 3m+2."""
_INT8 = np.int8


@njit()
def _availability(hand: "np.ndarray", unseen: "np.ndarray", full_kb: bool,
                  avail: "np.ndarray") -> int:
    """avail[t] = H[t] + KB[t] (capped at 4); returns -(1+t) for a bad tile, else 0."""
    n = hand.shape[0]
    for t in range(34):
        h = int(hand[t]) if t < n else 0
        k = 4 - h if full_kb else (int(unseen[t]) if t < unseen.shape[0] else 0)
        if h < 0 or k < 0 or h + k > 4:
            return -(1 + t)
        avail[t] = h + k
    return 0


# SWAR lanes: one int64 word per pair count, six 7-bit lanes (melds 0-5) per
# word.  A feasible lane holds 32 + overlap; an infeasible one starts at 0 and,
# since gains along any path add up to at most the 17 tiles of a hand, stays
# below 32, so adding a gain needs no mask.  Bit 6 of each lane is a guard that
# stays clear, so a lane-wise max is a handful of integer operations.
_LANE_BITS = 7
_BIAS = 32
_GUARD = sum(64 << (7 * i) for i in range(6))
_FEASIBLE = sum(32 << (7 * i) for i in range(6))
_ONES = sum(1 << (7 * i) for i in range(6))


@njit()
def _lane_max(x: int, y: int) -> int:
    ge = (((x | _GUARD) - y) & _GUARD) >> 6
    m = ge * 63
    return (x & m) | (y & ~m)


@njit(inline=True)
def _rank_step(h: int, a: int, nxt_avail: int, kmax: int, active: int, work: "np.ndarray",
               so: int, do: int, keep: int) -> int:
    """One rank of the DP: from the states at ``work[so:so+18]`` (bit s of ``active`` set
    for each live state) to those at ``work[do:do+18]``; returns the next active set.

    Also the step of the per-suit DP in :mod:`strategy.deficiency.changes`.
    """
    next_active = 0
    for k in range(kmax + 1):
        for p1 in range(3):
            if k + p1 > nxt_avail:
                break
            acc0 = 0
            acc1 = 0
            for p2 in range(3):
                s = 3 * p1 + p2
                if not (active >> s) & 1:
                    continue
                used = p1 + p2 + k
                if used > a:
                    break
                x0 = int(work[so + s])  # int(): a Python int in plain Python, where numpy
                x1 = int(work[so + 9 + s])  # scalars' arithmetic costs six times as much
                sh = 7 * k
                g = (used if used < h else h) * _ONES
                acc0 = _lane_max(acc0, ((x0 << sh) & keep) + g)
                acc1 = _lane_max(acc1, ((x1 << sh) & keep) + g)
                c = used + 2
                if c <= a:  # pair
                    g = (c if c < h else h) * _ONES
                    acc1 = _lane_max(acc1, ((x0 << sh) & keep) + g)
                c = used + 3
                if c <= a:  # pung
                    g = (c if c < h else h) * _ONES
                    sh = 7 * (k + 1)
                    acc0 = _lane_max(acc0, ((x0 << sh) & keep) + g)
                    acc1 = _lane_max(acc1, ((x1 << sh) & keep) + g)
            t = 3 * k + p1
            if (acc0 | acc1) & _FEASIBLE:
                next_active |= 1 << t
                work[do + t] = acc0
                work[do + 9 + t] = acc1
    return next_active


@njit()
def _overlap_words(hand: "np.ndarray", avail: "np.ndarray", max_melds: int,
                   work: "np.ndarray") -> int:
    """Run the rank DP over all 34 kinds; returns the index in ``work`` of the final state.

    The state after kind r is (k, p1): k chows begun at r and p1 begun at r-1,
    stored as two SWAR words (no pair / pair) per state in ``work`` (int64,
    36 entries, two generations).  Chows never cross a suit and honours take
    none, so the suits and the honours run as one chain: the (melds, pairs)
    lanes are global and no merge is needed.  Each target state gathers its
    three possible sources in registers and is stored once.
    """
    keep = (1 << (7 * (max_melds + 1))) - 1
    work[0] = _BIAS  # before the first kind: no chows pending, no pair, overlap 0
    work[9] = 0
    cur = 0
    active = 1
    for r in range(34):
        a = int(avail[r])
        if a == 0 and active == 1:
            # nothing to use and no chow pending: the states stay as they are (the start
            # of each suit a route's restricted counts leave empty)
            continue
        h = int(hand[r])
        nxt = 18 - cur
        kmax = 0
        nxt_avail = 4
        if r < 27 and r % 9 <= 6:
            nxt_avail = int(avail[r + 1])
            kmax = min(2, nxt_avail, int(avail[r + 2]))
        next_active = _rank_step(h, a, nxt_avail, kmax, active, work, cur, nxt, keep)
        active = next_active
        cur = nxt
        if active == 0:
            return -1
    return cur if active & 1 else -1


@njit()
def _full_kb_overlap(hand: "np.ndarray", melds: int, work: "np.ndarray") -> int:
    """Max |C ∩ H| over complete hands C (``melds`` melds and a pair) when every copy not in
    the hand is unseen (a full KB); ``hand``'s counts are checked by the caller.

    With a full KB any group of tiles the hand does not hold can be added for free: a
    partial structure (at most ``melds`` melds, at most one pair) covers at most 17 kinds,
    so pungs and a pair of untouched kinds (4 copies available each) complete it without
    lowering the overlap.  So the answer is the best partial structure, and a group that
    touches no tile of the hand adds nothing to it: honours the hand lacks are skipped,
    no chow begins where the hand holds none of its three tiles, and a rank with no tile
    and no chow pending is passed over.  The same rank DP (:func:`_rank_step`) otherwise.
    """
    keep = (1 << (7 * (melds + 1))) - 1
    work[0] = _BIAS
    work[9] = _BIAS  # a pair may be added for free
    cur = 0
    active = 1
    for r in range(34):
        h = int(hand[r])
        kmax = 0
        if r < 27 and r % 9 <= 6 and (h > 0 or hand[r + 1] > 0 or hand[r + 2] > 0):
            kmax = 2
        if h == 0 and kmax == 0 and active == 1:
            continue
        nxt = 18 - cur
        active = _rank_step(h, 4, 4, kmax, active, work, cur, nxt, keep)
        cur = nxt
    best = -1
    for pair in range(2):
        w = work[cur + 9 * pair]
        for j in range(melds + 1):
            v = (w >> (7 * j)) & 63
            if v >= _BIAS and v - _BIAS > best:
                best = v - _BIAS
    return best


@njit()
def regular_overlap(
    hand: "np.ndarray", avail: "np.ndarray", melds: int, pairs: int, work: "np.ndarray"
) -> int:
    """Max |C ∩ H| over completions C <= avail with ``melds`` melds and ``pairs`` pairs.

    ``hand`` and ``avail`` have 34 entries; ``work`` is an int64 scratch array
    of 36.  Returns -1 when no completion exists.
    """
    at = _overlap_words(hand, avail, melds, work)
    if at < 0:
        return -1
    v = (work[at + 9 * pairs] >> (7 * melds)) & 63
    return v - _BIAS if v >= _BIAS else -1


@njit()
def hand_size_ok(total: int, melds_needed: int) -> bool:
    return total == 3 * melds_needed + 1 or total == 3 * melds_needed + 2


@njit()
def _full_kb_deficiency(hand: "np.ndarray", melds_needed: int) -> int:
    """:func:`kernel_deficiency` with a full KB (``hand`` has 34 entries)."""
    total = 0
    for t in range(34):
        h = int(hand[t])
        if h < 0 or h > 4:
            return -(1 + t)
        total += h
    if melds_needed < 0 or melds_needed > 5 or not hand_size_ok(total, melds_needed):
        return ERR_SIZE
    work = np.empty(36, np.int64)
    return 3 * melds_needed + 2 - _full_kb_overlap(hand, melds_needed, work)


@njit()
def kernel_deficiency(hand: "np.ndarray", unseen: "np.ndarray", melds_needed: int) -> int:
    """Exact knowledge-aware deficiency of the regular shape (m melds + a pair).

    ``hand`` is an integer count vector of 34 entries and ``unseen`` one of 34
    (or 27: no honours unseen); an empty ``unseen`` (length 0) means every
    copy not in the hand is unseen.
    Returns the deficiency, :data:`UNREACHABLE`, :data:`ERR_SIZE`, or
    ``-(1 + t)`` when tile ``t`` has a negative count or more than four copies
    between hand and KB.
    """
    if hand.shape[0] != 34:
        return ERR_SIZE
    if unseen.shape[0] == 0:
        return _full_kb_deficiency(hand, melds_needed)
    scratch = np.empty(36 + 34, np.int64)  # one allocation: the DP's words, then avail
    work = scratch[:36]
    avail = scratch[36:]
    err = _availability(hand, unseen, False, avail)
    if err != 0:
        return err
    total = 0
    for t in range(hand.shape[0]):
        total += int(hand[t])
    if melds_needed < 0 or melds_needed > 5 or not hand_size_ok(total, melds_needed):
        return ERR_SIZE
    best = regular_overlap(hand, avail, melds_needed, 1, work)
    if best < 0:
        return UNREACHABLE
    return 3 * melds_needed + 2 - best


public_deficiency = njit(signature="int64(int8[::1], int8[::1], int64)")(
    kernel_deficiency.py_func)  # type: ignore[attr-defined]
"""``kernel_deficiency`` compiled for int8 C-contiguous vectors and an integer only: other
argument types raise ``TypeError`` in the dispatcher (the public API's fast path)."""


@njit()
def kernel_deficiency_batch(
    hands: "np.ndarray", unseen: "np.ndarray", melds_needed: int, out: "np.ndarray"
) -> None:
    """``kernel_deficiency`` for every row of ``hands`` (N x 34); ``unseen`` is N x 34, or
    N x 0 for a full KB."""
    n = hands.shape[0]
    if hands.shape[1] != 34:
        out[:] = ERR_SIZE
        return
    avail = np.empty(34, _INT8)
    work = np.empty(36, np.int64)
    full = unseen.shape[1] == 0
    for row in range(n):
        hand = hands[row]
        err = _availability(hand, unseen[row], full, avail)
        if err != 0:
            out[row] = err
            continue
        total = 0
        for t in range(hand.shape[0]):
            total += int(hand[t])
        if not hand_size_ok(total, melds_needed):
            out[row] = ERR_SIZE
            continue
        best = regular_overlap(hand, avail, melds_needed, 1, work)
        out[row] = UNREACHABLE if best < 0 else 3 * melds_needed + 2 - best
