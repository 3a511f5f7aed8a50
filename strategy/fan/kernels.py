"""The per-route dynamic programmes: the most tiles of a hand a route's completions keep.

Each route of :mod:`strategy.fan.table` is solved by the rank DP of Yan, Li & Li, "A Fast
Algorithm for Computing the Deficiency Number of a Mahjong Hand"
(:func:`strategy.deficiency.kernel.regular_overlap`), restricted to the route's hands:

- all pungs runs a small DP of its own (:func:`pungs_overlap`: pungs, at most one chow and
  the pair, with the fan its pungs bring: a dragon pung, a seat or prevalent wind pung,
  pungs of terminals or honours, a tile hog);
- the routes worth 6 that take their last 2 fan from the other groups run the rank DP with
  the fan as one more coordinate (:func:`bonus_overlap`);
- all types splits the hand into its five categories (three suits, winds, dragons), one
  group each, answered one category at a time (:func:`all_types_gains`);
- a melded hand (four claimed melds) only chooses its pair (:func:`melded_hand`).

Each DP here is a numba kernel (:mod:`strategy.jit`) whose plain-Python original is its
``py_func``.  Without numba the route loops call faster plain-Python twins in their place
(:mod:`strategy.fan.plain_dp` for the pungs and bonus DPs, chosen by
:mod:`strategy.fan.overlaps`); :mod:`strategy.fan.gains` carries the same programmes with
the set of draws that raise them.  The twins are kept in step by tests, not by shared code:
``tests/strategy/test_fan_routes.py`` compares each block twin with its kernel here on
random counts, and ``tests/strategy/test_fan_gains.py`` each gains programme with the
overlap here, so a change to a DP fails those tests until its twins follow.
"""

import numpy as np

from strategy.deficiency.kernel import UNREACHABLE
from strategy.fan.table import ALL_TYPES_DRAGON_PUNG, ALL_TYPES_WIND_PUNG, CHOW, PUNG
from strategy.jit import njit


@njit()
def pung_fan(tile: int, seat_wind: int, prevalent_wind: int) -> int:
    """The fan a pung of ``tile`` brings to an all-pungs hand (at most what MCR gives)."""
    if tile >= 31:
        return 2  # dragon pung (two of them: two dragon pungs, 6)
    if tile >= 27:
        v = 0
        if tile == 27 + seat_wind:
            v += 2
        if tile == 27 + prevalent_wind:
            v += 2
        return v if v > 0 else 1  # or a pung of terminals or honours
    return 1 if tile % 9 == 0 or tile % 9 == 8 else 0


@njit()
def fan_with(fan: int, group: int, used: int, pung: int, cap: int) -> int:
    """The fan count ``fan`` after one kind's groups, capped at ``cap``: a pung (``group``
    2) adds its ``pung`` fan, all four tiles of the kind used (not a kong) 2 for a tile hog."""
    if group == 2:
        fan += pung
    if used == 4:
        fan += 2  # tile hog
    return fan if fan < cap else cap


BONUS_CAP = 4
"""The pungs DP counts the fan its groups bring up to this many."""


@njit()
def pungs_overlap(hand: "np.ndarray", avail: "np.ndarray", melds: int, need: int,
                  seat_wind: int, prevalent_wind: int, chows: int = 0) -> int:
    """Max |C ∩ H| over complete hands C <= avail of ``melds`` melds, all pungs but at most
    ``chows`` (0 or 1) chows, and a pair, whose groups bring at least ``need`` (up to
    :data:`BONUS_CAP`) fan: each pung :func:`pung_fan`, and 2 for a tile hog (a chow and
    a pung of the same tile); -1 when there is none."""
    # best[k, p, b, c]: k melds, p pairs, bonus b, chow state c (0 none yet, 1 begun at
    # the last kind, 2 begun two kinds back, 3 done); -1 = not reached
    cap = BONUS_CAP
    best = np.full((6, 2, cap + 1, 4), -1, np.int64)
    nxt = np.empty((6, 2, cap + 1, 4), np.int64)
    best[0, 0, 0, 0] = 0
    for t in range(34):
        a = avail[t]
        h = hand[t]
        w = pung_fan(t, seat_wind, prevalent_wind)
        can_start = chows > 0 and t < 27 and t % 9 <= 6 and avail[t + 1] > 0 \
            and avail[t + 2] > 0
        if a < 1:
            # nothing can use this kind: a chow may not pass through it
            for k in range(melds + 1):
                for p in range(2):
                    for b in range(cap + 1):
                        best[k, p, b, 1] = -1
                        best[k, p, b, 2] = -1
            continue
        nxt[:, :, :, :] = -1
        for k in range(melds + 1):
            for p in range(2):
                for b in range(cap + 1):
                    for c in range(4):
                        v = best[k, p, b, c]
                        if v < 0:
                            continue
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
                            for g in range(3):  # nothing, the pair, a pung
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
                                if v + gain > nxt[nk, np_, nb, nc]:
                                    nxt[nk, np_, nb, nc] = v + gain
        best[:, :, :, :] = nxt
    out = -1
    for b in range(min(need, cap), cap + 1):
        for c in (0, 3):
            if best[melds, 1, b, c] > out:
                out = best[melds, 1, b, c]
    return out


