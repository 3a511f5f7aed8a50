"""Plain-Python twins of the rank DP, for a process without numba (the Botzone zip).

:func:`strategy.deficiency.kernel.regular_overlap` runs one rank DP over all 34 kinds in
SWAR words, which numba compiles to a few machine instructions per state; as plain Python
every state costs numpy scalar arithmetic and a function call per lane-wise max.  The
same answer splits exactly by block (the three suits and the honours: chows never cross a
suit, :mod:`strategy.deficiency.changes` says why), so :func:`regular_overlap_blocks`
runs each block's DP on Python integers, remembers it by the block's counts (a draw or a
discard changes one block; a route's restricted hand zeroes whole suits), and merges the
four blocks' (pairs, melds) tables max-plus.  The answers equal the kernel's on every
input (tests compare the two); the knowledge-aware deficiency itself is definition 9 of
Yan, Li & Li, "A Fast Algorithm for Computing the Deficiency Number of a Mahjong Hand".
"""

from __future__ import annotations

import numpy as np

from strategy.deficiency.kernel import _BIAS, _FEASIBLE, _GUARD, _ONES, regular_overlap

_LANES = 6
"""Melds 0-5: a block's words are run with every lane kept, so one answer serves every
``melds`` asked (a lane never feeds a lower one)."""
_KEEP = (1 << (7 * _LANES)) - 1
_MEMO_LIMIT = 1 << 16
_blocks: dict[bytes, tuple[int, int]] = {}


def _rank_step(h: int, a: int, nxt_avail: int, kmax: int, active: int, work: list[int],
               so: int, do: int) -> int:
    """:func:`strategy.deficiency.kernel._rank_step` on Python integers, its lane-wise max
    written out (every lane kept)."""
    guard, ones, keep = _GUARD, _ONES, _KEEP
    next_active = 0
    for k in range(kmax + 1):
        sh = 7 * k
        sh1 = sh + 7
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
                x0 = work[so + s]
                x1 = work[so + 9 + s]
                g = (used if used < h else h) * ones
                y = ((x0 << sh) & keep) + g
                m = ((((acc0 | guard) - y) & guard) >> 6) * 63
                acc0 = (acc0 & m) | (y & ~m)
                y = ((x1 << sh) & keep) + g
                m = ((((acc1 | guard) - y) & guard) >> 6) * 63
                acc1 = (acc1 & m) | (y & ~m)
                c = used + 2
                if c <= a:  # pair
                    y = ((x0 << sh) & keep) + (c if c < h else h) * ones
                    m = ((((acc1 | guard) - y) & guard) >> 6) * 63
                    acc1 = (acc1 & m) | (y & ~m)
                c = used + 3
                if c <= a:  # pung
                    g = (c if c < h else h) * ones
                    y = ((x0 << sh1) & keep) + g
                    m = ((((acc0 | guard) - y) & guard) >> 6) * 63
                    acc0 = (acc0 & m) | (y & ~m)
                    y = ((x1 << sh1) & keep) + g
                    m = ((((acc1 | guard) - y) & guard) >> 6) * 63
                    acc1 = (acc1 & m) | (y & ~m)
            t = 3 * k + p1
            if (acc0 | acc1) & _FEASIBLE:
                next_active |= 1 << t
                work[do + t] = acc0
                work[do + 9 + t] = acc1
    return next_active


_EMPTY = (_BIAS, 0)
"""The words of a block that holds and allows nothing: no melds, no pair, overlap 0."""


def suit_words(hand: list[int] | tuple[int, ...], avail: list[int] | tuple[int, ...]
               ) -> tuple[int, int]:
    """The rank DP over one suit's nine kinds (``hand`` and ``avail`` its counts) from an
    empty start: the end state's two words (no pair, pair), every lane kept
    (:func:`strategy.deficiency.changes.suit_words`); (0, 0) when nothing completes."""
    work = [0] * 36
    work[0] = _BIAS
    act = 1
    cur = 0
    for rank in range(9):
        nxt_avail = 4
        kmax = 0
        if rank <= 6:
            nxt_avail = avail[rank + 1]
            kmax = min(2, nxt_avail, avail[rank + 2])
        nxt = 18 - cur
        act = _rank_step(hand[rank], avail[rank], nxt_avail, kmax, act, work, cur, nxt)
        cur = nxt
        if act == 0:
            return 0, 0
    if not act & 1:
        return 0, 0
    return work[cur], work[cur + 9]


