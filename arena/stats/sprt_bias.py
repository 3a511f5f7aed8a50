"""What A - B was, once an SPRT stopped the match: the bias-adjusted estimate.

A match the SPRT (:class:`arena.stats.sprt.PairedSprt`) stopped ends where the running mean of
its per-wall differences had just crossed a bound, so the mean reported there leans
toward the hypothesis the test accepted: a run of luck early on ends the match while it
lasts, and the walls that would have pulled the mean back are never played
(``docs/results.md``, "Is mjbot stronger than planner-v1?", has such a match beside
unstopped ones).

The adjustment is Whitehead's, "On the bias of maximum likelihood estimation following a
sequential test" (Biometrika 73, 1986): the estimate is the ``theta`` whose expected mean
at the stop equals the mean observed,

    E_theta[mean at the stop] = observed mean,

the expectation taken under the same stopping rule (the same bounds, ``min_walls`` and
cap).  The expectation is estimated by a bootstrap of the match's own walls: its
differences, centred and shifted to ``theta``, are drawn with replacement into
``trials`` simulated matches, each stopped by the same test (no model of the
differences is assumed, as in :mod:`arena.lab.experiments.sprt_check`).  Every ``theta`` reuses the
same draws (common random numbers), so the expectation moves smoothly with ``theta`` and
a bisection finds the root.  Seeded; no clock.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from arena.stats.sprt import PairedSprt

TRIALS = 400
"""Simulated matches per ``theta``: the expectation's own error is then about a twentieth
of the spread of the stopped means."""
WIDENINGS = 20
"""Most times the bracket around the observed mean widens (its step doubling each time)."""
BISECTIONS = 40
"""Most halvings of the bracket (a 2**-40 of its width, far below the tolerance)."""
BLOCK = 500
"""Walls simulated at once for every match still running."""


@dataclass(frozen=True)
class StoppedEstimate:
    """A - B where a sequential test stopped, as observed and adjusted for the stop."""

    observed: float
    """The mean of the walls played (what the match reports)."""
    adjusted: float
    """Whitehead's bias-adjusted estimate."""
    walls: int


Blocks = Callable[[int], np.ndarray]
"""``blocks(b)``: the next ``b`` walls of every simulated match, an array (trials, b)."""


def stopped_means(blocks: Blocks, trials: int, theta: float, test: PairedSprt,
                  max_walls: int, block: int = BLOCK) -> np.ndarray:
    """The mean of each simulated match (walls from ``blocks``, shifted by ``theta``) at
    the wall where ``test``'s rule stops it, or at ``max_walls``.  The llr is the one
    :class:`arena.stats.sprt.PairedSprt` computes, for all the matches still running at once;
    ``blocks`` is asked for whole blocks, the same whatever ``theta`` (common random
    numbers), until every match has stopped."""
    out = np.empty(trials)
    alive = np.arange(trials)
    s1 = np.zeros(trials)
    s2 = np.zeros(trials)
    played = 0
    while alive.size and played < max_walls:
        b = min(block, max_walls - played)
        d = blocks(b)[alive] + theta
        n = np.arange(played + 1, played + b + 1, dtype=np.float64)
        c1 = s1[alive, None] + np.cumsum(d, axis=1)
        c2 = s2[alive, None] + np.cumsum(d * d, axis=1)
        mean = c1 / n
        with np.errstate(divide="ignore", invalid="ignore"):
            var = np.where(n > 1, (c2 - n * mean * mean) / (n - 1), np.nan)
        # the running sums lose what the test's Welford sums keep: a spread below their
        # rounding is an exact zero, as for a run of identical walls
        var = np.where(var <= 1e-12 * np.maximum(c2 / n, 1.0), 0.0, var)
        numerator = (test.mu1 - test.mu0) * n * (mean - (test.mu0 + test.mu1) / 2.0)
        with np.errstate(divide="ignore", invalid="ignore"):
            llr = np.where(var > 0.0, numerator / var,
                           np.where(numerator == 0.0, 0.0, np.copysign(np.inf, numerator)))
        crossed = ((llr >= test.upper) | (llr <= test.lower)) & (n >= test.min_walls) & (n > 1)
        stops = crossed.any(axis=1)
        first = crossed.argmax(axis=1)
        out[alive[stops]] = mean[stops, first[stops]]
        played += b
        if played >= max_walls:
            out[alive[~stops]] = mean[~stops, -1]
        s1[alive], s2[alive] = c1[:, -1], c2[:, -1]
        alive = alive[~stops]
    return out


def expected_stopped_mean(centred: np.ndarray, theta: float, test: PairedSprt,
                          max_walls: int, trials: int = TRIALS, seed: int = 0) -> float:
    """E_theta[mean at the stop]: ``trials`` matches of walls drawn from ``centred`` (a
    match's differences less their mean) plus ``theta``, stopped by ``test``'s rule."""
    rng = np.random.default_rng(seed)

    def blocks(b: int) -> np.ndarray:
        return rng.choice(centred, size=(trials, b))

    return float(stopped_means(blocks, trials, theta, test, max_walls).mean())


def bias_adjusted(differences: np.ndarray, test: PairedSprt, max_walls: int,
                  trials: int = TRIALS, seed: int = 0, tolerance: float = 1e-3,
                  ) -> StoppedEstimate:
    """Whitehead's estimate for a match whose walls gave ``differences`` (in order) and
    that ``test`` (its bounds; its state is not read) stopped, or that ended undecided at
    ``max_walls`` walls."""
    d = np.asarray(differences, dtype=np.float64)
    if d.ndim != 1 or len(d) < 2:
        raise ValueError(f"{d.size} walls: the estimate needs at least 2")
    if not np.all(np.isfinite(d)):
        raise ValueError("a wall's difference is not a finite number")
    if max_walls < len(d):
        raise ValueError(f"the cap, {max_walls} walls, is below the {len(d)} walls played")
    observed = float(d.mean())
    centred = d - observed
    sd = float(d.std(ddof=1))
    if sd == 0.0:  # every wall alike: nothing varies, nothing to stop on luck
        return StoppedEstimate(observed, observed, len(d))

    def gap(theta: float) -> float:
        return expected_stopped_mean(centred, theta, test, max_walls, trials, seed) - observed

    # a bracket around the observed mean, widened until the root is inside: the mean at
    # the stop moves with theta about one for one, so a few widenings at most
    step = max(sd / math.sqrt(len(d)), abs(test.mu1 - test.mu0))
    lo, hi = observed - step, observed + step
    g_lo, g_hi = gap(lo), gap(hi)
    for _ in range(WIDENINGS):
        if g_lo <= 0.0 <= g_hi:
            break
        if g_lo > 0.0:
            lo -= step
            g_lo = gap(lo)
        else:
            hi += step
            g_hi = gap(hi)
        step *= 2.0
    else:
        raise ValueError(f"no A - B within {lo:+.2f}..{hi:+.2f} is expected to stop at the "
                         f"observed {observed:+.2f}")
    for _ in range(BISECTIONS):
        if hi - lo <= tolerance:
            break
        mid = (lo + hi) / 2.0
        if gap(mid) <= 0.0:
            lo = mid
        else:
            hi = mid
    return StoppedEstimate(observed, (lo + hi) / 2.0, len(d))


__all__ = ["StoppedEstimate", "bias_adjusted", "expected_stopped_mean", "stopped_means"]
