"""One route row at a time: what the declared melds allow, the row's forced tiles, the fan
it still needs, and its changes.

Both route loops, the least over the routes (:mod:`strategy.fan.routes`) and the count of
the draws that lower it (:mod:`strategy.fan.lowering`), read a row the same way, written
once here:

- :func:`declared_facts`: what the declared melds bring to every row (an exposed hand,
  concealed kongs, the fan of the declared pungs and kongs, whether all pungs, all chows
  and all types are still possible);
- :func:`route_setup`: whether the row can be played with them, its forced tiles (the
  forced melds a declared one does not stand in for, and its pair), what those cost, and
  the fan its other groups must still bring (:func:`route_need`);
- :func:`route_rest`: the row's dynamic programme (:mod:`strategy.fan.overlaps`), and
  :func:`route_changes` the row's changes from it.

A row's changes are ``total - base - rest``: with F the forced tiles,
``min(F + c, h) = min(F, h) + min(c, h - min(F, h))`` tile by tile, so a completion's
overlap with the hand is ``base = sum min(F, h)`` plus the programme's answer ``rest`` on
``hand - min(F, hand)`` and ``avail - F`` with fewer melds — exact.

The plain-Python route loops (:mod:`strategy.fan.plain_routes`) read every row at once
with numpy instead of :func:`route_setup`, and share :func:`declared_facts`,
:func:`route_need` and :func:`route_rest` with the kernels.
"""

from typing import Tuple

import numpy as np

from strategy.deficiency.kernel import UNREACHABLE
from strategy.fan.kernels import BONUS_CAP, all_types_overlap, category, pung_fan
from strategy.fan.overlaps import bonus_overlap, pungs_overlap, regular_overlap
from strategy.fan.table import (
    ALL_TYPES_WIND_PUNG,
    CHOW,
    CONCEALED_KONG,
    DRAGON_PUNGS,
    KIND_ALL_TYPES,
    KIND_BONUS,
    KIND_CONCEALED_PUNGS,
    KIND_PUNGS,
    KIND_REGULAR,
    KONG,
    NO_PUNGS,
    OUTSIDE,
    ROUTE_INFO,
    ROUTE_MASK,
    ROUTE_MELDS,
)
from strategy.jit import njit

Facts = Tuple[bool, int, int, int, bool, bool, bool]
"""What the declared melds bring to every route (:func:`declared_facts`)."""

HAND, AVAIL, FORCED, H, A, USED = 0, 1, 2, 3, 4, 5
"""The rows of the counts a route loop hands :func:`route_setup` (:func:`row_counts`): the
hand, the available counts, a row's forced tiles, the hand less them, the available counts
inside the route's tiles less them, one flag per declared meld.  One array, not six: a
compiled call pays reference counting for every array it is passed, once per route row
(the per-row functions are also inlined into the loops: ``njit(inline=True)``)."""


@njit()
def declared_facts(declared: "np.ndarray", seat_wind: int, prevalent_wind: int,
                   taken: "np.ndarray") -> "Facts":
    """What the declared melds (rows ``(kind, tile)``) bring to every route: (an exposed
    hand, concealed kongs, the fan of the declared pungs and kongs, that of the dragon ones,
    all pungs still possible, all chows still possible, two of them in one category: all
    types ruled out).  ``taken[c]`` is set to 1 for each category a declared meld takes."""
    exposed = False
    concealed_kongs = 0
    declared_fan = 0  # what the declared pungs and kongs bring
    declared_dragon_fan = 0
    all_pungs_ok = True
    all_chows_ok = True
    types_clash = False
    for c in range(5):
        taken[c] = 0
    for i in range(declared.shape[0]):
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
        c = category(tile)
        if taken[c]:
            types_clash = True
        taken[c] = 1  # a declared dragon meld is a pung: the one all types may need
    return (exposed, concealed_kongs, declared_fan, declared_dragon_fan, all_pungs_ok,
            all_chows_ok, types_clash)


