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

from typing import Callable, Dict, List, Tuple

import numpy as np

from strategy.fan import routes as rt
from strategy.fan.routes import BONUS_CAP, pung_fan
from strategy.fan.routes import bonus_overlap as _bonus_kernel
from strategy.fan.routes import pungs_overlap as _pungs_kernel

_MEMO_LIMIT = 1 << 17
"""Block tables remembered per DP before the memory is cleared (a few tens of MB at most)."""

_BLOCKS = ((0, 9), (9, 18), (18, 27), (27, 34))
_BONUS_CAP = 2
""":func:`strategy.fan.routes.bonus_overlap` counts its groups' fan up to 2."""

_Table = Dict[Tuple[int, ...], int]
_bonus_tables: "dict[tuple[object, ...], _Table]" = {}
_pungs_tables: "dict[tuple[object, ...], _Table]" = {}


def _fan(f: int, group: int, used: int, w: int, cap: int) -> int:
    """:func:`strategy.fan.routes._fan_with`: a pung adds ``w``, four copies used 2."""
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
    """:func:`strategy.fan.routes.bonus_overlap`, block by block (the same answer)."""
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
    """One block's table for :func:`strategy.fan.routes.pungs_overlap`: (melds k, pairs p,
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
    """:func:`strategy.fan.routes.pungs_overlap`, block by block (the same answer)."""
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


# ---------------------------------------------------------------- the route loops
# capped_route_table and draws_lowering visit 410 route rows, each over 34 kinds; as
# Python every step reads a numpy scalar.  The twins below find what does not depend on
# the order of the rows (which rows can be played, their forced tiles, the bound on their
# changes) for every row at once with numpy, and run the rows' DPs in the kernels' order,
# with the same skips and stops, so the answers and the family table are the kernels'.
_static: "dict[str, np.ndarray]" = {}


def _route_statics() -> "dict[str, np.ndarray]":
    """The rows' forced tiles (all their forced melds and pair) and forced meld count."""
    if not _static:
        rows = rt.NUM_ROUTE_ROWS
        forced = np.zeros((rows, 34), np.int64)
        count = np.zeros(rows, np.int64)
        for r in range(rows):
            for j in range(4):
                code = int(rt.ROUTE_MELDS[r, j])
                if code < 0:
                    continue
                kind, tile = divmod(code, 64)
                if kind == rt.CHOW:
                    forced[r, tile:tile + 3] += 1
                else:
                    forced[r, tile] += 3
                count[r] += 1
            pair = int(rt.ROUTE_INFO[r, 0])
            if pair >= 0:
                forced[r, pair] += 2
        _static.update(forced=forced, count=count, mask=rt.ROUTE_MASK.astype(np.bool_),
                       info=rt.ROUTE_INFO.astype(np.int64))
    return _static


def _declared(declared: "np.ndarray", seat_wind: int, prevalent_wind: int
              ) -> "tuple[list[tuple[int, int]], bool, int, int, int, bool, bool]":
    """The declared melds' rows and what the kernels read from them: exposed, concealed
    kongs, the fan of the declared pungs and kongs, of the dragon ones, all pungs and all
    chows still possible."""
    rows = [(int(declared[i, 0]), int(declared[i, 1])) for i in range(declared.shape[0])]
    exposed, kongs, fan, dragon_fan, pungs_ok, chows_ok = False, 0, 0, 0, True, True
    for kind, tile in rows:
        if kind != rt.CONCEALED_KONG:
            exposed = True
        if kind == rt.CHOW:
            pungs_ok = False
        else:
            chows_ok = False
            fan += pung_fan(tile, seat_wind, prevalent_wind)
            if tile >= 31:
                dragon_fan += 2
            if kind == rt.KONG:
                fan += 1
            elif kind == rt.CONCEALED_KONG:
                fan += 2
                kongs += 1
    return rows, exposed, kongs, fan, dragon_fan, pungs_ok, chows_ok


