"""Anytime sampling search at the top: determinize the unseen tiles, play on, compare.

For one decision the caller (:class:`bot.sampling_planner.SamplingPlanner`) names a few
candidate actions, each as a :class:`Line` (the concealed hand the action leaves, the meld
it declares, the tile that is then on the table and who discarded it).  The sampler

1. deals a **determinization** (:func:`deal`): the unseen tiles of the seat's knowledge base
   (the ω of Li & Yan, "Let's Play Mahjong!", eq. 9: four copies less the own hand and
   every copy seen) are shuffled into the other seats' concealed hands (their sizes are
   known: 13 less three per declared meld) and into the four per-seat walls of
   mcr-botzone (their sizes are known too).  Every deal is consistent with the knowledge
   base: no kind gets more copies than are unseen.  Copies left over (the tiles of another
   seat's concealed kong, which the seat is not shown) are set aside.  The deal is
   uniform: nothing is inferred from the other seats' discards.
2. plays every candidate's line on the **same** deal with the **same** rollout randomness
   (common random numbers, so a difference between candidates is not drowned by the
   variance of the deals: the paired differences are what is compared) with a fast policy
   for all four seats (:func:`rollout`): draw from the own wall, declare a win when the
   hand is complete and PyMahjongGB counts 8 fan with the flags the table would set
   (self-drawn, fourth tile, last tile of the wall), else discard to the least hand-only
   deficiency (the kernel of Yan, Li & Li, "A Fast Algorithm for Computing the Deficiency
   Number of a Mahjong Hand"; ties by a per-deal random order of the kinds); no claims; a
   waiting seat wins on any discard that completes 8 fan.  The game goes to its end (the
   wall of the seat after a discarder runs out) and is scored as the Botzone judge scores
   it (:mod:`game.table`: a win on a discard is 8 from each loser plus the fan from the
   discarder, a self-draw 8 + fan from each).  The other policy, :func:`rollout_fan`
   (:class:`RolloutPolicy` ``fan``), aims at 8 fan as the planner does: it discards to
   the least fan-aware distance (:mod:`strategy.fan`, the least changes to a complete
   hand worth 8 fan) and pungs, chows and kongs a discard when that lowers its distance.
3. goes round-robin over deals until the budget is spent: a count of rollouts, and/or a
   :class:`strategy.stepvalue.Deadline` with a clock.  Only whole rounds (every candidate
   played on the deal) count, so every candidate has the same samples.  It returns each
   candidate's mean points, standard error and count, and the paired difference to the
   first candidate (the fast planner's choice).

This is perfect-information Monte-Carlo sampling (determinization), the method of
Ginsberg's GIB for bridge, analysed in Long, Sturtevant, Buro & Furtak, "Understanding the
Success of Perfect Information Monte Carlo Sampling in Game Tree Search" (AAAI 2010), and
the determinization baseline of Cowling, Powley & Whitehouse, "Information Set Monte Carlo
Tree Search" (IEEE TCIAIG 2012); flat Monte-Carlo evaluation of the top moves with a fast
default policy and common random numbers.  (None of these three is in the project's paper
folder; the knowledge base and the deficiency kernel are from the papers above, which
are.)  Known weaknesses of the method apply: strategy fusion (each rollout plays as if the
deal were known) and a fast policy that is much weaker than the planner (the plain one
never claims and aims at the plain shape, so it reaches 8 fan less often than real play).

Pure: no clock (a deadline's clock is the caller's), no hidden randomness (every deal and
rollout draws from ``numpy.random.default_rng([seed, sample])``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum

import numpy as np

from game.melds import Chow, Kong, Meld, Pung
from game.rulebook import declarable_win, kong_forbidden, mcr_scores, win_context
from game.rules import MCR_BOTZONE
from game.scoring.mcr import WinContext
from game.table_base import chow_middles, chow_tiles
from game.tiles import NUM_KINDS, Counts
from strategy.deficiency.kernel import UNREACHABLE, kernel_deficiency
from strategy.fan import declared_rows
from strategy.fan.routes import capped_route_table, route_table
from strategy.fan.table import CHOW, KONG, NUM_ROUTES, PUNG
from strategy.stepvalue import Deadline, deficiency_after_discards, deficiency_after_draws

SEATS = 4
"""Every loser pays 8 on top of the fan (Botzone scoring, as :mod:`game.table`)."""
MIN_FAN = MCR_BOTZONE.min_fan
_EMPTY = np.zeros(0, dtype=np.int8)
_KINDS = np.arange(NUM_KINDS)


class DealError(ValueError):
    """The knowledge does not add up: fewer unseen tiles than the hands and walls hold."""


@dataclass(frozen=True)
class Knowledge:
    """What the deciding seat knows, as the sampler needs it.

    ``hand_sizes[seat]`` is ignored (the own hand is in each :class:`Line`); the others'
    are their concealed tile counts.  ``melds_needed`` per seat counts every declared meld,
    another seat's concealed kong of an unseen tile included (its tiles are among
    ``unseen`` and are set aside by the deal)."""

    seat: int
    prevalent_wind: int
    unseen: Counts
    """The knowledge base: 34 counts of copies this seat has not seen (own hand excluded)."""
    melds: tuple[tuple[Meld, ...], tuple[Meld, ...], tuple[Meld, ...], tuple[Meld, ...]]
    """Each seat's declared melds as shown (the own ones before the candidate's)."""
    melds_needed: tuple[int, int, int, int]
    hand_sizes: tuple[int, int, int, int]
    wall_left: tuple[int, int, int, int]
    shown: Counts
    """Copies visible on the table (discards and exposed melds), for the fourth-tile fan."""


@dataclass(frozen=True)
class Line:
    """One candidate action as the rollout starts from it: the seat's concealed hand after
    it (3m+1 tiles), the meld it declared (if any), and the tile then on the table."""

    hand: Counts
    meld: Meld | None
    tile: int
    """The tile on the table: the seat's own discard, or (passing) the discard it passed."""
    discarder: int
    label: str = ""