@njit(inline=True)
def route_need(kind: int, param: int, family: int, declared: "np.ndarray", melds_needed: int,
               facts: "Facts", seat_wind: int, prevalent_wind: int) -> int:
    """The fan a row's other groups must still bring (its kind, parameter and family:
    :data:`strategy.fan.table.ROUTE_INFO`; ``facts``: :func:`declared_facts`), -1 where
    the declared melds rule the row out."""
    exposed, concealed_kongs, declared_fan, declared_dragon_fan, _, all_chows_ok, clash = facts
    need = 0
    if kind == KIND_BONUS:
        if param & NO_PUNGS and not all_chows_ok:
            return -1  # all chows: no declared pung or kong
        if param & OUTSIDE:
            for i in range(declared.shape[0]):
                dt = declared[i, 1]
                if declared[i, 0] == CHOW:
                    if dt % 9 != 0 and dt % 9 != 6:
                        return -1
                elif dt < 27 and dt % 9 != 0 and dt % 9 != 8:
                    return -1
        fan = (param % NO_PUNGS) + declared_fan
        if family == DRAGON_PUNGS:
            fan -= declared_dragon_fan  # two dragon pungs (6) count them already
        if not exposed:
            fan += 2  # concealed hand
        need = 8 - fan if fan < 8 else 0
        if need > 2:
            return -1
    elif kind == KIND_CONCEALED_PUNGS:
        # concealed hand 2 + two concealed pungs 2 (see Route.CONCEALED_PUNGS)
        fan = 4 + declared_fan + param
        need = 8 - fan if fan < 8 else 0
        if need > BONUS_CAP:
            return -1
    elif kind == KIND_PUNGS:
        fan = declared_fan + param
        if not exposed:
            fan += 2  # concealed hand
        if melds_needed >= 1 and melds_needed - 1 + concealed_kongs >= 2:
            fan += 2  # two concealed pungs, whichever pung the winning tile completes
        need = 2 - fan if fan < 2 else 0
    elif kind == KIND_ALL_TYPES:
        if clash:
            return -1
        if param == ALL_TYPES_WIND_PUNG:
            for i in range(declared.shape[0]):
                if category(declared[i, 1]) == 3:
                    w = declared[i, 1] - 27
                    if w != seat_wind and w != prevalent_wind:
                        return -1
    return need


@njit()
def row_counts(hand: "np.ndarray", avail: "np.ndarray") -> "np.ndarray":
    """The counts :func:`route_setup` reads and writes (rows :data:`HAND` ... :data:`USED`),
    with the hand and the available counts filled in."""
    counts = np.zeros((6, 34), np.int8)
    for t in range(34):
        counts[HAND, t] = hand[t]
        counts[AVAIL, t] = avail[t]
    return counts


