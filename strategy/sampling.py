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
   discarder, a self-draw 8 + fan from each).
3. goes round-robin over deals until the budget is spent: a count of rollouts, and/or a
   :class:`strategy.deadline.Deadline` with a clock.  Only whole rounds (every candidate
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
deal were known) and a fast policy that is much weaker than the planner (it never claims
and aims at the plain shape, so it reaches 8 fan less often than real play).

Pure: no clock (a deadline's clock is the caller's), no hidden randomness (every deal and
rollout draws from ``numpy.random.default_rng([seed, sample])``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from game.melds import Meld
from game.rulebook import declarable_win, mcr_scores, win_context
from game.rules import MCR_BOTZONE
from game.scoring.mcr import WinContext
from game.tiles import NUM_KINDS, Counts
from game.turn_order import SEATS, Claim, first_claim, next_seat
from strategy.deadline import Deadline
from strategy.deficiency.kernel import kernel_deficiency
from strategy.stepvalue import deficiency_after_discards, deficiency_after_draws

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

    def total(self, hand: np.ndarray, melds: tuple[Meld, ...], tile: int,
              context: WinContext) -> int:
        key = (hand.tobytes(), melds, tile, context)
        hit = self.totals.get(key)
        if hit is None:
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
    wall_last, fan = False, 0

    def wins(s: int, claim: Claim) -> bool:
        """Does ``s`` win on the discard (the only claim of this policy) with 8 fan?"""
        nonlocal fan
        w = waits[s]
        if claim is not Claim.WIN or w is None or not w[tile]:
            return False
        ctx = win_context(seat=s, prevalent_wind=wind, self_drawn=False,
                          visible_copies=int(shown[tile]), wall_last=wall_last)
        fan = fans.total(hands[s], melds[s], tile, ctx)
        return fan >= MIN_FAN

    while True:
        # a discard is on the table: the others may win on it, in turn order
        wall_last = not walls[next_seat(discarder)]
        taken = first_claim(discarder, wins)
        if taken is not None:
            return _score(me, taken[0], fan, discarder)
        if wall_last:
            return 0
        s = next_seat(discarder)
        drawn = walls[s].pop()
        w = waits[s]
        if w is not None and w[drawn]:
            ctx = win_context(seat=s, prevalent_wind=wind, self_drawn=True,
                              visible_copies=int(shown[drawn]),
                              wall_last=not walls[next_seat(s)])
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
            fans: FanCache | None = None) -> Comparison:
    """Round-robin over deals until the budget is spent; see the module docstring."""
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
        for line in lines:
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
