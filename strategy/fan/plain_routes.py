"""Plain-Python twins of the route loops: the least over the routes, and the draws that
lower it.

:func:`strategy.fan.routes.capped_route_table` and
:func:`strategy.fan.lowering.draws_lowering` visit 410 route rows, each over 34 kinds; as
Python every step reads a numpy scalar.  Without numba (the Botzone zip) the twins here run
in their place.  They find what does not depend on the order of the rows (which rows can be
played, their forced tiles, the bound on their changes) for every row at once with numpy,
and run the rows' programmes in the kernels' order, with the same skips and stops, so the
answers and the family table are the kernels'.

What a row is, is written once and shared with the kernels (:mod:`strategy.fan.rows`: the
declared melds' facts, the fan a row still needs, a row's programme).  The loops themselves
are twins, kept in step by ``tests/strategy/test_fan_routes.py``, which runs the route
table, each discard, each draw and the lowering draws without numba and compares them with
the compiled kernels: a change to one loop fails it until the other follows.
"""

from typing import Callable, List, Tuple

import numpy as np

from strategy.deficiency.kernel import UNREACHABLE
from strategy.fan.kernels import melded_hand
from strategy.fan.overlaps import (
    honors_and_knitted,
    knitted_below,
    regular_overlap,
    seven_pairs,
    thirteen_orphans,
)
from strategy.fan.rows import Facts, declared_facts, route_need, route_rest
from strategy.fan.table import (
    CHOW,
    HONOURS_AND_KNITTED,
    KIND_PUNGS,
    KNITTED_STRAIGHT,
    MELDED_HAND,
    NUM_ROUTE_ROWS,
    ROUTE_INFO,
    ROUTE_MASK,
    ROUTE_MELDS,
    SEVEN_PAIRS,
    THIRTEEN_ORPHANS,
)

_static: "dict[str, np.ndarray]" = {}
_INFO: "List[List[int]]" = ROUTE_INFO.tolist()
"""The rows' :data:`strategy.fan.table.ROUTE_INFO` as Python ints (quicker than numpy's
scalars in Python)."""


def _route_statics() -> "dict[str, np.ndarray]":
    """The rows' forced tiles (all their forced melds and pair) and forced meld count."""
    if not _static:
        rows = NUM_ROUTE_ROWS
        forced = np.zeros((rows, 34), np.int64)
        count = np.zeros(rows, np.int64)
        for r in range(rows):
            for j in range(4):
                code = int(ROUTE_MELDS[r, j])
                if code < 0:
                    continue
                kind, tile = divmod(code, 64)
                if kind == CHOW:
                    forced[r, tile:tile + 3] += 1
                else:
                    forced[r, tile] += 3
                count[r] += 1
            pair = int(ROUTE_INFO[r, 0])
            if pair >= 0:
                forced[r, pair] += 2
        _static.update(forced=forced, count=count, mask=ROUTE_MASK.astype(np.bool_),
                       info=ROUTE_INFO.astype(np.int64))
    return _static


