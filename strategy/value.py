"""One value for every action: the chance of a declarable win times its points, less the
expected cost of dealing in.

An action leaves a hand of 3m+1 concealed tiles (after a discard, a claim and its discard,
a kong before its replacement draw).  Its value, in points per game for this seat:

    value = P(win) * W  -  P(deal in) * (L + P(win) * W)

- P(win): the chance of completing a declarable hand before this seat's wall runs out.
  Its distance is the fan-aware deficiency (:mod:`strategy.fan`: the least tile changes to
  a complete hand worth 8 fan under mcr-botzone; the plain deficiency where the rules set
  no minimum), its time the draws this seat has left.  Each turn lowers the distance with
  chance :attr:`ValueModel.step_rate` (a useful draw or claim) and, once the hand waits,
  wins with chance :attr:`ValueModel.ready_rate` (its own draw and the three discards
  around the table: MCR has no furiten).  :func:`win_chance` is that chain, exact.  The
  same chain with its rates learned from self-play (a step rate per distance,
  :data:`WIN_FIT`) replaces or mixes with it by :attr:`ValueModel.win_fit` (off by
  default).
- P(deal in): :func:`strategy.danger.danger` of the tile the action discards.
- W: the points a win brings (:attr:`ValueModel.win_points`); L: what dealing in costs on
  top of what the seat pays when another seat wins anyway (the winner's fan), and dealing
  in also ends this seat's own chance (the P(win) * W term).

The rates and points are round numbers from the Botzone scoring (a win on a discard is
worth 8 from each seat plus the fan from the discarder, a self-draw (8 + fan) from each),
not fitted; the arena measures whether the whole is stronger.  Pure: no clock, no
randomness.
"""

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache

import numpy as np

from game.melds import Meld
from game.tiles import Counts
from strategy.deadline import Deadline
from strategy.deficiency.kernel import UNREACHABLE
from strategy.fan import declared_rows
from strategy.fan.lowering import draws_lowering
from strategy.fan.routes import after_each_discard, capped_route_table, route_table
from strategy.fan.table import NUM_ROUTES
from strategy.policy import Candidate


@dataclass(frozen=True)
class ValueModel:
    """The round numbers of the value (see the module docstring)."""

    win_points: float = 40.0
    """Points a win brings (between a win on a discard, 24 + fan, and a self-draw)."""
    deal_in_points: float = 0.0
    """What dealing in costs beyond what another seat's win costs anyway and the seat's own
    chance it ends.  ``planner-v1`` charges 0: its danger (``DANGER_V1``) says twice as many
    seats wait as do, and the lost chance of winning (the P(win) * W term) was price enough
    in the arena.  With the calibrated danger (:attr:`danger_fit`) a price pays: the
    shipped value (:data:`bot.planner.SHIPPED_MODEL`) charges 20 (``docs/results.md``,
    "What should a deal-in cost?")."""
    step_rate: float = 0.22
    """Chance per turn that a draw or a claim lowers the distance to a win by one."""
    ready_rate: float = 0.15
    """Chance per turn that a waiting hand wins (own draw and the others' discards, when
    they reach 8 fan)."""
    end_rate: float = 0.03
    """Chance per turn that another seat wins first and the game ends (about a quarter of
    the wins over a 21-turn game go to each seat: from distance 5 this model wins 27 %)."""
    margin: float = 1.5
    """Points a claim or kong must gain over passing, and the width within which discards
    count as equal and the step-value ranking decides."""
    useful_from: float = 3.0
    """From this fan-aware distance on, discards within the margin are ranked by their
    useful draws (:func:`useful_draws`) before the step-value ranking.  Far from 8 fan the
    values of most discards lie within the margin, so the order among them decides most
    discards there, and the step-value order alone seldom chose as the rank-1 Botzone bot
    did.  ``UNREACHABLE`` turns it off.  The planner's learned order
    (:mod:`strategy.discard_rank`, its default) replaces this one from the same distance
    on."""
    win_margin: float = 4.0
    """mcr-botzone: points the wait must gain over declaring a win on a discard now
    (:func:`mcr_win_choice`).  A round number, not fitted: it seldom decides a game
    (``docs/results.md``, "How far ahead of baseline-v1 and the simple bots?")."""
    discard_release: float = 0.5
    """For :func:`wait_value`: how often another seat lets an out go, per copy, relative to
    this seat's own draw of it."""
    other_win_points: float = 10.0
    """mcr-botzone, for :func:`mcr_win_choice`: what another seat's win costs this seat when
    it did not deal in (8 on a discard, 8 + the fan on a self-draw)."""
    deal_in_win_points: float = 20.0
    """mcr-botzone, for :func:`mcr_win_choice`: what dealing in costs (8 + the winner's fan,
    about 12)."""
    wait_worth: float = 0.0
    """mcr-botzone, what a waiting hand's own outs count for (1 in the shipped value,
    :data:`bot.planner.SHIPPED_MODEL`).  0 (``planner-v1``): nothing;
    every waiting hand wins at ``ready_rate`` for ``win_points``, and the step-value order
    counts the outs of close discards but not their fan.  1: among the discards within the
    margin that leave the hand waiting, the one whose wait is worth most
    (:func:`mcr_wait_worth`: its outs' copies at their own fan, less the discard's danger).
    2: as 1, and the value of every waiting hand (after a discard, a claim or a pass) is
    :func:`wait_outlook`'s: its win rate from its outs' copies, its points from their fan."""
    danger_fit: float = 0.0
    """1 (the shipped value, :data:`bot.planner.SHIPPED_MODEL`): the danger the value reads
    is the model fitted to self-play
    (:data:`strategy.danger.DANGER_FIT`, calibrated: P(a seat waits) 0.14 where 0.14
    wait); 0 (``planner-v1``): the hand-set :data:`strategy.danger.DANGER_V1`, which says
    about twice as many seats wait as do."""
    win_fit: float = 0.0
    """Weight of the chain fitted to self-play (:data:`WIN_FIT`) in :func:`win_chance`:
    0 the hand-set rates above alone (as first built), 1 the fitted chain alone, between
    the two chances mixed (``planner:learned=W`` in the arena)."""


