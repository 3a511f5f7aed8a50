"""Routes to 8 fan: the kernels behind :func:`strategy.fan.fan_deficiency`.

Chinese Standard Mahjong (MCR) counts a win only from 8 fan.  The fan-aware deficiency of a
hand is the least number of tile changes to a complete hand that scores at least 8 (as a
win on a discard, whatever its last tile: see :mod:`strategy.fan.brute` for the exact
definition).  Every *route* here is a family of complete hands that is sure to score 8 by
itself: a fan pattern worth 8 or more (mixed triple chow, pure straight, full flush, seven
pairs, ...) or a combination of patterns that is (half flush and a concealed hand, all
pungs and a dragon pung, ...).  Each route's least number of changes is computed exactly,
as the knowledge-aware deficiency of definition 9 of Yan, Li & Li, "A Fast Algorithm for
Computing the Deficiency Number of a Mahjong Hand", restricted to the route's hands:

    changes = (3m + 2) - max over the route's complete hands C <= hand + unseen of |C ∩ hand|

- a route that allows only some tiles (a flush, upper four, reversible tiles) runs the
  production rank DP (:func:`strategy.deficiency.kernel.regular_overlap`) on the available
  counts with the other tiles zeroed: the hand's other tiles then simply never overlap;
- a route that needs given melds (mixed triple chow: 1-2-3 in all three suits) takes them
  out first: with F the forced tiles, ``min(F + c, h) = min(F, h) + min(c, h - min(F, h))``
  tile by tile, so the overlap is ``sum min(F, h)`` plus the DP's answer on
  ``hand - min(F, hand)`` and ``avail - F`` with fewer melds — exact;  a forced meld the
  player has declared already is not made again;
- all pungs runs a small DP of its own (pungs and the pair only, with the fan its pungs
  bring: a dragon pung, a seat or prevalent wind pung, pungs of terminals or honours);
- all types splits the hand into its five categories (three suits, winds, dragons), one
  group each, which the DP answers one category at a time;
- the special shapes are those of :mod:`strategy.deficiency.shapes`, all worth 12 or more.

The least over the routes is never below the true fan-aware deficiency (every route's hands
score 8), and equals it whenever some nearest 8-fan hand belongs to a route.  It is above
the truth when every nearest 8-fan hand gets there only through small fans the routes do
not combine (say half flush 6 + short straight 1 + pung of terminals 1 on a melded hand);
the brute-force comparison in the tests and ``arena/bench/fan.py`` say how often.
"""

from collections.abc import Callable
from enum import IntEnum
from typing import Any

import numpy as np

from game.tiles import DRAGONS, GREEN, NUM_KINDS, WHITE, WINDS
from strategy.deficiency.kernel import UNREACHABLE, regular_overlap
from strategy.deficiency.plain import regular_overlap_blocks
from strategy.deficiency.shapes import (
    honors_and_knitted,
    knitted_straight,
    knitted_straight_below,
    seven_pairs,
    thirteen_orphans,
)
from strategy.jit import HAVE_NUMBA, njit

CHOW, PUNG, KONG, CONCEALED_KONG = 0, 1, 2, 3
"""Kinds of a declared meld in the kernels' encoding: a row ``(kind, tile)``, where a
chow's tile is its lowest."""


class Route(IntEnum):
    """The route families; :func:`route_table` answers one deficiency per family."""

    SEVEN_PAIRS = 0
    THIRTEEN_ORPHANS = 1
    HONOURS_AND_KNITTED = 2
    KNITTED_STRAIGHT = 3
    FULL_FLUSH = 4
    HALF_FLUSH = 5
    """half flush (6) with a concealed hand (2), a dragon, seat or prevalent wind pung (2),
    or 2 from its pungs of terminals or honours, a tile hog or the declared kongs"""
    ALL_PUNGS = 6
    """all pungs (6) with 2 more from its pungs, a concealed hand, two concealed pungs or
    a double pung; or with half flush or all simples"""
    MIXED_TRIPLE_CHOW = 7
    MIXED_STRAIGHT = 8
    PURE_STRAIGHT = 9
    PURE_SHIFTED_CHOWS = 10
    PURE_TRIPLE_CHOW = 11
    MIXED_SHIFTED_PUNGS = 12
    TRIPLE_PUNG = 13
    PURE_SHIFTED_PUNGS = 14
    DRAGON_PUNGS = 15
    """two dragon pungs (6) with a concealed hand, a seat or prevalent wind pung, the
    third dragon (little or big three dragons), or 2 from the other groups"""
    BIG_THREE_WINDS = 16
    TILE_RANGE = 17
    """upper four, lower four (12) or middle tiles (24)"""
    REVERSIBLE = 18
    ALL_GREEN = 19
    ALL_TYPES = 20
    """all types (6) with a concealed hand, a dragon pung or a seat or prevalent wind pung"""
    MIXED_SHIFTED_CHOWS = 21
    """mixed shifted chows (6) with a concealed hand, all chows (2), or 2 from the other
    groups' pungs, a tile hog, the declared melds or no honours (1)"""
    CONCEALED_PUNGS = 22
    """a concealed hand (2) of pungs and at most one chow, so two concealed pungs (2)
    whatever the last tile, with 4 more from its pungs (dragon, seat or round wind,
    terminals or honours), a tile hog (2), a double pung (2), all simples (2), one voided
    suit (1) or no honours (1)"""
    OUTSIDE_HAND = 23
    """outside hand (4: every group holds a terminal or an honour) with a concealed hand
    and all chows (2 + 2), or with 4 from the concealed hand, its pungs and the declared
    melds"""
    MELDED_HAND = 24
    """four claimed melds and a pair won on a discard: melded hand (6) with 2 from the
    melds' fans, a tile hog, all chows, all types or a flush"""


NUM_ROUTES = len(Route)
_SEVEN_PAIRS = int(Route.SEVEN_PAIRS)
_THIRTEEN_ORPHANS = int(Route.THIRTEEN_ORPHANS)
_HONOURS_AND_KNITTED = int(Route.HONOURS_AND_KNITTED)
_KNITTED_STRAIGHT = int(Route.KNITTED_STRAIGHT)
_DRAGON_PUNGS = int(Route.DRAGON_PUNGS)
_MELDED_HAND = int(Route.MELDED_HAND)

