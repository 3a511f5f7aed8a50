"""Danger: the chance that discarding a tile completes another seat's hand.

Chinese Standard Mahjong has no furiten: a seat may win on any discard that completes its
hand with 8 fan.  The model, per other seat, multiplies two estimates:

- *readiness*: the chance that the seat is one tile from a win (waiting), growing with the
  discards it has made (the turn) and its declared melds;
- *waits*: given that it waits, the chance that a tile is one of its waits, from the shapes
  that wait on it (a single tile for the pair, a pair for a pung, two neighbours for a
  chow), each weighted by the chance that the seat's concealed tiles hold that shape when
  they are a random draw from the tiles we cannot see (our knowledge base), and lowered
  where the seat has discarded the tile or the shape's tiles (a seat seldom throws what
  it waits with), where its melds say it collects one suit (a flush), and most of all
  where it let the tile pass since its last discard: its hand is the same, so the tile
  does not complete it.

The waits are scaled so that a waiting hand has about :data:`MEAN_WAITS` winning kinds.
Everything is a closed form on count vectors: pure, deterministic, no sampling.  It is a
heuristic; ``arena/lab/experiments/danger.py`` measures it on real games (how the tiles that would
have completed a hand rank among the discarder's tiles, against a random order).  Its
weights were set by hand and then adjusted by looking at those same 24 games (the pair and
honour single-tile waits up, the flush signal down): that is :data:`DANGER_V1`, which the
value reads.  :data:`DANGER_FIT` refits the readiness (a logistic, now also in the seat's
recent discards) and the waits' scale to self-play ground truth and is checked on held-out
games (``arena/lab/fits/danger_fit.py``, ``docs/danger_calibration.png``): the hand-set
readiness says 0.26 on average where 0.14 of the seats wait; the planner's fold reads the
fitted one.
"""

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from game.melds import Meld
from game.tiles import NUM_KINDS, NUM_SUITED, Counts

MEAN_WAITS = 1.8
"""Winning kinds of a typical waiting hand."""
SHAPE_WEIGHT = {"single": 0.25, "pair": 1.0, "sides": 1.0, "middle": 0.6}
"""Relative frequency of the wait shapes: single tile (pair wait), pair (pung wait), two
neighbours on one side (open or edge wait), the two around it (closed wait)."""
HONOUR_SINGLE = 0.5
"""Weight of a single-tile wait on an honour (the pair's last tile)."""
DISCARDED = 0.35
"""Factor on a tile the seat has discarded itself."""
SHAPE_DISCARDED = 0.6
"""Factor on a shape for each of its tiles the seat has discarded."""
PASSED = 0.05
"""Factor on a tile the seat let pass with its hand as it is now."""
OFF_FLUSH = 0.3
"""Factor on the other suits' tiles when the seat's suited melds, at least
:data:`FLUSH_MELDS` of them, are all in one suit."""
FLUSH_MELDS = 2


@dataclass(frozen=True)
class DangerModel:
    """The numbers of the model: the readiness logistic's weights (on
    :func:`readiness_features`) and the waits' scale.  :data:`DANGER_V1` is the hand-set
    model the planners have read since the danger was written (``planner-v1`` reads it);
    :data:`DANGER_FIT` is fitted to self-play positions (``arena/lab/fits/danger_fit.py``)."""

    bias: float = -3.2
    per_discard: float = 0.22
    per_meld: float = 0.6
    recent_middle: float = 0.0
    """Per middle tile (3-7 of a suit) among the seat's last :data:`RECENT` discards: a
    hand that waits lets go of the tiles it was building with."""
    recent_honour: float = 0.0
    """Per honour or terminal among the seat's last :data:`RECENT` discards."""
    mean_waits: float = MEAN_WAITS


RECENT = 3
"""Discards counted as recent by :class:`DangerModel`."""
DANGER_V1 = DangerModel()
"""The hand-set model (the module constants; ``planner-v1``)."""
DANGER_FIT = DangerModel(bias=-4.887, per_discard=0.235, per_meld=0.773, recent_middle=0.38,
                         recent_honour=-0.027, mean_waits=1.6)
"""Fitted to self-play positions: 46,716 (discard, other seat) rows of 300 games of four
``planner-v1`` (seed 9001; ``python -m arena.lab.fits.danger_fit``), the readiness logistic
by Newton's method against whether the seat waits for a win of at least 8 fan (13 % of
the rows), ``mean_waits`` by log loss on the waiting rows.  How it does held out, beside
:data:`DANGER_V1`, is in ``docs/results.md``, "How well does the danger model know who
waits?"."""


@dataclass(frozen=True)
class SeatSigns:
    """What everyone sees of another seat."""

    discards: "tuple[int, ...]"
    """Every tile it discarded, oldest first (those claimed by others included)."""
    melds: "tuple[Meld, ...]"
    concealed: int
    """Tiles in its hand now (13 less three per meld, usually)."""
    passed: "tuple[int, ...]" = ()
    """Tiles discarded by the others since its own last discard that it did not win on.
    Its hand has not changed since, and MCR has no furiten, so none of them completes it
    (short of a fan that depends on the moment, such as the last copy of a tile)."""