DEFAULT_MODEL = ValueModel()


@dataclass(frozen=True)
class WinChain:
    """The rates of the chain of :func:`win_chance`, the step rate by distance."""

    ready_rate: float
    """Chance per turn that a waiting hand (distance 1) wins."""
    step_rates: "tuple[float, ...]"
    """Chance per turn that the distance falls by one, from distance 2, 3, ...; the last
    also for every greater distance."""
    end_rate: float
    """Chance per turn that another seat wins first and the game ends."""

    def step(self, distance: int) -> float:
        return self.step_rates[min(distance - 2, len(self.step_rates) - 1)]


WIN_FIT = WinChain(ready_rate=0.06, step_rates=(0.0927, 0.1789, 0.4552, 0.4961, 0.2295, 0.22),
                   end_rate=0.0)
"""The chain fitted to self-play: every decision of four ``planner-v1`` seats whose action
has an outlook, 36,675 rows of 600 mcr-botzone games (seed 9601, walls 0-599), the rates
by least log loss (coordinate search on their logits from the hand-set ones; the step
rate of distance 7 and more saw no rows and kept 0.22); held out on seed 9602 (300
games, 18,519 rows; its calibration is in ``docs/results.md``, "Is the value's chance of
winning calibrated?").  Made by::

    python -m arena.lab.fits.value_fit --fit-seed 9601 --fit-games 600 --test-seed 9602
        --test-games 300 --workers 2 --plot docs/value_calibration.png

A waiting hand wins 6 % of its turns and the game's end is in the rates, not beside them
(end rate 0); distances 4 and 5 fall fast (a far fan-aware distance is the early game's,
when the hand still changes shape), so they win about as often as distance 3."""


