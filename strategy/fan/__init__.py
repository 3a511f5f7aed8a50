"""Fan-aware deficiency: the least tile changes to a complete hand worth 8 fan (MCR).

Under ``mcr-botzone`` a hand below 8 fan cannot be declared, so the plain deficiency
(:mod:`strategy.deficiency`) can point at hands that are complete and worthless.  This
package answers the least number of changes to a complete hand that is worth at least 8
fan by one of the *routes* of :mod:`strategy.fan.table` (flushes, all pungs, straights,
shifted and triple chows and pungs, dragon and wind pungs, all types, the special shapes,
...), each computed exactly with the knowledge-aware deficiency of Yan, Li & Li, "A Fast
Algorithm for Computing the Deficiency Number of a Mahjong Hand".  The answer is never below
the true value (:mod:`strategy.fan.brute` computes that from PyMahjongGB) and equal to it
unless every nearest 8-fan hand needs small fans that no route combines.

Callers on a hot path build the inputs once (:func:`declared_rows`, an int8 ``unseen``) and
call :func:`strategy.fan.routes.route_table` directly.

The modules import one way, each from those above it:

- :mod:`strategy.fan.table`: the route rows (tiles, forced melds, kind, family);
- :mod:`strategy.fan.kernels`: the per-route dynamic programmes (numba kernels);
- :mod:`strategy.fan.plain_dp`: their plain-Python twins, block by block;
- :mod:`strategy.fan.overlaps`: the programmes the route loops call (kernels, or without
  numba the remembered twins);
- :mod:`strategy.fan.rows`: one route row read (its forced tiles, the fan it needs, its
  programme), shared by every loop below;
- :mod:`strategy.fan.gains`: the programmes with the set of draws that raise them;
- :mod:`strategy.fan.plain_routes`: the plain-Python twins of the route loops;
- :mod:`strategy.fan.routes`: the route loops (one hand, each discard, each draw);
- :mod:`strategy.fan.lowering`: the count of the draws that lower a hand's changes;
- :mod:`strategy.fan.brute`: the brute-force oracle (tests and benches only).
"""

from typing import Callable, Sequence, Union

import numpy as np

from game.melds import Chow, ConcealedKong, Kong, Meld, Pung
from game.tiles import NUM_KINDS, Counts, TileError, tile_name
from strategy.deficiency.kernel import UNREACHABLE
from strategy.fan.routes import after_each_discard, after_each_draw, route_table
from strategy.fan.table import CHOW, CONCEALED_KONG, KONG, NUM_ROUTES, PUNG, Route

__all__ = [
    "UNREACHABLE",
    "FanDeficiencyError",
    "Route",
    "declared_rows",
    "discard_fan_deficiencies",
    "draw_fan_deficiencies",
    "fan_deficiency",
    "route_deficiencies",
]

CountsLike = Union[Sequence[int], Counts]


class FanDeficiencyError(TileError):
    """A hand, melds or knowledge base the fan-aware deficiency cannot be computed for."""


def declared_rows(melds: "Sequence[Meld]") -> "np.ndarray":
    """The kernels' encoding of declared melds: int64 rows ``(kind, tile)``, a chow by its
    lowest tile."""
    rows = np.zeros((len(melds), 2), dtype=np.int64)
    for i, m in enumerate(melds):
        if isinstance(m, Chow):
            rows[i] = (CHOW, m.middle - 1)
        elif isinstance(m, Pung):
            rows[i] = (PUNG, m.tile)
        elif isinstance(m, Kong):
            rows[i] = (KONG, m.tile)
        elif isinstance(m, ConcealedKong):
            rows[i] = (CONCEALED_KONG, m.tile)
        else:  # pragma: no cover - Meld is a closed union
            raise FanDeficiencyError(f"not a meld: {m!r}")
    return rows