# ---------------------------------------------------------------- the route table
# One row per route: the tiles it allows, up to four forced melds (kind * 64 + tile, a
# chow by its lowest tile; -1 for none), a forced pair (-1: none), whether it needs a
# concealed hand, a wind whose forced pung counts only as the seat or prevalent wind (-1:
# none), how it is solved (KIND_*) with a parameter, and its family.
KIND_REGULAR, KIND_PUNGS, KIND_ALL_TYPES, KIND_CONCEALED_PUNGS, KIND_BONUS = 0, 1, 2, 3, 4
NO_PUNGS = 16
"""Added to a KIND_BONUS route's parameter (its own fan): the other groups are chows."""
OUTSIDE = 32
"""Added to a KIND_BONUS route's parameter: every group holds a terminal or an honour."""
ALL_TYPES_CONCEALED, ALL_TYPES_DRAGON_PUNG, ALL_TYPES_WIND_PUNG = 0, 1, 2


def _meld(kind: int, tile: int) -> int:
    return kind * 64 + tile


def _mask(tiles: "list[int] | range") -> "list[bool]":
    allowed = set(tiles)
    return [t in allowed for t in range(NUM_KINDS)]


def _build() -> "tuple[np.ndarray, ...]":
    everything = _mask(range(NUM_KINDS))
    rows: "list[tuple[list[bool], list[int], int, bool, int, int, int, int]]" = []

    def add(family: "Route", melds: "list[int] | None" = None, *, mask: "list[bool] | None" = None,
            pair: int = -1, concealed: bool = False, wind: int = -1, kind: int = KIND_REGULAR,
            param: int = 0) -> None:
        forced = list(melds or [])
        rows.append((mask or everything, forced + [-1] * (4 - len(forced)), pair, concealed,
                     wind, kind, param, int(family)))

    suits = [list(range(9 * s, 9 * s + 9)) for s in range(3)]
    honours = list(range(27, 34))
    perms = [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]
    valued = [*DRAGONS, *WINDS]  # a wind's pung is worth 2 only as the seat or round wind

    def valued_wind(t: int) -> int:
        return t if t in WINDS else -1

    for s in range(3):
        add(Route.FULL_FLUSH, mask=_mask(suits[s]))
        add(Route.HALF_FLUSH, mask=_mask(suits[s] + honours), concealed=True)
        for t in valued:
            add(Route.HALF_FLUSH, [_meld(PUNG, t)], mask=_mask(suits[s] + honours),
                wind=valued_wind(t))
        # all pungs with half flush (6 + 6)
        add(Route.ALL_PUNGS, mask=_mask(suits[s] + honours), kind=KIND_PUNGS, param=6)
    add(Route.ALL_PUNGS, kind=KIND_PUNGS, param=0)
    for r in range(9):  # double pung (2): the same rank in two suits
        for s1, s2 in ((0, 1), (0, 2), (1, 2)):
            double = [_meld(PUNG, 9 * s1 + r), _meld(PUNG, 9 * s2 + r)]
            add(Route.ALL_PUNGS, double, kind=KIND_PUNGS, param=2)
            add(Route.CONCEALED_PUNGS, double, concealed=True, kind=KIND_CONCEALED_PUNGS,
                param=2)
    simples = [t for t in range(27) if t % 9 not in (0, 8)]
    add(Route.ALL_PUNGS, mask=_mask(simples), kind=KIND_PUNGS, param=2)  # all simples (2)
    for r in range(7):
        add(Route.MIXED_TRIPLE_CHOW, [_meld(CHOW, 9 * s + r) for s in range(3)])
    for p in perms:
        add(Route.MIXED_STRAIGHT, [_meld(CHOW, 9 * p[i] + 3 * i) for i in range(3)])
    for s in range(3):
        add(Route.PURE_STRAIGHT, [_meld(CHOW, 9 * s + 3 * i) for i in range(3)])
        for step in (1, 2):
            for r in range(7 - 2 * step):
                add(Route.PURE_SHIFTED_CHOWS,
                    [_meld(CHOW, 9 * s + r + step * i) for i in range(3)])
        for r in range(7):
            add(Route.PURE_TRIPLE_CHOW, [_meld(CHOW, 9 * s + r)] * 3)
            add(Route.PURE_SHIFTED_PUNGS, [_meld(PUNG, 9 * s + r + i) for i in range(3)])
    for p in perms:
        for r in range(7):
            add(Route.MIXED_SHIFTED_PUNGS, [_meld(PUNG, 9 * p[i] + r + i) for i in range(3)])
        for r in range(5):
            add(Route.MIXED_SHIFTED_CHOWS, [_meld(CHOW, 9 * p[i] + r + i) for i in range(3)],
                concealed=True)
    for r in range(9):
        add(Route.TRIPLE_PUNG, [_meld(PUNG, 9 * s + r) for s in range(3)])
    for i, a in enumerate(DRAGONS):
        for b in DRAGONS[i + 1:]:
            (c,) = [d for d in DRAGONS if d not in (a, b)]
            two = [_meld(PUNG, a), _meld(PUNG, b)]
            add(Route.DRAGON_PUNGS, two, concealed=True)
            add(Route.DRAGON_PUNGS, two, pair=c)  # little three dragons
            add(Route.DRAGON_PUNGS, [*two, _meld(PUNG, c)])  # big three dragons
            for w in WINDS:
                add(Route.DRAGON_PUNGS, [*two, _meld(PUNG, w)], wind=w)
    for skip in WINDS:
        add(Route.BIG_THREE_WINDS, [_meld(PUNG, w) for w in WINDS if w != skip])
    for ranks in ((5, 6, 7, 8), (0, 1, 2, 3), (3, 4, 5)):
        add(Route.TILE_RANGE, mask=_mask([9 * s + r for s in range(3) for r in ranks]))
    reversible = [9 + r for r in (0, 1, 2, 3, 4, 7, 8)] + [18 + r for r in (1, 3, 4, 5, 7, 8)]
    add(Route.REVERSIBLE, mask=_mask([*reversible, WHITE]))
    add(Route.ALL_GREEN, mask=_mask([18 + r for r in (1, 2, 3, 5, 7)] + [GREEN]))
    suited = list(range(27))
    # routes worth 6 that take their last 2 fan from the other groups (KIND_BONUS)
    for s in range(3):
        add(Route.HALF_FLUSH, mask=_mask(suits[s] + honours), kind=KIND_BONUS, param=6)
    for p in perms:
        for r in range(5):
            chows = [_meld(CHOW, 9 * p[i] + r + i) for i in range(3)]
            add(Route.MIXED_SHIFTED_CHOWS, chows, kind=KIND_BONUS, param=6)
            add(Route.MIXED_SHIFTED_CHOWS, chows, mask=_mask(suited), kind=KIND_BONUS,
                param=6 + 1)  # no honours
            add(Route.MIXED_SHIFTED_CHOWS, chows, mask=_mask(suited), kind=KIND_BONUS,
                param=6 + 2 + NO_PUNGS)  # all chows
    for i, a in enumerate(DRAGONS):
        for b in DRAGONS[i + 1:]:
            add(Route.DRAGON_PUNGS, [_meld(PUNG, a), _meld(PUNG, b)], kind=KIND_BONUS,
                param=6)
    add(Route.OUTSIDE_HAND, mask=_mask(suited), concealed=True, kind=KIND_BONUS,
        param=4 + 2 + NO_PUNGS + OUTSIDE)  # all chows
    add(Route.OUTSIDE_HAND, kind=KIND_BONUS, param=4 + OUTSIDE)
    for tiles, fan in ((list(range(NUM_KINDS)), 0), (suited, 1)):  # no honours: 1
        add(Route.CONCEALED_PUNGS, mask=_mask(tiles), concealed=True,
            kind=KIND_CONCEALED_PUNGS, param=fan)
        for s in range(3):  # one voided suit: 1
            add(Route.CONCEALED_PUNGS, mask=_mask([t for t in tiles if t // 9 != s]),
                concealed=True, kind=KIND_CONCEALED_PUNGS, param=fan + 1)
    add(Route.CONCEALED_PUNGS, mask=_mask(simples), concealed=True,
        kind=KIND_CONCEALED_PUNGS, param=2)  # all simples
    for r in range(1, 8):  # all simples with a double pung
        for s1, s2 in ((0, 1), (0, 2), (1, 2)):
            add(Route.CONCEALED_PUNGS, [_meld(PUNG, 9 * s1 + r), _meld(PUNG, 9 * s2 + r)],
                mask=_mask(simples), concealed=True, kind=KIND_CONCEALED_PUNGS, param=4)
    for variant in (ALL_TYPES_CONCEALED, ALL_TYPES_DRAGON_PUNG, ALL_TYPES_WIND_PUNG):
        add(Route.ALL_TYPES, concealed=variant == ALL_TYPES_CONCEALED, kind=KIND_ALL_TYPES,
            param=variant)
    return (np.array([r[0] for r in rows], dtype=np.bool_),
            np.array([r[1] for r in rows], dtype=np.int64),
            np.array([[r[2], int(r[3]), r[4], r[5], r[6], r[7]] for r in rows], dtype=np.int64))


ROUTE_MASK, ROUTE_MELDS, ROUTE_INFO = _build()
"""ROUTE_MASK[i] = the tiles route i allows; ROUTE_MELDS[i] = its forced melds;
ROUTE_INFO[i] = (forced pair, needs a concealed hand, valued wind, kind, parameter, family)."""
NUM_ROUTE_ROWS = ROUTE_MASK.shape[0]


# ---------------------------------------------------------------- kernels
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
def _fan_with(fan: int, group: int, used: int, pung: int, cap: int) -> int:
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
                                nb = _fan_with(b, g, used, w, cap)
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
                                    nf = _fan_with(f, g, used, w, cap)
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
def _category(tile: int) -> int:
    """0-2 the suits, 3 the winds, 4 the dragons."""
    if tile < 27:
        return tile // 9
    return 3 if tile < 31 else 4


@njit()
def _join(best: int, found: int, value: int, gains: int) -> "tuple[int, int]":
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
            best, found = _join(best, found, v, m)
        if meld and cat < 3 and t - lo <= 6 and avail[t] >= 1 and avail[t + 1] >= 1 \
                and avail[t + 2] >= 1:  # a chow
            v = 0
            m = 0
            for x in range(t, t + 3):
                if hand[x] >= 1:
                    v += 1
                elif (draws >> x) & 1:
                    m |= 1 << x
            best, found = _join(best, found, v, m)
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
                meld_best[3], meld_mask[3] = _join(meld_best[3], meld_mask[3], v, m)
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
            best, found = _join(best, found, total, gains)
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
        kinds[_category(tile)] += 1
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
        c = _category(p)
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


@njit()
def _add_meld(counts: "np.ndarray", code: int, sign: int) -> None:
    kind = code // 64
    tile = code % 64
    if kind == CHOW:
        for i in range(3):
            counts[tile + i] += sign
    else:
        counts[tile] += 3 * sign


@njit()
def _knitted_below(hand: "np.ndarray", avail: "np.ndarray", melds_needed: int, limit: int) -> int:
    """The knitted straight's deficiency where it is below ``limit``, else a number at least
    ``limit`` (:func:`strategy.deficiency.shapes.knitted_straight_below`; without numba the
    remembered :func:`knitted_straight`, the same answer below ``limit``)."""
    return knitted_straight_below(hand, avail, melds_needed, limit)


@njit()
def _regular_bound(h: "np.ndarray", a: "np.ndarray", melds: int, pairs: int, room: int,
                   work: "np.ndarray") -> int:
    """A lower bound on a route's changes, ``room`` less the regular programme's best
    overlap (:func:`strategy.deficiency.kernel.regular_overlap`; :data:`UNREACHABLE` where
    it has no completion).  Every route's completions are regular ones (``melds`` melds and
    ``pairs`` pairs of the route's tiles) that also bring fan or keep to pungs, so the
    regular overlap is at least theirs; it is many times cheaper than their programmes."""
    loose = regular_overlap(h, a, melds, pairs, work)
    return UNREACHABLE if loose < 0 else room - loose


@njit()
def route_table(hand: "np.ndarray", unseen: "np.ndarray", melds_needed: int, declared: "np.ndarray",
                seat_wind: int, prevalent_wind: int, out: "np.ndarray",
                least_only: bool = False) -> int:
    """The least changes to an 8-fan hand by each route family (``out[family]``,
    :data:`UNREACHABLE` where the family has none); returns the least of them.  With
    ``least_only`` only that least is sure to be exact: a route that cannot beat it is
    skipped, so its family's entry may stay higher than its own least.

    ``hand`` and ``unseen`` are valid int8 34-vectors (hand + unseen <= 4), ``declared`` an
    int64 array of rows ``(kind, tile)`` (CHOW by its lowest tile, PUNG, KONG,
    CONCEALED_KONG) and ``melds_needed`` = 4 less its rows; the winds are 0-3 (east-north).
    """
    return capped_route_table(hand, unseen, melds_needed, declared, seat_wind,
                              prevalent_wind, out, least_only, UNREACHABLE, -1)


@njit()
def capped_route_table(hand: "np.ndarray", unseen: "np.ndarray", melds_needed: int,
                       declared: "np.ndarray", seat_wind: int, prevalent_wind: int,
                       out: "np.ndarray", least_only: bool, cap: int, enough: int) -> int:
    """:func:`route_table`, least only, answering ``min(least, cap)`` and stopping once
    it is at most ``enough``: routes that cannot go below ``cap`` are skipped (for a
    caller that asks only whether the least is below ``cap``, or at most ``enough``).
    ``cap`` = :data:`UNREACHABLE` and ``enough`` = -1 is :func:`route_table` itself."""
    found = np.full(1, -1, np.int64)
    return _route_rows(hand, unseen, melds_needed, declared, seat_wind, prevalent_wind, out,
                       least_only, cap, enough, -1, found)


@njit()
def _route_rows(hand: "np.ndarray", unseen: "np.ndarray", melds_needed: int,
                declared: "np.ndarray", seat_wind: int, prevalent_wind: int, out: "np.ndarray",
                least_only: bool, cap: int, enough: int, first: int,
                found: "np.ndarray") -> int:
    """:func:`capped_route_table` trying the route row ``first`` (if >= 0) before the
    others, and leaving in ``found[0]`` the row of the answer (-1: a special shape, or
    none below ``cap``).  With ``least_only`` the order changes the work only: a caller
    that expects some row to reach ``enough`` names it first."""
    for f in range(out.shape[0]):
        out[f] = UNREACHABLE
    total = 3 * melds_needed + 2
    size = 0
    for t in range(34):
        size += hand[t]
    avail = np.empty(34, np.int8)
    for t in range(34):
        avail[t] = hand[t] + unseen[t]
    n_declared = declared.shape[0]
    exposed = False
    concealed_kongs = 0
    declared_fan = 0  # what the declared pungs and kongs bring
    declared_dragon_fan = 0
    all_pungs_ok = True
    all_chows_ok = True
    for i in range(n_declared):
        kind = declared[i, 0]
        tile = declared[i, 1]
        if kind != CONCEALED_KONG:
            exposed = True
        if kind == CHOW:
            all_pungs_ok = False
        else:
            all_chows_ok = False
            declared_fan += pung_fan(tile, seat_wind, prevalent_wind)
            if tile >= 31:
                declared_dragon_fan += 2
            if kind == KONG:
                declared_fan += 1
            elif kind == CONCEALED_KONG:
                declared_fan += 2
                concealed_kongs += 1
    best = cap
    # special shapes: worth 12 or more each
    if n_declared == 0:
        out[_SEVEN_PAIRS] = seven_pairs(hand, avail)
        out[_THIRTEEN_ORPHANS] = thirteen_orphans(hand, avail)
        out[_HONOURS_AND_KNITTED] = honors_and_knitted(hand, avail)
    # least only: the knitted straight counts only where it goes below the others
    out[_KNITTED_STRAIGHT] = _knitted_below(hand, avail, melds_needed,
                                            min(best, out[_SEVEN_PAIRS], out[_THIRTEEN_ORPHANS],
                                                out[_HONOURS_AND_KNITTED])
                                            if least_only else UNREACHABLE)
    for f in range(4):
        if out[f] < best:
            best = out[f]
    if melds_needed == 0 and concealed_kongs == 0 and n_declared == 4:
        d = melded_hand(hand, avail, declared, declared_fan, all_chows_ok)
        out[_MELDED_HAND] = d
        if d < best:
            best = d
    h = np.empty(34, np.int8)
    a = np.empty(34, np.int8)
    forced = np.zeros(34, np.int8)
    work = np.empty(36, np.int64)
    # no route beats the plain deficiency: a hand worth 8 is a complete hand
    lower = best
    plain = regular_overlap(hand, avail, melds_needed, 1, work)
    if plain >= 0 and total - plain < lower:
        lower = total - plain
    used = np.zeros(n_declared, np.bool_)
    taken = np.zeros(5, np.int64)
    for k in range(-1, NUM_ROUTE_ROWS):
        if least_only and (best <= lower or best <= enough):
            break
        r = first if k < 0 else k
        if r < 0 or (k >= 0 and r == first):
            continue
        pair = ROUTE_INFO[r, 0]
        needs_concealed = ROUTE_INFO[r, 1] == 1
        wind = ROUTE_INFO[r, 2]
        kind = ROUTE_INFO[r, 3]
        param = ROUTE_INFO[r, 4]
        family = ROUTE_INFO[r, 5]
        if needs_concealed and exposed:
            continue
        if wind >= 0 and wind - 27 != seat_wind and wind - 27 != prevalent_wind:
            continue
        if kind == KIND_PUNGS and not all_pungs_ok:
            continue
        # the declared melds must lie inside the route's tiles; they stand in for its
        # forced melds (a kong for a pung)
        ok = True
        for i in range(n_declared):
            used[i] = False
            k0 = declared[i, 0]
            t0 = declared[i, 1]
            last = t0 + 2 if k0 == CHOW else t0
            for t in range(t0, last + 1):
                if not ROUTE_MASK[r, t]:
                    ok = False
        if not ok:
            continue
        for t in range(34):
            forced[t] = 0
        n_forced = 0
        for j in range(4):
            code = ROUTE_MELDS[r, j]
            if code < 0:
                continue
            matched = False
            for i in range(n_declared):
                if used[i]:
                    continue
                dk = declared[i, 0]
                same_kind = (dk == CHOW) == (code // 64 == CHOW)
                if same_kind and declared[i, 1] == code % 64:
                    used[i] = True
                    matched = True
                    break
            if not matched:
                _add_meld(forced, code, 1)
                n_forced += 1
        if n_forced > melds_needed:
            continue
        if pair >= 0:
            forced[pair] += 2
        base = 0
        inside = 0
        forced_tiles = 0
        for t in range(34):
            if ROUTE_MASK[r, t]:
                inside += hand[t]
                av = avail[t] - forced[t]
                if av < 0:
                    ok = False
                a[t] = av
            else:
                if forced[t] > 0:
                    ok = False
                a[t] = 0
            f = forced[t]
            hf = hand[t] if hand[t] < f else f
            base += hf
            forced_tiles += f
            h[t] = hand[t] - hf
        if not ok:
            continue
        # no route can beat the changes its forced tiles and its other tiles cost already
        bound = total - min(total - forced_tiles + base, inside)
        if bound >= out[family] or (least_only and bound >= best):
            continue
        rest_melds = melds_needed - n_forced
        pairs = 0 if pair >= 0 else 1
        if kind != KIND_REGULAR:
            loose = _regular_bound(h, a, rest_melds, pairs, total - base, work)
            if loose >= out[family] or (least_only and loose >= best):
                continue
        if kind == KIND_REGULAR:
            rest = regular_overlap(h, a, rest_melds, pairs, work)
        elif kind == KIND_BONUS:
            fan = (param % NO_PUNGS) + declared_fan
            if param & NO_PUNGS and not all_chows_ok:
                continue  # all chows: no declared pung or kong
            if param & OUTSIDE:
                for i in range(n_declared):
                    dt = declared[i, 1]
                    if declared[i, 0] == CHOW:
                        if dt % 9 != 0 and dt % 9 != 6:
                            ok = False
                    elif dt < 27 and dt % 9 != 0 and dt % 9 != 8:
                        ok = False
                if not ok:
                    continue
            if family == _DRAGON_PUNGS:
                fan -= declared_dragon_fan  # two dragon pungs (6) count them already
            if not exposed:
                fan += 2  # concealed hand
            need = 8 - fan if fan < 8 else 0
            if need > 2:
                continue
            rest = bonus_overlap(h, a, rest_melds, pairs, need, seat_wind, prevalent_wind,
                                 (param & NO_PUNGS) != 0, (param & OUTSIDE) != 0)
        elif kind == KIND_CONCEALED_PUNGS:
            # concealed hand 2 + two concealed pungs 2 (see Route.CONCEALED_PUNGS)
            fan = 4 + declared_fan + param
            need = 8 - fan if fan < 8 else 0
            if need > BONUS_CAP:
                continue
            rest = pungs_overlap(h, a, rest_melds, need, seat_wind, prevalent_wind, 1)
        elif kind == KIND_PUNGS:
            fan = declared_fan + param
            if not exposed:
                fan += 2  # concealed hand
            if melds_needed >= 1 and melds_needed - 1 + concealed_kongs >= 2:
                fan += 2  # two concealed pungs, whichever pung the winning tile completes
            need = 2 - fan if fan < 2 else 0
            rest = pungs_overlap(h, a, rest_melds, need, seat_wind, prevalent_wind)
        else:
            for c in range(5):
                taken[c] = 0
            clash = False
            for i in range(n_declared):
                c = _category(declared[i, 1])
                if taken[c]:
                    clash = True
                taken[c] = 1  # a declared dragon meld is a pung: the one it may need
                if param == ALL_TYPES_WIND_PUNG and c == 3:
                    w = declared[i, 1] - 27
                    if w != seat_wind and w != prevalent_wind:
                        clash = True
            if clash:
                continue
            rest = all_types_overlap(h, a, taken, param, seat_wind, prevalent_wind)
        if rest < 0:
            continue
        d = total - base - rest
        if d < out[family]:
            out[family] = d
        if d < best:
            best = d
            found[0] = r
    return best


@njit()
def after_each_discard(hand: "np.ndarray", unseen: "np.ndarray", melds_needed: int,
                       declared: "np.ndarray", seat_wind: int, prevalent_wind: int,
                       out: "np.ndarray") -> None:
    """``out[i]`` = the least changes to an 8-fan hand after discarding one ``i`` from a
    3m+2 hand (:func:`route_table`, least only; the discard does not return to ``unseen``),
    :data:`UNREACHABLE` for kinds the hand does not hold.

    A discard never lowers the changes (it takes a tile from the hand and from what a
    completion may use), so each discard's routes stop as soon as one reaches the whole
    hand's least (:func:`capped_route_table`'s ``enough``): the same numbers, sooner."""
    table = np.empty(NUM_ROUTES, np.int64)
    found = np.full(1, -1, np.int64)
    now = _route_rows(hand, unseen, melds_needed, declared, seat_wind, prevalent_wind, table,
                      True, UNREACHABLE, -1, -1, found)
    first = found[0]  # the row at the whole hand's least: most discards keep it there
    h = hand.copy()
    for i in range(34):
        out[i] = UNREACHABLE
        if hand[i] > 0:
            h[i] -= 1
            found[0] = -1
            out[i] = _route_rows(h, unseen, melds_needed, declared, seat_wind, prevalent_wind,
                                 table, True, UNREACHABLE, now, first, found)
            if out[i] == now and found[0] >= 0:
                first = found[0]
            h[i] += 1


@njit()
def draws_lowering(hand: "np.ndarray", unseen: "np.ndarray", melds_needed: int,
                   declared: "np.ndarray", seat_wind: int, prevalent_wind: int,
                   distance: int) -> int:
    """The unseen copies whose draw takes a 3m+1 hand below ``distance`` changes to an
    8-fan hand: the count of ``unseen[t]`` where :func:`after_each_draw`'s ``out[t] <
    distance``.

    A draw leaves what a completion may use (hand + unseen) as it was, so everything of a
    route that depends on the declared melds and on those counts is found once (whether
    it can be played, its forced tiles, the fan it still needs), and each draw moves the
    bound of :func:`route_table` (its forced tiles in the hand, the hand inside its tiles)
    by at most one: a route's dynamic programme runs only where that bound goes below
    ``distance``, and a draw stops at the first route below it.  A route at the distance,
    and the plain bound at it, run once for every draw (:mod:`strategy.fan.gains`: the set
    of draws that lower it); a route is first screened by the regular programme's bound."""
    total = 3 * melds_needed + 2
    avail = np.empty(34, np.int8)
    for t in range(34):
        avail[t] = hand[t] + unseen[t]
    n_declared = declared.shape[0]
    exposed = False
    concealed_kongs = 0
    declared_fan = 0
    declared_dragon_fan = 0
    all_pungs_ok = True
    all_chows_ok = True
    for i in range(n_declared):
        kind = declared[i, 0]
        tile = declared[i, 1]
        if kind != CONCEALED_KONG:
            exposed = True
        if kind == CHOW:
            all_pungs_ok = False
        else:
            all_chows_ok = False
            declared_fan += pung_fan(tile, seat_wind, prevalent_wind)
            if tile >= 31:
                declared_dragon_fan += 2
            if kind == KONG:
                declared_fan += 1
            elif kind == CONCEALED_KONG:
                declared_fan += 2
                concealed_kongs += 1
    # ---- each route once: playable, its forced tiles, its other numbers
    n_routes = NUM_ROUTE_ROWS
    playable = np.zeros(n_routes, np.bool_)
    forced_all = np.zeros((n_routes, 34), np.int8)
    base0 = np.zeros(n_routes, np.int64)
    inside0 = np.zeros(n_routes, np.int64)
    forced_count = np.zeros(n_routes, np.int64)
    rest_melds = np.zeros(n_routes, np.int64)
    needs = np.zeros(n_routes, np.int64)
    taken = np.zeros(5, np.int64)
    types_clash = False
    for i in range(n_declared):
        c = _category(declared[i, 1])
        if taken[c]:
            types_clash = True
        taken[c] = 1
    used = np.zeros(n_declared, np.bool_)
    forced = np.zeros(34, np.int8)
    for r in range(n_routes):
        pair = ROUTE_INFO[r, 0]
        needs_concealed = ROUTE_INFO[r, 1] == 1
        wind = ROUTE_INFO[r, 2]
        kind = ROUTE_INFO[r, 3]
        param = ROUTE_INFO[r, 4]
        family = ROUTE_INFO[r, 5]
        if needs_concealed and exposed:
            continue
        if wind >= 0 and wind - 27 != seat_wind and wind - 27 != prevalent_wind:
            continue
        if kind == KIND_PUNGS and not all_pungs_ok:
            continue
        ok = True
        for i in range(n_declared):
            used[i] = False
            k0 = declared[i, 0]
            t0 = declared[i, 1]
            last = t0 + 2 if k0 == CHOW else t0
            for t in range(t0, last + 1):
                if not ROUTE_MASK[r, t]:
                    ok = False
        if not ok:
            continue
        for t in range(34):
            forced[t] = 0
        n_forced = 0
        for j in range(4):
            code = ROUTE_MELDS[r, j]
            if code < 0:
                continue
            matched = False
            for i in range(n_declared):
                if used[i]:
                    continue
                dk = declared[i, 0]
                same_kind = (dk == CHOW) == (code // 64 == CHOW)
                if same_kind and declared[i, 1] == code % 64:
                    used[i] = True
                    matched = True
                    break
            if not matched:
                _add_meld(forced, code, 1)
                n_forced += 1
        if n_forced > melds_needed:
            continue
        if pair >= 0:
            forced[pair] += 2
        base = 0
        inside = 0
        forced_tiles = 0
        for t in range(34):
            if ROUTE_MASK[r, t]:
                inside += hand[t]
                if avail[t] - forced[t] < 0:
                    ok = False
            elif forced[t] > 0:
                ok = False
            f = forced[t]
            base += hand[t] if hand[t] < f else f
            forced_tiles += f
        if not ok:
            continue
        need = 0
        if kind == KIND_BONUS:
            fan = (param % NO_PUNGS) + declared_fan
            if param & NO_PUNGS and not all_chows_ok:
                continue
            if param & OUTSIDE:
                for i in range(n_declared):
                    dt = declared[i, 1]
                    if declared[i, 0] == CHOW:
                        if dt % 9 != 0 and dt % 9 != 6:
                            ok = False
                    elif dt < 27 and dt % 9 != 0 and dt % 9 != 8:
                        ok = False
                if not ok:
                    continue
            if family == _DRAGON_PUNGS:
                fan -= declared_dragon_fan
            if not exposed:
                fan += 2
            need = 8 - fan if fan < 8 else 0
            if need > 2:
                continue
        elif kind == KIND_CONCEALED_PUNGS:
            fan = 4 + declared_fan + param
            need = 8 - fan if fan < 8 else 0
            if need > BONUS_CAP:
                continue
        elif kind == KIND_PUNGS:
            fan = declared_fan + param
            if not exposed:
                fan += 2
            if melds_needed >= 1 and melds_needed - 1 + concealed_kongs >= 2:
                fan += 2
            need = 2 - fan if fan < 2 else 0
        elif kind == KIND_ALL_TYPES:
            if types_clash:
                continue
            clash = False
            if param == ALL_TYPES_WIND_PUNG:
                for i in range(n_declared):
                    if _category(declared[i, 1]) == 3:
                        w = declared[i, 1] - 27
                        if w != seat_wind and w != prevalent_wind:
                            clash = True
            if clash:
                continue
        playable[r] = True
        for t in range(34):
            forced_all[r, t] = forced[t]
        base0[r] = base
        inside0[r] = inside
        forced_count[r] = forced_tiles
        rest_melds[r] = melds_needed - n_forced
        needs[r] = need
    # ---- each draw.  A draw adds one tile and leaves hand + unseen as they were, so it
    # lowers a route's changes by one at most (and never raises them): a route whose
    # changes for the hand as it is (found once, when a draw first needs them) exceed the
    # distance cannot go below it, one below the distance already is below it after every
    # draw, and one at the distance needs its dynamic programme for the draw
    h = hand.copy()
    hr = np.empty(34, np.int8)
    ar = np.empty(34, np.int8)
    work = np.empty(36, np.int64)
    now = np.full(n_routes, -1, np.int64)
    gained = np.full(n_routes, -1, np.int64)  # the draws that lower a route at the distance
    useful = 0
    last = -1
    # a draw raises the most tiles of the hand a regular completion keeps by one at most and
    # never lowers it (what a completion may use is as it was): the plain bound below needs
    # its dynamic programme per draw only where the hand's own answer is at the distance
    kept = regular_overlap(hand, avail, melds_needed, 1, work)
    plain_cut = 0  # 0: it cuts no draw, 1: it cuts every draw, 2: each draw's own answer
    if kept < 0 or total - kept - 1 >= distance:
        plain_cut = 1
    elif total - kept == distance:
        plain_cut = 2
    plain_gains = 0  # with plain_cut 2: the draws that raise the plain overlap
    if plain_cut == 2:
        every = 0
        for t in range(34):
            if unseen[t] > 0:
                every |= 1 << t
        plain_gains = bonus_gains(hand, avail, melds_needed, 1, 0, seat_wind, prevalent_wind,
                                  False, False, 0, every)[1]
    # the special shapes and the melded hand move by one at most too: one below the
    # distance is below it after every draw, and only one at the distance needs a look
    # per draw
    pairs_at = orphans_at = knitted_honours_at = melded_at = False
    if n_declared == 0:
        v = seven_pairs(hand, avail)
        if v < distance:
            return int(unseen.sum())
        pairs_at = v == distance
        v = thirteen_orphans(hand, avail)
        if v < distance:
            return int(unseen.sum())
        orphans_at = v == distance
        v = honors_and_knitted(hand, avail)
        if v < distance:
            return int(unseen.sum())
        knitted_honours_at = v == distance
    v = _knitted_below(hand, avail, melds_needed, distance + 1)
    if v < distance:
        return int(unseen.sum())
    knitted_at = v == distance
    if melds_needed == 0 and concealed_kongs == 0 and n_declared == 4:
        v = melded_hand(hand, avail, declared, declared_fan, all_chows_ok)
        if v < distance:
            return int(unseen.sum())
        melded_at = v == distance
    for t in range(34):
        if unseen[t] == 0:
            continue
        h[t] += 1
        best = distance
        if pairs_at:
            v = seven_pairs(h, avail)
            if v < best:
                best = v
        if orphans_at:
            v = thirteen_orphans(h, avail)
            if v < best:
                best = v
        if knitted_honours_at:
            v = honors_and_knitted(h, avail)
            if v < best:
                best = v
        if knitted_at:
            v = _knitted_below(h, avail, melds_needed, best)
            if v < best:
                best = v
        if melded_at:
            v = melded_hand(h, avail, declared, declared_fan, all_chows_ok)
            if v < best:
                best = v
        if best >= distance:
            # no route goes below the plain deficiency (a hand of 8 fan is complete)
            cut = plain_cut == 1 or (plain_cut == 2 and not (plain_gains >> t) & 1)
            if cut:
                h[t] -= 1
                continue
            # the route that took the last draw below the distance first (the answer is
            # whether any route does, so the order changes the work only)
            for k in range(-1, n_routes):
                r = last if k < 0 else k
                if r < 0 or (k >= 0 and k == last):
                    continue
                if not playable[r] or (now[r] >= 0 and now[r] != distance):
                    continue
                f = forced_all[r, t]
                base = base0[r] + (1 if hand[t] < f else 0)
                inside = inside0[r] + (1 if ROUTE_MASK[r, t] else 0)
                room = total - forced_count[r] + base
                bound = total - (room if room < inside else inside)
                if bound >= distance:
                    continue
                if now[r] < 0:
                    now[r] = _route_changes(r, hand, avail, forced_all, base0[r], total,
                                            rest_melds[r], needs[r], taken, seat_wind,
                                            prevalent_wind, hr, ar, work, distance)
                    if now[r] < distance:  # below it already, after every draw too
                        return int(unseen.sum())
                    if now[r] != distance:
                        continue
                if not ROUTE_MASK[r, t]:  # a tile the route cannot use changes nothing
                    continue
                if gained[r] < 0:  # every draw the route gains by, in one programme
                    gained[r] = route_gains(r, hand, avail, unseen, forced_all,
                                            rest_melds[r], needs[r], taken, seat_wind,
                                            prevalent_wind, hr, ar)[1]
                if (gained[r] >> t) & 1:
                    best = distance - 1
                    last = r
                    break
        h[t] -= 1
        if best < distance:
            useful += int(unseen[t])
    return useful


@njit()
def _route_counts(r: int, h: "np.ndarray", avail: "np.ndarray", forced_all: "np.ndarray",
                  hr: "np.ndarray", ar: "np.ndarray") -> None:
    """Route ``r``'s own counts into ``hr`` and ``ar``: the hand ``h`` and ``avail`` inside
    the route's tiles (no completion uses the others), its forced tiles taken out."""
    for x in range(34):
        if ROUTE_MASK[r, x]:
            fx = forced_all[r, x]
            hr[x] = h[x] - (h[x] if h[x] < fx else fx)
            ar[x] = avail[x] - fx
        else:
            hr[x] = 0
            ar[x] = 0


@njit()
def _route_changes(r: int, h: "np.ndarray", avail: "np.ndarray", forced_all: "np.ndarray",
                   base: int, total: int, melds: int, need: int, taken: "np.ndarray",
                   seat_wind: int, prevalent_wind: int, hr: "np.ndarray", ar: "np.ndarray",
                   work: "np.ndarray", limit: int = UNREACHABLE) -> int:
    """Route ``r``'s changes for the hand ``h`` (its forced tiles ``forced_all[r]`` of which
    ``base`` are in the hand; ``melds`` left after them, ``need`` fan still needed), as in
    :func:`route_table` (whose dynamic programmes also see the hand's tiles outside the
    route, which no completion of it holds); :data:`UNREACHABLE` when it has none.  Where
    the regular programme's bound (:func:`_regular_bound`) is above ``limit``, that bound
    (a number above ``limit``, not the route's changes)."""
    _route_counts(r, h, avail, forced_all, hr, ar)
    kind = ROUTE_INFO[r, 3]
    param = ROUTE_INFO[r, 4]
    pairs = 0 if ROUTE_INFO[r, 0] >= 0 else 1
    if kind != KIND_REGULAR:
        loose = _regular_bound(hr, ar, melds, pairs, total - base, work)
        if loose > limit:
            return loose
    if kind == KIND_REGULAR:
        rest = regular_overlap(hr, ar, melds, pairs, work)
    elif kind == KIND_BONUS:
        rest = bonus_overlap(hr, ar, melds, pairs, need, seat_wind, prevalent_wind,
                             (param & NO_PUNGS) != 0, (param & OUTSIDE) != 0)
    elif kind == KIND_CONCEALED_PUNGS:
        rest = pungs_overlap(hr, ar, melds, need, seat_wind, prevalent_wind, 1)
    elif kind == KIND_PUNGS:
        rest = pungs_overlap(hr, ar, melds, need, seat_wind, prevalent_wind)
    else:
        rest = all_types_overlap(hr, ar, taken, param, seat_wind, prevalent_wind)
    if rest < 0:
        return UNREACHABLE
    return total - base - rest
@njit()
def after_each_draw(hand: "np.ndarray", unseen: "np.ndarray", melds_needed: int,
                    declared: "np.ndarray", seat_wind: int, prevalent_wind: int,
                    out: "np.ndarray") -> None:
    """``out[t]`` = the least changes to an 8-fan hand after drawing a ``t`` into a 3m+1
    hand (taken from ``unseen``), :data:`UNREACHABLE` for kinds ``unseen`` does not hold."""
    table = np.empty(NUM_ROUTES, np.int64)
    h = hand.copy()
    kb = unseen.copy()
    for t in range(34):
        out[t] = UNREACHABLE
        if unseen[t] > 0:
            h[t] += 1
            kb[t] -= 1
            out[t] = route_table(h, kb, melds_needed, declared, seat_wind, prevalent_wind,
                                 table, True)
            h[t] -= 1
            kb[t] += 1


# ---------------------------------------------------------------- plain Python
# Without numba (the Botzone zip) every kernel above runs as Python, where the dense DP
# arrays cost a Python step per state, reached or not.  The twins (strategy.fan.plain,
# strategy.deficiency.plain) give the same answers in fewer steps; route_table and its
# helpers call them in place of the kernels only when numba is off (tests compare each
# twin with its kernel).
_MEMO_LIMIT = 1 << 16


def _memo(kernel: "Callable[..., int]", arrays: int) -> "Callable[..., int]":
    """``kernel`` remembering its answers by its arguments (its first ``arrays`` are
    count vectors, by their bytes; a trailing scratch array is not part of the key)."""
    memo: "dict[tuple[object, ...], int]" = {}

    def remembered(*args: "Any") -> int:
        key = (*(a.tobytes() for a in args[:arrays]),
               *(int(x) for x in args[arrays:] if not isinstance(x, np.ndarray)))
        got = memo.get(key)
        if got is None:
            if len(memo) >= _MEMO_LIMIT:
                memo.clear()
            got = memo[key] = int(kernel(*args))
        return got

    remembered.py_func = remembered  # type: ignore[attr-defined]
    remembered.__wrapped__ = kernel  # type: ignore[attr-defined]
    return remembered


if not HAVE_NUMBA:
    # the fan routes meet the same restricted hands again and again (a flush route sees
    # one suit, a draw in another suit leaves it as it was)
    # (the bonus and pungs DPs block by block, each block's table remembered:
    # strategy.fan.plain; imported here, after the kernels it falls back on)
    from strategy.fan.plain import (
        bonus_overlap_blocks,
        capped_route_table_plain,
        draws_lowering_plain,
        pungs_overlap_blocks,
    )

    regular_overlap = _memo(regular_overlap_blocks, 2)  # type: ignore[assignment]
    pungs_overlap = _memo(pungs_overlap_blocks, 2)  # type: ignore[assignment]
    bonus_overlap = _memo(bonus_overlap_blocks, 2)  # type: ignore[assignment]
    knitted_straight = _memo(knitted_straight, 2)  # type: ignore[assignment]
    seven_pairs = _memo(seven_pairs, 2)  # type: ignore[assignment]
    honors_and_knitted = _memo(honors_and_knitted, 2)  # type: ignore[assignment]
    # the route loops: every row's bounds at once (numpy), the DPs in the kernels' order
    capped_route_table = capped_route_table_plain  # type: ignore[assignment]

    def _plain_route_rows(hand: "np.ndarray", unseen: "np.ndarray", melds_needed: int,
                          declared: "np.ndarray", seat_wind: int, prevalent_wind: int,
                          out: "np.ndarray", least_only: bool, cap: int, enough: int,
                          first: int, found: "np.ndarray") -> int:
        return capped_route_table_plain(hand, unseen, melds_needed, declared, seat_wind,
                                        prevalent_wind, out, least_only, cap, enough)

    _route_rows = _plain_route_rows  # type: ignore[assignment]
    draws_lowering = draws_lowering_plain  # type: ignore[assignment]

    def _remembered_knitted_below(hand: "np.ndarray", avail: "np.ndarray", melds_needed: int,
                                  limit: int) -> int:
        return knitted_straight(hand, avail, melds_needed)

    _knitted_below = _remembered_knitted_below  # type: ignore[assignment]


# the set of draws that lower a route, for draws_lowering (strategy.fan.gains builds on the
# kernels and tables above)
from strategy.fan.gains import bonus_gains, route_gains  # noqa: E402