def chain_table(chain: "WinChain", max_distance: int, max_turns: int) -> "np.ndarray":
    """(max_distance + 1, max_turns + 1): P(win) from each distance within each number of
    turns under ``chain`` (row 0, a complete hand: 1.0), backward over the turns: a turn
    ends the game with ``end_rate``, else a waiting hand wins with ``ready_rate`` and a
    farther one steps one closer with its step rate."""
    v = np.zeros((max_distance + 1, max_turns + 1))
    v[0, :] = 1.0
    go = 1.0 - chain.end_rate
    steps = np.array([0.0, 0.0] + [chain.step(d) for d in range(2, max_distance + 1)])
    for t in range(1, max_turns + 1):
        prev = v[:, t - 1]
        if max_distance >= 1:
            v[1, t] = go * (chain.ready_rate + (1.0 - chain.ready_rate) * prev[1])
        d = np.arange(2, max_distance + 1)
        v[d, t] = go * (steps[d] * prev[d - 1] + (1.0 - steps[d]) * prev[d])
    return v


@lru_cache(maxsize=1 << 12)
def _chain_win(chain: "WinChain", distance: int, turns: int) -> float:
    return float(chain_table(chain, distance, turns)[distance, turns])


def win_chance(distance: int, turns: int, model: "ValueModel" = DEFAULT_MODEL) -> float:
    """P(reaching a win from ``distance`` changes within ``turns`` turns): each turn the
    game goes on unless another seat wins (``end_rate``); then a distance > 1 falls by one
    with chance ``step_rate`` and a waiting hand (distance 1) wins with chance
    ``ready_rate``; distance 0 is a complete hand (1.0).  Kept by its arguments (a
    game asks a few hundred of them)."""
    return _win_chance(distance, turns, model)


@lru_cache(maxsize=1 << 14)
def _win_chance(distance: int, turns: int, model: "ValueModel") -> float:
    if distance <= 0:
        return 1.0
    if distance >= UNREACHABLE or turns <= 0:
        return 0.0
    if model.win_fit > 0.0:
        fitted = _chain_win(WIN_FIT, distance, turns)
        if model.win_fit >= 1.0:
            return fitted
        hand_set = _win_chance(distance, turns, dataclasses.replace(model, win_fit=0.0))
        return (1.0 - model.win_fit) * hand_set + model.win_fit * fitted
    return _chain_from(distance, turns, model.ready_rate if distance == 1 else model.step_rate,
                       model)


@lru_cache(maxsize=1 << 14)
def first_step_chance(distance: int, turns: int, first: float, model: "ValueModel") -> float:
    """:func:`win_chance` with the hand's own rate at its distance: the chain leaves
    ``distance`` at ``first`` a turn (a waiting hand, distance 1: wins at ``first``), each
    later distance at ``step_rate`` (and ``ready_rate`` once waiting); the other seats end
    the game at ``end_rate``.  With ``first`` the model's own rate it is :func:`win_chance`
    (the taiwan-16 value gives the first step the rate of the hand's useful draws,
    :mod:`strategy.tai`)."""
    if distance <= 0:
        return 1.0
    if distance >= UNREACHABLE or turns <= 0:
        return 0.0
    return _chain_from(distance, turns, first, model)


def _chain_from(distance: int, turns: int, first: float, model: "ValueModel") -> float:
    """The chain of :func:`first_step_chance` stepped ``turns`` times forward
    (0 < ``distance`` < UNREACHABLE, ``turns`` > 0)."""
    # p[d] = P(at distance d); step the chain ``turns`` times
    p = np.zeros(distance + 1)
    p[distance] = 1.0
    won = 0.0
    go_on = 1.0 - model.end_rate
    ready = first if distance == 1 else model.ready_rate
    for _ in range(turns):
        p *= go_on
        won += p[1] * ready
        nxt = p.copy()
        nxt[1] -= p[1] * ready
        for d in range(2, distance + 1):
            moved = p[d] * (first if d == distance else model.step_rate)
            nxt[d] -= moved
            nxt[d - 1] += moved
        p = nxt
    return float(won)


def action_value(win: float, deal_in: float, model: "ValueModel" = DEFAULT_MODEL,
                 worth: "float | None" = None) -> float:
    """P(win) * W - P(deal in) * (L + P(win) * W), W the model's ``win_points`` unless a
    ``worth`` of the win is given."""
    w = model.win_points if worth is None else worth
    return win * w - deal_in * (model.deal_in_points + win * w)


