"""Which single draws raise a route's best overlap: the fan routes' dynamic programmes with
the set of such draws carried beside each state's value.

A route's changes are ``total - base - rest`` where ``rest`` = max |C ∩ H| over the route's
completions C <= avail (:mod:`strategy.fan.routes`; the knowledge-aware deficiency of
definition 9 of Yan, Li & Li, "A Fast Algorithm for Computing the Deficiency Number of a
Mahjong Hand", restricted to the route).  A draw of ``t`` leaves ``avail`` as it was and
adds one ``t`` to the hand, so for every completion |C ∩ (H + t)| = |C ∩ H| + [C[t] > H[t]]:

    rest(H + t) = rest(H) + 1  exactly when some completion C of overlap rest(H) has C[t] > H[t]

(and rest(H) otherwise).  The programmes below are the routes' own, with each state's value
paired with the set (a bit mask over the 34 kinds) of the kinds ``t`` in ``draws`` at which
some best path to that state takes more copies than the hand holds.  Values combine by max;
on a tie the sets are joined.  A path that is best at the end is best at every state it
passes (else a better prefix would beat it), so the final set is exactly the union over the
best completions of their kinds ``C[t] > H[t]``: the draws that lower the route's changes.
One programme per route answers every draw at once, where asking route by route and draw by
draw ran one programme per (route, draw).

Each programme here is its overlap's in :mod:`strategy.fan.kernels` with the set carried
beside the value, so the two are written twice and kept in step by
``tests/strategy/test_fan_gains.py``: it compares each value with the kernel's and each set
with the draws that raise the kernel's answer, so a change to one fails until the other
follows.
"""

import numpy as np

from strategy.fan.kernels import BONUS_CAP, all_types_gains, fan_with, join_gains, pung_fan
from strategy.fan.rows import route_counts
from strategy.fan.table import (
    KIND_BONUS,
    KIND_CONCEALED_PUNGS,
    KIND_PUNGS,
    KIND_REGULAR,
    NO_PUNGS,
    OUTSIDE,
    ROUTE_INFO,
    ROUTE_MASK,
)
from strategy.jit import njit


@njit()
def bonus_gains(hand: "np.ndarray", avail: "np.ndarray", melds: int, pairs: int, need: int,
                seat_wind: int, prevalent_wind: int, no_pungs: bool, outside: bool,
                cap: int, draws: int) -> "tuple[int, int]":
    """(:func:`strategy.fan.kernels.bonus_overlap` with its fan counted up to ``cap``, the set
    of kinds in ``draws`` whose draw raises it); (-1, 0) when there is no completion.  With
    ``cap`` = 0 and ``need`` = 0 it is the regular overlap
    (:func:`strategy.deficiency.kernel.regular_overlap`)."""
    # generation g of two used in turn, as in bonus_overlap
    best = np.full((2, 3, 3, 6, 2, cap + 1), -1, np.int64)
    mask = np.zeros((2, 3, 3, 6, 2, cap + 1), np.int64)
    cur = 0
    best[0, 0, 0, 0, 0, 0] = 0
    for t in range(34):
        av = avail[t]
        if av == 0:  # the chows under way end, the rest pass as they are
            for a in range(3):
                for b in range(3):
                    if a + b > 0:
                        for k in range(melds + 1):
                            for p in range(pairs + 1):
                                for f in range(cap + 1):
                                    best[cur, a, b, k, p, f] = -1
            continue
        h = hand[t]
        w = pung_fan(t, seat_wind, prevalent_wind)
        bit = 1 << t if (draws >> t) & 1 else 0
        cmax = 0
        if t < 27 and t % 9 <= 6 and (not outside or t % 9 == 0 or t % 9 == 6):
            cmax = min(2, int(avail[t + 1]), int(avail[t + 2]))
        groups = 3  # nothing, the pair, a pung
        if outside and t < 27 and t % 9 != 0 and t % 9 != 8:
            groups = 1
        nx = 1 - cur
        for b in range(3):
            for c in range(3):
                for k in range(melds + 1):
                    for p in range(pairs + 1):
                        for f in range(cap + 1):
                            best[nx, b, c, k, p, f] = -1
                            mask[nx, b, c, k, p, f] = 0
        for a in range(3):  # chows begun two kinds back: they end here
            for b in range(3):  # chows begun at the last kind
                if a + b > av:
                    continue
                for k in range(melds + 1):
                    for p in range(pairs + 1):
                        for f in range(cap + 1):
                            v = best[cur, a, b, k, p, f]
                            if v < 0:
                                continue
                            m = mask[cur, a, b, k, p, f]
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
                                    gain = used if used < h else h
                                    nf = fan_with(f, g, used, w, cap)
                                    nk = k + c + (1 if g == 2 else 0)
                                    np_ = p + (1 if g == 1 else 0)
                                    best[nx, b, c, nk, np_, nf], mask[nx, b, c, nk, np_, nf] = \
                                        join_gains(best[nx, b, c, nk, np_, nf],
                                              mask[nx, b, c, nk, np_, nf], v + gain,
                                              m | bit if used > h else m)
        cur = nx
    out = -1
    found = 0
    for f in range(min(need, cap), cap + 1):
        out, found = join_gains(out, found, best[cur, 0, 0, melds, pairs, f],
                           mask[cur, 0, 0, melds, pairs, f])
    return out, found


