"""Plain-Python twins of the fan routes' bonus and pungs DPs, block by block.

Without numba (the Botzone zip) :func:`strategy.fan.kernels.bonus_overlap` and
:func:`strategy.fan.kernels.pungs_overlap` would run as Python over dense numpy grids, a
Python step per state whether reached or not; they led the zip's profile.  Their groups never
cross a block (a chow stays inside its suit; the honours hold pungs and pairs only), and
the fan they count is a sum over the groups capped at a constant, so each DP splits into
one small DP per block (the three suits and the honours) and a max-plus merge of the
blocks' tables over (melds, pairs, fan), the fan added and capped again.  A block's table
depends only on its own counts (and, for the honours, the winds: a suit's terminals bring
the same fan in every suit), so it is remembered by them: the routes meet the same suits
again and again (a draw in one suit leaves the others as they were).

The answers are the kernels' and the two are kept in step by a test, not by shared code
(a dict-of-states DP per block is a different programme from the dense grid, and the dense
one is what numba compiles well): ``tests/strategy/test_fan_routes.py`` compares each twin
with its kernel on random counts, so a change to either fails until the other follows.
:mod:`strategy.fan.overlaps` puts the twins, remembered, where the route loops call the
kernels when numba is off.  The rank DP is the one of Yan, Li & Li, "A Fast Algorithm for
Computing the Deficiency Number of a Mahjong Hand" (as in :mod:`strategy.deficiency.plain`),
with the fan as one more coordinate.
"""

from typing import Callable, Dict, List, Tuple

import numpy as np

from strategy.fan.kernels import BONUS_CAP, pung_fan
from strategy.fan.kernels import bonus_overlap as _bonus_kernel
from strategy.fan.kernels import pungs_overlap as _pungs_kernel

_MEMO_LIMIT = 1 << 17
"""Block tables remembered per DP before the memory is cleared (a few tens of MB at most)."""

_BLOCKS = ((0, 9), (9, 18), (18, 27), (27, 34))
_BONUS_CAP = 2
""":func:`strategy.fan.kernels.bonus_overlap` counts its groups' fan up to 2."""

_Table = Dict[Tuple[int, ...], int]
_bonus_tables: "dict[tuple[object, ...], _Table]" = {}
_pungs_tables: "dict[tuple[object, ...], _Table]" = {}


def _fan(f: int, group: int, used: int, w: int, cap: int) -> int:
    """:func:`strategy.fan.kernels.fan_with`: a pung adds ``w``, four copies used 2."""
    if group == 2:
        f += w
    if used == 4:
        f += 2
    return f if f < cap else cap


def _bonus_block(hand: bytes, avail: bytes, start: int, melds: int, pairs: int,
                 winds: "tuple[int, int]", no_pungs: bool, outside: bool) -> "_Table":
    """One block's table: (melds k, pairs p, fan f) -> the most tiles of the hand its
    groups hold (the kernel's DP over the block's kinds only)."""
    suit = start < 27
    cap = _BONUS_CAP
    # (chows begun two kinds back, begun at the last kind, k, p, f) -> overlap
    states: "dict[tuple[int, int, int, int, int], int]" = {(0, 0, 0, 0, 0): 0}
    n = len(hand)
    for i in range(n):
        t = start + i
        av = avail[i]
        h = hand[i]
        w = pung_fan(t, winds[0], winds[1])
        cmax = 0
        if suit and i <= 6 and (not outside or i == 0 or i == 6):
            cmax = min(2, avail[i + 1], avail[i + 2])
        groups = 1 if outside and suit and i != 0 and i != 8 else 3
        nxt: "dict[tuple[int, int, int, int, int], int]" = {}
        for (a, b, k, p, f), v in states.items():
            if a + b > av:
                continue
            for c in range(cmax + 1):
                if k + c > melds:
                    break
                for g in range(groups):
                    if g == 1 and p >= pairs:
                        continue
                    if g == 2 and (no_pungs or k + c >= melds):
                        continue
                    used = a + b + c + (2 if g == 1 else 3 if g == 2 else 0)
                    if used > av:
                        continue
                    key = (b, c, k + c + (1 if g == 2 else 0), p + (1 if g == 1 else 0),
                           _fan(f, g, used, w, cap))
                    value = v + (used if used < h else h)
                    if value > nxt.get(key, -1):
                        nxt[key] = value
        states = nxt
    table: "_Table" = {}
    for (a, b, k, p, f), v in states.items():
        if a == 0 and b == 0:
            table[(k, p, f)] = v
    return table


