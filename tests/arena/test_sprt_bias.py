"""A - B adjusted for where the SPRT stopped (arena.stats.sprt_bias): the simulated stops are the
arena's test's own, and the adjustment takes out what stopping adds to the mean."""

from __future__ import annotations

import numpy as np
import pytest

from arena.stats.sprt import PairedSprt, SprtState
from arena.stats.sprt_bias import bias_adjusted, expected_stopped_mean, stopped_means


def _played(walls: np.ndarray, test: PairedSprt, cap: int) -> np.ndarray:
    """The walls a real match on ``walls`` plays before ``test`` stops it (or the cap)."""
    n = 0
    while test.state is SprtState.CONTINUE and n < cap:
        test.add(float(walls[n]))
        n += 1
    return walls[:n]


@pytest.mark.parametrize("theta", [0.0, 0.5, 2.0])
def test_the_simulated_stops_are_the_arenas_test_wall_for_wall(theta: float) -> None:
    rng = np.random.default_rng(11)
    # most walls alike, a few far apart, as two near-identical players play them; some
    # matches of nothing but equal walls (no variance: the llr is infinite)
    draws = np.where(rng.random((120, 900)) < 0.8, 0.0, rng.normal(0.0, 10.0, (120, 900)))
    draws[:6] = 0.0
    offset = [0]

    def blocks(b: int) -> np.ndarray:
        block = draws[:, offset[0]:offset[0] + b]
        offset[0] += b
        return block

    got = stopped_means(blocks, 120, theta, PairedSprt(0.0, 0.5), 900, block=137)
    for row, mean in zip(draws, got, strict=True):
        played = _played(row + theta, PairedSprt(0.0, 0.5), 900)
        assert mean == pytest.approx(played.mean(), abs=1e-9)


def test_without_a_chance_to_stop_nothing_is_adjusted() -> None:
    """A test that cannot decide within the cap (min_walls above it) is a fixed-size match:
    its mean is unbiased and the adjustment leaves it (within the bootstrap's error)."""
    rng = np.random.default_rng(5)
    walls = rng.normal(0.7, 4.0, 200)
    e = bias_adjusted(walls, PairedSprt(0.0, 0.5, min_walls=500), 200, trials=200)
    assert e.observed == pytest.approx(walls.mean())
    assert e.adjusted == pytest.approx(e.observed, abs=0.05)


def test_the_estimate_gives_the_observed_mean_as_the_mean_expected_at_the_stop() -> None:
    rng = np.random.default_rng(6)
    walls = _played(rng.normal(1.5, 4.0, 3000), PairedSprt(0.0, 2.0), 3000)
    e = bias_adjusted(walls, PairedSprt(0.0, 2.0), 3000, trials=200)
    centred = walls - walls.mean()
    assert expected_stopped_mean(centred, e.adjusted, PairedSprt(0.0, 2.0), 3000,
                                 trials=200) == pytest.approx(e.observed, abs=0.01)


def test_matches_stopped_early_on_luck_are_pulled_back_toward_the_truth() -> None:
    """The oracle is the truth the walls were drawn around: over many matches stopped by
    SPRT (0, +0.5) with H1 true, the means where they stopped lean above it (+0.14 here),
    the adjusted estimates far less (+0.02)."""
    rng = np.random.default_rng(2024)
    truth, cap = 0.5, 1000
    observed, adjusted = [], []
    for k in range(30):
        walls = _played(rng.normal(truth, 4.0, cap), PairedSprt(0.0, 0.5), cap)
        e = bias_adjusted(walls, PairedSprt(0.0, 0.5), cap, trials=100, seed=k)
        observed.append(e.observed)
        adjusted.append(e.adjusted)
    naive_bias = abs(np.mean(observed) - truth)
    adjusted_bias = abs(np.mean(adjusted) - truth)
    assert naive_bias > 0.1
    assert adjusted_bias < naive_bias / 2


def test_bad_walls_are_refused_by_name() -> None:
    with pytest.raises(ValueError, match="at least 2"):
        bias_adjusted(np.array([1.0]), PairedSprt(0.0, 1.0), 10)
    with pytest.raises(ValueError, match="finite"):
        bias_adjusted(np.array([1.0, np.nan]), PairedSprt(0.0, 1.0), 10)
    with pytest.raises(ValueError, match="cap"):
        bias_adjusted(np.zeros(20) + 1.0, PairedSprt(0.0, 1.0), 10)