@dataclass(frozen=True)
class Outlook:
    """The numbers behind one action's value."""

    distance: int
    """Fan-aware deficiency of the hand the action leaves (plain where no minimum)."""
    turns: int
    win: float
    deal_in: float
    value: float

    def describe(self) -> str:
        dist = "∞" if self.distance >= UNREACHABLE else str(self.distance)
        return (f"to win {dist} in {self.turns} turns: P(win) {self.win:.3f}, "
                f"P(deal in) {self.deal_in:.3f}, value {self.value:+.2f}")


def outlook(distance: int, turns: int, deal_in: float,
            model: "ValueModel" = DEFAULT_MODEL) -> "Outlook":
    win = win_chance(distance, turns, model)
    return Outlook(distance, turns, win, deal_in, action_value(win, deal_in, model))


@dataclass(frozen=True)
class FanInputs:
    """What the fan-aware deficiency needs besides the hand (built once per decision)."""

    unseen: "Counts"
    melds: "tuple[Meld, ...]"
    seat_wind: int
    prevalent_wind: int

    def rows(self, extra: "Sequence[Meld]" = ()) -> "np.ndarray":
        return declared_rows((*self.melds, *extra))


def fan_distance(hand: "Counts", fan: "FanInputs", extra: "Sequence[Meld]" = (),
                 watch: "Deadline | None" = None) -> int:
    """The fan-aware deficiency of a 3m+1 or 3m+2 hand with the declared melds (and
    ``extra`` ones, for a claim or kong being weighed).  With ``watch``, its clock is
    checked first (:class:`strategy.deadline.OutOfTime` when it has passed)."""
    if watch is not None:
        watch.check_clock()
    rows = fan.rows(extra)
    out = np.empty(NUM_ROUTES, dtype=np.int64)
    return int(route_table(hand.astype(np.int8), fan.unseen.astype(np.int8),
                           4 - rows.shape[0], rows, fan.seat_wind, fan.prevalent_wind, out,
                           True))


def discard_distances(hand: "Counts", fan: "FanInputs", extra: "Sequence[Meld]" = (),
                      watch: "Deadline | None" = None) -> "dict[int, int]":
    """Each kind a 3m+2 hand holds -> the fan-aware deficiency after discarding it.

    With ``watch`` the discards are tried one by one and its clock is checked before each
    (:class:`strategy.deadline.OutOfTime` when it has passed): the same numbers as the
    one kernel call without it, for callers whose routes run in plain Python, where one
    discard's routes can take a tenth of a second."""
    rows = fan.rows(extra)
    h = hand.astype(np.int8)
    unseen = fan.unseen.astype(np.int8)
    needed = 4 - rows.shape[0]
    if watch is None:
        out = np.empty(34, dtype=np.int64)
        after_each_discard(h, unseen, needed, rows, fan.seat_wind, fan.prevalent_wind, out)
        return {int(t): int(out[t]) for t in np.flatnonzero(hand)}
    table = np.empty(NUM_ROUTES, dtype=np.int64)
    found: "dict[int, int]" = {}
    watch.check_clock()
    # no discard goes below the whole hand's least (as in after_each_discard)
    now = int(route_table(h, unseen, needed, rows, fan.seat_wind, fan.prevalent_wind, table,
                          True))
    for kind in np.flatnonzero(hand):
        t = int(kind)
        watch.check_clock()
        h[t] -= 1
        found[t] = int(capped_route_table(h, unseen, needed, rows, fan.seat_wind,
                                          fan.prevalent_wind, table, True, UNREACHABLE, now))
        h[t] += 1
    return found


def useful_draws(hand: "Counts", fan: "FanInputs", distance: int, extra: "Sequence[Meld]" = ()
                 ) -> int:
    """The unseen copies whose draw lowers a 3m+1 hand's fan-aware ``distance`` (its
    *ukeire* toward 8 fan)."""
    rows = fan.rows(extra)
    unseen = fan.unseen.astype(np.int8)
    return int(draws_lowering(hand.astype(np.int8), unseen, 4 - rows.shape[0], rows,
                              fan.seat_wind, fan.prevalent_wind, distance))


