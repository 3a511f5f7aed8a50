"""The paired SPRT: hand-worked log-likelihood ratios, and its error rates on
simulated per-wall differences ~ N(mu, 27 / sqrt(4)) (a per-game sd of 27,
four games a wall), H0: +0, H1: +2, alpha = beta = 0.05, 400 seeded streams
per true mean."""

from __future__ import annotations

import math

import numpy as np
import pytest

from arena.stats.sprt import PairedSprt, SprtState, SprtStopped


def test_llr_by_hand_and_wald_s_bounds() -> None:
    test = PairedSprt(0, 2, alpha=0.05, beta=0.05, min_walls=2)
    assert test.lower == pytest.approx(math.log(0.05 / 0.95))
    assert test.upper == pytest.approx(math.log(0.95 / 0.05))
    assert test.add(1) is SprtState.CONTINUE and test.llr == 0 and math.isnan(test.variance)
    # [1, 3]: mean 2, s^2 = 2: llr = (2 - 0) / 2 * 2 * (2 - 1) = 2 < 2.944
    assert test.add(3) is SprtState.CONTINUE
    assert test.llr == pytest.approx(2.0)
    # [1, 3, 5]: mean 3, s^2 = 4: llr = 2 / 4 * 3 * (3 - 1) = 3 >= 2.944
    assert test.add(5) is SprtState.ACCEPT_H1
    assert test.llr == pytest.approx(3.0) and test.trace == pytest.approx((0, 2, 3))
    assert (test.walls, test.mean, test.variance) == (3, 3, 4)
    with pytest.raises(SprtStopped, match="after 3 walls"):
        test.add(0)


def test_no_decision_before_min_walls_and_the_other_way() -> None:
    early = PairedSprt(0, 2, min_walls=4)
    for d in (1, 3, 5):
        assert early.add(d) is SprtState.CONTINUE
    assert early.llr == pytest.approx(3.0)  # past the bound, but only 3 walls
    # [1, 3, 5, 3]: mean 3, s^2 = 8/3: llr = 2 / (8/3) * 4 * (3 - 1) = 6
    assert early.add(3) is SprtState.ACCEPT_H1
    assert early.llr == pytest.approx(6.0)
    down = PairedSprt(0, 2, min_walls=2)
    down.add(-1)
    # [-1, -3]: mean -2, s^2 = 2: llr = 2 / 2 * 2 * (-2 - 1) = -6
    assert down.add(-3) is SprtState.ACCEPT_H0
    assert down.llr == pytest.approx(-6.0)


def test_constant_differences_and_bad_arguments() -> None:
    same = PairedSprt(0, 2, min_walls=2)
    same.add(2)
    assert same.add(2) is SprtState.ACCEPT_H1 and same.llr == math.inf
    middle = PairedSprt(0, 2, min_walls=2)
    middle.add(1)
    assert middle.add(1) is SprtState.CONTINUE and middle.llr == 0
    with pytest.raises(ValueError, match="nothing to tell apart"):
        PairedSprt(1, 1)
    with pytest.raises(ValueError, match="alpha"):
        PairedSprt(0, 2, alpha=0.6)
    with pytest.raises(ValueError, match="finite"):
        PairedSprt(0, 2).add(math.nan)


SIGMA = 27 / math.sqrt(4)


def outcomes(mu: float, streams: int = 400, seed: int = 12) -> dict[SprtState, float]:
    found = dict.fromkeys(SprtState, 0.0)
    for stream in range(streams):
        rng = np.random.default_rng([seed, stream])
        test = PairedSprt(0, 2, alpha=0.05, beta=0.05)
        while test.state is SprtState.CONTINUE:
            for d in rng.normal(mu, SIGMA, 100):
                if test.add(float(d)) is not SprtState.CONTINUE:
                    break
        found[test.state] += 1 / streams
    return found


def test_error_rates_on_simulated_streams() -> None:
    """400 streams each: the binomial sd of a 5 % rate is 1.1 %."""
    null = outcomes(0.0)
    assert null[SprtState.ACCEPT_H1] <= 0.08  # alpha
    gain = outcomes(3.0)
    assert gain[SprtState.ACCEPT_H1] >= 0.95
    at_h1 = outcomes(2.0)
    assert at_h1[SprtState.ACCEPT_H0] <= 0.10  # beta; the plug-in variance adds a little
    midway = outcomes(1.0)
    assert 0.35 <= midway[SprtState.ACCEPT_H1] <= 0.65
