"""Knowledge-aware deficiency (shanten + 1) of a Mahjong hand.

One public API over several implementations, cross-checked in the tests:

- :mod:`.kernel` — the production kernel (exact, numba): what the bot uses;
- :mod:`.shapes` — the special shapes of Chinese Standard Mahjong;
- :mod:`.brute` — the brute-force oracle straight from definition 9;
- :mod:`.quadtree` — the quadtree of "Let's Play Mahjong!" (4- and 6-ary);
- :mod:`.block` — the block algorithm of "A Fast Algorithm for Computing the
  Deficiency Number of a Mahjong Hand" (exact up to deficiency 4).

A hand is a count vector of 34 (or 27) entries; ``unseen`` is the knowledge
base: how many copies of each tile the agent believes may still come.  None
means every copy not in the hand.
"""

from dataclasses import dataclass
from typing import Sequence, Union

import numpy as np

from game.rules import Ruleset
from game.tiles import NUM_KINDS, NUM_SUITED, Counts, TileError, tile_name
from strategy.deficiency import shapes
from strategy.deficiency.kernel import ERR_SIZE, UNREACHABLE, kernel_deficiency, public_deficiency

__all__ = [
    "UNREACHABLE",
    "DeficiencyError",
    "ShapeDeficiency",
    "deficiency",
    "shape_deficiency",
    "shapes_of",
    "useful_tiles",
]

CountsLike = Union[Sequence[int], Counts]
_FULL = np.zeros(0, dtype=np.int8)


class DeficiencyError(TileError):
    """A hand or knowledge base the deficiency cannot be computed for."""


def _as_counts(values: "CountsLike", what: str) -> "Counts":
    arr = np.asarray(values)
    if arr.ndim != 1 or arr.shape[0] not in (NUM_SUITED, NUM_KINDS):
        raise DeficiencyError(f"{what} must be a count vector of 27 or 34 entries")
    if arr.shape[0] == NUM_SUITED:
        arr = np.concatenate([arr, np.zeros(NUM_KINDS - NUM_SUITED, dtype=arr.dtype)])
    if arr.min() < -128 or arr.max() > 127:
        raise DeficiencyError(f"{what} has an absurd count")
    return arr.astype(np.int8)


def _unseen_vector(hand: "Counts", unseen: "CountsLike | None", honours: bool) -> "Counts":
    if unseen is None:
        full = (4 - hand).astype(np.int8)
        if not honours:
            full[NUM_SUITED:] = 0
        return full
    kb = _as_counts(unseen, "unseen")
    if not honours:
        kb[NUM_SUITED:] = 0
    return kb


def _check(hand: "Counts", kb: "Counts") -> None:
    for t in range(NUM_KINDS):
        h, k = int(hand[t]), int(kb[t])
        if h < 0:
            raise DeficiencyError(f"hand holds {h} of {tile_name(t)}")
        if h > 4:
            raise DeficiencyError(f"hand holds {h} of {tile_name(t)}: at most four exist")
        if k < 0:
            raise DeficiencyError(f"unseen counts hold {k} of {tile_name(t)}")
        if h + k > 4:
            raise DeficiencyError(
                f"hand ({h}) and unseen ({k}) hold {h + k} of {tile_name(t)}: at most four exist"
            )


def _prepare(
    hand: "CountsLike", melds_needed: int, unseen: "CountsLike | None", honours: bool
) -> "tuple[Counts, Counts]":
    h = _as_counts(hand, "hand")
    if not honours and h[NUM_SUITED:].any():
        raise DeficiencyError("hand holds honours but the rule set has none")
    kb = _unseen_vector(h, unseen, honours)
    _check(h, kb)
    if not 0 <= melds_needed <= 5:
        raise DeficiencyError(f"melds_needed must be 0-5, not {melds_needed}")
    total = int(h.sum())
    if total not in (3 * melds_needed + 1, 3 * melds_needed + 2):
        raise DeficiencyError(
            f"a hand needing {melds_needed} melds holds {3 * melds_needed + 1} or "
            f"{3 * melds_needed + 2} tiles, not {total}"
        )
    return h, kb