@njit(inline=True)
def _forced_melds(r: int, declared: "np.ndarray", counts: "np.ndarray") -> int:
    """Row ``r``'s forced melds that no declared meld stands in for (a kong for a pung)
    into ``counts[FORCED]``; returns how many; -1 where a declared meld lies outside its
    tiles."""
    for i in range(declared.shape[0]):
        counts[USED, i] = 0
        k0 = declared[i, 0]
        t0 = declared[i, 1]
        last = t0 + 2 if k0 == CHOW else t0
        for t in range(t0, last + 1):
            if not ROUTE_MASK[r, t]:
                return -1
    for t in range(34):
        counts[FORCED, t] = 0
    n_forced = 0
    for j in range(4):
        code = ROUTE_MELDS[r, j]
        if code < 0:
            continue
        matched = False
        for i in range(declared.shape[0]):
            if counts[USED, i]:
                continue
            same_kind = (declared[i, 0] == CHOW) == (code // 64 == CHOW)
            if same_kind and declared[i, 1] == code % 64:
                counts[USED, i] = 1
                matched = True
                break
        if not matched:
            tile = code % 64
            if code // 64 == CHOW:
                for x in range(tile, tile + 3):
                    counts[FORCED, x] += 1
            else:
                counts[FORCED, tile] += 3
            n_forced += 1
    return n_forced


@njit(inline=True)
def route_setup(r: int, counts: "np.ndarray", declared: "np.ndarray", melds_needed: int,
                facts: "Facts", seat_wind: int,
                prevalent_wind: int) -> "tuple[int, int, int, int, int]":
    """Row ``r`` before its programme, with the declared melds' ``facts``
    (:func:`declared_facts`): (the melds left after its forced ones, -1 where the row
    cannot be played; its forced tiles the hand holds, ``base``; the hand's tiles inside
    the route's tiles; its forced tiles; the fan its other groups must still bring).

    ``counts`` (:func:`row_counts`) holds the hand and the available counts; its row
    :data:`FORCED` gets the row's forced tiles, :data:`H` the hand less them, :data:`A` the
    available counts inside the route's tiles less them (0 outside)."""
    exposed = facts[0]
    all_pungs_ok = facts[4]
    wind = ROUTE_INFO[r, 2]
    kind = ROUTE_INFO[r, 3]
    if ROUTE_INFO[r, 1] == 1 and exposed:
        return -1, 0, 0, 0, 0
    if wind >= 0 and wind - 27 != seat_wind and wind - 27 != prevalent_wind:
        return -1, 0, 0, 0, 0
    if kind == KIND_PUNGS and not all_pungs_ok:
        return -1, 0, 0, 0, 0
    # the declared melds must lie inside the route's tiles; they stand in for its forced
    # melds (a kong for a pung)
    n_forced = _forced_melds(r, declared, counts)
    if n_forced < 0 or n_forced > melds_needed:
        return -1, 0, 0, 0, 0
    pair = ROUTE_INFO[r, 0]
    if pair >= 0:
        counts[FORCED, pair] += 2
    ok = True
    base = 0
    inside = 0
    forced_tiles = 0
    for t in range(34):
        ht = counts[HAND, t]
        f = counts[FORCED, t]
        if ROUTE_MASK[r, t]:
            inside += ht
            av = counts[AVAIL, t] - f
            if av < 0:
                ok = False
            counts[A, t] = av
        else:
            if f > 0:
                ok = False
            counts[A, t] = 0
        hf = ht if ht < f else f
        base += hf
        forced_tiles += f
        counts[H, t] = ht - hf
    if not ok:
        return -1, 0, 0, 0, 0
    need = route_need(kind, ROUTE_INFO[r, 4], ROUTE_INFO[r, 5], declared, melds_needed, facts,
                      seat_wind, prevalent_wind)
    if need < 0:
        return -1, 0, 0, 0, 0
    return melds_needed - n_forced, base, inside, forced_tiles, need


@njit()
def regular_bound(h: "np.ndarray", a: "np.ndarray", melds: int, pairs: int, room: int,
                  work: "np.ndarray") -> int:
    """A lower bound on a route's changes, ``room`` less the regular programme's best
    overlap (:func:`strategy.deficiency.kernel.regular_overlap`; :data:`UNREACHABLE` where
    it has no completion).  Every route's completions are regular ones (``melds`` melds and
    ``pairs`` pairs of the route's tiles) that also bring fan or keep to pungs, so the
    regular overlap is at least theirs; it is many times cheaper than their programmes."""
    loose = regular_overlap(h, a, melds, pairs, work)
    return UNREACHABLE if loose < 0 else room - loose


@njit()
def route_rest(kind: int, param: int, pairs: int, hr: "np.ndarray", ar: "np.ndarray",
               melds: int, need: int, taken: "np.ndarray", seat_wind: int, prevalent_wind: int,
               work: "np.ndarray") -> int:
    """A row's programme (its kind and parameter: :data:`strategy.fan.table.ROUTE_INFO`;
    ``pairs`` 0 where it forces its pair, else 1) on its own counts (``hr``, ``ar``:
    :func:`route_setup`'s ``h`` and ``a``), ``melds`` left and ``need`` fan still needed:
    the most tiles of ``hr`` its completions keep, -1 when there is none."""
    if kind == KIND_REGULAR:
        return regular_overlap(hr, ar, melds, pairs, work)
    if kind == KIND_BONUS:
        return bonus_overlap(hr, ar, melds, pairs, need, seat_wind, prevalent_wind,
                             (param & NO_PUNGS) != 0, (param & OUTSIDE) != 0)
    if kind == KIND_CONCEALED_PUNGS:
        return pungs_overlap(hr, ar, melds, need, seat_wind, prevalent_wind, 1)
    if kind == KIND_PUNGS:
        return pungs_overlap(hr, ar, melds, need, seat_wind, prevalent_wind)
    return all_types_overlap(hr, ar, taken, param, seat_wind, prevalent_wind)


@njit()
def route_counts(r: int, h: "np.ndarray", avail: "np.ndarray", forced_all: "np.ndarray",
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
def route_changes(r: int, h: "np.ndarray", avail: "np.ndarray", forced_all: "np.ndarray",
                  base: int, total: int, melds: int, need: int, taken: "np.ndarray",
                  seat_wind: int, prevalent_wind: int, hr: "np.ndarray", ar: "np.ndarray",
                  work: "np.ndarray", limit: int = UNREACHABLE) -> int:
    """Route ``r``'s changes for the hand ``h`` (its forced tiles ``forced_all[r]`` of which
    ``base`` are in the hand; ``melds`` left after them, ``need`` fan still needed), as in
    :func:`strategy.fan.routes.route_table` (whose programmes also see the hand's tiles
    outside the route, which no completion of it holds); :data:`UNREACHABLE` when it has
    none.  Where the regular programme's bound (:func:`regular_bound`) is above ``limit``,
    that bound (a number above ``limit``, not the route's changes)."""
    route_counts(r, h, avail, forced_all, hr, ar)
    kind = ROUTE_INFO[r, 3]
    pairs = 0 if ROUTE_INFO[r, 0] >= 0 else 1
    if kind != KIND_REGULAR:
        loose = regular_bound(hr, ar, melds, pairs, total - base, work)
        if loose > limit:
            return loose
    rest = route_rest(kind, ROUTE_INFO[r, 4], pairs, hr, ar, melds, need, taken, seat_wind,
                      prevalent_wind, work)
    if rest < 0:
        return UNREACHABLE
    return total - base - rest
