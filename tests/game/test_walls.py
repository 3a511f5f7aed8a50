"""Walls from a seed: the right tiles, the same wall for the same seed."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from game.rules import MAHJONG_0, MCR_BOTZONE, MCR_BOTZONE_FLOWERS, TAIWAN_16, Ruleset
from game.walls import shuffled_wall


@pytest.mark.parametrize(("rules", "size"), [(MCR_BOTZONE, 136), (MCR_BOTZONE_FLOWERS, 144),
                                             (TAIWAN_16, 144), (MAHJONG_0, 108)])
def test_walls_hold_the_rule_sets_tiles(rules: Ruleset, size: int) -> None:
    wall = shuffled_wall(rules, np.random.default_rng(3))
    assert len(wall) == size == rules.total_tiles
    counts = Counter(wall)
    assert all(counts[t] == 4 for t in range(rules.tile_kinds))
    assert all(counts[t] == 1 for t in range(34, 42)) is rules.flowers or not rules.flowers
    assert max(wall) < (42 if rules.flowers else rules.tile_kinds)


def test_a_seed_gives_the_same_wall() -> None:
    a = shuffled_wall(TAIWAN_16, np.random.default_rng(11))
    b = shuffled_wall(TAIWAN_16, np.random.default_rng(11))
    c = shuffled_wall(TAIWAN_16, np.random.default_rng(12))
    assert a == b and a != c
