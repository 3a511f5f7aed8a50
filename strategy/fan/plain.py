"""Plain-Python twins of the fan routes' bonus and pungs DPs, block by block.

Without numba (the Botzone zip) :func:`strategy.fan.routes.bonus_overlap` and
:func:`strategy.fan.routes.pungs_overlap` run as Python over dense numpy grids, a Python
step per state whether reached or not; they led the zip's profile.  Their groups never
cross a block (a chow stays inside its suit; the honours hold pungs and pairs only), and
the fan they count is a sum over the groups capped at a constant, so each DP splits into
one small DP per block (the three suits and the honours) and a max-plus merge of the
blocks' tables over (melds, pairs, fan), the fan added and capped again.  A block's table
depends only on its own counts (and, for the honours, the winds: a suit's terminals bring
the same fan in every suit), so it is remembered by them: the routes meet the same suits
again and again (a draw in one suit leaves the others as they were).

The answers are the kernels' (``tests/strategy/test_fan_routes.py`` compares them on
random counts).  The rank DP is the one of Yan, Li & Li, "A Fast Algorithm for Computing
the Deficiency Number of a Mahjong Hand" (as in :mod:`strategy.deficiency.plain`), with
the fan as one more coordinate.
"""

from __future__ import annotations

import numpy as np

from strategy.fan.routes import BONUS_CAP, pung_fan
from strategy.fan.routes import bonus_overlap as _bonus_kernel
from strategy.fan.routes import pungs_overlap as _pungs_kernel

_MEMO_LIMIT = 1 << 17
"""Block tables remembered per DP before the memory is cleared (a few tens of MB at most)."""

_BLOCKS = ((0, 9), (9, 18), (18, 27), (27, 34))
_BONUS_CAP = 2
""":func:`strategy.fan.routes.bonus_overlap` counts its groups' fan up to 2."""

_Table = dict[tuple[int, ...], int]
_bonus_tables: dict[tuple[object, ...], _Table] = {}
_pungs_tables: dict[tuple[object, ...], _Table] = {}


def _fan(f: int, group: int, used: int, w: int, cap: int) -> int:
    """:func:`strategy.fan.routes._fan_with`: a pung adds ``w``, four copies used 2."""
    if group == 2:
        f += w
    if used == 4:
        f += 2
    return f if f < cap else cap


def _bonus_block(hand: bytes, avail: bytes, start: int, melds: int, pairs: int,
                 winds: tuple[int, int], no_pungs: bool, outside: bool) -> _Table:
    """One block's table: (melds k, pairs p, fan f) -> the most tiles of the hand its
    groups hold (the kernel's DP over the block's kinds only)."""
    suit = start < 27
    cap = _BONUS_CAP
    # (chows begun two kinds back, begun at the last kind, k, p, f) -> overlap
    states: dict[tuple[int, int, int, int, int], int] = {(0, 0, 0, 0, 0): 0}
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
        nxt: dict[tuple[int, int, int, int, int], int] = {}
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
    table: _Table = {}
    for (a, b, k, p, f), v in states.items():
        if a == 0 and b == 0:
            table[(k, p, f)] = v
    return table


def _merge(left: _Table, right: _Table, melds: int, pairs: int, cap: int) -> _Table:
    """Max-plus merge of two tables keyed (melds, pairs, fan, ...): melds and pairs add
    up to their limits (a state past one cannot come back), the fan adds and is capped at
    ``cap``, the coordinates after it (the chows used) add."""
    out: _Table = {}
    get = out.get
    for kl, vl in left.items():
        k1, p1, f1 = kl[0], kl[1], kl[2]
        rest1 = kl[3:]
        for kr, vr in right.items():
            k = k1 + kr[0]
            if k > melds:
                continue
            p = p1 + kr[1]
            if p > pairs:
                continue
            f = f1 + kr[2]
            key = (k, p, f if f < cap else cap,
                   *(x + y for x, y in zip(rest1, kr[3:], strict=True)))
            v = vl + vr
            if v > get(key, -1):
                out[key] = v
    return out


