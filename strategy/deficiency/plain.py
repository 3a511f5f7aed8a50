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

import numpy as np

from strategy.deficiency.kernel import (
    _BIAS,
    _FEASIBLE,
    _GUARD,
    _ONES,
    UNREACHABLE,
    regular_overlap,
)

_LANES = 6
"""Melds 0-5: a block's words are run with every lane kept, so one answer serves every
``melds`` asked (a lane never feeds a lower one)."""
_KEEP = (1 << (7 * _LANES)) - 1
_MEMO_LIMIT = 1 << 17
_blocks: "dict[bytes, tuple[int, int]]" = {}
_prefixes: "dict[bytes, dict[int, tuple[int, int]]]" = {}
"""A suit's live states before rank r, by its first r hand counts and its first r + 2
available ones (the key's length tells r)."""


_EMPTY = (_BIAS, 0)
"""The words of a block that holds and allows nothing: no melds, no pair, overlap 0."""


def suit_words(hand: "list[int] | tuple[int, ...]", avail: "list[int] | tuple[int, ...]"
               ) -> "tuple[int, int]":
    """The rank DP over one suit's nine kinds (``hand`` and ``avail`` its counts) from an
    empty start: the end state's two words (no pair, pair), every lane kept
    (:func:`strategy.deficiency.changes.suit_words`); (0, 0) when nothing completes.

    :func:`strategy.deficiency.kernel._rank_step`'s transitions driven from the live
    states (a dict) rather than from every target: the same lane-wise maxima (a max does
    not depend on its order).  The states before a rank depend on the counts up to it
    (and the two available counts after it, which a chow looks at) only, so they are
    remembered by those: a suit one draw or discard away resumes where it differs."""
    guard, ones, keep = _GUARD, _ONES, _KEEP
    states: "dict[int, tuple[int, int]]" = {0: (_BIAS, 0)}
    start = 0
    for r in range(8, 0, -1):
        got = _prefixes.get(bytes(hand[:r]) + bytes(avail[:r + 2]))
        if got is not None:
            states = got
            start = r
            break
    if len(_prefixes) >= 4 * _MEMO_LIMIT:
        _prefixes.clear()
    for rank in range(start, 9):
        if not states:
            return 0, 0
        h = hand[rank]
        a = avail[rank]
        if rank <= 6:
            nxt_avail = avail[rank + 1]
            kmax = min(2, nxt_avail, avail[rank + 2])
        else:
            nxt_avail = 4
            kmax = 0
        acc: "dict[int, tuple[int, int]]" = {}
        for s, (x0, x1) in states.items():
            p1, p2 = divmod(s, 3)
            for k in range(kmax + 1):
                if k + p1 > nxt_avail:
                    break
                used = p1 + p2 + k
                if used > a:
                    break
                t = 3 * k + p1
                acc0, acc1 = acc.get(t, (0, 0))
                sh = 7 * k
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
                    sh += 7
                    g = (c if c < h else h) * ones
                    y = ((x0 << sh) & keep) + g
                    m = ((((acc0 | guard) - y) & guard) >> 6) * 63
                    acc0 = (acc0 & m) | (y & ~m)
                    y = ((x1 << sh) & keep) + g
                    m = ((((acc1 | guard) - y) & guard) >> 6) * 63
                    acc1 = (acc1 & m) | (y & ~m)
                acc[t] = (acc0, acc1)
        states = {t: w for t, w in acc.items() if (w[0] | w[1]) & _FEASIBLE}
        if rank < 8:
            _prefixes[bytes(hand[:rank + 1]) + bytes(avail[:rank + 3])] = states
    return states.get(0, (0, 0)) if states else (0, 0)


def honour_words(hand: "list[int] | tuple[int, ...]", avail: "list[int] | tuple[int, ...]"
                 ) -> "tuple[int, int]":
    """The seven honours' end words (each a pair, a pung or nothing), every lane kept
    (:func:`strategy.deficiency.changes.honour_words`)."""
    w0 = _BIAS
    w1 = 0
    for h, a in zip(hand, avail):
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


def block_suit_words(hand: "np.ndarray", avail: "np.ndarray", lo: int, melds: int,
                     work: "np.ndarray | None" = None) -> "tuple[int, int]":
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


def _block(key: bytes, hand: "list[int]", avail: "list[int]", lo: int) -> "tuple[int, int]":
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


def merge_words(x: "tuple[int, int]", y: "tuple[int, int]", melds: int = _LANES - 1
                ) -> "tuple[int, int]":
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


def regular_overlap_blocks(hand: "np.ndarray", avail: "np.ndarray", melds: int, pairs: int,
                           work: "np.ndarray | None" = None) -> int:
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
    acc: "tuple[int, int] | None" = None
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


# ---------------------------------------------------------------- one change, every tile
_SPANS = ((0, 9), (9, 18), (18, 27), (27, 34))


def _words_of(h: "list[int]", a: "list[int]", b: int) -> "tuple[int, int]":
    lo, hi = _SPANS[b]
    return _block(bytes(h[lo:hi]) + bytes(a[lo:hi]), h, a, lo)


def _suits_known(h: "list[int]", a: "list[int]", blocks: "list[int]") -> int:
    """How many of these blocks' suits are remembered (for a :class:`changes.SuitCache`'s
    lookup and hit counts, which the twins keep as the kernels do)."""
    known = 0
    for b in blocks:
        lo, hi = _SPANS[b]
        known += (bytes(h[lo:hi]) + bytes(a[lo:hi])) in _blocks
    return known


