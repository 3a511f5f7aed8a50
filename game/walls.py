"""Walls from a seed, for every rule set.

Randomness comes only from the ``numpy.random.Generator`` handed in (build one
with ``numpy.random.default_rng(seed)``), so a seed always gives the same wall.

- mcr-botzone (duplicate): 136 tiles; seat i owns tiles 34i..34i+33 (see
  :mod:`game.table`; 34 is :data:`game.rules.PER_SEAT_WALL`); ``walltiles`` lists
  them in that order.
- taiwan-16: 144 tiles, the 8 flowers included; one wall, drawn from the front,
  replacements from the back.
- mahjong-0: 108 suit tiles; one wall.

``check_wall`` is the one check that a wall holds a rule set's tiles, which
every table makes of the wall it is given.  ``arranged_single_wall`` lays out a
single wall by hand (scripted deals for tests and demonstrations): who is dealt
what, what is drawn, what replaces.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np

from game.rules import Ruleset
from game.table_base import WallError
from game.tiles import FIRST_FLOWER, NUM_FLOWERS, Notation, tile_name


def tile_set(rules: Ruleset) -> list[int]:
    """Every tile of the rule set, four of each kind and one of each flower."""
    tiles = [t for t in range(rules.tile_kinds) for _ in range(4)]
    if rules.flowers:
        tiles += list(range(FIRST_FLOWER, FIRST_FLOWER + NUM_FLOWERS))
    return tiles


def check_wall(rules: Ruleset, wall: Sequence[int], what: str = "wall",
               notation: Notation = Notation.COMPACT) -> tuple[int, ...]:
    """``wall`` as a tuple of ints when it holds exactly the rule set's tiles
    (:func:`tile_set`); else :class:`game.table_base.WallError` naming ``what`` and the
    count, position or tile (in ``notation``) that is wrong."""
    tiles = tuple(int(t) for t in wall)
    if len(tiles) != rules.total_tiles:
        raise WallError(f"{what} holds {len(tiles)} tiles; {rules.name} needs {rules.total_tiles}")
    needed = Counter(tile_set(rules))
    for position, t in enumerate(tiles):
        if t not in needed:
            raise WallError(f"{what}[{position}] = {t} is not a tile of {rules.name}")
    held = Counter(tiles)
    for t in sorted(needed):
        if held[t] != needed[t]:
            raise WallError(f"{what} holds {held[t]} of {tile_name(t, notation)}; "
                            f"{rules.name} needs {needed[t]}")
    return tiles


def shuffled_wall(rules: Ruleset, rng: np.random.Generator) -> tuple[int, ...]:
    """The rule set's tiles in a random order drawn from ``rng``."""
    tiles = np.array(tile_set(rules), dtype=np.int64)
    return tuple(int(t) for t in rng.permutation(tiles))


def arranged_single_wall(
    rules: Ruleset,
    hands: Sequence[Sequence[int]],
    draws: Sequence[int] = (),
    replacements: Sequence[int] = (),
    dealer: int = 0,
) -> tuple[int, ...]:
    """A single wall (taiwan-16 layout) that deals ``hands`` and then draws as given.

    ``hands[seat]`` are the ``rules.hand_size`` tiles each seat is dealt, in
    the order received (four rounds of four tiles, starting with ``dealer``;
    flowers allowed where the rules have them).  ``draws`` are the normal draws
    that follow, from the front; ``replacements`` the flower and kong
    replacements, taken from the back (the last tile of the wall first).  The
    unused tiles fill the middle in index order.  Raises ``ValueError`` naming
    a tile that is used more often than the set holds.
    """
    size = rules.hand_size
    if len(hands) != 4 or any(len(h) != size for h in hands):
        raise ValueError(f"hands must be four lists of {size} tiles")
    if size % 4:
        raise ValueError(f"a hand of {size} tiles is not dealt in rounds of four")
    left = Counter(tile_set(rules))
    front: list[int] = []
    for start in range(0, size, 4):
        for k in range(4):
            front += hands[(dealer + k) % 4][start : start + 4]
    front += draws
    for t in (*front, *replacements):
        left[t] -= 1
        if left[t] < 0:
            raise ValueError(f"the arranged wall uses {tile_name(t)} more often than the set has")
    middle = sorted(left.elements())
    return (*front, *middle, *reversed(replacements))
