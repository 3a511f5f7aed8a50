"""The regular-shape deficiency after one change, for every tile at once.

The production kernel (:mod:`strategy.deficiency.kernel`) runs one rank DP over
all 34 kinds.  Chows never cross a suit and honours take none, so the DP is a
chain of four independent *blocks* (the three suits and the honours) that meet
only through the (melds, pairs) lanes: the best overlap of the whole hand is a
max-plus merge (a knapsack) of the blocks' tables.

A draw or a discard changes one kind, hence one block.  :func:`prepare` runs
every block once and merges, for each block, all the *other* blocks;
:func:`query` then answers a hand that differs in one block only: it runs that
block alone and merges it with the rest.  A suit's end state depends on
nothing but its nine hand counts, its nine available counts and the melds
needed, and the search meets the same suits again and again (a draw in one
suit leaves the other two as they were), so the suits' results go through a
:class:`SuitCache`.  The answers are the knowledge-aware deficiency of
definition 9 exactly as the kernel computes it (tests compare the two on every
draw and discard of random hands).

A table ``tab[p, m]`` (stored flat, ``12 * block + 6 * p + m``) holds the best
overlap |C ∩ H| of the block's part of a completion with ``p`` pairs (0 or 1)
and ``m`` melds, or -1 when the block cannot hold such a part within
``avail = hand + unseen``.
"""

import numpy as np

from strategy.deficiency.kernel import _BIAS, _ONES, UNREACHABLE, _lane_max, _rank_step
from strategy.deficiency.plain import (
    block_suit_words,
    blocks_after_discards,
    blocks_after_draws,
)
from strategy.jit import HAVE_NUMBA, njit

ROW = 12
"""Entries per table: two pair counts times six meld counts (0-5)."""
TABLES = 6
"""Scratch tables: the four blocks and two merged pairs of them."""
GEN = 18
"""Words per DP state: nine (chows pending) states, without and with the pair."""
CACHE_EMPTY = -1
_PRIME = 2_147_483_647


class SuitCache:
    """A suit's end words by (its hand counts, its available counts, melds needed): an
    open-addressing table in arrays, emptied when half full.  ``state`` counts the filled
    slots, the lookups and the hits.  One cache serves one thread at a time."""

    def __init__(self, size: int = 1 << 12) -> None:
        if size < 16 or size & (size - 1):
            raise ValueError("the cache size must be a power of two, at least 16")
        self.keys = np.full(size, CACHE_EMPTY, np.int64)
        self.words = np.zeros((size, 2), np.int64)
        self.state = np.zeros(3, np.int64)
        self.tables = np.zeros(TABLES * ROW, np.int64)
        self.rest = np.zeros(4 * ROW, np.int64)
        self.work = np.zeros(2 * GEN + 3, np.int64)


@njit(inline=True)
def suit_words(hand: "np.ndarray", avail: "np.ndarray", lo: int, melds: int,
               work: "np.ndarray") -> "tuple[int, int]":
    """The kernel's DP over the nine kinds ``lo .. lo+8`` of one suit from an empty start:
    the end state's two SWAR words (no pair, pair), lanes for melds 0 .. ``melds``."""
    keep = (1 << (7 * (melds + 1))) - 1
    work[0] = _BIAS
    work[9] = 0
    act = 1
    cur = 0
    for rank in range(9):
        r = lo + rank
        nxt_avail = 4
        kmax = 0
        if rank <= 6:
            nxt_avail = int(avail[r + 1])
            kmax = min(2, nxt_avail, int(avail[r + 2]))
        nxt = GEN - cur
        act = _rank_step(int(hand[r]), int(avail[r]), nxt_avail, kmax, act, work, cur, nxt,
                         keep)
        cur = nxt
        if act == 0:
            return 0, 0
    if not act & 1:
        return 0, 0
    return work[cur], work[cur + 9]


@njit(inline=True)
def honour_words(hand: "np.ndarray", avail: "np.ndarray", melds: int) -> "tuple[int, int]":
    """End words of the seven honours (each a pair, a pung or nothing)."""
    keep = (1 << (7 * (melds + 1))) - 1
    w0 = _BIAS
    w1 = 0
    for t in range(27, 34):
        h = int(hand[t])
        a = int(avail[t])
        n0 = w0
        n1 = w1
        if a >= 2:
            n1 = _lane_max(n1, w0 + (h if h < 2 else 2) * _ONES)
        if a >= 3:
            g = (h if h < 3 else 3) * _ONES
            n0 = _lane_max(n0, ((w0 << 7) & keep) + g)
            n1 = _lane_max(n1, ((w1 << 7) & keep) + g)
        w0 = n0
        w1 = n1
    return w0, w1


