"""δ, val_k and P(S, l): the value of a discard when tiles come from the KB.

From Li & Yan, "Let's Play Mahjong!":

- δ (eq. 11): for a 14-tile hand T and discard T[i], the number of unseen
  copies t whose exchange for T[i] lowers the deficiency;
- val_k (Definition 14, Lemmas 7-8): the chance of completing T within k
  tile changes if T[i] goes first, each change drawing uniformly from the KB
  (the drawn copy leaves the KB, the discarded tile does not come back);
- discard_k (eq. 22): the discard with the largest val_k.

GuoShiWuShuang's P(S, l) ("GuoShiWuShuang", a Chinese Standard Mahjong bot)
is the same quantity seen from the 13-tile side: the best chance that the
hand S completes within l draws.  ``val_k(T, ω, i) = P(T - T[i], ω, k)``;
both are computed by one memoised recursion here.  The search is exact and
prunes with the knowledge-aware deficiency: a hand whose deficiency exceeds
the changes left has value 0, so with l equal to the deficiency only useful
draws and deficiency-keeping discards are ever expanded.

Every search takes a :class:`strategy.deadline.Deadline`; when it passes,
:class:`strategy.deadline.OutOfTime` is raised and the caller keeps its anytime answer.
"""

from collections.abc import Callable
from fractions import Fraction
from typing import TypeVar

import numpy as np

from game.tiles import NUM_KINDS, Counts
from strategy.deadline import Deadline
from strategy.deficiency.changes import SuitCache, after_discards, after_draws
from strategy.deficiency.kernel import UNREACHABLE, kernel_deficiency
from strategy.jit import njit


@njit()
def delta_vector(hand: "np.ndarray", unseen: "np.ndarray", melds: int, out: "np.ndarray",
                 tables: "np.ndarray", rest: "np.ndarray", keys: "np.ndarray", words: "np.ndarray",
                 state: "np.ndarray", work: "np.ndarray") -> None:
    """out[i] = δ(i) (eq. 11) for every tile kind i the 3m+2 hand holds (0 elsewhere); the
    arrays after ``out`` are a :class:`SuitCache`'s.

    An exchange lowers the deficiency only if the discard keeps it (a discard never lowers
    the deficiency and a draw lowers it by one at most), so only those discards need the
    deficiency after every draw."""
    now = kernel_deficiency(hand, unseen, melds)
    h = hand.copy()
    kept = np.empty(NUM_KINDS, np.int64)
    drawn = np.empty(NUM_KINDS, np.int64)
    after_discards(h, unseen, melds, kept, tables, rest, keys, words, state, work)
    for i in range(NUM_KINDS):
        out[i] = 0
        if hand[i] == 0 or kept[i] > now:
            continue
        h[i] -= 1
        after_draws(h, unseen, melds, drawn, tables, rest, keys, words, state, work)
        h[i] += 1
        total = 0
        for t in range(NUM_KINDS):
            if drawn[t] < now:
                total += int(unseen[t])
        out[i] = total


def delta(hand: "Counts", unseen: "Counts", melds: int, cache: "SuitCache | None" = None
          ) -> "dict[int, int]":
    """δ of eq. 11 for every distinct tile of a 3m+2 hand (knowledge-aware deficiency)."""
    c = SuitCache() if cache is None else cache
    out = np.zeros(NUM_KINDS, dtype=np.int64)
    delta_vector(hand, unseen, melds, out, c.tables, c.rest, c.keys, c.words, c.state, c.work)
    return {int(i): int(out[i]) for i in np.nonzero(hand)[0]}


@njit()
def deficiency_after_draws(hand: "np.ndarray", unseen: "np.ndarray", melds: int,
                           out: "np.ndarray") -> None:
    """out[t] = deficiency of the 3m+2 hand hand+t with unseen-t (UNREACHABLE where unseen[t]=0)."""
    h = hand.copy()
    kb = unseen.copy()
    for t in range(NUM_KINDS):
        out[t] = UNREACHABLE
        if kb[t] <= 0:
            continue
        h[t] += 1
        kb[t] -= 1
        out[t] = kernel_deficiency(h, kb, melds)
        h[t] -= 1
        kb[t] += 1


@njit()
def deficiency_after_discards(hand: "np.ndarray", unseen: "np.ndarray", melds: int,
                              out: "np.ndarray") -> None:
    """out[i] = deficiency of the 3m+1 hand hand-i (UNREACHABLE where the hand holds no i)."""
    h = hand.copy()
    for i in range(NUM_KINDS):
        out[i] = UNREACHABLE
        if h[i] <= 0:
            continue
        h[i] -= 1
        out[i] = kernel_deficiency(h, unseen, melds)
        h[i] += 1


