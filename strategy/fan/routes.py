"""Routes to 8 fan: the least changes to an 8-fan hand, behind :func:`strategy.fan.fan_deficiency`.

Chinese Standard Mahjong (MCR) counts a win only from 8 fan.  The fan-aware deficiency of a
hand is the least number of tile changes to a complete hand that scores at least 8 (as a
win on a discard, whatever its last tile: see :mod:`strategy.fan.brute` for the exact
definition).  Every *route* (:mod:`strategy.fan.table`) is a family of complete hands that
is sure to score 8 by itself: a fan pattern worth 8 or more (mixed triple chow, pure
straight, full flush, seven pairs, ...) or a combination of patterns that is (half flush
and a concealed hand, all pungs and a dragon pung, ...).  Each route's least number of
changes is computed exactly, as the knowledge-aware deficiency of definition 9 of Yan, Li &
Li, "A Fast Algorithm for Computing the Deficiency Number of a Mahjong Hand", restricted to
the route's hands:

    changes = (3m + 2) - max over the route's complete hands C <= hand + unseen of |C ∩ hand|

- a route that allows only some tiles (a flush, upper four, reversible tiles) runs the
  production rank DP (:func:`strategy.deficiency.kernel.regular_overlap`) on the available
  counts with the other tiles zeroed: the hand's other tiles then simply never overlap;
- a route that needs given melds (mixed triple chow: 1-2-3 in all three suits) takes them
  out first (:mod:`strategy.fan.rows`); a forced meld the player has declared already is
  not made again;
- the routes' own programmes (all pungs, the fan-counting ones, all types, the melded
  hand) are in :mod:`strategy.fan.kernels`;
- the special shapes are those of :mod:`strategy.deficiency.shapes`, all worth 12 or more.

The least over the routes is never below the true fan-aware deficiency (every route's hands
score 8), and equals it whenever some nearest 8-fan hand belongs to a route.  It is above
the truth when every nearest 8-fan hand gets there only through small fans the routes do
not combine (say half flush 6 + short straight 1 + pung of terminals 1 on a melded hand);
the brute-force comparison in the tests and ``arena/bench/fan.py`` say how often.

Here are the route loops over one hand, each discard and each draw;
:mod:`strategy.fan.lowering` counts the draws that lower the least.  Without numba (the
Botzone zip) :func:`capped_route_table` is its plain-Python twin
(:func:`strategy.fan.plain_routes.capped_route_table_plain`: every row's bounds at once with
numpy, the programmes in the kernel's order), which gives the same answers and family table;
``tests/strategy/test_fan_routes.py`` runs these functions without numba and compares them
with the compiled ones, so a change to one loop fails until the other follows.
"""

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
from strategy.fan.plain_routes import capped_route_table_plain
from strategy.fan.rows import (
    A,
    H,
    declared_facts,
    regular_bound,
    route_rest,
    route_setup,
    row_counts,
)
from strategy.fan.table import (
    HONOURS_AND_KNITTED,
    KIND_REGULAR,
    KNITTED_STRAIGHT,
    MELDED_HAND,
    NUM_ROUTE_ROWS,
    NUM_ROUTES,
    ROUTE_INFO,
    SEVEN_PAIRS,
    THIRTEEN_ORPHANS,
)
from strategy.jit import HAVE_NUMBA, njit


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
    avail = np.empty(34, np.int8)
    for t in range(34):
        avail[t] = hand[t] + unseen[t]
    n_declared = declared.shape[0]
    taken = np.zeros(5, np.int64)
    facts = declared_facts(declared, seat_wind, prevalent_wind, taken)
    concealed_kongs = facts[1]
    declared_fan = facts[2]
    all_chows_ok = facts[5]
    best = cap
    # special shapes: worth 12 or more each
    if n_declared == 0:
        out[SEVEN_PAIRS] = seven_pairs(hand, avail)
        out[THIRTEEN_ORPHANS] = thirteen_orphans(hand, avail)
        out[HONOURS_AND_KNITTED] = honors_and_knitted(hand, avail)
    # least only: the knitted straight counts only where it goes below the others
    out[KNITTED_STRAIGHT] = knitted_below(hand, avail, melds_needed,
                                          min(best, out[SEVEN_PAIRS], out[THIRTEEN_ORPHANS],
                                              out[HONOURS_AND_KNITTED])
                                          if least_only else UNREACHABLE)
    for f in range(4):
        if out[f] < best:
            best = out[f]
    if melds_needed == 0 and concealed_kongs == 0 and n_declared == 4:
        d = melded_hand(hand, avail, declared, declared_fan, all_chows_ok)
        out[MELDED_HAND] = d
        if d < best:
            best = d
    counts = row_counts(hand, avail)
    h = counts[H]
    a = counts[A]
    work = np.empty(36, np.int64)
    # no route beats the plain deficiency: a hand worth 8 is a complete hand
    lower = best
    plain = regular_overlap(hand, avail, melds_needed, 1, work)
    if plain >= 0 and total - plain < lower:
        lower = total - plain
    for k in range(-1, NUM_ROUTE_ROWS):
        if least_only and (best <= lower or best <= enough):
            break
        r = first if k < 0 else k
        if r < 0 or (k >= 0 and r == first):
            continue
        rest_melds, base, inside, forced_tiles, need = route_setup(
            r, counts, declared, melds_needed, facts, seat_wind, prevalent_wind)
        if rest_melds < 0:
            continue
        family = ROUTE_INFO[r, 5]
        # no route can beat the changes its forced tiles and its other tiles cost already
        bound = total - min(total - forced_tiles + base, inside)
        if bound >= out[family] or (least_only and bound >= best):
            continue
        kind = ROUTE_INFO[r, 3]
        pairs = 0 if ROUTE_INFO[r, 0] >= 0 else 1
        if kind != KIND_REGULAR:
            loose = regular_bound(h, a, rest_melds, pairs, total - base, work)
            if loose >= out[family] or (least_only and loose >= best):
                continue
        rest = route_rest(kind, ROUTE_INFO[r, 4], pairs, h, a, rest_melds, need, taken,
                          seat_wind, prevalent_wind, work)
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


if not HAVE_NUMBA:
    # the route loops as plain Python: every row's bounds at once (numpy), the programmes in
    # the kernels' order (strategy.fan.plain_routes)
    capped_route_table = capped_route_table_plain  # type: ignore[assignment]

    def _plain_route_rows(hand: "np.ndarray", unseen: "np.ndarray", melds_needed: int,
                          declared: "np.ndarray", seat_wind: int, prevalent_wind: int,
                          out: "np.ndarray", least_only: bool, cap: int, enough: int,
                          first: int, found: "np.ndarray") -> int:
        return capped_route_table_plain(hand, unseen, melds_needed, declared, seat_wind,
                                        prevalent_wind, out, least_only, cap, enough)

    _route_rows = _plain_route_rows  # type: ignore[assignment]