def _last(left: _Table, right: _Table, melds: int, pairs: int, low: int,
          extra: int = 1 << 30) -> int:
    """The best of merging ``right`` into ``left`` (:func:`_merge`) at exactly ``melds``
    and ``pairs``, a fan of at least ``low`` and the extra coordinate at most ``extra``;
    -1 when there is none."""
    best = -1
    by_need: dict[tuple[int, int], list[tuple[int, int, int]]] = {}
    for kr, vr in right.items():
        by_need.setdefault((kr[0], kr[1]), []).append((kr[2], kr[3] if len(kr) > 3 else 0,
                                                      vr))
    for kl, vl in left.items():
        for f2, u2, vr in by_need.get((melds - kl[0], pairs - kl[1]), ()):
            if kl[2] + f2 >= low and (kl[3] if len(kl) > 3 else 0) + u2 <= extra \
                    and vl + vr > best:
                best = vl + vr
    return best


def bonus_overlap_blocks(hand: np.ndarray, avail: np.ndarray, melds: int, pairs: int,
                         need: int, seat_wind: int, prevalent_wind: int, no_pungs: bool,
                         outside: bool = False) -> int:
    """:func:`strategy.fan.routes.bonus_overlap`, block by block (the same answer)."""
    hb, ab = hand.astype(np.int8).tobytes(), avail.astype(np.int8).tobytes()
    if max(ab) > 4:  # a negative count (no route passes one): the kernel itself
        return int(_bonus_kernel(hand, avail, melds, pairs, need, seat_wind, prevalent_wind,
                                 no_pungs, outside))
    low = min(need, _BONUS_CAP)
    merged: _Table = {(0, 0, 0): 0}
    for start, end in _BLOCKS:
        winds = (seat_wind, prevalent_wind) if start == 27 else (0, 0)
        h, a = hb[start:end], ab[start:end]
        key = (start == 27, h, a, melds, pairs, winds, no_pungs, outside)
        table = _bonus_tables.get(key)
        if table is None:
            if len(_bonus_tables) >= _MEMO_LIMIT:
                _bonus_tables.clear()
            table = _bonus_tables[key] = _bonus_block(h, a, start, melds, pairs, winds,
                                                      no_pungs, outside)
        if start == 27:
            return _last(merged, table, melds, pairs, low)
        # the fan only needs to reach low: capped there, fewer states merge
        merged = _merge(merged, table, melds, pairs, low)
        if not merged:
            return -1
    raise AssertionError("the honours block ends the loop")


def _pungs_block(hand: bytes, avail: bytes, start: int, melds: int, winds: tuple[int, int],
                 chows: int) -> _Table:
    """One block's table for :func:`strategy.fan.routes.pungs_overlap`: (melds k, pairs p,
    fan b, chows used u) -> the most tiles of the hand its groups hold."""
    cap = BONUS_CAP
    # (k, p, b, chow state c: 0 none, 1 begun at the last kind, 2 two kinds back, 3 done)
    states: dict[tuple[int, int, int, int], int] = {(0, 0, 0, 0): 0}
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
        nxt: dict[tuple[int, int, int, int], int] = {}
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
    table: _Table = {}
    for (k, p, b, c), v in states.items():
        if c == 0 or c == 3:
            key = (k, p, b, 1 if c == 3 else 0)
            if v > table.get(key, -1):
                table[key] = v
    return table


def pungs_overlap_blocks(hand: np.ndarray, avail: np.ndarray, melds: int, need: int,
                         seat_wind: int, prevalent_wind: int, chows: int = 0) -> int:
    """:func:`strategy.fan.routes.pungs_overlap`, block by block (the same answer)."""
    hb, ab = hand.astype(np.int8).tobytes(), avail.astype(np.int8).tobytes()
    if max(ab) > 4:  # a negative count (no route passes one): the kernel itself
        return int(_pungs_kernel(hand, avail, melds, need, seat_wind, prevalent_wind, chows))
    low = min(need, BONUS_CAP)
    merged: _Table = {(0, 0, 0, 0): 0}
    chows = 1 if chows > 0 else 0
    for start, end in _BLOCKS:
        honours = start == 27
        winds = (seat_wind, prevalent_wind) if honours else (0, 0)
        h, a = hb[start:end], ab[start:end]
        key = (honours, h, a, melds, winds, chows and not honours)
        table = _pungs_tables.get(key)
        if table is None:
            if len(_pungs_tables) >= _MEMO_LIMIT:
                _pungs_tables.clear()
            table = _pungs_tables[key] = _pungs_block(h, a, start, melds, winds,
                                                      0 if honours else chows)
        if honours:
            return _last(merged, table, melds, 1, low, chows)
        merged = _merge(merged, table, melds, 1, low)
        if not merged:
            return -1
    raise AssertionError("the honours block ends the loop")