@njit()
def pungs_gains(hand: "np.ndarray", avail: "np.ndarray", melds: int, need: int, seat_wind: int,
                prevalent_wind: int, chows: int, draws: int) -> "tuple[int, int]":
    """(:func:`strategy.fan.kernels.pungs_overlap`, the set of kinds in ``draws`` whose draw
    raises it); (-1, 0) when there is no completion."""
    cap = BONUS_CAP
    best = np.full((6, 2, cap + 1, 4), -1, np.int64)
    mask = np.zeros((6, 2, cap + 1, 4), np.int64)
    nxt = np.empty((6, 2, cap + 1, 4), np.int64)
    nmask = np.empty((6, 2, cap + 1, 4), np.int64)
    best[0, 0, 0, 0] = 0
    for t in range(34):
        a = avail[t]
        h = hand[t]
        w = pung_fan(t, seat_wind, prevalent_wind)
        bit = 1 << t if (draws >> t) & 1 else 0
        can_start = chows > 0 and t < 27 and t % 9 <= 6 and avail[t + 1] > 0 \
            and avail[t + 2] > 0
        if a < 1:
            for k in range(melds + 1):
                for p in range(2):
                    for b in range(cap + 1):
                        best[k, p, b, 1] = -1
                        best[k, p, b, 2] = -1
            continue
        nxt[:, :, :, :] = -1
        nmask[:, :, :, :] = 0
        for k in range(melds + 1):
            for p in range(2):
                for b in range(cap + 1):
                    for c in range(4):
                        v = best[k, p, b, c]
                        if v < 0:
                            continue
                        m = mask[k, p, b, c]
                        for start in range(2):
                            if start == 1 and (c != 0 or not can_start or k >= melds):
                                continue
                            chow_use = 1 if c == 1 or c == 2 or start == 1 else 0
                            nc = c
                            if c == 1:
                                nc = 2
                            elif c == 2:
                                nc = 3
                            elif start == 1:
                                nc = 1
                            k1 = k + start
                            for g in range(3):
                                if g == 1 and p == 1:
                                    continue
                                if g == 2 and k1 >= melds:
                                    continue
                                used = chow_use + (2 if g == 1 else 3 if g == 2 else 0)
                                if used > a:
                                    continue
                                gain = used if used < h else h
                                nb = fan_with(b, g, used, w, cap)
                                nk = k1 + (1 if g == 2 else 0)
                                np_ = p + (1 if g == 1 else 0)
                                nxt[nk, np_, nb, nc], nmask[nk, np_, nb, nc] = join_gains(
                                    nxt[nk, np_, nb, nc], nmask[nk, np_, nb, nc], v + gain,
                                    m | bit if used > h else m)
        best[:, :, :, :] = nxt
        mask[:, :, :, :] = nmask
    out = -1
    found = 0
    for b in range(min(need, cap), cap + 1):
        for c in (0, 3):
            out, found = join_gains(out, found, best[melds, 1, b, c], mask[melds, 1, b, c])
    return out, found


@njit()
def route_gains(r: int, hand: "np.ndarray", avail: "np.ndarray", unseen: "np.ndarray",
                forced_all: "np.ndarray", melds: int, need: int, taken: "np.ndarray",
                seat_wind: int, prevalent_wind: int, hr: "np.ndarray", ar: "np.ndarray"
                ) -> "tuple[int, int]":
    """Route ``r`` for a 3m+1 hand (its forced tiles ``forced_all[r]``, ``melds`` left after
    them, ``need`` fan still needed; :func:`strategy.fan.rows.route_changes`'s
    arguments): (its best overlap ``rest``, the set of unseen kinds whose draw lowers its
    changes by one).  A draw of a forced tile the hand lacks raises the forced part; any
    other draw inside the route raises ``rest`` exactly when it is in the programme's set."""
    route_counts(r, hand, avail, forced_all, hr, ar)
    draws = 0
    forced_gain = 0
    for x in range(34):
        if ROUTE_MASK[r, x] and unseen[x] > 0:
            if hand[x] < forced_all[r, x]:
                forced_gain |= 1 << x
            else:
                draws |= 1 << x
    kind = ROUTE_INFO[r, 3]
    param = ROUTE_INFO[r, 4]
    pairs = 0 if ROUTE_INFO[r, 0] >= 0 else 1
    if kind == KIND_REGULAR:
        rest, found = bonus_gains(hr, ar, melds, pairs, 0, seat_wind, prevalent_wind, False,
                                  False, 0, draws)
    elif kind == KIND_BONUS:
        rest, found = bonus_gains(hr, ar, melds, pairs, need, seat_wind, prevalent_wind,
                                  (param & NO_PUNGS) != 0, (param & OUTSIDE) != 0, 2, draws)
    elif kind == KIND_CONCEALED_PUNGS:
        rest, found = pungs_gains(hr, ar, melds, need, seat_wind, prevalent_wind, 1, draws)
    elif kind == KIND_PUNGS:
        rest, found = pungs_gains(hr, ar, melds, need, seat_wind, prevalent_wind, 0, draws)
    else:
        rest, found = all_types_gains(hr, ar, taken, param, seat_wind, prevalent_wind, draws)
    if rest < 0:
        return rest, 0
    return rest, found | forced_gain
