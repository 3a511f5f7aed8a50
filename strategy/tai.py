"""Tai-aware value for taiwan-16: the chance of a win times what it is worth in points.

Taiwan-16 (:mod:`game.scoring.tai`, :mod:`game.taiwan`) has no minimum: every complete
hand may be declared, and a win is worth ``1 + tai`` from each payer: the discarder alone
on a discard win, all three others on a self-draw (which adds its own tai).  So where the
mcr value (:mod:`strategy.value`) asks how far an 8-fan hand is, this one asks how far each
*route* to more tai is and what the hand reached by it is worth at least:

==============  ==========================================================  ==========
route           the complete hands it covers                                its tai
==============  ==========================================================  ==========
PLAIN           every complete hand                                         0
FULL_FLUSH s    every tile (declared melds too) of suit s                   8
HALF_FLUSH s    every tile of suit s or an honour                           4
ALL_PUNGS       five pungs or kongs (none of them a chow) and a pair        4
HONOUR_PUNG t   a pung (or kong) of the honour t, a dragon or a valued      1 or 2
                wind (:func:`honour_tai`)
FLUSH_HONOUR    HALF_FLUSH s and HONOUR_PUNG t at once                      4 + t's
==============  ==========================================================  ==========

Each route's distance is exact: the knowledge-aware deficiency of definition 9 of Yan,
Li & Li, "A Fast Algorithm for Computing the Deficiency Number of a Mahjong Hand",
restricted to the route's hands, as :mod:`strategy.fan.routes` computes its mcr routes:

    distance = (3m + 2) - max over the route's complete hands C <= hand + unseen of |C ∩ hand|

- a flush zeroes the hand and the available counts outside its tiles and runs the rank DP
  (:func:`strategy.deficiency.kernel.regular_overlap`): the other tiles never overlap;
- a forced honour pung is taken out first (with F its three tiles,
  ``min(F + c, h) = min(F, h) + min(c, h - min(F, h))`` tile by tile), the DP answers the
  rest with one meld fewer;
- all pungs is the pungs-only DP of :func:`strategy.fan.kernels.pungs_overlap` (no chows,
  no fan needed).

The same formula serves 3m+1 hands (the distance then counts the winning tile: 1 is a
waiting hand) and 3m+2 hands (0 is complete).  A route a declared meld closes (a chow for
all pungs, a tile of another suit for a flush) is left out.  The tai of a route is a lower
bound on what :func:`game.scoring.tai.tai_items` gives each hand it covers (a hand of one
suit is a full flush, not a half flush; the routes do not add all pungs to a dragon pung,
nor the small/big dragons and winds); the tai the seat holds whatever the shape are added to
every route (:func:`base_tai`: the dealer, its own flowers, a concealed hand while it
claims nothing, its declared honour pungs).

The value of an action leaving a 3m+1 hand (in points for this seat):

    V = max over routes of P(win by the route's distance, turns) * W(route's tai)
    value = V - P(deal in) * (L + V)

with W(T) the expected points of a win of T tai (:func:`win_points`): a self-draw (share
``self_draw_share`` of the wins) brings 3 * (1 + T + 1), a discard win 1 + T (and the
dealer's tai when the dealer discards, one time in three for a seat that is not the
dealer); L (``deal_in_points``) what dealing in costs: the discarder pays the winner's
1 + tai alone.  P(win) is the chain of :func:`strategy.value.win_chance` (its rates in
:class:`TaiModel`).

Declaring or passing a win: the table lets a seat pass a winning discard and win later on
any tile (no furiten, :mod:`game.taiwan`).  :func:`win_choice` weighs declaring now against
:func:`strategy.value.wait_value` over :func:`wait_points`, the worth of keeping the
waiting hand: each turn the game goes on, the seat's own draw is an out (a self-draw:
three payers) or another seat's discard is (one payer), its own discard may deal in, and
another seat's self-draw costs it a share.
Pure: no clock, no randomness.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache

import numpy as np

from game.melds import Chow, ConcealedKong, Kong, Meld, Pung
from game.scoring.tai import is_complete
from game.tiles import DRAGONS, NUM_KINDS, NUM_SUITED, WINDS, Counts, tile_name
from strategy.deficiency.kernel import UNREACHABLE, regular_overlap
from strategy.fan.overlaps import pungs_overlap
from strategy.jit import njit
from strategy.value import (
    Outlook,
    ValueModel,
    WaitPoints,
    WinChoice,
    WorthUnit,
    first_step_chance,
    wait_value,
    win_chance,
)


class TaiRoute(Enum):
    PLAIN = "plain"
    FULL_FLUSH = "full flush"
    HALF_FLUSH = "half flush"
    ALL_PUNGS = "all pungs"
    HONOUR_PUNG = "honour pung"
    FLUSH_HONOUR = "half flush with an honour pung"


@dataclass(frozen=True)
class TaiModel(ValueModel):
    """The round numbers of the tai value (not fitted; the arena measures the whole).

    ``win_points`` of :class:`strategy.value.ValueModel` is not used: the points of a win
    come from its tai (:func:`win_points`)."""

    ready_rate: float = 0.18
    """Chance per turn that a waiting hand wins (any complete hand counts here)."""
    end_rate: float = 0.04
    """Chance per turn that another seat wins first (no minimum: games end sooner)."""
    self_draw_share: float = 0.3
    """Share of wins by self-draw (one of the four tile sources a turn, the others'
    discards somewhat guarded)."""
    deal_in_points: float = 3.0
    """The discarder pays 1 + the winner's tai (about 2) alone."""
    margin: float = 0.25
    """Points a claim or kong must gain; discards this close count as equal."""
    other_self_draw_points: float = 4.0
    """For :func:`wait_points`: what another seat's self-draw costs this seat (1 + its tai
    and the self-draw's)."""
    win_margin: float = 1.0
    """Points the wait must gain over declaring a win now."""
    useful_looks: float = 0.0
    """Tiles a seat looks at per turn for a step (its draw and the discards it may claim).
    0 (the value as first built): every route steps at ``step_rate``.
    Above 0: a route two or more tiles away steps at ``1 - (1 - u / U) ** useful_looks``
    per turn (:func:`useful_step_rate`), u its useful draws (the unseen copies whose draw
    lowers the route's distance, :func:`route_useful`) and U the unseen tiles, so a hand
    with more ways forward counts as faster: a claim takes a step now but leaves a
    smaller hand with fewer ways forward, passing keeps them all."""
    claim_slack: float = 0.0
    """Points taken off :attr:`margin` for a claim (the discards' ties keep ``margin``):
    a claim is taken when its value is above passing's by ``margin - claim_slack``.  0:
    as first built.  Far from a win every value is small (a tenth of a point to a point),
    so the margin of 0.25 points let most claims that bring the hand closer go
    (``docs/results.md``, "Under taiwan-16, can the planner beat baseline-v1?")."""
    ready_looks: float = 0.0
    """As :attr:`useful_looks` for a waiting hand (its own draw and every discard: the
    table has no furiten): above 0 it wins at ``1 - (1 - u / U) ** ready_looks`` per turn,
    u the route's outs; 0: at ``ready_rate``."""