@dataclass(frozen=True)
class Deal:
    """One determinization: every other seat's concealed hand and every seat's wall (drawn
    from the end, as :mod:`game.table` does), and the order ties are broken in."""

    hands: np.ndarray
    """4 x 34 counts (the deciding seat's row is zero: its hand comes from the line)."""
    walls: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
    ties: np.ndarray
    """A random key per kind: among equal discards the lowest key goes."""


def deal(k: Knowledge, rng: np.random.Generator) -> Deal:
    """A determinization consistent with the knowledge base (see the module docstring)."""
    pool = np.repeat(_KINDS, np.maximum(k.unseen, 0)).astype(np.int64)
    need = sum(k.hand_sizes[s] for s in range(SEATS) if s != k.seat) + sum(k.wall_left)
    if need > pool.size:
        raise DealError(f"{pool.size} unseen tiles, but the hands and walls hold {need}")
    pool = rng.permutation(pool)
    hands = np.zeros((SEATS, NUM_KINDS), dtype=np.int8)
    at = 0
    for s in range(SEATS):
        if s == k.seat:
            continue
        n = k.hand_sizes[s]
        hands[s] = np.bincount(pool[at:at + n], minlength=NUM_KINDS)
        at += n
    walls = []
    for s in range(SEATS):
        n = k.wall_left[s]
        walls.append(pool[at:at + n].copy())
        at += n
    ties = rng.random(NUM_KINDS)
    return Deal(hands, (walls[0], walls[1], walls[2], walls[3]), ties)


