"""Which unseen tiles are still in the wall: the copies a seat can hope to draw.

The knowledge base counts what a seat cannot see; those copies lie either in the wall or
in the other seats' concealed hands.  A copy in a hand is seldom let go (a seat keeps what
it builds with), so a wait's outs are worth their copies *in the wall*.  Counting every
unseen copy alike treats both places the same; self-play says they differ by kind:

- a lone unseen honour (three copies seen) lies in the wall about 19 times in 20, since
  a seat throws its single honours early and keeps only the pairs and pungs;
- four unseen honours, or unseen middle tiles late in the game, lie in hands well above
  the average share.

The model is a logistic regression of "this unseen copy is in the wall" on what the seat
sees (Cox, "The regression analysis of binary sequences", 1958; fitted by Newton's
method, ``arena/lab/fits/wall_fit.py``): the kind's class (honour, terminal, 2 or 8, middle)
crossed with its unseen copies, the log-odds of the average share (the wall's tiles
over all the unseen ones, which the seat knows exactly) per class, and the discards of
the kind and of its neighbours in the suit.  :func:`wall_copies` turns it into expected
copies in the wall, scaled so that they add up to the wall's own count.  With the
weights at zero but the share's, it is the uniform count the value used before
(:data:`UNIFORM`).

Pure: count vectors in, floats out; no I/O, no randomness.
"""

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from game.tiles import NUM_KINDS, NUM_SUITED

HONOUR, TERMINAL, NEXT_TO_TERMINAL, MIDDLE = range(4)
CLASSES = 4
KIND_CLASS = np.array(
    [HONOUR if k >= NUM_SUITED else TERMINAL if k % 9 in (0, 8)
     else NEXT_TO_TERMINAL if k % 9 in (1, 7) else MIDDLE for k in range(NUM_KINDS)],
    dtype=np.int64)
"""Each kind's class (honours, 1 and 9, 2 and 8, 3 to 7)."""

NEIGHBOUR_CAP = 8
FEATURES = CLASSES * 4 + CLASSES + 3
"""Class x unseen copies (one-hot, 16), class x the share's log-odds (4), the kind's own
discards, its neighbours' (k +- 1 in the suit) and its second neighbours' (k +- 2)."""
FEATURE_NAMES = (
    tuple(f"{c}{u}" for c in "HTNM" for u in range(1, 5))
    + tuple(f"share*{c}" for c in "HTNM")
    + ("discarded", "neighbours", "second neighbours"))


@dataclass(frozen=True)
class WallModel:
    """The weights of the logistic (:data:`FEATURE_NAMES` order)."""

    weights: "tuple[float, ...]"

    def __post_init__(self) -> None:
        if len(self.weights) != FEATURES:
            raise ValueError(f"WallModel needs {FEATURES} weights, got {len(self.weights)}")


UNIFORM = WallModel((0.0,) * (CLASSES * 4) + (1.0,) * CLASSES + (0.0, 0.0, 0.0))
"""Every unseen copy in the wall with the average share: the count the value used before."""


def _neighbour_discards(discarded: "np.ndarray", step: int) -> "np.ndarray":
    """Discards of the kinds ``step`` away in the same suit (both sides), per kind."""
    out = np.zeros(NUM_KINDS, dtype=np.float64)
    for k in range(NUM_SUITED):
        rank = k % 9
        for r in (rank - step, rank + step):
            if 0 <= r <= 8:
                out[k] += discarded[k - rank + r]
    return np.minimum(out, NEIGHBOUR_CAP)


def discarded_counts(discards: "Sequence[Sequence[int]]") -> "np.ndarray":
    """(34,) copies of each kind in the seats' discards (claimed ones included)."""
    counts = np.zeros(NUM_KINDS, dtype=np.int64)
    for ds in discards:
        for t in ds:
            counts[t] += 1
    return counts


