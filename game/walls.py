"""Walls from a seed, for every rule set.

Randomness comes only from the ``numpy.random.Generator`` handed in (build one
with ``numpy.random.default_rng(seed)``), so a seed always gives the same wall.

- mcr-botzone (duplicate): 136 tiles; seat i owns tiles 34i..34i+33 (see
  :mod:`game.table`); ``walltiles`` lists them in that order.
- taiwan-16: 144 tiles, the 8 flowers included; one wall, drawn from the front,
  replacements from the back.
- mahjong-0: 108 suit tiles; one wall.
"""

from __future__ import annotations

import numpy as np

from game.rules import Ruleset
from game.tiles import FIRST_FLOWER, NUM_FLOWERS


def tile_set(rules: Ruleset) -> list[int]:
    """Every tile of the rule set, four of each kind and one of each flower."""
    tiles = [t for t in range(rules.tile_kinds) for _ in range(4)]
    if rules.flowers:
        tiles += list(range(FIRST_FLOWER, FIRST_FLOWER + NUM_FLOWERS))
    return tiles


def shuffled_wall(rules: Ruleset, rng: np.random.Generator) -> tuple[int, ...]:
    """The rule set's tiles in a random order drawn from ``rng``."""
    tiles = np.array(tile_set(rules), dtype=np.int64)
    return tuple(int(t) for t in rng.permutation(tiles))