# ---------------------------------------------------------------- the rollout
@dataclass
class FanCache:
    """Fan totals of complete hands, kept across the rollouts of one decision."""

    totals: dict[tuple[object, ...], int] = field(default_factory=dict)
    asked: int = 0

    def total(self, hand: np.ndarray, melds: tuple[Meld, ...], tile: int,
              context: WinContext) -> int:
        key = (hand.tobytes(), melds, tile, context)
        hit = self.totals.get(key)
        if hit is None:
            self.asked += 1
            tiles = np.repeat(_KINDS, hand).tolist()
            offer = declarable_win(MCR_BOTZONE, tiles, melds, tile, context)
            hit = -1 if offer is None else offer.fan
            self.totals[key] = hit
        return hit


def _waits(hand: np.ndarray, needed: int, out: np.ndarray) -> np.ndarray | None:
    """The kinds that complete a 3m+1 hand's regular shape (None if it does not wait)."""
    if kernel_deficiency(hand, _EMPTY, needed) != 1:
        return None
    deficiency_after_draws(hand, (4 - hand).astype(np.int8), needed, out)
    w = out == 0
    return w if w.any() else None


def _score(seat: int, winner: int, fan: int, payer: int | None) -> int:
    """The deciding seat's points when ``winner`` wins (``payer`` None: self-drawn)."""
    return mcr_scores(winner, fan, payer)[seat]


def rollout(k: Knowledge, line: Line, d: Deal, fans: FanCache) -> int:
    """Play the line on the deal to the end with the fast policy; the seat's points."""
    me = k.seat
    hands = d.hands.copy()
    hands[me] = line.hand
    melds = [tuple(m) for m in k.melds]
    needed = list(k.melds_needed)
    if line.meld is not None:
        melds[me] = (*melds[me], line.meld)
        needed[me] -= 1
    walls = [w.tolist() for w in d.walls]
    shown = k.shown.astype(np.int64).copy()
    buf = np.empty(NUM_KINDS, dtype=np.int64)
    waits = [_waits(hands[s], needed[s], buf) for s in range(SEATS)]
    ties = d.ties
    tile, discarder = line.tile, line.discarder
    if discarder == me:
        shown[tile] += 1
    wind = k.prevalent_wind
    while True:
        # a discard is on the table: the others may win on it, in turn order
        wall_last = not walls[(discarder + 1) % SEATS]
        for j in (1, 2, 3):
            s = (discarder + j) % SEATS
            w = waits[s]
            if w is None or not w[tile]:
                continue
            ctx = win_context(seat=s, prevalent_wind=wind, self_drawn=False,
                              visible_copies=int(shown[tile]), wall_last=wall_last)
            fan = fans.total(hands[s], melds[s], tile, ctx)
            if fan >= MIN_FAN:
                return _score(me, s, fan, discarder)
        if wall_last:
            return 0
        s = (discarder + 1) % SEATS
        drawn = walls[s].pop()
        w = waits[s]
        if w is not None and w[drawn]:
            ctx = win_context(seat=s, prevalent_wind=wind, self_drawn=True,
                              visible_copies=int(shown[drawn]),
                              wall_last=not walls[(s + 1) % SEATS])
            fan = fans.total(hands[s], melds[s], drawn, ctx)
            if fan >= MIN_FAN:
                return _score(me, s, fan, None)
        h = hands[s]
        h[drawn] += 1
        deficiency_after_discards(h, _EMPTY, needed[s], buf)
        least = buf.min()
        best, key = -1, 2.0
        for t in np.flatnonzero(buf == least):
            if ties[t] < key:
                best, key = int(t), ties[t]
        h[best] -= 1
        shown[best] += 1
        waits[s] = _waits(h, needed[s], buf) if least == 1 else None
        tile, discarder = best, s


# ---------------------------------------------------------------- the fan-aware rollout
class RolloutPolicy(Enum):
    """The rollouts' policy: ``plain`` (:func:`rollout`: the least hand-only deficiency,
    no claims) or ``fan`` (:func:`rollout_fan`: the least fan-aware distance, with claims)."""

    PLAIN = "plain"
    FAN = "fan"