def best_by_value(outlooks: "dict[int, Outlook]", order: "Sequence[int]",
                  model: "ValueModel" = DEFAULT_MODEL) -> int:
    """The kind to discard: the highest value, and among those within ``margin`` of it the
    first in ``order`` (the step-value ranking of :mod:`strategy.policy`)."""
    top = max(o.value for o in outlooks.values())
    for t in order:
        if t in outlooks and outlooks[t].value >= top - model.margin:
            return t
    return max(outlooks, key=lambda t: outlooks[t].value)


@dataclass(frozen=True)
class ValuedCandidate(Candidate):
    """A :class:`strategy.policy.Candidate` with its value's numbers.  Its two distances
    have a field each: ``deficiency`` is the one the value counts (the outlook's: the
    fan-aware distance under mcr-botzone, the best tai route's under taiwan-16, else the
    plain deficiency), ``plain_deficiency`` the plain deficiency of the step-value ranking
    where that ranking weighed the candidate (a discard after a draw), else None.
    :meth:`describe` writes the record's text, whose first number is the plain deficiency
    where there is one."""

    outlook: "Outlook | None" = None
    plain_deficiency: "int | None" = None

    def describe(self) -> str:
        shown = self if self.plain_deficiency is None else dataclasses.replace(
            self, deficiency=self.plain_deficiency, plain_deficiency=None)
        base = Candidate.describe(shown)
        return base if self.outlook is None else f"{base}; {self.outlook.describe()}"


# ---------------------------------------------------------------- declare or wait
BASE_POINTS = 8
"""mcr-botzone: what each other seat pays the winner besides the fan (the discarder pays
the fan on a discard win, every seat pays it on a self-draw)."""


@dataclass(frozen=True)
class WaitPoints:
    """What keeping a waiting hand can bring and cost this seat, in points
    (:func:`wait_value`)."""

    self_draw: float
    """The seat draws an out."""
    on_discard: float
    """Another seat discards an out (and the seat declares it)."""
    deal_in: float
    """The seat's discard completes another seat's hand."""
    other_win: float
    """Expected cost per turn of another seat's win ending the game (its chance in it)."""


def wait_value(self_outs: float, discard_outs: float, pool: float, turns: int,
               points: "WaitPoints", risk: float, end_rate: float,
               discard_release: float) -> float:
    """Expected points of keeping a waiting hand instead of declaring a win now.  Per turn
    another seat's win may end the game (``end_rate``; ``points.other_win`` is its expected
    cost); if not, the seat's own draw is an out with chance self_outs / pool (``pool``: the
    tiles the outs' copies are counted among, every unseen one or the wall's), another
    seat's discard one with ``3 * discard_release`` times the share of ``discard_outs`` (no
    furiten: any later discard of an out may be declared), and the seat's own discard deals
    in with chance ``risk``.  ``turns`` are the seat's draws left."""
    if self_outs <= 0 or pool <= 0 or turns <= 0:
        return 0.0
    p_self = min(1.0, self_outs / pool)
    p_discard = min(1.0 - p_self, 3.0 * discard_release * discard_outs / pool)
    alive, value = 1.0, 0.0
    for _ in range(turns):
        value -= alive * points.other_win
        alive *= 1.0 - end_rate
        value += alive * (p_self * points.self_draw + p_discard * points.on_discard
                          - risk * points.deal_in)
        alive *= max(0.0, 1.0 - p_self - p_discard - risk)
    return value


class WorthUnit(Enum):
    """What a win's worth is counted in."""

    FAN = "fan"
    TAI = "tai"


@dataclass(frozen=True)
class WinChoice:
    """Declaring a win now against keeping the waiting hand."""

    declare: bool
    now: float
    """Points of the win now."""
    wait: float
    """Expected points of the kept hand (:func:`wait_value`)."""
    worth: int
    """The win's fan or tai now."""
    unit: "WorthUnit"
    outs: float
    """Copies of the wait's outs (expected ones in the wall, where the value counts so)."""

    def describe(self) -> str:
        what = "declare" if self.declare else "wait"
        return (f"{what}: now {self.worth} {self.unit.value} = {self.now:+.2f}, "
                f"wait on {self.outs:.3g} outs {self.wait:+.2f}")


@dataclass(frozen=True)
class WinOut:
    """One tile a waiting hand would win on: its copies and the fan of each way."""

    tile: int
    copies: float
    """Its unseen copies."""
    self_drawn_fan: "int | None"
    """Fan of the win when the seat draws it (None: no win, or below the minimum)."""
    discard_fan: "int | None"
    """Fan of the win on another seat's discard (None: no win, or below the minimum)."""