@njit()
def bonus_overlap(hand: "np.ndarray", avail: "np.ndarray", melds: int, pairs: int, need: int,
                  seat_wind: int, prevalent_wind: int, no_pungs: bool,
                  outside: bool = False) -> int:
    """Max |C ∩ H| over C <= avail of ``melds`` melds (chows and pungs; chows only with
    ``no_pungs``) and ``pairs`` (0 or 1) pairs whose groups bring at least ``need`` (up to
    2) fan: each pung :func:`pung_fan`, 2 for a tile hog (four of a kind, not a kong);
    -1 when there is none.  With ``outside`` every group holds a terminal or an honour
    (chows 1-2-3 and 7-8-9, pungs and the pair of terminals and honours).  The rank DP of
    :mod:`strategy.deficiency.kernel` with the fan as one more coordinate."""
    cap = 2
    # buf[g, b, c, k, p, f]: generation g (two, used in turn), chows begun at the last kind
    # (b) and at this one (c), melds k, pairs p, fan f (capped); -1 = not reached
    buf = np.full((2, 3, 3, 6, 2, cap + 1), -1, np.int64)
    cur = 0
    buf[0, 0, 0, 0, 0, 0] = 0
    for t in range(34):
        av = avail[t]
        if av == 0:
            # nothing can use this kind: the chows under way end, the rest pass as they are
            for a in range(3):
                for b in range(3):
                    if a + b > 0:
                        for k in range(melds + 1):
                            for p in range(pairs + 1):
                                for f in range(cap + 1):
                                    buf[cur, a, b, k, p, f] = -1
            continue
        h = hand[t]
        w = pung_fan(t, seat_wind, prevalent_wind)
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
                            buf[nx, b, c, k, p, f] = -1
        for a in range(3):  # chows begun two kinds back: they end here
            for b in range(3):  # chows begun at the last kind
                if a + b > av:
                    continue
                for k in range(melds + 1):
                    for p in range(pairs + 1):
                        for f in range(cap + 1):
                            v = buf[cur, a, b, k, p, f]
                            if v < 0:
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
                                    gain = used if used < h else h
                                    nf = fan_with(f, g, used, w, cap)
                                    nk = k + c + (1 if g == 2 else 0)
                                    np_ = p + (1 if g == 1 else 0)
                                    if v + gain > buf[nx, b, c, nk, np_, nf]:
                                        buf[nx, b, c, nk, np_, nf] = v + gain
        cur = nx
    out = -1
    for f in range(min(need, cap), cap + 1):
        if buf[cur, 0, 0, melds, pairs, f] > out:
            out = buf[cur, 0, 0, melds, pairs, f]
    return out


@njit()
def category(tile: int) -> int:
    """0-2 the suits, 3 the winds, 4 the dragons."""
    if tile < 27:
        return tile // 9
    return 3 if tile < 31 else 4


@njit()
def join_gains(best: int, found: int, value: int, gains: int) -> "tuple[int, int]":
    """Two (best overlap, the draws that raise it) joined: the larger overlap's draws, both
    sets where the overlaps tie (:mod:`strategy.fan.gains`)."""
    if value > best:
        return value, gains
    if value == best:
        return best, found | gains
    return best, found


@njit()
def _category_group(hand: "np.ndarray", avail: "np.ndarray", cat: int, meld: bool, only: int,
                    draws: int) -> "tuple[int, int]":
    """The best overlap of one group inside category ``cat`` (a meld, pung or chow, if
    ``meld``, else a pair; of the tile ``only`` if >= 0), -1 when there is none, with the
    kinds in ``draws`` whose draw raises it (:mod:`strategy.fan.gains`): the regular
    programme for one group, by going through the category's few groups."""
    lo = 9 * cat if cat < 3 else (27 if cat == 3 else 31)
    hi = lo + 9 if cat < 3 else (31 if cat == 3 else 34)
    size = 3 if meld else 2
    best = -1
    found = 0
    for t in range(lo, hi):
        if only >= 0 and t != only:
            continue
        if avail[t] >= size:  # a pung or the pair
            h = hand[t]
            v = h if h < size else size
            m = 1 << t if h < size and (draws >> t) & 1 else 0
            best, found = join_gains(best, found, v, m)
        if meld and cat < 3 and t - lo <= 6 and avail[t] >= 1 and avail[t + 1] >= 1 \
                and avail[t + 2] >= 1:  # a chow
            v = 0
            m = 0
            for x in range(t, t + 3):
                if hand[x] >= 1:
                    v += 1
                elif (draws >> x) & 1:
                    m |= 1 << x
            best, found = join_gains(best, found, v, m)
    return best, found