@dataclass(frozen=True)
class Step:
    """One move of a traced rollout (for tests and replays).  ``kind``: ``draw``,
    ``discard``, ``pung``, ``chow``, ``kong`` (of a discard), ``win`` or ``end`` (the wall
    ran out).  A claim carries the discarder, the claimer's concealed tiles before it
    (``hand``), the discard after it (a chow: ``middle`` its middle tile) and whether a kong
    was allowed (:func:`game.rulebook.kong_forbidden`); a win its fan and payer (-1:
    self-drawn)."""

    kind: str
    seat: int
    tile: int = -1
    discarder: int = -1
    hand: tuple[int, ...] = ()
    discard: int = -1
    middle: int = -1
    kong_allowed: bool = False
    fan: int = 0


@dataclass
class RouteCache:
    """Fan-aware distances (:func:`strategy.fan.routes.route_table`, least only) of the
    rollouts of one decision, keyed by hand, unseen counts, declared melds and seat."""

    least: dict[bytes, int] = field(default_factory=dict)
    asked: int = 0


class _FanSeats:
    """The per-seat state of one fan-aware rollout: declared rows, the distance of the
    hand at rest (3m+1 tiles), and the unseen counts each seat sees (four copies less its
    own hand and every copy shown on the table)."""

    def __init__(self, k: Knowledge, hands: np.ndarray, melds: list[tuple[Meld, ...]],
                 needed: list[int], shown: np.ndarray, cache: RouteCache) -> None:
        self.hands = hands
        self.rows = [declared_rows(m) for m in melds]
        self.needed = needed
        # a seat with an unseen concealed kong has fewer rows than its melds: plain policy
        self.fan_ok = [self.rows[s].shape[0] + needed[s] == 4 for s in range(SEATS)]
        self.shown = shown
        self.wind = k.prevalent_wind
        self.cache = cache
        self.table = np.empty(NUM_ROUTES, dtype=np.int64)
        self.rest: list[int | None] = [None] * SEATS

    def unseen(self, s: int) -> np.ndarray:
        return np.clip(4 - self.hands[s] - self.shown, 0, 4).astype(np.int8)

    def distance(self, s: int, hand: np.ndarray, rows: np.ndarray, needed: int,
                 unseen: np.ndarray | None = None) -> int:
        """The least changes of ``hand`` (with ``rows`` declared) to an 8-fan hand, with
        ``unseen`` (None: four copies less ``hand`` and the shown ones)."""
        if unseen is None:
            unseen = np.clip(4 - hand - self.shown, 0, 4).astype(np.int8)
        key = b"".join((hand.tobytes(), unseen.tobytes(), rows.tobytes(), bytes((s,))))
        hit = self.cache.least.get(key)
        if hit is None:
            self.cache.asked += 1
            hit = int(route_table(hand, unseen, needed, rows, s, self.wind, self.table, True))
            self.cache.least[key] = hit
        return hit

    def at_rest(self, s: int) -> int:
        d = self.rest[s]
        if d is None:
            d = self.distance(s, self.hands[s], self.rows[s], self.needed[s])
            self.rest[s] = d
        return d

    def discard(self, s: int, now: int, order: np.ndarray) -> int:
        """The discard of a 3m+2 hand to the least fan-aware distance (``now``: the whole
        hand's, which no discard goes below): kinds in the deal's tie order, the first that
        reaches ``now`` (else the first least).  Sets the hand's distance at rest."""
        h = self.hands[s]
        unseen = self.unseen(s)
        rows, needed = self.rows[s], self.needed[s]
        best, least = -1, UNREACHABLE + 1
        for t in order:
            if h[t] == 0:
                continue
            h[t] -= 1
            d = int(capped_route_table(h, unseen, needed, rows, s, self.wind, self.table,
                                       True, UNREACHABLE, now))
            h[t] += 1
            if d < least:
                best, least = int(t), d
                if d <= now:
                    break
        self.rest[s] = least
        return best

    def claim(self, s: int, tile: int, meld_row: tuple[int, int], taken: tuple[int, ...]
              ) -> int:
        """The fan-aware distance of the hand after claiming ``tile`` into a meld that
        takes ``taken`` from the hand (with the unseen counts the seat sees before it)."""
        unseen = self.unseen(s)
        h = self.hands[s].copy()
        for t in taken:
            h[t] -= 1
        rows = np.vstack((self.rows[s], np.array([meld_row], dtype=np.int64)))
        return self.distance(s, h, rows, self.needed[s] - 1, unseen)

    def meld(self, s: int, meld_row: tuple[int, int], taken: tuple[int, ...]) -> None:
        h = self.hands[s]
        for t in taken:
            h[t] -= 1
            self.shown[t] += 1
        self.rows[s] = np.vstack((self.rows[s], np.array([meld_row], dtype=np.int64)))
        self.needed[s] -= 1