def readiness_features(seat: "SeatSigns") -> "tuple[int, int, int, int]":
    """What the readiness reads of a seat: its discards, its melds, and the middle tiles
    and the honours or terminals among its last :data:`RECENT` discards."""
    recent = seat.discards[-RECENT:]
    middle = sum(1 for t in recent if t < NUM_SUITED and 2 <= t % 9 <= 6)
    edge = sum(1 for t in recent if t >= NUM_SUITED or t % 9 in (0, 8))
    return len(seat.discards), len(seat.melds), middle, edge


def readiness(seat: "SeatSigns", model: "DangerModel" = DANGER_V1) -> float:
    """The chance that the seat waits for a winning tile now (a logistic in its turn and
    melds, and under a fitted model its recent discards; :data:`DANGER_V1`: about 0.1
    after 5 discards, 0.5 after 12 with a meld)."""
    n, m, middle, edge = readiness_features(seat)
    x = model.bias + model.per_discard * n + model.per_meld * m
    if model.recent_middle or model.recent_honour:
        x += model.recent_middle * middle + model.recent_honour * edge
    return 1.0 / (1.0 + math.exp(-x))


_last_holds: "tuple[bytes, float, np.ndarray, np.ndarray]" = (b"", -1.0, np.zeros(0),
                                                             np.zeros(0))
""":func:`_holds`' last answer: the seats of one :func:`danger` share the unseen counts
and mostly their share (one tuple, replaced whole, so a second thread reads a whole one)."""


def _holds(unseen: "Counts", share: float) -> "tuple[np.ndarray, np.ndarray]":
    """P(at least one) and P(at least two) copies of each kind in a hand that draws each
    unseen copy with chance ``share`` (binomial).  The arrays are shared: read them only."""
    global _last_holds
    key = unseen.astype(np.float64)
    code = key.tobytes()
    last = _last_holds
    if last[0] == code and last[1] == share:
        return last[2], last[3]
    u = key
    none = (1.0 - share) ** u
    one = u * share * (1.0 - share) ** np.maximum(u - 1.0, 0.0)
    p1, p2 = 1.0 - none, np.maximum(1.0 - none - one, 0.0)
    _last_holds = (code, share, p1, p2)
    return p1, p2


_SINGLE = np.full(NUM_KINDS, SHAPE_WEIGHT["single"])
_SINGLE[NUM_SUITED:] = HONOUR_SINGLE
_ONES = np.ones(NUM_KINDS)


def wait_weights(seat: "SeatSigns", unseen: "Counts") -> "np.ndarray":
    """Relative chance that each kind is a wait of the seat if it is waiting (34 floats,
    not normalised)."""
    unseen = np.asarray(unseen)
    total = int(unseen.sum())
    share = min(1.0, seat.concealed / total) if total > 0 else 0.0
    p1, p2 = _holds(unseen, share)
    thrown = list(set(seat.discards))
    q1, q2 = p1, p2  # times 1.0 where nothing was thrown: the same floats
    if thrown:
        shape_factor = _ONES.copy()
        shape_factor[thrown] = SHAPE_DISCARDED
        q1 = p1 * shape_factor
        q2 = p2 * shape_factor
    w = _SINGLE * q1 + SHAPE_WEIGHT["pair"] * q2
    # each suit's nine kinds at once, in the same order per kind (the two sides, then the
    # middle): the same floats as a loop over the kinds
    q = q1[:NUM_SUITED].reshape(3, 9)
    by_suit = w[:NUM_SUITED].reshape(3, 9)  # a view: adds to w
    by_suit[:, 2:] += SHAPE_WEIGHT["sides"] * q[:, :7] * q[:, 1:8]
    by_suit[:, :7] += SHAPE_WEIGHT["sides"] * q[:, 1:8] * q[:, 2:]
    by_suit[:, 1:8] += SHAPE_WEIGHT["middle"] * q[:, :7] * q[:, 2:]
    if thrown:
        w[thrown] *= DISCARDED
    for t in seat.passed:
        w[t] *= PASSED
    suited = [m.tiles[0] // 9 for m in seat.melds if m.tiles[0] < NUM_SUITED]
    suits = set(suited)
    if len(suits) == 1 and len(suited) >= FLUSH_MELDS:
        (suit,) = suits
        for other in range(3):
            if other != suit:
                by_suit[other] *= OFF_FLUSH
    return w


def wait_share(seat: "SeatSigns", unseen: "Counts", model: "DangerModel" = DANGER_V1
               ) -> "np.ndarray":
    """P(each kind completes the seat's hand | it waits): the kind's share of the model's
    ``mean_waits`` waits, capped at 1."""
    w = wait_weights(seat, unseen)
    mass = float(w.sum())
    if mass <= 0:
        return np.zeros(NUM_KINDS, dtype=np.float64)
    return np.minimum(1.0, model.mean_waits * w / mass)


def seat_danger(seat: "SeatSigns", unseen: "Counts", model: "DangerModel" = DANGER_V1
                ) -> "np.ndarray":
    """P(discarding each kind completes the seat's hand): readiness times the kind's share
    of the model's ``mean_waits`` waits, capped at the readiness."""
    return readiness(seat, model) * wait_share(seat, unseen, model)


def danger(seats: "Sequence[SeatSigns]", unseen: "Counts", model: "DangerModel" = DANGER_V1
           ) -> "np.ndarray":
    """P(discarding each kind completes at least one of the seats' hands), the seats taken
    as independent."""
    safe = np.ones(NUM_KINDS, dtype=np.float64)
    for s in seats:
        safe *= 1.0 - seat_danger(s, unseen, model)
    return 1.0 - safe
