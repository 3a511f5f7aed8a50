"""The draws that lower a hand's changes to 8 fan, counted without a route table per draw.

:func:`draws_lowering` answers how many unseen copies take a 3m+1 hand below a distance,
what :func:`strategy.fan.routes.after_each_draw` would answer with a whole route table per
draw.  A draw leaves what a completion may use (hand + unseen) as it was, so everything of a
route row that depends on the declared melds and on those counts is found once
(:func:`strategy.fan.rows.route_setup`), and each draw moves a row's bound by one at most;
a row at the distance finds every draw that lowers it in one programme
(:mod:`strategy.fan.gains`).

Without numba (the Botzone zip) :func:`draws_lowering` is its plain-Python twin
(:func:`strategy.fan.plain_routes.draws_lowering_plain`: every row's bounds per draw at once
with numpy, each lowering draw checked by the row's own programme).  The two give the same
count; ``tests/strategy/test_fan_routes.py`` compares them (and both with the draw table),
so a change to one fails until the other follows.
"""

import numpy as np

from strategy.fan.gains import bonus_gains, route_gains
from strategy.fan.kernels import melded_hand
from strategy.fan.overlaps import (
    honors_and_knitted,
    knitted_below,
    regular_overlap,
    seven_pairs,
    thirteen_orphans,
)
from strategy.fan.plain_routes import draws_lowering_plain
from strategy.fan.rows import (
    FORCED,
    Facts,
    declared_facts,
    route_changes,
    route_setup,
    row_counts,
)
from strategy.fan.table import NUM_ROUTE_ROWS, ROUTE_MASK
from strategy.jit import HAVE_NUMBA, njit

BELOW = -2
"""What a step of :func:`draws_lowering` answers when the hand as it is already lies below
the distance (then every draw does)."""


@njit()
def _set_rows(hand: "np.ndarray", avail: "np.ndarray", declared: "np.ndarray",
              melds_needed: int, facts: "Facts",
              seat_wind: int, prevalent_wind: int, playable: "np.ndarray",
              forced_all: "np.ndarray", rows: "np.ndarray") -> None:
    """Every route row once (:func:`strategy.fan.rows.route_setup`): ``playable[r]``, its
    forced tiles ``forced_all[r]``, and ``rows[r]`` = (its forced tiles the hand holds, the
    hand inside its tiles, its forced tiles, the melds left, the fan still needed)."""
    counts = row_counts(hand, avail)
    for r in range(NUM_ROUTE_ROWS):
        left, base, inside, forced_tiles, need = route_setup(
            r, counts, declared, melds_needed, facts, seat_wind, prevalent_wind)
        if left < 0:
            continue
        playable[r] = True
        for t in range(34):
            forced_all[r, t] = counts[FORCED, t]
        rows[r, 0] = base
        rows[r, 1] = inside
        rows[r, 2] = forced_tiles
        rows[r, 3] = left
        rows[r, 4] = need


@njit()
def _shapes(hand: "np.ndarray", avail: "np.ndarray", declared: "np.ndarray",
            melds_needed: int, declared_fan: int, all_chows_ok: bool, at: "np.ndarray",
            limit: int) -> int:
    """The least of the special shapes and the melded hand whose ``at`` is set (seven
    pairs, thirteen orphans, honours and knitted, the knitted straight, the melded hand),
    ``limit`` where none is below it."""
    best = limit
    if at[0]:
        v = seven_pairs(hand, avail)
        if v < best:
            best = v
    if at[1]:
        v = thirteen_orphans(hand, avail)
        if v < best:
            best = v
    if at[2]:
        v = honors_and_knitted(hand, avail)
        if v < best:
            best = v
    if at[3]:
        v = knitted_below(hand, avail, melds_needed, best)
        if v < best:
            best = v
    if at[4]:
        v = melded_hand(hand, avail, declared, declared_fan, all_chows_ok)
        if v < best:
            best = v
    return best


