"""Which unseen copies lie in the wall (strategy.availability): the expected copies keep
the wall's count and the unseen bounds, the uniform model is every copy at the wall's
share, and the fitted one moves copies the way self-play says."""

from __future__ import annotations

import numpy as np
import pytest

from game.tiles import NUM_KINDS, parse_counts, parse_tiles
from strategy.availability import (
    FEATURE_NAMES,
    FEATURES,
    UNIFORM,
    WALL_FIT,
    WallModel,
    features,
    in_wall_chance,
    wall_copies,
)


def kind(name: str) -> int:
    return int(np.flatnonzero(parse_counts(name))[0])


def random_position(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, int]:
    """Unseen copies (some kinds at 0 or 4), discards and a wall count between 1 and the
    unseen total less one."""
    unseen = rng.integers(0, 5, NUM_KINDS)
    unseen[rng.integers(0, NUM_KINDS, 3)] = 0
    unseen[rng.integers(0, NUM_KINDS, 2)] = 4
    discarded = np.minimum(4 - unseen, rng.integers(0, 4, NUM_KINDS))
    wall = int(rng.integers(1, int(unseen.sum())))
    return unseen, discarded, wall


def test_the_expected_copies_add_up_to_the_wall_and_stay_within_the_unseen() -> None:
    rng = np.random.default_rng(2026)
    for _ in range(500):
        unseen, discarded, wall = random_position(rng)
        for model in (UNIFORM, WALL_FIT):
            e = wall_copies(unseen, discarded, wall, model)
            assert e.sum() == pytest.approx(wall)
            assert (e >= 0).all() and (e <= unseen + 1e-9).all()
            assert (e[unseen == 0] == 0).all()


def test_the_uniform_model_is_every_unseen_copy_at_the_wall_s_share() -> None:
    rng = np.random.default_rng(7)
    for _ in range(100):
        unseen, discarded, wall = random_position(rng)
        share = wall / unseen.sum()
        assert in_wall_chance(unseen, discarded, share, UNIFORM)[unseen > 0] == pytest.approx(
            share)
        assert wall_copies(unseen, discarded, wall, UNIFORM) == pytest.approx(unseen * share)


def test_an_empty_wall_or_empty_hands_leave_nothing_to_guess() -> None:
    unseen = parse_counts("1234m5p5p1z1z1z")
    none = np.zeros(NUM_KINDS, dtype=np.int64)
    assert (wall_copies(unseen, none, 0, WALL_FIT) == 0).all()
    assert wall_copies(unseen, none, int(unseen.sum()), WALL_FIT) == pytest.approx(unseen)


def test_a_lone_unseen_honour_counts_above_its_share_and_four_middle_tiles_below() -> None:
    # self-play: a seat throws its single honours early, so the last copy of an honour lies
    # in the wall; four unseen middle tiles are often in a hand (arena/lab/fits/wall_fit.py)
    unseen = np.full(NUM_KINDS, 2, dtype=np.int64)
    unseen[kind("5z")] = 1
    unseen[kind("5m")] = 4
    none = np.zeros(NUM_KINDS, dtype=np.int64)
    wall = int(unseen.sum()) // 2
    e = wall_copies(unseen, none, wall, WALL_FIT)
    share = wall / unseen.sum()
    assert e[kind("5z")] > 1.5 * share
    assert e[kind("5m")] < 4 * share


def test_a_kind_the_table_threw_counts_more_of_its_copies_in_the_wall() -> None:
    unseen = np.full(NUM_KINDS, 2, dtype=np.int64)
    thrown = np.zeros(NUM_KINDS, dtype=np.int64)
    thrown[kind("5p")] = 2
    p = in_wall_chance(unseen, thrown, 0.5, WALL_FIT)
    q = in_wall_chance(unseen, np.zeros(NUM_KINDS, dtype=np.int64), 0.5, WALL_FIT)
    assert p[kind("5p")] > q[kind("5p")]
    # and its neighbours' copies too (the weights: +0.236 per own discard, +0.129 per
    # neighbour's)
    assert p[kind("4p")] > q[kind("4p")] and p[kind("6p")] > q[kind("6p")]
    assert p[kind("5s")] == q[kind("5s")]


def test_features_name_each_column_and_bad_inputs_are_refused_by_name() -> None:
    unseen = parse_counts("1m9m2m5m1z")
    x = features(unseen, np.zeros(NUM_KINDS, dtype=np.int64), 0.25)
    assert x.shape == (NUM_KINDS, FEATURES) == (NUM_KINDS, len(FEATURE_NAMES))
    assert x[kind("1m"), FEATURE_NAMES.index("T1")] == 1.0
    assert x[kind("2m"), FEATURE_NAMES.index("N1")] == 1.0
    assert x[kind("5m"), FEATURE_NAMES.index("M1")] == 1.0
    assert x[kind("1z"), FEATURE_NAMES.index("H1")] == 1.0
    assert x[kind("3m")].sum() == pytest.approx(np.log(0.25 / 0.75))  # no copy unseen
    with pytest.raises(ValueError, match="wall share"):
        features(unseen, unseen, 1.0)
    with pytest.raises(ValueError, match="6 tiles in the wall but 5 unseen"):
        wall_copies(unseen, unseen, 6, WALL_FIT)
    with pytest.raises(ValueError, match="needs 23 weights"):
        WallModel((0.0,) * 3)


def test_the_discards_are_counted_across_the_seats() -> None:
    from strategy.availability import discarded_counts

    c = discarded_counts([parse_tiles("1m5z"), parse_tiles("5z"), [], parse_tiles("9s")])
    assert c[kind("5z")] == 2 and c[kind("1m")] == 1 and c[kind("9s")] == 1 and c.sum() == 4
