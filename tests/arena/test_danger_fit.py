"""Who is waiting, and on what (arena/lab/fits/danger_fit.py): the ground truth of a position
in tile notation and the fit's pieces on fixed numbers."""

from __future__ import annotations

import math

import numpy as np

from arena.lab.fits.danger_fit import (
    _concat,
    evaluate,
    fit,
    logistic,
    rows_of,
    scores,
    selfplay_matches,
)
from game.tiles import parse_tiles
from protocols.pku_datatxt import PkuMatch, PkuStep, PkuVerb
from strategy.danger import DANGER_V1


def tiles(text: str) -> tuple[int, ...]:
    return tuple(parse_tiles(text))


def test_a_seat_waiting_on_a_pure_straight_is_labelled_with_its_two_waits() -> None:
    # seat 1 holds 123456789m 11z 56p: a pure straight (16 fan) waiting on 4p and 7p;
    # the scorer (PyMahjongGB's fans) says both complete it with at least 8 fan
    deals = (tiles("1112345678999m"), tiles("123456789m11z56p"),
             tiles("13579s2468p1234z"), tiles("2468s13579p5677z"))
    steps = (PkuStep(0, PkuVerb.DRAW, tiles("9s")[0]), PkuStep(0, PkuVerb.PLAY, tiles("9s")[0]))
    rows = rows_of(PkuMatch("t", 0, deals, steps, None, (), (0, 0, 0, 0)))
    assert len(rows) == 3  # one discard, three other seats
    seat1 = rows.waits[0]
    assert set(np.flatnonzero(seat1)) == set(tiles("4p7p"))
    assert bool(rows.waiting[0]) and not rows.waiting[1:].any()
    # what the discarder saw: no discards, no melds yet
    assert rows.features[0].tolist() == [0, 0, 0, 0, 0]


def test_newton_recovers_a_logistic_from_a_fixed_seed() -> None:
    rng = np.random.default_rng(7)
    x = np.stack([np.ones(20_000), rng.normal(size=20_000)], axis=1)
    y = (rng.random(20_000) < 1 / (1 + np.exp(-(x @ np.array([-2.0, 0.8]))))).astype(float)
    w = logistic(x, y, ridge=0.0)
    assert abs(w[0] + 2.0) < 0.1 and abs(w[1] - 0.8) < 0.1


def test_brier_and_log_loss_by_hand() -> None:
    s = scores(np.array([0.2, 0.8]), np.array([0, 1]))
    assert math.isclose(s["brier"], 0.04)
    assert math.isclose(s["log_loss"], -math.log(0.8))
    assert [r["n"] for r in s["reliability"]] == [1, 1]


def test_the_fit_on_a_small_fixed_seed_beats_the_hand_set_model_in_sample() -> None:
    """Three self-play games of seed 4242 (used neither for the shipped fit nor for the
    arena): the logistic with an intercept matches the observed waiting rate, and the fit
    is no worse than the hand-set model it contains (a fixed case that can fail)."""
    rows = _concat([rows_of(m) for m in selfplay_matches(4242, 3, ["planner-v1"] * 4)])
    model, info = fit(rows)
    v1, refit = evaluate(rows, DANGER_V1), evaluate(rows, model)
    assert abs(refit["waiting"]["mean_predicted"] - refit["waiting"]["base_rate"]) < 0.01
    assert refit["waiting"]["log_loss"] < v1["waiting"]["log_loss"]
    assert refit["tile"]["log_loss"] < v1["tile"]["log_loss"]
    assert info["rows"] == len(rows) > 300