def _wait_points(outs: "Sequence[WinOut]", model: "ValueModel"
                 ) -> "tuple[float, float, WaitPoints]":
    """The copies of the outs drawn and thrown, and the points of each way (the mean over
    the copies: 3 * (8 + fan) drawn, 24 + fan on a discard)."""
    drawn = [(o.copies, o.self_drawn_fan) for o in outs if o.self_drawn_fan is not None]
    thrown = [(o.copies, o.discard_fan) for o in outs if o.discard_fan is not None]
    n_self = sum(c for c, _ in drawn)
    n_discard = sum(c for c, _ in thrown)
    self_points = (sum(c * 3.0 * (BASE_POINTS + f) for c, f in drawn) / n_self
                   if n_self else 0.0)
    discard_points = (sum(c * (3.0 * BASE_POINTS + f) for c, f in thrown) / n_discard
                      if n_discard else 0.0)
    return n_self, n_discard, WaitPoints(self_points, discard_points,
                                         model.deal_in_win_points,
                                         model.end_rate * model.other_win_points)


def mcr_wait_worth(outs: "Sequence[WinOut]", pool: float, turns: int, risk: float,
                   model: "ValueModel" = DEFAULT_MODEL) -> float:
    """mcr-botzone: expected points of keeping a waiting hand with these ``outs``
    (:func:`wait_value`), each out at its own fan.  Two waits the distance calls equal
    differ here by their outs' copies and fan: 2 copies of a 24-fan seven pairs wait
    against 5 of an 8-fan one."""
    n_self, n_discard, points = _wait_points(outs, model)
    return wait_value(n_self, n_discard, pool, turns, points, risk, model.end_rate,
                      model.discard_release)


def wait_outlook(outs: "Sequence[WinOut]", pool: float, turns: int, deal_in: float,
                 model: "ValueModel" = DEFAULT_MODEL) -> "Outlook":
    """The outlook of a waiting hand by its outs (``wait_worth`` 2): per turn it wins with
    the chance that its own draw is an out or another seat discards one (the rates of
    :func:`wait_value`), the game ending at ``end_rate`` (:func:`first_step_chance`), and a
    win brings the outs' points, weighted by how often each way comes (3 * (8 + fan)
    drawn, 24 + fan on a discard) in place of ``win_points``."""
    n_self, n_discard, points = _wait_points(outs, model)
    self_rate = n_self / pool if pool else 0.0
    discard_rate = 3.0 * model.discard_release * n_discard / pool if pool else 0.0
    rate = min(1.0, self_rate + discard_rate)
    if rate <= 0.0:
        return Outlook(1, turns, 0.0, deal_in, 0.0)
    worth = (self_rate * points.self_draw + discard_rate * points.on_discard) / (
        self_rate + discard_rate)
    win = first_step_chance(1, turns, rate, model)
    return Outlook(1, turns, win, deal_in, action_value(win, deal_in, model, worth))


def mcr_win_choice(now_fan: int, outs: "Sequence[WinOut]", pool: float, turns: int,
                   risk: float, model: "ValueModel" = DEFAULT_MODEL) -> "WinChoice":
    """mcr-botzone: declare a win on a discard now (8 from each seat and the fan from the
    discarder: 24 + fan) or pass it and keep the waiting hand, whose outs are worth
    3 * (8 + fan) drawn and 24 + fan on a later discard (MCR has no furiten); wait only
    when :func:`wait_value` gains ``win_margin`` points.  A self-drawn win is not weighed:
    the wait's best case is the same self-draw later."""
    now = 3.0 * BASE_POINTS + now_fan
    n_self, n_discard, points = _wait_points(outs, model)
    if n_self <= 0:
        return WinChoice(True, now, 0.0, now_fan, WorthUnit.FAN, 0)
    wait = wait_value(n_self, n_discard, pool, turns, points, risk, model.end_rate,
                      model.discard_release)
    return WinChoice(wait < now + model.win_margin, now, wait, now_fan, WorthUnit.FAN, n_self)