def _chow_taken(middle: int, tile: int) -> tuple[int, ...]:
    return tuple(t for t in chow_tiles(middle) if t != tile)


def rollout_fan(k: Knowledge, line: Line, d: Deal, fans: FanCache,
                routes: RouteCache | None = None, trace: list[Step] | None = None) -> int:
    """Play the line on the deal to the end with the fan-aware policy; the seat's points.

    Every seat (a seat with another's unseen concealed kong plays :func:`rollout`'s
    discards) aims at 8 fan as the planner does, by the fan-aware distance of
    :mod:`strategy.fan` (the least changes to a complete hand worth 8 fan, with the unseen
    counts the seat itself sees):

    - after a draw it declares a win when the hand is complete and PyMahjongGB counts 8
      fan; else, if the drawn tile does not lower the hand's distance, it discards the
      drawn tile, and otherwise the tile whose discard leaves the least distance (ties by
      the deal's random order of the kinds);
    - on a discard, in the judge's order (:mod:`game.table`): a win that counts 8 fan, the
      first seat in turn order whose pung or kong lowers its distance, then the next
      seat's chow that lowers it (the lowest of its chows); a claimer discards as after a
      draw, a kong draws its replacement from its own wall first.  Kongs only where
      :func:`game.rulebook.kong_forbidden` allows one; no kongs of its own tiles.  A line
      that passes another seat's discard (``line.discarder`` is not the seat) neither wins
      on that tile nor claims it.

    ``trace``: every move is appended (:class:`Step`)."""
    me = k.seat
    hands = d.hands.copy()
    hands[me] = line.hand
    melds = [tuple(m) for m in k.melds]
    needed = list(k.melds_needed)
    if line.meld is not None:
        melds[me] = (*melds[me], line.meld)
        needed[me] -= 1
    walls = [w.tolist() for w in d.walls]
    shown = k.shown.astype(np.int64).copy()
    seats = _FanSeats(k, hands, melds, needed, shown, RouteCache() if routes is None else routes)
    buf = np.empty(NUM_KINDS, dtype=np.int64)
    waits = [_waits(hands[s], needed[s], buf) for s in range(SEATS)]
    ties = d.ties
    order = np.argsort(ties, kind="stable")
    tile, discarder = line.tile, line.discarder
    if discarder == me:
        shown[tile] += 1
    # a line that passes another seat's discard neither wins on it nor claims it
    passed = me if discarder != me else -1
    wind = k.prevalent_wind

    def note(step: Step) -> None:
        if trace is not None:
            trace.append(step)

    def plain_discard(s: int) -> int:
        h = hands[s]
        deficiency_after_discards(h, _EMPTY, needed[s], buf)
        least = buf.min()
        best, key = -1, 2.0
        for t in np.flatnonzero(buf == least):
            if ties[t] < key:
                best, key = int(t), ties[t]
        return best

    while True:
        # a discard is on the table: the others may win on it, in turn order
        wall_last = not walls[(discarder + 1) % SEATS]
        for j in (1, 2, 3):
            s = (discarder + j) % SEATS
            w = waits[s]
            if w is None or not w[tile] or s == passed:
                continue
            ctx = win_context(seat=s, prevalent_wind=wind, self_drawn=False,
                              visible_copies=int(shown[tile]), wall_last=wall_last)
            fan = fans.total(hands[s], melds[s], tile, ctx)
            if fan >= MIN_FAN:
                note(Step("win", s, tile, discarder, fan=fan))
                return _score(me, s, fan, discarder)
        # claims: the first pung or kong in turn order, then the next seat's chow
        claimer, drawer = -1, -1
        kong_ok = False
        for j in (1, 2, 3):
            s = (discarder + j) % SEATS
            h = hands[s]
            if h[tile] < 2 or not seats.fan_ok[s] or needed[s] == 0 or s == passed:
                continue
            rest = seats.at_rest(s)
            pung = seats.claim(s, tile, (PUNG, tile), (tile, tile))
            kong = UNREACHABLE
            kong_ok = kong_forbidden(len(walls[s]), len(walls[(discarder + 1) % SEATS])) is None
            if h[tile] >= 3 and kong_ok:
                kong = seats.claim(s, tile, (KONG, tile), (tile, tile, tile))
            if min(pung, kong) >= rest:
                continue
            before = tuple(int(x) for x in h)
            if kong < pung:
                seats.meld(s, (KONG, tile), (tile, tile, tile))
                melds[s] = (*melds[s], Kong(tile, discarder))
                note(Step("kong", s, tile, discarder, before, kong_allowed=kong_ok))
                seats.rest[s] = kong
                waits[s] = _waits(h, needed[s], buf)
                drawer = s
            else:
                seats.meld(s, (PUNG, tile), (tile, tile))
                melds[s] = (*melds[s], Pung(tile, discarder))
                out = seats.discard(s, pung, order)
                note(Step("pung", s, tile, discarder, before, out, kong_allowed=kong_ok))
                claimer = s
            break
        if claimer < 0 and drawer < 0:
            s = (discarder + 1) % SEATS
            h = hands[s]
            if seats.fan_ok[s] and needed[s] > 0 and s != passed:
                best, middle = UNREACHABLE, -1
                for m in chow_middles(tile):
                    taken = _chow_taken(m, tile)
                    if all(h[t] > 0 for t in taken):
                        c = seats.claim(s, tile, (CHOW, m - 1), taken)
                        if c < best:
                            best, middle = c, m
                if middle >= 0 and best < seats.at_rest(s):
                    before = tuple(int(x) for x in h)
                    taken = _chow_taken(middle, tile)
                    seats.meld(s, (CHOW, middle - 1), taken)
                    melds[s] = (*melds[s], Chow(middle, tile, discarder))
                    out = seats.discard(s, best, order)
                    note(Step("chow", s, tile, discarder, before, out, middle))
                    claimer = s
        passed = -1
        if claimer >= 0:
            hands[claimer][out] -= 1
            shown[out] += 1
            waits[claimer] = _waits(hands[claimer], needed[claimer], buf)
            note(Step("discard", claimer, out))
            tile, discarder = out, claimer
            continue
        if drawer < 0:
            if wall_last:
                note(Step("end", discarder))
                return 0
            drawer = (discarder + 1) % SEATS
        s = drawer
        drawn = walls[s].pop()
        note(Step("draw", s, drawn))
        w = waits[s]
        if w is not None and w[drawn]:
            ctx = win_context(seat=s, prevalent_wind=wind, self_drawn=True,
                              visible_copies=int(shown[drawn]),
                              wall_last=not walls[(s + 1) % SEATS])
            fan = fans.total(hands[s], melds[s], drawn, ctx)
            if fan >= MIN_FAN:
                note(Step("win", s, drawn, fan=fan))
                return _score(me, s, fan, None)
        h = hands[s]
        if seats.fan_ok[s]:
            rest = seats.at_rest(s)
            h[drawn] += 1
            now = seats.distance(s, h, seats.rows[s], needed[s])
            # a draw that does not lower the distance goes straight out
            best = drawn if now == rest else seats.discard(s, now, order)
        else:
            h[drawn] += 1
            best = plain_discard(s)
        h[best] -= 1
        shown[best] += 1
        waits[s] = _waits(h, needed[s], buf)
        note(Step("discard", s, best))
        tile, discarder = best, s