def deficiency(
    hand: "CountsLike",
    melds_needed: int,
    unseen: "CountsLike | None" = None,
    *,
    honours: bool = True,
) -> int:
    """Exact knowledge-aware deficiency of the regular shape (melds + a pair).

    ``melds_needed`` is the melds still to make (4 or 5 less the declared
    ones).  Returns :data:`UNREACHABLE` when the unseen tiles cannot complete
    the hand.  Raises :class:`DeficiencyError` naming the tile when hand and
    unseen hold more than four of it (or a count is negative).
    """
    # Fast path: the kernel compiled for int8 vectors only; numba's dispatcher refuses other
    # types (TypeError), and the kernel checks every count and the size itself and answers
    # a negative code for bad input; only then is the input looked at again, slowly, to
    # say what was wrong.
    if honours and type(hand) is np.ndarray and (unseen is None or type(unseen) is np.ndarray):
        try:
            d: int = public_deficiency(hand, _FULL if unseen is None else unseen, melds_needed)
        except TypeError:
            d = -1
        if d >= 0:
            return d
    h, kb = _prepare(hand, melds_needed, unseen, honours)
    d = int(kernel_deficiency(h, kb, melds_needed))
    if d == ERR_SIZE or d < 0:  # pragma: no cover - _prepare refuses these first
        raise DeficiencyError("kernel refused the hand")
    return d


@dataclass(frozen=True)
class ShapeDeficiency:
    """Deficiency per winning shape (UNREACHABLE where a shape cannot be made)."""

    regular: int
    seven_pairs: int = UNREACHABLE
    thirteen_orphans: int = UNREACHABLE
    honors_and_knitted: int = UNREACHABLE
    knitted_straight: int = UNREACHABLE

    @property
    def best(self) -> int:
        return min(
            self.regular,
            self.seven_pairs,
            self.thirteen_orphans,
            self.honors_and_knitted,
            self.knitted_straight,
        )

    def as_dict(self) -> "dict[str, int]":
        return {
            "regular": self.regular,
            "seven_pairs": self.seven_pairs,
            "thirteen_orphans": self.thirteen_orphans,
            "honors_and_knitted": self.honors_and_knitted,
            "knitted_straight": self.knitted_straight,
        }


def shape_deficiency(
    hand: "CountsLike",
    ruleset: "Ruleset",
    unseen: "CountsLike | None" = None,
    declared_melds: int = 0,
) -> "ShapeDeficiency":
    """The deficiency of every winning shape the rule set allows."""
    melds_needed = ruleset.melds_needed - declared_melds
    h, kb = _prepare(hand, melds_needed, unseen, ruleset.has_honours)
    return shapes_of(h, kb, melds_needed, ruleset)


def shapes_of(hand: "Counts", unseen: "Counts", melds_needed: int, ruleset: "Ruleset"
              ) -> "ShapeDeficiency":
    """:func:`shape_deficiency` without the checks, for callers that hold valid int8
    34-vectors already (the policy's hot path).  The hand-only shapes need a concealed
    hand: all ``ruleset.melds_needed`` melds still to make."""
    out = np.empty(5, dtype=np.int64)
    shapes.every_shape(hand, unseen, melds_needed, ruleset.special_shapes,
                       melds_needed == ruleset.melds_needed, out)
    regular, seven, orphans, knitted_honours, knitted = (int(x) for x in out)
    return ShapeDeficiency(regular=regular, seven_pairs=seven, thirteen_orphans=orphans,
                           honors_and_knitted=knitted_honours, knitted_straight=knitted)


def useful_tiles(
    hand: "CountsLike",
    ruleset: "Ruleset",
    unseen: "CountsLike | None" = None,
    declared_melds: int = 0,
) -> "list[int]":
    """Tiles of a 3m+1 hand whose draw lowers its deficiency (any allowed shape).

    Only tiles the unseen counts still hold qualify.
    """
    melds_needed = ruleset.melds_needed - declared_melds
    h, kb = _prepare(hand, melds_needed, unseen, ruleset.has_honours)
    if int(h.sum()) != 3 * melds_needed + 1:
        raise DeficiencyError(
            f"useful tiles are defined for a hand of {3 * melds_needed + 1} tiles"
        )
    now = shape_deficiency(h, ruleset, kb, declared_melds).best
    if now >= UNREACHABLE:
        return []
    out = []
    for t in range(NUM_KINDS):
        if kb[t] <= 0:
            continue
        h[t] += 1
        kb[t] -= 1
        after = shape_deficiency(h, ruleset, kb, declared_melds).best
        h[t] -= 1
        kb[t] += 1
        if after < now:
            out.append(t)
    return out