def honour_words(hand: list[int] | tuple[int, ...], avail: list[int] | tuple[int, ...]
                 ) -> tuple[int, int]:
    """The seven honours' end words (each a pair, a pung or nothing), every lane kept
    (:func:`strategy.deficiency.changes.honour_words`)."""
    w0 = _BIAS
    w1 = 0
    for h, a in zip(hand, avail, strict=True):
        n0 = w0
        n1 = w1
        if a >= 2:
            n1 = _lane_max(n1, w0 + (h if h < 2 else 2) * _ONES)
        if a >= 3:
            g = (h if h < 3 else 3) * _ONES
            n0 = _lane_max(n0, ((w0 << 7) & _KEEP) + g)
            n1 = _lane_max(n1, ((w1 << 7) & _KEEP) + g)
        w0 = n0
        w1 = n1
    return w0, w1


def _lane_max(x: int, y: int) -> int:
    m = ((((x | _GUARD) - y) & _GUARD) >> 6) * 63
    return (x & m) | (y & ~m)


def block_suit_words(hand: np.ndarray, avail: np.ndarray, lo: int, melds: int,
                     work: np.ndarray | None = None) -> tuple[int, int]:
    """:func:`strategy.deficiency.changes.suit_words` (the suit of kinds ``lo .. lo+8``)
    through this module's memory of blocks: its lanes up to ``melds`` are the kernel's
    (the others are kept, not cleared; ``work`` is not used)."""
    h = hand[lo:lo + 9].tolist()
    a = avail[lo:lo + 9].tolist()
    try:
        key = bytes(h) + bytes(a)
    except ValueError:  # a negative count: the kernel's own answer
        return suit_words(h, a)
    return _block(key, h, a, 0)


def _block(key: bytes, hand: list[int], avail: list[int], lo: int) -> tuple[int, int]:
    got = _blocks.get(key)
    if got is None:
        if len(_blocks) >= _MEMO_LIMIT:
            _blocks.clear()
        if lo < 27:
            got = suit_words(hand[lo:lo + 9], avail[lo:lo + 9])
        else:
            got = honour_words(hand[27:], avail[27:])
        _blocks[key] = got
    return got


def merge_words(x: tuple[int, int], y: tuple[int, int], melds: int = _LANES - 1
                ) -> tuple[int, int]:
    """Two blocks' words as one block's (lanes up to ``melds`` exact): the chain DP passing
    from the end of ``x`` through ``y``.  An infeasible lane holds less than the bias plus
    the tiles of the hand behind it, so adding the other block's overlap keeps it below
    the bias, as in the chain."""
    x0, x1 = x
    y0, y1 = y
    guard, ones, keep = _GUARD, _ONES, _KEEP
    acc0 = 0
    acc1 = 0
    for sh in range(0, 7 * melds + 1, 7):
        v = (x0 >> sh) & 63
        if v >= _BIAS:
            g = (v - _BIAS) * ones
            z = ((y0 << sh) & keep) + g
            m = ((((acc0 | guard) - z) & guard) >> 6) * 63
            acc0 = (acc0 & m) | (z & ~m)
            z = ((y1 << sh) & keep) + g
            m = ((((acc1 | guard) - z) & guard) >> 6) * 63
            acc1 = (acc1 & m) | (z & ~m)
        v = (x1 >> sh) & 63
        if v >= _BIAS:
            z = ((y0 << sh) & keep) + (v - _BIAS) * ones
            m = ((((acc1 | guard) - z) & guard) >> 6) * 63
            acc1 = (acc1 & m) | (z & ~m)
    return acc0, acc1


def regular_overlap_blocks(hand: np.ndarray, avail: np.ndarray, melds: int, pairs: int,
                           work: np.ndarray | None = None) -> int:
    """:func:`strategy.deficiency.kernel.regular_overlap` (max |C ∩ H| over completions
    C <= ``avail`` with ``melds`` melds and ``pairs`` pairs, -1 when none), block by
    block: the same answer in plain Python (``work`` is not used)."""
    if not 0 <= melds < _LANES or not 0 <= pairs <= 1:
        raise ValueError(f"melds 0-5 and pairs 0-1, not {melds} and {pairs}")
    h = hand.tolist()
    a = avail.tolist()
    try:
        raw = bytes(h) + bytes(a)
    except ValueError:  # a negative count: no completion holds it; the kernel says so
        return int(regular_overlap.py_func(hand, avail, melds, pairs,  # type: ignore[attr-defined]
                                           np.empty(36, np.int64)))
    acc: tuple[int, int] | None = None
    for lo, hi in ((0, 9), (9, 18), (18, 27), (27, 34)):
        key = raw[lo:hi] + raw[34 + lo:34 + hi]
        if not any(key):
            continue  # nothing held or allowed: the block adds nothing
        got = _block(key, h, a, lo)
        acc = got if acc is None else merge_words(acc, got, melds)
    if acc is None:
        acc = _EMPTY
    v = (acc[pairs] >> (7 * melds)) & 63
    return v - _BIAS if v >= _BIAS else -1


regular_overlap_blocks.py_func = regular_overlap_blocks  # type: ignore[attr-defined]
