"""Knowledge-aware deficiency of the special shapes of Chinese Standard Mahjong.

Each shape is a family of complete hands; as in the regular kernel
(:mod:`strategy.deficiency.kernel`, definition 9 of Yan, Li & Li, "A Fast
Algorithm for Computing the Deficiency Number of a Mahjong Hand"), the
deficiency is ``(3m + 2) - max |C ∩ H|`` over the family's hands C that fit
within ``hand + unseen``.  All functions take ``avail`` (hand plus unseen,
34 entries) and return :data:`UNREACHABLE` when no hand of the family fits.

- seven pairs: seven pairs; four of a kind counts as two pairs (PyMahjongGB
  scores 七对 + 四归一 for it);
- thirteen orphans: one of each terminal and honour plus one more of them;
- honors and knitted (全不靠, incl. 七星不靠): 14 different tiles from one
  knitted triple (147/258/369 over the three suits in some order) and the
  seven honours;
- knitted straight (组合龙): the nine tiles of a knitted triple plus
  m - 3 melds and a pair (it may sit beside a declared meld).
"""

import numpy as np

from game.tiles import TERMINALS_AND_HONOURS
from strategy.deficiency.kernel import UNREACHABLE, kernel_deficiency, regular_overlap
from strategy.deficiency.plain import regular_overlap_blocks
from strategy.jit import HAVE_NUMBA, njit

ORPHANS = np.array(TERMINALS_AND_HONOURS, dtype=np.int64)

# The six knitted triples: suit order for ranks (1,4,7), (2,5,8), (3,6,9).
_PERMS = ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))
KNITTED = np.array(
    [[9 * perm[group] + group + 3 * step for group in range(3) for step in range(3)]
     for perm in _PERMS],
    dtype=np.int64,
)
"""KNITTED[i] = the nine tile indices of knitted triple i."""


@njit()
def seven_pairs(hand: "np.ndarray", avail: "np.ndarray") -> int:
    # best[p] = best overlap with p pairs chosen so far
    best = np.full(8, -1, np.int64)
    best[0] = 0
    for t in range(34):
        a = int(avail[t])  # int(): Python ints in plain Python, six times as quick as
        if a < 2:  # numpy scalars there; nothing in a compiled kernel
            continue
        h = int(hand[t])
        one = h if h < 2 else 2
        two = h if h < 4 else 4
        for p in range(7, 0, -1):
            here = int(best[p])
            before = int(best[p - 1])
            if before >= 0 and before + one > here:
                here = before + one
            if a >= 4 and p >= 2:
                before = int(best[p - 2])
                if before >= 0 and before + two > here:
                    here = before + two
            best[p] = here
    return UNREACHABLE if best[7] < 0 else 14 - best[7]


@njit()
def thirteen_orphans(hand: "np.ndarray", avail: "np.ndarray") -> int:
    overlap = 0
    extra = -1
    for i in range(13):
        t = ORPHANS[i]
        if avail[t] < 1:
            return UNREACHABLE
        h = hand[t]
        overlap += 1 if h >= 1 else 0
        if avail[t] >= 2:
            gain = 1 if h >= 2 else 0
            if gain > extra:
                extra = gain
    if extra < 0:
        return UNREACHABLE
    return 14 - overlap - extra


@njit()
def honors_and_knitted(hand: "np.ndarray", avail: "np.ndarray") -> int:
    best = UNREACHABLE
    for p in range(6):
        present = 0
        usable = 0
        for i in range(9):
            t = int(KNITTED[p, i])
            present += 1 if int(hand[t]) >= 1 else 0
            usable += 1 if int(avail[t]) >= 1 else 0
        for t in range(27, 34):
            present += 1 if int(hand[t]) >= 1 else 0
            usable += 1 if int(avail[t]) >= 1 else 0
        if usable < 14:
            continue
        d = 14 - (present if present < 14 else 14)
        if d < best:
            best = d
    return best


@njit()
def knitted_straight(hand: "np.ndarray", avail: "np.ndarray", melds_needed: int) -> int:
    return knitted_straight_below(hand, avail, melds_needed, UNREACHABLE)


@njit()
def knitted_straight_below(hand: "np.ndarray", avail: "np.ndarray", melds_needed: int,
                           limit: int) -> int:
    """The knitted straight's deficiency if it is below ``limit``, else a number >= ``limit``.

    A triple whose nine tiles the hand holds only ``present`` of needs at least
    ``9 - present`` changes, so it is skipped when that cannot beat ``limit``."""
    if melds_needed < 3:
        return UNREACHABLE
    best = UNREACHABLE
    rest_hand = np.empty(34, hand.dtype)
    rest_avail = np.empty(34, avail.dtype)
    work = np.empty(36, np.int64)
    for p in range(6):
        ok = True
        present = 0
        for i in range(9):
            t = int(KNITTED[p, i])
            if int(avail[t]) < 1:
                ok = False
                break
            if int(hand[t]) >= 1:
                present += 1
        if not ok or 9 - present >= min(best, limit):
            continue
        for t in range(34):
            rest_hand[t] = hand[t]
            rest_avail[t] = avail[t]
        for i in range(9):
            t = KNITTED[p, i]
            rest_avail[t] -= 1
            if hand[t] >= 1:
                rest_hand[t] -= 1
        rest = regular_overlap(rest_hand, rest_avail, melds_needed - 3, 1, work)
        if rest < 0:
            continue
        d = 3 * melds_needed + 2 - present - rest
        if d < best:
            best = d
    return best


@njit()
def every_shape(hand: "np.ndarray", unseen: "np.ndarray", melds_needed: int, special: bool,
                concealed: bool, out: "np.ndarray", least_only: bool = False,
                regular: int = -1) -> None:
    """out = the deficiency of (regular, seven pairs, thirteen orphans, honors and knitted,
    knitted straight) for valid int8 34-vectors; the special shapes are UNREACHABLE unless
    ``special`` (the rules have them), the hand-only ones also unless ``concealed`` (all the
    rules' melds still to make).  With ``least_only`` only the least entry is sure to be
    exact (the knitted straight is looked at only where it could be less than the others).
    A caller that knows the regular deficiency already passes it as ``regular``."""
    out[0] = kernel_deficiency(hand, unseen, melds_needed) if regular < 0 else regular
    for j in range(1, 5):
        out[j] = UNREACHABLE
    if not special:
        return
    avail = np.empty(34, np.int8)
    for t in range(34):
        avail[t] = hand[t] + unseen[t]
    if concealed:
        out[1] = seven_pairs(hand, avail)
        out[2] = thirteen_orphans(hand, avail)
        out[3] = honors_and_knitted(hand, avail)
    limit = UNREACHABLE
    if least_only:
        limit = min(out[0], out[1], out[2], out[3])
    out[4] = knitted_straight_below(hand, avail, melds_needed, limit)


if not HAVE_NUMBA:
    # plain Python (the Botzone zip): the same overlaps block by block, remembered
    regular_overlap = regular_overlap_blocks  # type: ignore[assignment]