def _inputs(hand: "CountsLike", melds: "Sequence[Meld]", unseen: "CountsLike | None",
            seat_wind: int, prevalent_wind: int) -> "tuple[Counts, Counts, int, np.ndarray]":
    h = np.asarray(hand)
    if h.shape != (NUM_KINDS,):
        raise FanDeficiencyError("hand must be a count vector of 34 entries")
    h = h.astype(np.int8)
    if len(melds) > 4:
        raise FanDeficiencyError(f"{len(melds)} declared melds: at most four")
    for what, wind in (("seat_wind", seat_wind), ("prevalent_wind", prevalent_wind)):
        if not 0 <= wind <= 3:
            raise FanDeficiencyError(f"{what} must be 0-3 (east-north), not {wind}")
    melds_needed = 4 - len(melds)
    shown = np.zeros(NUM_KINDS, dtype=np.int64)
    for m in melds:
        for t in m.tiles:
            shown[t] += 1
    if unseen is None:
        kb = np.clip(4 - h.astype(np.int64) - shown, 0, 4).astype(np.int8)
    else:
        kb = np.asarray(unseen)
        if kb.shape != (NUM_KINDS,):
            raise FanDeficiencyError("unseen must be a count vector of 34 entries")
        kb = kb.astype(np.int8)
    bad = np.flatnonzero((h < 0) | (kb < 0) | (h.astype(np.int64) + kb + shown > 4))
    for t in bad[:1]:
        n, k, s = int(h[t]), int(kb[t]), int(shown[t])
        if n < 0 or k < 0:
            raise FanDeficiencyError(f"hand ({n}) or unseen ({k}) holds a negative count of "
                                     f"{tile_name(t)}")
        if n + k + s > 4:
            raise FanDeficiencyError(f"hand ({n}), unseen ({k}) and melds ({s}) hold "
                                     f"{n + k + s} of {tile_name(t)}: at most four exist")
    size = int(h.sum())
    if size not in (3 * melds_needed + 1, 3 * melds_needed + 2):
        raise FanDeficiencyError(f"with {len(melds)} declared melds a hand holds "
                                 f"{3 * melds_needed + 1} or {3 * melds_needed + 2} tiles, "
                                 f"not {size}")
    return h, kb, melds_needed, declared_rows(melds)


def fan_deficiency(hand: "CountsLike", melds: "Sequence[Meld]" = (),
                   unseen: "CountsLike | None" = None, *, seat_wind: int = 0,
                   prevalent_wind: int = 0) -> int:
    """The least tile changes to a complete hand worth 8 fan by some route (see the module
    docstring); :data:`UNREACHABLE` when no route can be completed from ``unseen`` (None:
    every copy not in the hand or the melds)."""
    h, kb, needed, rows = _inputs(hand, melds, unseen, seat_wind, prevalent_wind)
    out = np.empty(NUM_ROUTES, dtype=np.int64)
    return int(route_table(h, kb, needed, rows, seat_wind, prevalent_wind, out, True))


def route_deficiencies(hand: "CountsLike", melds: "Sequence[Meld]" = (),
                       unseen: "CountsLike | None" = None, *, seat_wind: int = 0,
                       prevalent_wind: int = 0) -> "dict[Route, int]":
    """Every route family's least changes to an 8-fan hand (UNREACHABLE: none)."""
    h, kb, needed, rows = _inputs(hand, melds, unseen, seat_wind, prevalent_wind)
    out = np.empty(NUM_ROUTES, dtype=np.int64)
    route_table(h, kb, needed, rows, seat_wind, prevalent_wind, out, False)
    return {r: int(out[r]) for r in Route}


def _after_each(kernel: "Callable[..., None]", spare: int, made: str, hand: "CountsLike",
                melds: "Sequence[Meld]", unseen: "CountsLike | None", seat_wind: int,
                prevalent_wind: int) -> "tuple[np.ndarray, np.ndarray, np.ndarray]":
    """The hand's and unseen counts and ``kernel``'s deficiency per kind, for a hand of
    3m + ``spare`` tiles (``made``: how the error names the move)."""
    h, kb, needed, rows = _inputs(hand, melds, unseen, seat_wind, prevalent_wind)
    if int(h.sum()) != 3 * needed + spare:
        raise FanDeficiencyError(f"{made} {3 * needed + spare} tiles, not {int(h.sum())}")
    out = np.empty(NUM_KINDS, dtype=np.int64)
    kernel(h, kb, needed, rows, seat_wind, prevalent_wind, out)
    return h, kb, out


def discard_fan_deficiencies(hand: "CountsLike", melds: "Sequence[Meld]" = (),
                             unseen: "CountsLike | None" = None, *, seat_wind: int = 0,
                             prevalent_wind: int = 0) -> "dict[int, int]":
    """For a hand of 3m+2 tiles: each kind it holds -> the fan-aware deficiency after
    discarding one of it (the discard does not return to ``unseen``)."""
    h, _, out = _after_each(after_each_discard, 2, "a discard is made from", hand, melds,
                            unseen, seat_wind, prevalent_wind)
    return {t: int(out[t]) for t in range(NUM_KINDS) if h[t] > 0}


def draw_fan_deficiencies(hand: "CountsLike", melds: "Sequence[Meld]" = (),
                          unseen: "CountsLike | None" = None, *, seat_wind: int = 0,
                          prevalent_wind: int = 0) -> "dict[int, int]":
    """For a hand of 3m+1 tiles: each kind ``unseen`` holds -> the fan-aware deficiency
    after drawing one of it."""
    _, kb, out = _after_each(after_each_draw, 1, "a draw is made into", hand, melds, unseen,
                             seat_wind, prevalent_wind)
    return {t: int(out[t]) for t in range(NUM_KINDS) if kb[t] > 0}