def _count(cache: "tuple[np.ndarray, ...]", lookups: int, hits: int) -> None:
    if len(cache) >= 5:  # tables, rest, keys, words, state, work
        cache[4][1] += lookups
        cache[4][2] += hits


_rest_memo: "dict[tuple[tuple[int, int], ...], list[tuple[int, int]]]" = {}


def _rests(h: "list[int]", a: "list[int]", melds: int) -> "list[tuple[int, int]]":
    """For each block, the merge of the three others (as :func:`changes.prepare`),
    remembered by the four blocks' words."""
    w = [_words_of(h, a, b) for b in range(4)]
    key = (*w, (melds, 0))
    got = _rest_memo.get(key)
    if got is None:
        if len(_rest_memo) >= _MEMO_LIMIT:
            _rest_memo.clear()
        got = _rest_memo[key] = _merge_rests(w, melds)
    return got


def _merge_rests(w: "list[tuple[int, int]]", melds: int) -> "list[tuple[int, int]]":
    m01 = merge_words(w[0], w[1], melds)
    m23 = merge_words(w[2], w[3], melds)
    return [merge_words(w[1], m23, melds), merge_words(w[0], m23, melds),
            merge_words(m01, w[3], melds), merge_words(m01, w[2], melds)]


_answers: "dict[tuple[tuple[int, int], tuple[int, int], int], int]" = {}


def _deficiency(w: "tuple[int, int]", rest: "tuple[int, int]", melds: int) -> int:
    """The regular deficiency (``melds`` melds and a pair) of a block's words merged with
    the rest's (:func:`changes.query`'s last step), remembered."""
    key = (w, rest, melds)
    got = _answers.get(key)
    if got is None:
        if len(_answers) >= _MEMO_LIMIT:
            _answers.clear()
        got = _answers[key] = _merged_deficiency(w, rest, melds)
    return got


def _merged_deficiency(w: "tuple[int, int]", rest: "tuple[int, int]", melds: int) -> int:
    best = -1
    w0, w1 = w
    r0, r1 = rest
    for m in range(melds + 1):
        v = (w0 >> (7 * m)) & 63
        y = (r1 >> (7 * (melds - m))) & 63
        if v >= _BIAS and y >= _BIAS and v + y - 2 * _BIAS > best:
            best = v + y - 2 * _BIAS
        v = (w1 >> (7 * m)) & 63
        y = (r0 >> (7 * (melds - m))) & 63
        if v >= _BIAS and y >= _BIAS and v + y - 2 * _BIAS > best:
            best = v + y - 2 * _BIAS
    return UNREACHABLE if best < 0 else 3 * melds + 2 - best


def blocks_after_draws(hand: "np.ndarray", unseen: "np.ndarray", melds: int, out: "np.ndarray",
                       *cache: "np.ndarray") -> None:
    """:func:`strategy.deficiency.changes.after_draws` (``out[t]``: the deficiency of
    hand + t, UNREACHABLE where ``unseen[t]`` is 0) on this module's blocks; of the
    :class:`changes.SuitCache` arrays in ``cache`` only the lookup and hit counts (its
    ``state``) are kept, as the kernel counts them."""
    _blocks_after_changes(hand, unseen, melds, out, cache, drawn=True)


def blocks_after_discards(hand: "np.ndarray", unseen: "np.ndarray", melds: int,
                          out: "np.ndarray", *cache: "np.ndarray") -> None:
    """:func:`strategy.deficiency.changes.after_discards` (``out[i]``: the deficiency of
    hand - i with the same unseen, UNREACHABLE where ``hand[i]`` is 0) on this module's
    blocks (the cache's lookup and hit counts kept, its tables not used)."""
    _blocks_after_changes(hand, unseen, melds, out, cache, drawn=False)


def _blocks_after_changes(hand: "np.ndarray", unseen: "np.ndarray", melds: int, out: "np.ndarray",
                          cache: "tuple[np.ndarray, ...]", *, drawn: bool) -> None:
    """Each one-tile change's deficiency into ``out``: a draw of an unseen kind (hand + t,
    hand + unseen unchanged) or a discard of a held one (hand - i, unseen unchanged)."""
    h = hand.tolist()
    k = unseen.tolist()
    a = [x + y for x, y in zip(h, k)]
    if min(h) < 0 or min(k) < 0:
        raise ValueError("a negative count in the hand or the unseen tiles")
    lookups, hits = 3, _suits_known(h, a, [0, 1, 2])
    rests = _rests(h, a, melds)
    res = [UNREACHABLE] * 34
    # a draw: hand + 1, what a completion may use unchanged; a discard: both - 1
    hand_step, avail_step, spare = (1, 0, k) if drawn else (-1, -1, h)
    for t in range(34):
        if spare[t] <= 0:
            continue
        b = t // 9 if t < 27 else 3
        h[t] += hand_step
        a[t] += avail_step
        lo, hi = _SPANS[b]
        key = bytes(h[lo:hi]) + bytes(a[lo:hi])
        if b < 3:
            lookups += 1
            hits += key in _blocks
        res[t] = _deficiency(_block(key, h, a, lo), rests[b], melds)
        h[t] -= hand_step
        a[t] -= avail_step
    out[:34] = res
    _count(cache, lookups, hits)
