"""The SPRT's error rates by resampling walls (arena.lab.experiments.sprt_check): the differences
read back from a match's records, and the rates on known distributions."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from arena.cli import main
from arena.lab.experiments.sprt_check import error_rates, match_differences, replay
from arena.lab.experiments.sprt_check import main as sprt_check_main
from arena.stats.sprt import PairedSprt, SprtState


def test_the_records_give_the_matchs_own_per_wall_differences(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "greedy", "random", "--games", "8", "--local", "--json",
                 "--no-progress", "--records", str(tmp_path)]) == 0
    data = json.loads(capsys.readouterr().out)
    d = match_differences(tmp_path, b="random")
    assert len(d) == data["walls"] == 4
    assert d.mean() == pytest.approx(data["difference"]["estimate"])


def test_gaussian_walls_keep_the_nominal_rates_and_zero_walls_need_more_walls() -> None:
    rng = np.random.default_rng(7)
    gaussian = rng.normal(0.0, 2.0, 2000)
    r = error_rates(gaussian - gaussian.mean(), 0.0, 0.5, 50, trials=100, seed=3)
    assert r.false_h1 <= 0.1 and r.false_h0 <= 0.1 and r.undecided == 0.0
    # most walls played the same (exact zeros), a few far apart (heavy tails): the first
    # walls' variance is too small, and deciding after 10 walls errs far more often
    rng = np.random.default_rng(7)
    mostly_zero = np.where(rng.random(2000) < 0.9, 0.0, rng.standard_t(3, 2000) * 20.0)
    centred = mostly_zero - mostly_zero.mean()
    early = error_rates(centred, 0.0, 0.5, 10, trials=200, seed=3)
    later = error_rates(centred, 0.0, 0.5, 50, trials=200, seed=3)
    assert early.false_h1 + early.false_h0 > 2 * (later.false_h1 + later.false_h0)


def test_replay_stops_where_the_arenas_test_would_and_adjusts_the_mean_there() -> None:
    rng = np.random.default_rng(9)
    walls = rng.normal(1.0, 3.0, 400)
    r = replay(walls, 0.0, 2.0, min_walls=50)
    test = PairedSprt(0.0, 2.0, min_walls=50)
    for d in walls:
        if test.add(float(d)) is not SprtState.CONTINUE:
            break
    assert r.state is test.state is not SprtState.CONTINUE
    assert r.stopped.walls == test.walls < 400 and r.walls == 400
    assert r.stopped.observed == pytest.approx(walls[:test.walls].mean())
    assert r.mean == pytest.approx(walls.mean())
    # a match that never stops is a fixed-size one: nothing to adjust but the bootstrap's
    fixed = replay(walls[:60], 0.0, 0.1, min_walls=60)
    assert fixed.stopped.adjusted == pytest.approx(fixed.stopped.observed, abs=0.1)


def test_replay_refuses_a_cap_below_the_walls_played() -> None:
    with pytest.raises(ValueError, match="cap, 50 walls"):
        replay(np.zeros(60) + 1.0, 0.0, 1.0, cap=50)


def test_replay_reads_one_min_walls(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert sprt_check_main([str(tmp_path), "--replay", "--min-walls", "10", "50"]) == 2
    assert "one --min-walls" in capsys.readouterr().err