class StepValue:
    """Memoised val_k / P(S, l) over (hand, unseen, changes left).

    ``exact=True`` computes with Fractions (tests reproduce the paper's
    numbers); otherwise floats.  ``complete`` decides whether a 3m+2 hand of
    deficiency 0 is a win (the MCR agent passes a check that demands 8 fan).
    Each node asks the kernel once for the deficiency after every draw (or
    every discard), so only the branches that can still complete in time are
    visited: a 3m+2 hand whose deficiency exceeds the changes left is worth 0.
    """

    def __init__(
        self,
        melds: int,
        exact: bool = False,
        deadline: "Deadline | None" = None,
        complete: "Callable[[Counts], bool] | None" = None,
    ) -> None:
        self.melds = melds
        self.exact = exact
        self.deadline = deadline
        self.complete = complete
        self._full: "dict[tuple[bytes, bytes, int], float | Fraction]" = {}
        self._partial: "dict[tuple[bytes, bytes, int], float | Fraction]" = {}
        self._buf = np.empty(NUM_KINDS, dtype=np.int64)
        self.nodes = 0

    def _zero(self) -> "float | Fraction":
        return Fraction(0) if self.exact else 0.0

    def _one(self) -> "float | Fraction":
        return Fraction(1) if self.exact else 1.0

    def _tick(self, units: int) -> None:
        if self.deadline is not None:
            self.deadline.tick(units)

    def _wins(self, hand: "Counts") -> bool:
        return True if self.complete is None else self.complete(hand)

    def full(self, hand: "Counts", unseen: "Counts", k: int,
             d: "int | None" = None) -> "float | Fraction":
        """val_k of a 3m+2 hand: 1 if it wins, else its best discard's value."""
        if d is None:
            self._tick(1)
            d = int(kernel_deficiency(hand, unseen, self.melds))
        if d == 0 and self._wins(hand):
            return self._one()
        if k == 0 or d > k or d >= UNREACHABLE:
            return self._zero()
        key = (hand.tobytes(), unseen.tobytes(), k)
        hit = self._full.get(key)
        if hit is not None:
            return hit
        self.nodes += 1
        after = self._buf
        self._tick(NUM_KINDS)
        deficiency_after_discards(hand, unseen, self.melds, after)
        candidates = [int(i) for i in np.nonzero(after <= k)[0]]
        value = self._zero()
        h = hand.copy()
        for i in candidates:
            h[i] -= 1
            v = self.partial(h, unseen, k)
            h[i] += 1
            if v > value:
                value = v
        self._full[key] = value
        return value

    def partial(self, hand: "Counts", unseen: "Counts", k: int) -> "float | Fraction":
        """P(S, k): a 3m+1 hand's chance to complete within k draws (val_k after a discard)."""
        key = (hand.tobytes(), unseen.tobytes(), k)
        hit = self._partial.get(key)
        if hit is not None:
            return hit
        total = int(unseen.sum())
        value = self._zero()
        if k > 0 and total > 0:
            after = np.empty(NUM_KINDS, dtype=np.int64)
            self._tick(NUM_KINDS)
            deficiency_after_draws(hand, unseen, self.melds, after)
            h = hand.copy()
            kb = unseen.copy()
            acc = self._zero()
            for t in np.nonzero(after <= k - 1)[0]:
                w = int(unseen[t])
                h[t] += 1
                kb[t] -= 1
                acc += w * self.full(h, kb, k - 1, int(after[t]))
                h[t] -= 1
                kb[t] += 1
            value = acc / total if self.exact else float(acc) / total
        self._partial[key] = value
        return value

    def per_discard(self, hand: "Counts", unseen: "Counts",
                    k: int) -> "dict[int, float | Fraction]":
        """val_k(T, ω, i) for every distinct tile i of a 3m+2 hand (Lemma 8)."""
        return value_per_discard(self.partial, hand, unseen, k)


V = TypeVar("V")


def value_per_discard(partial: "Callable[[Counts, Counts, int], V]", hand: "Counts",
                      unseen: "Counts", k: int) -> "dict[int, V]":
    """``partial(hand - i, unseen, k)`` for every distinct tile i of ``hand`` (Lemma 8's
    val_k(T, ω, i)); :class:`StepValue` and the jitted :class:`strategy.search.StepSearch`
    share it."""
    out: "dict[int, V]" = {}
    h = hand.copy()
    for i in np.nonzero(hand)[0]:
        h[i] -= 1
        out[int(i)] = partial(h, unseen, k)
        h[i] += 1
    return out