_Rows = List[Tuple[int, int, int, int, int]]
"""A table as rows (melds, pairs, fan, chows used, overlap), none dominated."""
_pruned: "dict[tuple[object, ...], _Rows]" = {}


def _frontier(table: "_Table", cap: int) -> "_Rows":
    """``table`` (keys (melds, pairs, fan[, chows used])) as rows with the fan capped at
    ``cap`` and the dominated rows dropped: a row is no better than another of the same
    melds and pairs with at least its fan and overlap and at most its chows (the fan only
    needs to reach a floor, the chows to stay under a ceiling, and the merge is monotone
    in each)."""
    best: "_Table" = {}
    for key, v in table.items():
        f = key[2] if key[2] < cap else cap
        k = (key[0], key[1], f, key[3] if len(key) > 3 else 0)
        if v > best.get(k, -1):
            best[k] = v
    rows = sorted(((k, p, f, u, v) for (k, p, f, u), v in best.items()),
                  key=lambda r: (r[0], r[1], -r[2], r[3], -r[4]))
    kept: "_Rows" = []
    for r in rows:
        if not any(q[0] == r[0] and q[1] == r[1] and q[2] >= r[2] and q[3] <= r[3]
                   and q[4] >= r[4] for q in kept):
            kept.append(r)
    return kept


def _merge(left: "_Rows", right: "_Rows", melds: int, pairs: int, cap: int, chows: int
           ) -> "_Rows":
    """Max-plus merge of two blocks' rows: melds, pairs and chows add up to their limits
    (a state past one cannot come back), the fan adds and is capped at ``cap``."""
    out: "_Table" = {}
    get = out.get
    for k1, p1, f1, u1, v1 in left:
        for k2, p2, f2, u2, v2 in right:
            k = k1 + k2
            if k > melds:
                continue
            p = p1 + p2
            if p > pairs:
                continue
            u = u1 + u2
            if u > chows:
                continue
            f = f1 + f2
            key = (k, p, f if f < cap else cap, u)
            v = v1 + v2
            if v > get(key, -1):
                out[key] = v
    return _frontier(out, cap)


def _last(left: "_Rows", right: "_Rows", melds: int, pairs: int, low: int, chows: int) -> int:
    """The best of merging ``right`` into ``left`` at exactly ``melds`` and ``pairs``, a
    fan of at least ``low`` and at most ``chows`` chows; -1 when there is none."""
    best = -1
    for k1, p1, f1, u1, v1 in left:
        for k2, p2, f2, u2, v2 in right:
            if k1 + k2 == melds and p1 + p2 == pairs and f1 + f2 >= low \
                    and u1 + u2 <= chows and v1 + v2 > best:
                best = v1 + v2
    return best


def _rows(memo: "dict[tuple[object, ...], _Table]", key: "tuple[object, ...]", low: int,
          build: "Callable[[], _Table]") -> "_Rows":
    """A block's rows for the fan floor ``low``, its table built by ``build`` once."""
    pkey = (*key, low)
    rows = _pruned.get(pkey)
    if rows is None:
        table = memo.get(key)
        if table is None:
            if len(memo) >= _MEMO_LIMIT:
                memo.clear()
            table = memo[key] = build()
        if len(_pruned) >= _MEMO_LIMIT:
            _pruned.clear()
        rows = _pruned[pkey] = _frontier(table, low)
    return rows


def bonus_overlap_blocks(hand: "np.ndarray", avail: "np.ndarray", melds: int, pairs: int,
                         need: int, seat_wind: int, prevalent_wind: int, no_pungs: bool,
                         outside: bool = False) -> int:
    """:func:`strategy.fan.kernels.bonus_overlap`, block by block (the same answer)."""
    hb, ab = hand.astype(np.int8).tobytes(), avail.astype(np.int8).tobytes()
    if max(ab) > 4:  # a negative count (no route passes one): the kernel itself
        return int(_bonus_kernel(hand, avail, melds, pairs, need, seat_wind, prevalent_wind,
                                 no_pungs, outside))
    low = min(need, _BONUS_CAP)
    merged: "_Rows" = [(0, 0, 0, 0, 0)]
    for start, end in _BLOCKS:
        winds = (seat_wind, prevalent_wind) if start == 27 else (0, 0)
        h, a = hb[start:end], ab[start:end]
        key = ("bonus", start == 27, h, a, melds, pairs, winds, no_pungs, outside)
        rows = _rows(_bonus_tables, key, low, lambda: _bonus_block(
            h, a, start, melds, pairs, winds, no_pungs, outside))  # noqa: B023
        if start == 27:
            return _last(merged, rows, melds, pairs, low, 0)
        # the fan only needs to reach low: capped there, fewer states merge
        merged = _merge(merged, rows, melds, pairs, low, 0)
        if not merged:
            return -1
    raise AssertionError("the honours block ends the loop")