TAI_MODEL = TaiModel()


@dataclass(frozen=True)
class TaiSeat:
    """What the worth of this seat's win depends on besides its tiles."""

    seat_wind: int
    """Relative to the dealer (0: the dealer)."""
    prevalent_wind: int
    own_flowers: int

    @property
    def dealer(self) -> bool:
        return self.seat_wind == 0


def honour_tai(tile: int, seat: "TaiSeat") -> int:
    """The tai a pung of ``tile`` brings (dragon 1; seat and prevalent wind 1 each)."""
    if tile in DRAGONS:
        return 1
    if tile in WINDS:
        w = tile - WINDS[0]
        return int(w == seat.seat_wind) + int(w == seat.prevalent_wind)
    return 0


def base_tai(melds: "Sequence[Meld]", seat: "TaiSeat") -> int:
    """The tai a win of this seat holds whatever its shape: dealer, own flowers, a
    concealed hand, its declared honour pungs (not the self-draw)."""
    tai = int(seat.dealer) + seat.own_flowers
    if all(m.is_concealed for m in melds):
        tai += 1
    for m in melds:
        if isinstance(m, (Pung, Kong, ConcealedKong)):
            tai += honour_tai(m.tile, seat)
    return tai


def win_points(tai: float, seat: "TaiSeat", model: "TaiModel" = TAI_MODEL) -> float:
    """Expected points of a win of ``tai`` (without the self-draw's own tai)."""
    self_draw = 3.0 * (1.0 + tai + 1.0)
    on_discard = 1.0 + tai + (0.0 if seat.dealer else 1.0 / 3.0)
    s = model.self_draw_share
    return s * self_draw + (1.0 - s) * on_discard