# ---------------------------------------------------------------- the comparison
@dataclass(frozen=True)
class Budget:
    """When to stop: after ``rollouts`` rollouts (None: no count) and/or when the deadline's
    clock passes (its ``until``); at least one must be given."""

    rollouts: int | None = None
    deadline: Deadline | None = None

    def __post_init__(self) -> None:
        if self.rollouts is None and (self.deadline is None or self.deadline.clock is None):
            raise ValueError("a sampling budget needs a rollout count or a clock")


@dataclass(frozen=True)
class Estimate:
    """One candidate's sampled points: mean, standard error, samples; and the paired
    difference to the first candidate (its mean and standard error)."""

    label: str
    mean: float
    se: float
    n: int
    diff: float = 0.0
    diff_se: float = 0.0

    def describe(self) -> str:
        return (f"sampled {self.mean:+.2f} ± {self.se:.2f} (n {self.n}); "
                f"vs first {self.diff:+.2f} ± {self.diff_se:.2f}")


@dataclass(frozen=True)
class Comparison:
    estimates: tuple[Estimate, ...]
    samples: int
    rollouts: int
    """Rollouts played (those of an unfinished last round included)."""


def _mean_se(xs: np.ndarray) -> tuple[float, float]:
    n = xs.size
    if n == 0:
        return 0.0, math.inf
    mean = float(xs.mean())
    se = float(xs.std(ddof=1) / math.sqrt(n)) if n > 1 else math.inf
    return mean, se


