"""Which unseen copies lie in the wall (arena/lab/fits/wall_fit.py): the truth of a self-play
game adds up to the wall, and the fit recovers the weights that made synthetic data."""

from __future__ import annotations

import numpy as np
import pytest

from arena.lab.fits.danger_fit import selfplay_matches
from arena.lab.fits.wall_fit import Rows, evaluate, fit, rows_of
from game.tiles import NUM_KINDS
from strategy.availability import FEATURES, UNIFORM, WallModel, features


def test_a_game_s_rows_hold_the_wall_s_own_count_at_every_discard() -> None:
    match = next(iter(selfplay_matches(70003, 1, ["planner-v1"] * 4)))
    rows = rows_of(match)
    assert len(rows) > 0
    assert (rows.in_wall >= 0).all() and (rows.in_wall <= rows.unseen).all()
    assert len(rows.wall_tiles) == len(rows.discarded) == len(np.unique(rows.decision))
    for i, d in enumerate(np.unique(rows.decision)):
        at = rows.decision == d
        assert rows.in_wall[at].sum() == rows.wall_tiles[i]
    # the uniform model is calibrated on its own rows: its mean is the wall's share
    r = evaluate(rows, UNIFORM)
    assert r["mean_predicted"] == pytest.approx(r["base_rate"], abs=1e-9)


def test_the_fit_recovers_the_weights_that_drew_the_copies() -> None:
    rng = np.random.default_rng(11)
    truth = rng.normal(0.0, 0.6, FEATURES)
    xs, us, ks, dec, kinds, walls, disc = [], [], [], [], [], [], []
    for d in range(3000):
        unseen = rng.integers(0, 5, NUM_KINDS)
        thrown = np.minimum(4 - unseen, rng.integers(0, 3, NUM_KINDS))
        x = features(unseen, thrown, float(rng.uniform(0.2, 0.8)))
        p = 1.0 / (1.0 + np.exp(-(x @ truth)))
        for k in np.flatnonzero(unseen > 0):
            xs.append(x[k])
            us.append(unseen[k])
            ks.append(rng.binomial(unseen[k], p[k]))
            dec.append(d)
            kinds.append(k)
        walls.append(0)
        disc.append(thrown)
    rows = Rows(np.array(xs), np.array(us, dtype=float), np.array(ks, dtype=float),
                np.array(dec), np.array(kinds), np.array(walls), np.array(disc))
    got = np.array(fit(rows, ridge=0.0).weights)
    assert np.abs(got - truth).max() < 0.15
    assert isinstance(fit(rows), WallModel)
