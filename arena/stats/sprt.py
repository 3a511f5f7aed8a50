"""A sequential probability ratio test on paired per-wall differences, to stop a
match as soon as it has shown whether program A beats program B.

Each wall, played in all the match's seatings (the duplicate evaluation of
Tang, Chen & Wu, "An Efficient Method for Assessing the Strength of Mahjong
Programs"), gives one difference ``d`` = A's mean score per game minus B's
(:func:`arena.stats.clustered.wall_differences`).  The test weighs

    H0: mean d = mu0    against    H1: mean d = mu1    (points per game)

with Wald's bounds ``log(beta / (1 - alpha))`` and ``log((1 - beta) / alpha)``
on the Gaussian log-likelihood ratio.  The variant: the normal likelihood with
the variance *plugged in* from the data so far (the sample variance ``s^2`` of
the ``n`` differences, ``n - 1`` in the denominator), the same ``s^2`` under
both hypotheses, so

    llr = (mu1 - mu0) / s^2 * sum_i (d_i - (mu0 + mu1) / 2).

It is recomputed from the running sums after every wall (not accumulated with
the variance of the moment), and no decision is taken before ``min_walls``
walls, while ``s^2`` is still unreliable.  Once a bound is crossed the test
has stopped: its state stays and it takes no more walls.
"""

from __future__ import annotations

import math
from enum import Enum

MIN_WALLS = 50
"""Walls before a decision.  Two near-identical players (a policy change against its
baseline) play most walls identically, so the first walls' differences are mostly exact
zeros and their variance far too small, and a test allowed to decide early accepts H0 far
more often than its beta says.  50 keeps the test near its nominal error rates on real
matches' walls (``python -m arena.lab.experiments.sprt_check``; ``docs/results.md``, "Does
the SPRT keep its error rates?")."""


class SprtState(Enum):
    CONTINUE = "continue"
    ACCEPT_H0 = "accept H0"
    ACCEPT_H1 = "accept H1"


class SprtStopped(RuntimeError):
    """A wall was added after the test had decided."""


class PairedSprt:
    """The SPRT above, fed one per-wall difference at a time with :meth:`add`."""

    def __init__(
        self,
        mu0: float,
        mu1: float,
        alpha: float = 0.05,
        beta: float = 0.05,
        min_walls: int = MIN_WALLS,
    ) -> None:
        if mu0 == mu1:
            raise ValueError(f"H0 and H1 are both mu = {mu0}: nothing to tell apart")
        for name, p in (("alpha", alpha), ("beta", beta)):
            if not 0.0 < p < 0.5:
                raise ValueError(f"{name} = {p} is outside (0, 0.5)")
        if min_walls < 2:
            raise ValueError(f"min_walls = {min_walls}: the variance needs at least 2 walls")
        self.mu0 = mu0
        self.mu1 = mu1
        self.alpha = alpha
        self.beta = beta
        self.min_walls = min_walls
        self.lower = math.log(beta / (1.0 - alpha))
        self.upper = math.log((1.0 - beta) / alpha)
        self._n = 0
        self._mean = 0.0
        self._m2 = 0.0
        self._llr = 0.0
        self._state = SprtState.CONTINUE
        self._trace: list[float] = []

    # ------------------------------------------------------------ queries
    @property
    def walls(self) -> int:
        return self._n

    @property
    def mean(self) -> float:
        """The mean per-wall difference so far (0 before any wall)."""
        return self._mean

    @property
    def variance(self) -> float:
        """The sample variance of the differences (``nan`` before two walls)."""
        return self._m2 / (self._n - 1) if self._n >= 2 else math.nan

    @property
    def llr(self) -> float:
        """The log-likelihood ratio of H1 to H0 after the last wall (0 before two)."""
        return self._llr

    @property
    def state(self) -> SprtState:
        return self._state

    @property
    def trace(self) -> tuple[float, ...]:
        """The llr after each wall, for plotting against ``lower`` and ``upper``."""
        return tuple(self._trace)

    # ------------------------------------------------------------ feeding
    def add(self, difference: float) -> SprtState:
        """One more wall's difference (A minus B, points per game); the state after it."""
        if self._state is not SprtState.CONTINUE:
            raise SprtStopped(f"the test stopped after {self._n} walls ({self._state.value})")
        if not math.isfinite(difference):
            raise ValueError(f"difference {difference} is not a finite number")
        self._n += 1
        delta = difference - self._mean
        self._mean += delta / self._n
        self._m2 += delta * (difference - self._mean)
        self._llr = self._compute_llr()
        self._trace.append(self._llr)
        if self._n >= self.min_walls:
            if self._llr >= self.upper:
                self._state = SprtState.ACCEPT_H1
            elif self._llr <= self.lower:
                self._state = SprtState.ACCEPT_H0
        return self._state

    def _compute_llr(self) -> float:
        if self._n < 2:
            return 0.0
        centred = self._n * (self._mean - (self.mu0 + self.mu1) / 2.0)
        numerator = (self.mu1 - self.mu0) * centred
        variance = self.variance
        if variance > 0.0:
            return numerator / variance
        if numerator == 0.0:
            return 0.0
        return math.copysign(math.inf, numerator)


__all__ = ["MIN_WALLS", "PairedSprt", "SprtState", "SprtStopped"]