def features(unseen: "np.ndarray", discarded: "np.ndarray", share: float) -> "np.ndarray":
    """(34, :data:`FEATURES`): each kind's features (a kind with no unseen copy has no
    class-by-copies column set; its row is never read).  ``discarded``: copies of each
    kind thrown by any seat (claimed ones included); ``share``: the wall's tiles over all
    the unseen ones, in (0, 1)."""
    if not 0.0 < share < 1.0:
        raise ValueError(f"wall share must lie in (0, 1), got {share}")
    x = np.zeros((NUM_KINDS, FEATURES), dtype=np.float64)
    u = np.asarray(unseen, dtype=np.int64)
    rows = np.flatnonzero(u > 0)
    x[rows, KIND_CLASS[rows] * 4 + np.minimum(u[rows], 4) - 1] = 1.0
    x[np.arange(NUM_KINDS), CLASSES * 4 + KIND_CLASS] = math.log(share / (1.0 - share))
    d = np.asarray(discarded, dtype=np.float64)
    x[:, CLASSES * 5] = d
    x[:, CLASSES * 5 + 1] = _neighbour_discards(d, 1)
    x[:, CLASSES * 5 + 2] = _neighbour_discards(d, 2)
    return x


def in_wall_chance(unseen: "np.ndarray", discarded: "np.ndarray", share: float,
                   model: "WallModel") -> "np.ndarray":
    """(34,) the chance that one unseen copy of each kind lies in the wall (the model's,
    before :func:`wall_copies` scales the copies to the wall's count)."""
    z = features(unseen, discarded, share) @ np.asarray(model.weights, dtype=np.float64)
    return np.asarray(1.0 / (1.0 + np.exp(-z)))


def wall_copies(unseen: "np.ndarray", discarded: "np.ndarray", wall_tiles: int,
                model: "WallModel") -> "np.ndarray":
    """(34,) expected copies of each kind in the wall, adding up to ``wall_tiles`` (the
    wall's count, which the seat knows), none above the unseen copies.  All zero when the
    wall is empty; every unseen copy when nothing else is unseen."""
    u = np.asarray(unseen, dtype=np.float64)
    total = float(u.sum())
    if wall_tiles < 0 or wall_tiles > total:
        raise ValueError(f"{wall_tiles} tiles in the wall but {int(total)} unseen")
    if wall_tiles == 0:
        return np.zeros(NUM_KINDS, dtype=np.float64)
    if wall_tiles == total:
        return u.copy()
    e = u * in_wall_chance(unseen, discarded, wall_tiles / total, model)
    # scale to the wall's count; a kind the scale would lift above its unseen copies stays
    # at them and the rest is shared by the others (at most a few passes)
    fixed = np.zeros(NUM_KINDS, dtype=bool)
    for _ in range(NUM_KINDS):
        free = ~fixed & (e > 0)
        room = wall_tiles - float(u[fixed].sum())
        mass = float(e[free].sum())
        if mass <= 0.0:
            break
        e[free] *= room / mass
        over = free & (e > u)
        if not over.any():
            break
        e[over] = u[over]
        fixed |= over
    return e


WALL_FIT = WallModel((
    1.585, 0.721, 0.002, -0.309,  # honours with 1, 2, 3, 4 unseen copies
    0.317, -0.143, -0.366, -0.510,  # terminals
    -0.311, -0.629, -0.708, -0.675,  # 2 and 8
    -0.557, -0.677, -0.686, -0.629,  # 3 to 7
    1.571, 1.437, 1.624, 1.577,  # the share's log-odds, per class
    0.236, 0.129, 0.022))  # the kind's own discards, its neighbours', its second neighbours'
"""Fitted to self-play: 1,430,907 unseen copies at the discards of 300 games of four
``mjbot`` (seed 70001; ``python -m arena.lab.fits.wall_fit``); how it does held out is in
``docs/results.md``, "Where the unseen tiles lie"."""