def _forced(rows: "list[tuple[int, int]]", melds_needed: int, hand: "np.ndarray",
            avail: "np.ndarray", exposed: bool, pungs_ok: bool, seat_wind: int,
            prevalent_wind: int) -> "tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]":
    """Per row: whether it can be played with these declared melds and counts, its forced
    tiles (the forced melds a declared one does not stand in for, and the pair), how many
    forced melds are left, and its forced tiles' overlap with the hand (``base``)."""
    st = _route_statics()
    mask, info = st["mask"], st["info"]
    ok = ~((info[:, 1] == 1) & exposed)
    wind = info[:, 2]
    ok &= (wind < 0) | (wind - 27 == seat_wind) | (wind - 27 == prevalent_wind)
    if not pungs_ok:
        ok &= info[:, 3] != rt.KIND_PUNGS
    forced = st["forced"]
    n_forced = st["count"]
    if rows:
        forced = forced.copy()
        n_forced = n_forced.copy()
        for kind, tile in rows:  # the declared melds lie inside the route's tiles
            last = tile + 2 if kind == rt.CHOW else tile
            ok &= mask[:, tile:last + 1].all(axis=1)
        for r in np.flatnonzero(ok):
            used = [False] * len(rows)
            for j in range(4):
                code = int(rt.ROUTE_MELDS[r, j])
                if code < 0:
                    continue
                for i, (dk, dt) in enumerate(rows):
                    if not used[i] and (dk == rt.CHOW) == (code // 64 == rt.CHOW) \
                            and dt == code % 64:
                        used[i] = True
                        if code // 64 == rt.CHOW:
                            forced[r, dt:dt + 3] -= 1
                        else:
                            forced[r, dt] -= 3
                        n_forced[r] -= 1
                        break
    ok &= n_forced <= melds_needed
    av = avail.astype(np.int64)
    ok &= np.where(mask, av[None, :] - forced >= 0, forced <= 0).all(axis=1)
    base = np.minimum(hand.astype(np.int64)[None, :], forced).sum(axis=1)
    return ok, forced, n_forced, base


def _categories(rows: "list[tuple[int, int]]") -> "tuple[np.ndarray, bool]":
    """The categories (:func:`strategy.fan.routes._category`) the declared melds take, and
    whether two of them share one (all types is then out)."""
    taken = np.zeros(5, np.int64)
    clash = False
    for _, dt in rows:
        c = rt._category(dt)
        if taken[c]:
            clash = True
        taken[c] = 1
    return taken, clash


def _route_need(r: int, rows: "list[tuple[int, int]]", melds_needed: int, exposed: bool,
                kongs: int, declared_fan: int, dragon_fan: int, chows_ok: bool,
                types_clash: bool, seat_wind: int, prevalent_wind: int) -> int:
    """The fan row ``r``'s groups must still bring (as the kernels count it), -1 where the
    declared melds rule the row out."""
    info = _route_statics()["info"]
    kind, param, family = int(info[r, 3]), int(info[r, 4]), int(info[r, 5])
    if kind == rt.KIND_BONUS:
        if param & rt.NO_PUNGS and not chows_ok:
            return -1
        if param & rt.OUTSIDE and any(
                (dt % 9 != 0 and dt % 9 != 6) if dk == rt.CHOW
                else (dt < 27 and dt % 9 != 0 and dt % 9 != 8) for dk, dt in rows):
            return -1
        fan = (param % rt.NO_PUNGS) + declared_fan
        if family == rt._DRAGON_PUNGS:
            fan -= dragon_fan
        if not exposed:
            fan += 2
        need = 8 - fan if fan < 8 else 0
        return -1 if need > 2 else need
    if kind == rt.KIND_CONCEALED_PUNGS:
        fan = 4 + declared_fan + param
        need = 8 - fan if fan < 8 else 0
        return -1 if need > BONUS_CAP else need
    if kind == rt.KIND_PUNGS:
        fan = declared_fan + param
        if not exposed:
            fan += 2
        if melds_needed >= 1 and melds_needed - 1 + kongs >= 2:
            fan += 2
        return 2 - fan if fan < 2 else 0
    if kind == rt.KIND_ALL_TYPES and (types_clash or (
            param == rt.ALL_TYPES_WIND_PUNG and any(
                rt._category(dt) == 3 and dt - 27 != seat_wind and dt - 27 != prevalent_wind
                for _, dt in rows))):
        return -1
    return 0


def capped_route_table_plain(hand: "np.ndarray", unseen: "np.ndarray", melds_needed: int,
                             declared: "np.ndarray", seat_wind: int, prevalent_wind: int,
                             out: "np.ndarray", least_only: bool, cap: int, enough: int) -> int:
    """:func:`strategy.fan.routes.capped_route_table` (the same answer and table)."""
    UNREACHABLE = rt.UNREACHABLE
    out[:] = UNREACHABLE
    total = 3 * melds_needed + 2
    avail = (hand + unseen).astype(np.int8)
    rows, exposed, kongs, declared_fan, dragon_fan, pungs_ok, chows_ok = _declared(
        declared, seat_wind, prevalent_wind)
    n_declared = len(rows)
    best = cap
    if n_declared == 0:
        out[rt._SEVEN_PAIRS] = rt.seven_pairs(hand, avail)
        out[rt._THIRTEEN_ORPHANS] = rt.thirteen_orphans(hand, avail)
        out[rt._HONOURS_AND_KNITTED] = rt.honors_and_knitted(hand, avail)
    out[rt._KNITTED_STRAIGHT] = rt._knitted_below(
        hand, avail, melds_needed,
        min(best, out[rt._SEVEN_PAIRS], out[rt._THIRTEEN_ORPHANS], out[rt._HONOURS_AND_KNITTED])
        if least_only else UNREACHABLE)
    for f in range(4):
        if out[f] < best:
            best = int(out[f])
    if melds_needed == 0 and kongs == 0 and n_declared == 4:
        d = rt.melded_hand(hand, avail, declared, declared_fan, chows_ok)
        out[rt._MELDED_HAND] = d
        if d < best:
            best = int(d)
    work = np.empty(36, np.int64)
    lower = best
    plain = rt.regular_overlap(hand, avail, melds_needed, 1, work)
    if plain >= 0 and total - plain < lower:
        lower = total - plain
    st = _route_statics()
    mask, info = st["mask"], st["info"]
    ok, forced, n_forced, base_all = _forced(rows, melds_needed, hand, avail, exposed,
                                             pungs_ok, seat_wind, prevalent_wind)
    inside_all = (hand.astype(np.int64)[None, :] * mask).sum(axis=1)
    room = total - forced.sum(axis=1) + base_all
    bounds = total - np.minimum(room, inside_all)
    taken, types_clash = _categories(rows)
    avail64 = avail.astype(np.int64)
    for r in np.flatnonzero(ok).tolist():
        if least_only and (best <= lower or best <= enough):
            break
        family = int(info[r, 5])
        bound = int(bounds[r])
        if bound >= out[family] or (least_only and bound >= best):
            continue
        need = _route_need(r, rows, melds_needed, exposed, kongs, declared_fan, dragon_fan,
                           chows_ok, types_clash, seat_wind, prevalent_wind)
        if need < 0:
            continue
        d = _route_changes_plain(r, hand, avail64, forced, int(base_all[r]), total,
                                 melds_needed - int(n_forced[r]), need, taken, seat_wind,
                                 prevalent_wind)
        if d >= UNREACHABLE:
            continue
        if d < out[family]:
            out[family] = d
        if d < best:
            best = d
    return best


def _route_changes_plain(r: int, h: "np.ndarray", avail64: "np.ndarray", forced: "np.ndarray",
                         base: int, total: int, melds: int, need: int, taken: "np.ndarray",
                         seat_wind: int, prevalent_wind: int) -> int:
    """:func:`strategy.fan.routes._route_changes` (the same answer)."""
    st = _route_statics()
    mask, info = st["mask"][r], st["info"]
    fr = forced[r]
    h64 = h.astype(np.int64)
    hr = np.where(mask, h64 - np.minimum(h64, fr), 0).astype(np.int8)
    ar = np.where(mask, avail64 - fr, 0).astype(np.int8)
    kind, param = int(info[r, 3]), int(info[r, 4])
    pairs = 0 if info[r, 0] >= 0 else 1
    if kind == rt.KIND_REGULAR:
        rest = rt.regular_overlap(hr, ar, melds, pairs, np.empty(36, np.int64))
    elif kind == rt.KIND_BONUS:
        rest = rt.bonus_overlap(hr, ar, melds, pairs, need, seat_wind, prevalent_wind,
                               (param & rt.NO_PUNGS) != 0, (param & rt.OUTSIDE) != 0)
    elif kind == rt.KIND_CONCEALED_PUNGS:
        rest = rt.pungs_overlap(hr, ar, melds, need, seat_wind, prevalent_wind, 1)
    elif kind == rt.KIND_PUNGS:
        rest = rt.pungs_overlap(hr, ar, melds, need, seat_wind, prevalent_wind)
    else:
        rest = rt.all_types_overlap(hr, ar, taken, param, seat_wind, prevalent_wind)
    if rest < 0:
        return int(rt.UNREACHABLE)
    return total - base - int(rest)


def draws_lowering_plain(hand: "np.ndarray", unseen: "np.ndarray", melds_needed: int,
                         declared: "np.ndarray", seat_wind: int, prevalent_wind: int,
                         distance: int) -> int:
    """:func:`strategy.fan.routes.draws_lowering` (the same answer): each route's
    playability, forced tiles and needed fan for every row at once, each draw's bounds
    for every row at once, the DPs in the kernel's order."""
    total = 3 * melds_needed + 2
    avail = (hand + unseen).astype(np.int8)
    rows, exposed, kongs, declared_fan, dragon_fan, pungs_ok, chows_ok = _declared(
        declared, seat_wind, prevalent_wind)
    n_declared = len(rows)
    st = _route_statics()
    mask = st["mask"]
    playable, forced, n_forced, base0 = _forced(rows, melds_needed, hand, avail, exposed,
                                                pungs_ok, seat_wind, prevalent_wind)
    taken, types_clash = _categories(rows)
    n_routes = rt.NUM_ROUTE_ROWS
    needs = np.zeros(n_routes, np.int64)
    for r in np.flatnonzero(playable).tolist():
        need = _route_need(r, rows, melds_needed, exposed, kongs, declared_fan, dragon_fan,
                           chows_ok, types_clash, seat_wind, prevalent_wind)
        if need < 0:
            playable[r] = False
        else:
            needs[r] = need
    inside0 = (hand.astype(np.int64)[None, :] * mask).sum(axis=1)
    room0 = total - forced.sum(axis=1) + base0
    rest_melds = melds_needed - n_forced
    avail64 = avail.astype(np.int64)
    h = hand.copy()
    work = np.empty(36, np.int64)
    now = np.full(n_routes, -1, np.int64)
    useful = 0
    last = -1
    # the special shapes and the melded hand move by one at most with a draw, as the
    # kernel's: one below the distance is below it after every draw, and only one at the
    # distance needs a look per draw
    shapes: "list[Callable[[np.ndarray], int]]" = []
    if n_declared == 0:
        shapes += [lambda x: int(rt.seven_pairs(x, avail)),
                   lambda x: int(rt.thirteen_orphans(x, avail)),
                   lambda x: int(rt.honors_and_knitted(x, avail))]
    shapes.append(lambda x: int(rt._knitted_below(x, avail, melds_needed, distance + 1)))
    if melds_needed == 0 and kongs == 0 and n_declared == 4:
        shapes.append(lambda x: int(rt.melded_hand(x, avail, declared, declared_fan,
                                                   chows_ok)))
    at_distance = []
    for shape in shapes:
        v = shape(hand)
        if v < distance:
            return int(unseen.sum())
        if v == distance:
            at_distance.append(shape)
    for t in np.flatnonzero(unseen).tolist():
        h[t] += 1
        best = min([distance, *(shape(h) for shape in at_distance)])
        if best >= distance:
            plain = rt.regular_overlap(h, avail, melds_needed, 1, work)
            if plain < 0 or total - plain >= distance:
                h[t] -= 1
                continue
            # the rows' bounds after this draw: the drawn tile may add to the forced
            # tiles held and to the hand inside the route's tiles
            grow = (int(hand[t]) < forced[:, t]).astype(np.int64)
            inside = inside0 + mask[:, t]
            bounds = total - np.minimum(room0 + grow, inside)
            live = playable & (bounds < distance) & ((now < 0) | (now == distance))
            order = np.flatnonzero(live).tolist()
            if last >= 0:
                order = [last] + [r for r in order if r != last]
            for r in order:
                if not playable[r] or (now[r] >= 0 and now[r] != distance):
                    continue
                if int(bounds[r]) >= distance:
                    continue
                if now[r] < 0:
                    now[r] = _route_changes_plain(r, hand, avail64, forced, int(base0[r]),
                                                  total, int(rest_melds[r]), int(needs[r]),
                                                  taken, seat_wind, prevalent_wind)
                    if now[r] < distance:  # below it already, after every draw too
                        return int(unseen.sum())
                    if now[r] != distance:
                        continue
                if not mask[r, t]:
                    continue
                d = _route_changes_plain(r, h, avail64, forced, int(base0[r] + grow[r]),
                                         total, int(rest_melds[r]), int(needs[r]), taken,
                                         seat_wind, prevalent_wind)
                if d < best:
                    best = d
                    last = r
                    break
        h[t] -= 1
        if best < distance:
            useful += int(unseen[t])
    return useful


# they stand in for kernels when numba is off, so they keep the kernels' ``py_func`` (the
# plain-Python original, :mod:`strategy.jit`)
capped_route_table_plain.py_func = capped_route_table_plain  # type: ignore[attr-defined]
draws_lowering_plain.py_func = draws_lowering_plain  # type: ignore[attr-defined]