KEY_STEP = np.array([8 * 25 ** (8 - rank) for rank in range(9)], dtype=np.int64)
"""A suit's cache key is ``melds + sum over ranks of KEY_STEP[rank] * (5 hand + avail)``."""
_GOLDEN = 0x9E3779B97F4A7C1


@njit()
def suit_key(hand: "np.ndarray", avail: "np.ndarray", suit: int, melds: int) -> int:
    key = 0
    for r in range(9 * suit, 9 * suit + 9):
        key = (key * 5 + int(hand[r])) * 5 + int(avail[r])
    return key * 8 + melds


@njit(inline=True)
def cached_suit_words(key: int, hand: "np.ndarray", avail: "np.ndarray", suit: int, melds: int,
                      keys: "np.ndarray", words: "np.ndarray", state: "np.ndarray",
                      work: "np.ndarray") -> "tuple[int, int]":
    """:func:`suit_words` of suit ``suit`` (0-2), whose :func:`suit_key` is ``key``, through
    the cache."""
    mask = keys.shape[0] - 1
    # wraps under numba, not in plain Python (int(), so numpy does not warn): either is fine
    start = ((int(key) * _GOLDEN) >> 24) & mask
    i = start
    state[1] += 1
    while keys[i] != CACHE_EMPTY:
        if keys[i] == key:
            state[2] += 1
            return words[i, 0], words[i, 1]
        i = (i + 1) & mask
    w0, w1 = suit_words(hand, avail, 9 * suit, melds, work)
    if 2 * (state[0] + 1) > keys.shape[0]:
        for j in range(keys.shape[0]):
            keys[j] = CACHE_EMPTY
        state[0] = 0
        i = start
    keys[i] = key
    words[i, 0] = w0
    words[i, 1] = w1
    state[0] += 1
    return w0, w1


@njit(inline=True)
def _words_to_row(w0: int, w1: int, melds: int, out: "np.ndarray", o: int) -> None:
    for m in range(6):
        v = (w0 >> (7 * m)) & 63
        out[o + m] = v - _BIAS if m <= melds and v >= _BIAS else -1
        v = (w1 >> (7 * m)) & 63
        out[o + 6 + m] = v - _BIAS if m <= melds and v >= _BIAS else -1


@njit(inline=True)
def _merge(x: "np.ndarray", xo: int, y: "np.ndarray", yo: int, melds: int, out: "np.ndarray",
           oo: int) -> None:
    """out = the max-plus merge of two tables (pairs up to 1, melds up to ``melds``)."""
    for j in range(ROW):
        out[oo + j] = -1
    for p1 in range(2):
        for m1 in range(melds + 1):
            a = x[xo + 6 * p1 + m1]
            if a < 0:
                continue
            for p2 in range(2 - p1):
                for m2 in range(melds + 1 - m1):
                    c = y[yo + 6 * p2 + m2]
                    j = oo + 6 * (p1 + p2) + m1 + m2
                    if c >= 0 and a + c > out[j]:
                        out[j] = a + c


@njit()
def prepare(hand: "np.ndarray", avail: "np.ndarray", melds: int, tables: "np.ndarray",
            rest: "np.ndarray", keys: "np.ndarray", words: "np.ndarray", state: "np.ndarray",
            work: "np.ndarray") -> None:
    """Run every block of ``hand`` and fill ``rest[12 b:12 b+12]`` with the merge of the
    three blocks other than ``b`` (the arrays of :class:`SuitCache`); the suits' cache keys
    are left in ``work[36:39]``."""
    for suit in range(3):
        key = suit_key(hand, avail, suit, melds)
        work[2 * GEN + suit] = key
        w0, w1 = cached_suit_words(key, hand, avail, suit, melds, keys, words, state, work)
        _words_to_row(w0, w1, melds, tables, ROW * suit)
    w0, w1 = honour_words(hand, avail, melds)
    _words_to_row(w0, w1, melds, tables, ROW * 3)
    _merge(tables, 0, tables, ROW, melds, tables, 4 * ROW)  # suits 0 and 1
    _merge(tables, 2 * ROW, tables, 3 * ROW, melds, tables, 5 * ROW)  # suit 2 and honours
    _merge(tables, ROW, tables, 5 * ROW, melds, rest, 0)
    _merge(tables, 0, tables, 5 * ROW, melds, rest, ROW)
    _merge(tables, 4 * ROW, tables, 3 * ROW, melds, rest, 2 * ROW)
    _merge(tables, 4 * ROW, tables, 2 * ROW, melds, rest, 3 * ROW)