@njit()
def all_types_gains(hand: "np.ndarray", avail: "np.ndarray", taken: "np.ndarray", variant: int,
                    seat_wind: int, prevalent_wind: int, draws: int) -> "tuple[int, int]":
    """(:func:`all_types_overlap`, the kinds in ``draws`` whose draw raises it: see
    :mod:`strategy.fan.gains`).  A draw lies in one category, so it raises the best total
    exactly when it raises that category's group under some best choice of the pair's."""
    meld_best = np.full(5, -1, np.int64)
    meld_mask = np.zeros(5, np.int64)
    pair_best = np.full(5, -1, np.int64)
    pair_mask = np.zeros(5, np.int64)
    for c in range(5):
        if taken[c]:
            continue
        if c == 3 and variant == ALL_TYPES_WIND_PUNG:
            for w in range(4):
                if w != seat_wind and w != prevalent_wind:
                    continue
                v, m = _category_group(hand, avail, 3, True, 27 + w, draws)
                meld_best[3], meld_mask[3] = join_gains(meld_best[3], meld_mask[3], v, m)
        else:
            meld_best[c], meld_mask[c] = _category_group(hand, avail, c, True, -1, draws)
        if not ((c == 4 and variant == ALL_TYPES_DRAGON_PUNG)
                or (c == 3 and variant == ALL_TYPES_WIND_PUNG)):
            pair_best[c], pair_mask[c] = _category_group(hand, avail, c, False, -1, draws)
    best = -1
    found = 0
    for pc in range(5):
        if taken[pc] or pair_best[pc] < 0:
            continue
        total = pair_best[pc]
        gains = pair_mask[pc]
        for c in range(5):
            if c == pc or taken[c]:
                continue
            if meld_best[c] < 0:
                total = -1
                break
            total += meld_best[c]
            gains |= meld_mask[c]
        if total >= 0:
            best, found = join_gains(best, found, total, gains)
    return best, found


@njit()
def all_types_overlap(hand: "np.ndarray", avail: "np.ndarray", taken: "np.ndarray", variant: int,
                      seat_wind: int, prevalent_wind: int) -> int:
    """Max |C ∩ H| over concealed parts C <= avail that make all types (a group in each
    of the five categories) with the declared melds (``taken[c]`` = 1 where a declared meld
    is), for the variant: any, the dragons a pung, or the winds a seat or round wind pung;
    -1 when there is none."""
    return all_types_gains(hand, avail, taken, variant, seat_wind, prevalent_wind, 0)[0]


@njit()
def melded_hand(hand: "np.ndarray", avail: "np.ndarray", declared: "np.ndarray", declared_fan: int,
                all_chows: bool) -> int:
    """Changes to a melded hand worth 8: four claimed melds (``declared``, none concealed)
    and the pair, whose fan is melded hand 6, the melds' own (``declared_fan``), a tile
    hog (2), all chows (2), all types (6) or a flush (6, 24) — whichever the pair makes."""
    shown = np.zeros(34, np.int64)  # tiles in chows and pungs (a kong's fourth is no hog)
    kinds = np.zeros(5, np.int64)  # groups per category: three suits, winds, dragons
    for i in range(declared.shape[0]):
        kind = declared[i, 0]
        tile = declared[i, 1]
        if kind == CHOW:
            for j in range(3):
                shown[tile + j] += 1
        elif kind == PUNG:
            shown[tile] += 3
        kinds[category(tile)] += 1
    best = UNREACHABLE
    for p in range(34):
        if avail[p] < 2:
            continue
        fan = 6 + declared_fan
        hog = False
        for t in range(34):
            if shown[t] + (2 if t == p else 0) == 4:
                hog = True
        if hog:
            fan += 2
        if all_chows and p < 27:
            fan += 2
        c = category(p)
        kinds[c] += 1
        suits = 0
        for s in range(3):
            if kinds[s] > 0:
                suits += 1
        honours = kinds[3] + kinds[4] > 0
        every = True
        for s in range(5):
            if kinds[s] == 0:
                every = False
        kinds[c] -= 1
        if every:
            fan += 6  # all types
        if suits == 1:
            fan += 6 if honours else 24  # half flush, full flush
        if suits == 0:
            fan += 64  # all honours
        if fan >= 8:
            h = hand[p] if hand[p] < 2 else 2
            if 2 - h < best:
                best = 2 - h
    return best