def _declared(declared: "np.ndarray", seat_wind: int, prevalent_wind: int
              ) -> "Tuple[List[Tuple[int, int]], Facts, np.ndarray]":
    """The declared melds as rows, what they bring to every route
    (:func:`strategy.fan.rows.declared_facts`) and the categories they take."""
    rows = [(int(declared[i, 0]), int(declared[i, 1])) for i in range(declared.shape[0])]
    taken = np.zeros(5, np.int64)
    facts = declared_facts(declared, seat_wind, prevalent_wind, taken)
    return rows, facts, taken


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
        ok &= info[:, 3] != KIND_PUNGS
    forced = st["forced"]
    n_forced = st["count"]
    if rows:
        forced = forced.copy()
        n_forced = n_forced.copy()
        for kind, tile in rows:  # the declared melds lie inside the route's tiles
            last = tile + 2 if kind == CHOW else tile
            ok &= mask[:, tile:last + 1].all(axis=1)
        for r in np.flatnonzero(ok):
            used = [False] * len(rows)
            for j in range(4):
                code = int(ROUTE_MELDS[r, j])
                if code < 0:
                    continue
                for i, (dk, dt) in enumerate(rows):
                    if not used[i] and (dk == CHOW) == (code // 64 == CHOW) \
                            and dt == code % 64:
                        used[i] = True
                        if code // 64 == CHOW:
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


def capped_route_table_plain(hand: "np.ndarray", unseen: "np.ndarray", melds_needed: int,
                             declared: "np.ndarray", seat_wind: int, prevalent_wind: int,
                             out: "np.ndarray", least_only: bool, cap: int, enough: int) -> int:
    """:func:`strategy.fan.routes.capped_route_table` (the same answer and table)."""
    out[:] = UNREACHABLE
    total = 3 * melds_needed + 2
    avail = (hand + unseen).astype(np.int8)
    rows, facts, taken = _declared(declared, seat_wind, prevalent_wind)
    exposed, kongs, declared_fan, _, pungs_ok, chows_ok, _ = facts
    n_declared = len(rows)
    best = cap
    if n_declared == 0:
        out[SEVEN_PAIRS] = seven_pairs(hand, avail)
        out[THIRTEEN_ORPHANS] = thirteen_orphans(hand, avail)
        out[HONOURS_AND_KNITTED] = honors_and_knitted(hand, avail)
    out[KNITTED_STRAIGHT] = knitted_below(
        hand, avail, melds_needed,
        min(best, out[SEVEN_PAIRS], out[THIRTEEN_ORPHANS], out[HONOURS_AND_KNITTED])
        if least_only else UNREACHABLE)
    for f in range(4):
        if out[f] < best:
            best = int(out[f])
    if melds_needed == 0 and kongs == 0 and n_declared == 4:
        d = melded_hand(hand, avail, declared, declared_fan, chows_ok)
        out[MELDED_HAND] = d
        if d < best:
            best = int(d)
    work = np.empty(36, np.int64)
    lower = best
    plain = regular_overlap(hand, avail, melds_needed, 1, work)
    if plain >= 0 and total - plain < lower:
        lower = total - plain
    st = _route_statics()
    mask, info = st["mask"], st["info"]
    ok, forced, n_forced, base_all = _forced(rows, melds_needed, hand, avail, exposed,
                                             pungs_ok, seat_wind, prevalent_wind)
    inside_all = (hand.astype(np.int64)[None, :] * mask).sum(axis=1)
    room = total - forced.sum(axis=1) + base_all
    bounds = total - np.minimum(room, inside_all)
    avail64 = avail.astype(np.int64)
    for r in np.flatnonzero(ok).tolist():
        if least_only and (best <= lower or best <= enough):
            break
        family = int(info[r, 5])
        bound = int(bounds[r])
        if bound >= out[family] or (least_only and bound >= best):
            continue
        kind, param, family = _INFO[r][3:6]
        need = route_need(kind, param, family, declared, melds_needed, facts, seat_wind,
                          prevalent_wind)
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
    """:func:`strategy.fan.rows.route_changes` without its bound (the same answer)."""
    st = _route_statics()
    mask = st["mask"][r]
    fr = forced[r]
    h64 = h.astype(np.int64)
    hr = np.where(mask, h64 - np.minimum(h64, fr), 0).astype(np.int8)
    ar = np.where(mask, avail64 - fr, 0).astype(np.int8)
    info = _INFO[r]
    rest = route_rest(info[3], info[4], 0 if info[0] >= 0 else 1, hr, ar, melds, need, taken,
                      seat_wind, prevalent_wind, np.empty(36, np.int64))
    if rest < 0:
        return int(UNREACHABLE)
    return total - base - int(rest)


def draws_lowering_plain(hand: "np.ndarray", unseen: "np.ndarray", melds_needed: int,
                         declared: "np.ndarray", seat_wind: int, prevalent_wind: int,
                         distance: int) -> int:
    """:func:`strategy.fan.lowering.draws_lowering` (the same answer): each route's
    playability, forced tiles and needed fan for every row at once, each draw's bounds
    for every row at once, the DPs in the kernel's order."""
    total = 3 * melds_needed + 2
    avail = (hand + unseen).astype(np.int8)
    rows, facts, taken = _declared(declared, seat_wind, prevalent_wind)
    exposed, kongs, declared_fan, _, pungs_ok, chows_ok, _ = facts
    n_declared = len(rows)
    st = _route_statics()
    mask = st["mask"]
    playable, forced, n_forced, base0 = _forced(rows, melds_needed, hand, avail, exposed,
                                                pungs_ok, seat_wind, prevalent_wind)
    n_routes = NUM_ROUTE_ROWS
    needs = np.zeros(n_routes, np.int64)
    for r in np.flatnonzero(playable).tolist():
        kind, param, family = _INFO[r][3:6]
        need = route_need(kind, param, family, declared, melds_needed, facts, seat_wind,
                          prevalent_wind)
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
        shapes += [lambda x: int(seven_pairs(x, avail)),
                   lambda x: int(thirteen_orphans(x, avail)),
                   lambda x: int(honors_and_knitted(x, avail))]
    shapes.append(lambda x: int(knitted_below(x, avail, melds_needed, distance + 1)))
    if melds_needed == 0 and kongs == 0 and n_declared == 4:
        shapes.append(lambda x: int(melded_hand(x, avail, declared, declared_fan, chows_ok)))
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
            plain = regular_overlap(h, avail, melds_needed, 1, work)
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