def compare(k: Knowledge, lines: Sequence[Line], seed: int, budget: Budget,
            fans: FanCache | None = None, policy: RolloutPolicy = RolloutPolicy.PLAIN
            ) -> Comparison:
    """Round-robin over deals until the budget is spent; see the module docstring.
    ``policy``: the rollouts' (:func:`rollout` or :func:`rollout_fan`; the fan-aware
    distances are cached within a deal, where the candidates' lines share most states)."""
    if not lines:
        raise ValueError("nothing to compare")
    cache = FanCache() if fans is None else fans
    dl = budget.deadline
    points: list[list[int]] = []
    played = 0
    sample = 0
    stop = False
    while not stop:
        if budget.rollouts is not None and played + len(lines) > budget.rollouts:
            break
        rng = np.random.default_rng([seed, sample])
        d = deal(k, rng)
        row = []
        routes = RouteCache()
        for line in lines:
            if policy is RolloutPolicy.FAN:
                row.append(rollout_fan(k, line, d, cache, routes))
            else:
                row.append(rollout(k, line, d, cache))
            played += 1
            if dl is not None and dl.clock is not None and dl.clock() > dl.until:
                stop = True
                break
        if len(row) == len(lines):
            points.append(row)
        sample += 1
    table = np.array(points, dtype=np.float64).reshape(len(points), len(lines))
    out = []
    for c, line in enumerate(lines):
        mean, se = _mean_se(table[:, c])
        diff, diff_se = _mean_se(table[:, c] - table[:, 0])
        if c == 0:
            diff, diff_se = 0.0, 0.0
        out.append(Estimate(line.label, mean, se, len(points), diff, diff_se))
    return Comparison(tuple(out), len(points), played)