# ---------------------------------------------------------------- route distances
@dataclass(frozen=True)
class RouteDistance:
    route: "TaiRoute"
    distance: int
    tai: int
    """The route's own tai (its shape and a forced pung), without :func:`base_tai`."""
    suit: int = -1
    honour: int = -1

    def describe(self) -> str:
        where = f" {'mps'[self.suit]}" if self.suit >= 0 else ""
        pung = f" {tile_name(self.honour)}" if self.honour >= 0 else ""
        return f"{self.route.value}{where}{pung} (+{self.tai})"


def _overlap(hand: "np.ndarray", avail: "np.ndarray", melds: int, work: "np.ndarray") -> int:
    if melds < 0:
        return -1
    return int(regular_overlap(hand, avail, melds, 1, work))


def _forced_pung(hand: "np.ndarray", avail: "np.ndarray", tile: int, melds: int,
                 work: "np.ndarray") -> int:
    """Max overlap of a complete hand holding a pung of ``tile`` (exact: the pung's tiles
    taken out first; :func:`_kernel_overlap`, which leaves the arrays as they were)."""
    return int(_kernel_overlap(hand, avail, melds, 1, tile, 0, 0, work))


def route_distances(hand: "Counts", unseen: "Counts", melds: "Sequence[Meld]", seat: "TaiSeat"
                    ) -> "tuple[RouteDistance, ...]":
    """Every route's least tile changes from a 3m+1 or 3m+2 concealed ``hand`` (with the
    declared ``melds``) to a complete hand of the route (routes the melds close are left
    out; a distance of :data:`UNREACHABLE` where the unseen tiles cannot make it)."""
    h = np.asarray(hand).astype(np.int8)
    avail = (h + np.asarray(unseen).astype(np.int8)).astype(np.int8)
    needed = 5 - len(melds)
    total = 3 * needed + 2
    if int(h.sum()) not in (total - 1, total):
        raise ValueError(f"beside {len(melds)} declared melds a hand holds {total - 1} or "
                         f"{total} tiles, not {int(h.sum())}")
    work = np.empty(36, np.int64)
    out: "list[RouteDistance]" = []

    def add(route: "TaiRoute", overlap: int, tai: int, suit: int = -1, honour: int = -1) -> None:
        out.append(RouteDistance(route, UNREACHABLE if overlap < 0 else total - overlap, tai,
                                 suit, honour))

    add(TaiRoute.PLAIN, _overlap(h, avail, needed, work), 0)
    meld_kinds = {t // 9 if t < NUM_SUITED else 3 for m in melds for t in m.tiles}
    declared_pungs = {m.tile for m in melds if isinstance(m, (Pung, Kong, ConcealedKong))}
    honours = [t for t in (*DRAGONS, *WINDS)
               if t not in declared_pungs and honour_tai(t, seat) > 0]
    for suit in range(3):
        lo = 9 * suit
        if meld_kinds <= {suit}:
            m = np.zeros(NUM_KINDS, np.int8)
            m[lo:lo + 9] = 1
            add(TaiRoute.FULL_FLUSH, _overlap(h * m, avail * m, needed, work), 8, suit)
        if meld_kinds <= {suit, 3}:
            m = np.zeros(NUM_KINDS, np.int8)
            m[lo:lo + 9] = 1
            m[NUM_SUITED:] = 1
            hm, am = h * m, avail * m
            add(TaiRoute.HALF_FLUSH, _overlap(hm, am, needed, work), 4, suit)
            for t in honours:
                add(TaiRoute.FLUSH_HONOUR, _forced_pung(hm, am, t, needed, work),
                    4 + honour_tai(t, seat), suit, t)
    if not any(isinstance(m, Chow) for m in melds):
        add(TaiRoute.ALL_PUNGS,
            int(pungs_overlap(h, avail, needed, 0, seat.seat_wind, seat.prevalent_wind, 0))
            if needed >= 0 else -1, 4)
    for t in honours:
        add(TaiRoute.HONOUR_PUNG, _forced_pung(h, avail, t, needed, work),
            honour_tai(t, seat), honour=t)
    return tuple(out)


# ---------------------------------------------------------------- the value
@dataclass(frozen=True)
class TaiOutlook(Outlook):
    """An :class:`strategy.value.Outlook` whose win is the best route's."""

    tai: int = 0
    """The tai of the hand the best route reaches (its base included)."""
    route: str = ""

    def describe(self) -> str:
        return f"by {self.route}: {self.tai} tai; {super().describe()}"


@lru_cache(maxsize=1 << 12)
def _win_chance(distance: int, turns: int, model: "TaiModel") -> float:
    return win_chance(distance, turns, model)


@njit()
def useful_kernel(hand: "np.ndarray", avail: "np.ndarray", unseen: "np.ndarray", melds: int,
                  kind: int, honour: int, seat_wind: int, prevalent_wind: int) -> int:
    """The unseen copies of the kinds ``avail`` allows whose draw raises the overlap of
    the 3m+1 ``hand`` (34 entries each; ``avail`` already masked to the route's kinds):
    ``kind`` 0 the regular DP, 1 with a forced pung of ``honour``, 2 all pungs."""
    work = np.empty(36, np.int64)
    h = hand.copy()
    best = _kernel_overlap(h, avail, melds, kind, honour, seat_wind, prevalent_wind, work)
    if best < 0:
        return 0
    n = 0
    for t in range(34):
        if unseen[t] <= 0 or avail[t] <= h[t]:
            continue
        h[t] += 1
        if _kernel_overlap(h, avail, melds, kind, honour, seat_wind, prevalent_wind,
                           work) > best:
            n += unseen[t]
        h[t] -= 1
    return n


@njit()
def _kernel_overlap(h: "np.ndarray", avail: "np.ndarray", melds: int, kind: int, honour: int,
                    seat_wind: int, prevalent_wind: int, work: "np.ndarray") -> int:
    if kind == 2:
        return pungs_overlap(h, avail, melds, 0, seat_wind, prevalent_wind, 0)
    if kind == 0:
        return regular_overlap(h, avail, melds, 1, work)
    # a forced pung of ``honour``: its tiles out first (exact)
    if melds < 1 or avail[honour] < 3:
        return -1
    took = min(3, h[honour])
    h[honour] -= took
    avail[honour] -= 3
    rest = regular_overlap(h, avail, melds - 1, 1, work)
    h[honour] += took
    avail[honour] += 3
    return -1 if rest < 0 else took + rest


def route_useful(hand: "Counts", unseen: "Counts", melds: "Sequence[Meld]", seat: "TaiSeat",
                 route: "RouteDistance") -> int:
    """The unseen copies whose draw takes the 3m+1 ``hand`` below ``route``'s distance
    (its useful draws, *ukeire*; at distance 1 its outs): a draw moves a tile from the
    unseen tiles into the hand, so what a completion may use stays, and the route's
    overlap (its exact DP, as :func:`route_distances` runs it) grows by one or not
    (:func:`useful_kernel`)."""
    h = np.asarray(hand).astype(np.int8)
    u = np.asarray(unseen)[:NUM_KINDS].astype(np.int8)
    avail = (h + u).astype(np.int8)
    needed = 5 - len(melds)
    if needed < 0:
        return 0
    r = route.route
    if r in (TaiRoute.FULL_FLUSH, TaiRoute.HALF_FLUSH, TaiRoute.FLUSH_HONOUR):
        lo = 9 * route.suit
        mask = np.zeros(NUM_KINDS, np.int8)
        mask[lo:lo + 9] = 1
        if r is not TaiRoute.FULL_FLUSH:
            mask[NUM_SUITED:] = 1
        h, avail = h * mask, avail * mask
    kind = 2 if r is TaiRoute.ALL_PUNGS else \
        1 if r in (TaiRoute.HONOUR_PUNG, TaiRoute.FLUSH_HONOUR) else 0
    return int(useful_kernel(h, avail, u, needed, kind, max(route.honour, 0),
                             seat.seat_wind, seat.prevalent_wind))


def useful_step_rate(useful: int, unseen_total: int, looks: float) -> float:
    """The chance that one of ``looks`` tiles (drawn from ``unseen_total`` with ``useful``
    good ones) is useful, ``1 - (1 - useful / unseen_total) ** looks``, rounded to two
    places (so the win chances stay few and cached)."""
    if unseen_total <= 0 or useful <= 0:
        return 0.0
    return round(1.0 - (1.0 - min(1.0, useful / unseen_total)) ** looks, 2)


def _route_chance(model: "TaiModel", hand: "Counts", unseen: "Counts", melds: "Sequence[Meld]",
                  seat: "TaiSeat", r: "RouteDistance", turns: int) -> float:
    """P(win) by the route ``r``: its first step (or, waiting, its win) at the rate of its
    useful draws where the options ask for it (:attr:`TaiModel.useful_looks`,
    :attr:`TaiModel.ready_looks`, :func:`first_step_chance`), else the chain of
    :func:`strategy.value.win_chance`."""
    looks = model.ready_looks if r.distance == 1 else model.useful_looks
    if looks > 0.0:
        first = useful_step_rate(route_useful(hand, unseen, melds, seat, r),
                                 int(np.asarray(unseen)[:NUM_KINDS].sum()), looks)
        return first_step_chance(r.distance, turns, first, model)
    return _win_chance(r.distance, turns, model)


def _best_by_useful(model: "TaiModel", hand: "Counts", unseen: "Counts", melds: "Sequence[Meld]",
                    seat: "TaiSeat", routes: "Sequence[RouteDistance]", turns: int, base: int
                    ) -> "tuple[float, float, RouteDistance] | None":
    """The best route by value with the useful draws' rates (:func:`_route_chance`), the
    first in ``routes``' order among equals: a route is counted only where its value with
    every draw useful (rate 1, an upper bound) could reach the best so far."""
    bounds = []
    for i, r in enumerate(routes):
        top = first_step_chance(r.distance, turns, 1.0, model) \
            * win_points(base + r.tai, seat, model)
        bounds.append((top, i, r))
    bounds.sort(key=lambda b: (-b[0], b[1]))
    best: "tuple[float, float, RouteDistance] | None" = None
    at = -1
    for top, i, r in bounds:
        if best is not None and top < best[0]:
            break
        chance = _route_chance(model, hand, unseen, melds, seat, r, turns)
        v = chance * win_points(base + r.tai, seat, model)
        if best is None or v > best[0] or (v == best[0] and i < at):
            best, at = (v, chance, r), i
    return best


def tai_outlook(hand: "Counts", unseen: "Counts", melds: "Sequence[Meld]", seat: "TaiSeat",
                turns: int, deal_in: float, model: "TaiModel" = TAI_MODEL) -> "TaiOutlook":
    """The value of holding the 3m+1 ``hand`` (see the module docstring); the best route
    by value, the first in :func:`route_distances`' order among equals."""
    base = base_tai(melds, seat)
    best: "tuple[float, float, RouteDistance] | None" = None
    routes = [r for r in route_distances(hand, unseen, melds, seat) if r.distance < UNREACHABLE]
    if model.useful_looks > 0.0 or model.ready_looks > 0.0:
        best = _best_by_useful(model, hand, unseen, melds, seat, routes, turns, base)
    else:
        for r in routes:
            chance = _route_chance(model, hand, unseen, melds, seat, r, turns)
            v = chance * win_points(base + r.tai, seat, model)
            if best is None or v > best[0]:
                best = (v, chance, r)
    if best is None:
        return TaiOutlook(UNREACHABLE, turns, 0.0, deal_in, -deal_in * model.deal_in_points,
                          base, "no route")
    v, win, r = best
    value = v - deal_in * (model.deal_in_points + v)
    return TaiOutlook(r.distance, turns, win, deal_in, value, base + r.tai, r.describe())


# ---------------------------------------------------------------- declare or wait
def outs(hand: "Counts", unseen: "Counts", melds_needed: int) -> int:
    """Unseen copies of the tiles that complete the 3m+1 ``hand``."""
    h = [int(x) for x in np.asarray(hand)]
    n = 0
    for t in range(NUM_KINDS):
        if unseen[t] <= 0 or h[t] >= 4:
            continue
        h[t] += 1
        if is_complete(h, melds_needed):
            n += int(unseen[t])
        h[t] -= 1
    return n


def wait_points(tai: int, seat: "TaiSeat", model: "TaiModel" = TAI_MODEL) -> "WaitPoints":
    """What keeping a waiting hand of ``tai`` (its base included, not the self-draw) can
    bring and cost: a self-draw 3 * (2 + tai), another seat's discard 1 + tai (and the
    dealer's third), dealing in ``deal_in_points``; per turn the other seats' wins end the
    game (``end_rate``), a share ``self_draw_share`` of them self-drawn, costing
    ``other_self_draw_points``."""
    return WaitPoints(3.0 * (2.0 + tai), 1.0 + tai + (0.0 if seat.dealer else 1.0 / 3.0),
                      model.deal_in_points,
                      model.end_rate * model.self_draw_share * model.other_self_draw_points)


def win_choice(now_tai: int, self_drawn: bool, wait_tai: int, outs_left: int,
               unseen_total: int, turns: int, seat: "TaiSeat", risk: float,
               model: "TaiModel" = TAI_MODEL) -> "WinChoice":
    """Declare now (``now_tai`` as :func:`game.scoring.tai.tai_items` counts it: three
    payers on a self-draw, one on a discard) or keep the waiting hand worth ``wait_tai``
    (its tai without the self-draw) on ``outs_left`` outs: wait only when
    :func:`strategy.value.wait_value` gains ``win_margin`` points.  A self-drawn win is
    always worth more than its wait in this model (the wait's best case is the same
    self-draw later)."""
    now = (3.0 if self_drawn else 1.0) * (1.0 + now_tai)
    wait = wait_value(outs_left, outs_left, unseen_total, turns,
                      wait_points(wait_tai, seat, model), risk, model.end_rate,
                      model.discard_release)
    return WinChoice(wait < now + model.win_margin, now, wait, now_tai, WorthUnit.TAI,
                     outs_left)