@njit()
def _shapes_at(hand: "np.ndarray", avail: "np.ndarray", declared: "np.ndarray",
               melds_needed: int, declared_fan: int, all_chows_ok: bool, concealed_kongs: int,
               distance: int, at: "np.ndarray") -> bool:
    """Whether a special shape or the melded hand is below ``distance`` already; else
    ``at`` marks those at it (as :func:`_shapes` reads them).  They move by one at most with
    a draw: one below the distance is below it after every draw, and only one at the
    distance needs a look per draw."""
    n_declared = declared.shape[0]
    if n_declared == 0:
        for i in range(3):
            at[i] = True
    at[3] = True
    at[4] = melds_needed == 0 and concealed_kongs == 0 and n_declared == 4
    for i in range(5):
        if at[i]:
            only = np.zeros(5, np.bool_)
            only[i] = True
            v = _shapes(hand, avail, declared, melds_needed, declared_fan, all_chows_ok, only,
                        distance + 1)
            if v < distance:
                return True
            at[i] = v == distance
    return False


@njit()
def _plain_cut(hand: "np.ndarray", unseen: "np.ndarray", avail: "np.ndarray",
               melds_needed: int, seat_wind: int, prevalent_wind: int, distance: int,
               work: "np.ndarray") -> "tuple[int, int]":
    """How the plain deficiency cuts the draws (no route goes below it: a hand of 8 fan is
    complete): (0 it cuts none, 1 it cuts every draw, 2 it cuts those not in the set that
    follows; the draws that raise the most tiles a regular completion keeps).  A draw
    raises that by one at most and never lowers it (what a completion may use is as it
    was), so only a hand whose own answer is at the distance needs the set."""
    total = 3 * melds_needed + 2
    kept = regular_overlap(hand, avail, melds_needed, 1, work)
    if kept < 0 or total - kept - 1 >= distance:
        return 1, 0
    if total - kept != distance:
        return 0, 0
    every = 0
    for t in range(34):
        if unseen[t] > 0:
            every |= 1 << t
    return 2, bonus_gains(hand, avail, melds_needed, 1, 0, seat_wind, prevalent_wind, False,
                          False, 0, every)[1]


@njit()
def _row_lowers(t: int, hand: "np.ndarray", unseen: "np.ndarray", avail: "np.ndarray",
                total: int, distance: int, last: int, playable: "np.ndarray",
                forced_all: "np.ndarray", rows: "np.ndarray", taken: "np.ndarray",
                seat_wind: int, prevalent_wind: int, now: "np.ndarray", gained: "np.ndarray",
                hr: "np.ndarray", ar: "np.ndarray", work: "np.ndarray") -> int:
    """The first route row a draw of ``t`` takes below ``distance`` (the row ``last`` tried
    first: the answer is whether any row does, so the order changes the work only), -1
    where none does, :data:`BELOW` where a row is below the distance for the hand as it is.

    A draw adds one tile and leaves hand + unseen as they were, so it lowers a row's
    changes by one at most (and never raises them): a row whose changes for the hand as it
    is (``now[r]``, found when a draw first needs them) exceed the distance cannot go
    below it, and one at the distance is lowered exactly by the draws of its set
    (``gained[r]``, :func:`strategy.fan.gains.route_gains`, found once)."""
    for k in range(-1, NUM_ROUTE_ROWS):
        r = last if k < 0 else k
        if r < 0 or (k >= 0 and k == last):
            continue
        if not playable[r] or (now[r] >= 0 and now[r] != distance):
            continue
        f = forced_all[r, t]
        base = rows[r, 0] + (1 if hand[t] < f else 0)
        inside = rows[r, 1] + (1 if ROUTE_MASK[r, t] else 0)
        room = total - rows[r, 2] + base
        bound = total - (room if room < inside else inside)
        if bound >= distance:
            continue
        if now[r] < 0:
            now[r] = route_changes(r, hand, avail, forced_all, rows[r, 0], total, rows[r, 3],
                                   rows[r, 4], taken, seat_wind, prevalent_wind, hr, ar, work,
                                   distance)
            if now[r] < distance:  # below it already, after every draw too
                return BELOW
            if now[r] != distance:
                continue
        if not ROUTE_MASK[r, t]:  # a tile the route cannot use changes nothing
            continue
        if gained[r] < 0:  # every draw the route gains by, in one programme
            gained[r] = route_gains(r, hand, avail, unseen, forced_all, rows[r, 3], rows[r, 4],
                                    taken, seat_wind, prevalent_wind, hr, ar)[1]
        if (gained[r] >> t) & 1:
            return r
    return -1