@njit(inline=True)
def query(hand: "np.ndarray", avail: "np.ndarray", t: int, key_change: int, melds: int,
          rest: "np.ndarray", keys: "np.ndarray", words: "np.ndarray", state: "np.ndarray",
          work: "np.ndarray") -> int:
    """Deficiency of ``hand`` (regular shape: ``melds`` melds and a pair) when it differs from
    the hand :func:`prepare` saw at kind ``t`` only, by ``key_change`` in its suit's key."""
    if t < 27:
        b = t // 9
        w0, w1 = cached_suit_words(work[2 * GEN + b] + key_change, hand, avail, b, melds,
                                   keys, words, state, work)
    else:
        b = 3
        w0, w1 = honour_words(hand, avail, melds)
    best = -1
    ro = ROW * b
    for m in range(melds + 1):
        v = (w0 >> (7 * m)) & 63
        y = rest[ro + 6 + melds - m]
        if v >= _BIAS and y >= 0 and v - _BIAS + y > best:
            best = v - _BIAS + y
        v = (w1 >> (7 * m)) & 63
        y = rest[ro + melds - m]
        if v >= _BIAS and y >= 0 and v - _BIAS + y > best:
            best = v - _BIAS + y
    return UNREACHABLE if best < 0 else 3 * melds + 2 - best


@njit()
def _prepared(hand: "np.ndarray", unseen: "np.ndarray", melds: int, tables: "np.ndarray",
              rest: "np.ndarray", keys: "np.ndarray", words: "np.ndarray", state: "np.ndarray",
              work: "np.ndarray") -> "np.ndarray":
    """``hand + unseen`` (the tiles available), after :func:`prepare` has run on ``hand``."""
    avail = np.empty(34, np.int8)
    for t in range(34):
        avail[t] = hand[t] + unseen[t]
    prepare(hand, avail, melds, tables, rest, keys, words, state, work)
    return avail


@njit()
def after_draws(hand: "np.ndarray", unseen: "np.ndarray", melds: int, out: "np.ndarray",
                tables: "np.ndarray", rest: "np.ndarray", keys: "np.ndarray", words: "np.ndarray",
                state: "np.ndarray", work: "np.ndarray") -> None:
    """out[t] = deficiency of hand+t with unseen-t (UNREACHABLE where unseen[t] = 0).

    ``hand`` (3m+1 tiles) and ``unseen`` are valid 34-vectors; ``hand`` is changed and
    restored in place; the other arrays are a :class:`SuitCache`'s."""
    avail = _prepared(hand, unseen, melds, tables, rest, keys, words, state, work)
    for t in range(34):
        out[t] = UNREACHABLE
        if unseen[t] <= 0:
            continue
        hand[t] += 1  # hand + unseen is unchanged by a draw
        change = 5 * KEY_STEP[t % 9] if t < 27 else 0
        out[t] = query(hand, avail, t, change, melds, rest, keys, words, state, work)
        hand[t] -= 1


@njit()
def after_discards(hand: "np.ndarray", unseen: "np.ndarray", melds: int, out: "np.ndarray",
                   tables: "np.ndarray", rest: "np.ndarray", keys: "np.ndarray",
                   words: "np.ndarray", state: "np.ndarray", work: "np.ndarray") -> None:
    """out[i] = deficiency of hand-i with the same unseen (UNREACHABLE where hand[i] = 0);
    as :func:`after_draws` otherwise."""
    avail = _prepared(hand, unseen, melds, tables, rest, keys, words, state, work)
    for i in range(34):
        out[i] = UNREACHABLE
        if hand[i] <= 0:
            continue
        hand[i] -= 1
        avail[i] -= 1
        change = -6 * KEY_STEP[i % 9] if i < 27 else 0
        out[i] = query(hand, avail, i, change, melds, rest, keys, words, state, work)
        hand[i] += 1
        avail[i] += 1


if not HAVE_NUMBA:
    # plain Python (the Botzone zip): the blocks' DPs on Python integers, remembered by
    # their counts (strategy.deficiency.plain); the same numbers
    suit_words = block_suit_words  # type: ignore[assignment]
    after_draws = blocks_after_draws  # type: ignore[assignment]
    after_discards = blocks_after_discards  # type: ignore[assignment]