def _pungs_block(hand: bytes, avail: bytes, start: int, melds: int, winds: "tuple[int, int]",
                 chows: int) -> "_Table":
    """One block's table for :func:`strategy.fan.kernels.pungs_overlap`: (melds k, pairs p,
    fan b, chows used u) -> the most tiles of the hand its groups hold."""
    cap = BONUS_CAP
    # (k, p, b, chow state c: 0 none, 1 begun at the last kind, 2 two kinds back, 3 done)
    states: "dict[tuple[int, int, int, int], int]" = {(0, 0, 0, 0): 0}
    suit = start < 27
    for i in range(len(hand)):
        t = start + i
        a = avail[i]
        h = hand[i]
        if a < 1:
            states = {s: v for s, v in states.items() if s[3] != 1 and s[3] != 2}
            continue
        w = pung_fan(t, winds[0], winds[1])
        can_start = chows > 0 and suit and i <= 6 and avail[i + 1] > 0 and avail[i + 2] > 0
        nxt: "dict[tuple[int, int, int, int], int]" = {}
        for (k, p, b, c), v in states.items():
            for begin in range(2):
                if begin == 1 and (c != 0 or not can_start or k >= melds):
                    continue
                chow_use = 1 if c == 1 or c == 2 or begin == 1 else 0
                nc = 2 if c == 1 else 3 if c == 2 else 1 if begin == 1 else c
                k1 = k + begin
                for g in range(3):  # nothing, the pair, a pung
                    if g == 1 and p == 1:
                        continue
                    if g == 2 and k1 >= melds:
                        continue
                    used = chow_use + (2 if g == 1 else 3 if g == 2 else 0)
                    if used > a:
                        continue
                    key = (k1 + (1 if g == 2 else 0), p + (1 if g == 1 else 0),
                           _fan(b, g, used, w, cap), nc)
                    value = v + (used if used < h else h)
                    if value > nxt.get(key, -1):
                        nxt[key] = value
        states = nxt
    table: "_Table" = {}
    for (k, p, b, c), v in states.items():
        if c == 0 or c == 3:
            key = (k, p, b, 1 if c == 3 else 0)
            if v > table.get(key, -1):
                table[key] = v
    return table


def pungs_overlap_blocks(hand: "np.ndarray", avail: "np.ndarray", melds: int, need: int,
                         seat_wind: int, prevalent_wind: int, chows: int = 0) -> int:
    """:func:`strategy.fan.kernels.pungs_overlap`, block by block (the same answer)."""
    hb, ab = hand.astype(np.int8).tobytes(), avail.astype(np.int8).tobytes()
    if max(ab) > 4:  # a negative count (no route passes one): the kernel itself
        return int(_pungs_kernel(hand, avail, melds, need, seat_wind, prevalent_wind, chows))
    low = min(need, BONUS_CAP)
    merged: "_Rows" = [(0, 0, 0, 0, 0)]
    chows = 1 if chows > 0 else 0
    for start, end in _BLOCKS:
        honours = start == 27
        winds = (seat_wind, prevalent_wind) if honours else (0, 0)
        h, a = hb[start:end], ab[start:end]
        allowed = 0 if honours else chows
        key = ("pungs", honours, h, a, melds, winds, allowed)
        rows = _rows(_pungs_tables, key, low, lambda: _pungs_block(
            h, a, start, melds, winds, allowed))  # noqa: B023
        if honours:
            return _last(merged, rows, melds, 1, low, chows)
        merged = _merge(merged, rows, melds, 1, low, chows)
        if not merged:
            return -1
    raise AssertionError("the honours block ends the loop")