@njit()
def draws_lowering(hand: "np.ndarray", unseen: "np.ndarray", melds_needed: int,
                   declared: "np.ndarray", seat_wind: int, prevalent_wind: int,
                   distance: int) -> int:
    """The unseen copies whose draw takes a 3m+1 hand below ``distance`` changes to an
    8-fan hand: the count of ``unseen[t]`` where
    :func:`strategy.fan.routes.after_each_draw`'s ``out[t] < distance``.

    Each route row is read once (whether it can be played, its forced tiles, the fan it
    still needs), and each draw moves the bound of :func:`strategy.fan.routes.route_table`
    (its forced tiles in the hand, the hand inside its tiles) by at most one: a row's
    dynamic programme runs only where that bound goes below ``distance``, and a draw stops
    at the first row below it.  A row at the distance, and the plain bound at it, run once
    for every draw (:mod:`strategy.fan.gains`: the set of draws that lower it); a row is
    first screened by the regular programme's bound."""
    total = 3 * melds_needed + 2
    avail = np.empty(34, np.int8)
    for t in range(34):
        avail[t] = hand[t] + unseen[t]
    taken = np.zeros(5, np.int64)
    facts = declared_facts(declared, seat_wind, prevalent_wind, taken)
    concealed_kongs = facts[1]
    declared_fan = facts[2]
    all_chows_ok = facts[5]
    playable = np.zeros(NUM_ROUTE_ROWS, np.bool_)
    forced_all = np.zeros((NUM_ROUTE_ROWS, 34), np.int8)
    rows = np.zeros((NUM_ROUTE_ROWS, 5), np.int64)
    _set_rows(hand, avail, declared, melds_needed, facts, seat_wind, prevalent_wind, playable,
              forced_all, rows)
    work = np.empty(36, np.int64)
    plain_cut, plain_gains = _plain_cut(hand, unseen, avail, melds_needed, seat_wind,
                                        prevalent_wind, distance, work)
    at = np.zeros(5, np.bool_)
    if _shapes_at(hand, avail, declared, melds_needed, declared_fan, all_chows_ok,
                  concealed_kongs, distance, at):
        return int(unseen.sum())
    h = hand.copy()
    hr = np.empty(34, np.int8)
    ar = np.empty(34, np.int8)
    now = np.full(NUM_ROUTE_ROWS, -1, np.int64)
    gained = np.full(NUM_ROUTE_ROWS, -1, np.int64)  # the draws that lower a row at the distance
    useful = 0
    last = -1
    for t in range(34):
        if unseen[t] == 0:
            continue
        h[t] += 1
        best = _shapes(h, avail, declared, melds_needed, declared_fan, all_chows_ok, at,
                       distance)
        h[t] -= 1
        if best >= distance:
            if plain_cut == 1 or (plain_cut == 2 and not (plain_gains >> t) & 1):
                continue
            r = _row_lowers(t, hand, unseen, avail, total, distance, last, playable,
                            forced_all, rows, taken, seat_wind, prevalent_wind, now, gained,
                            hr, ar, work)
            if r == BELOW:
                return int(unseen.sum())
            if r >= 0:
                best = distance - 1
                last = r
        if best < distance:
            useful += int(unseen[t])
    return useful


if not HAVE_NUMBA:
    # the plain-Python twin (strategy.fan.plain_routes) in the kernel's place
    draws_lowering = draws_lowering_plain  # type: ignore[assignment]
