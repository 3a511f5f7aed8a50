"""The brute-force deficiency oracle, straight from the definition.

Definition 9 of Yan, Li & Li, "A Fast Algorithm for Computing the Deficiency
Number of a Mahjong Hand" (knowledge-aware deficiency; definition 8 of Li &
Yan, "Let's Play Mahjong!" when every copy is available): a 3m+2-tile hand
has deficiency 0 when it is complete, and deficiency l+1 when it has none
<= l and changing one of its tiles for a tile the knowledge base (KB) holds
gives a hand of deficiency l with that tile taken out of the KB.  A
3m+1-tile hand first takes one tile from the KB (+1).  A tile changed out
never returns to the KB.

:func:`brute_deficiency` is a breadth-first search over exactly these
changes.  It is meant for small cases (few tiles, one or two suits, small
``melds_needed``) and knows nothing of melds beyond :func:`is_complete` (which
splits a hand by suit and remembers each suit's verdict), so it is an
independent oracle for the other implementations.

Visited set.  States are keyed by the hand alone.  A hand h is first met at
depth |(h - H0)+| (each change brings in one tile), and at that depth the tiles
brought in are exactly (h - H0)+, so its KB there is KB0 - (h - H0)+; any
later path to h brought in those tiles and more, so its KB is no larger and
it can reach nothing the first visit cannot.  Changing a tile for another
copy of itself only shrinks the KB and is skipped for the same reason.

Bound.  Every complete hand C the KB can reach lies within |(C - H0)+| <=
3m+2 changes, and no path is longer than the KB has tiles, so a search that
runs min(3m+2, |KB|) layers deep (or runs out of new hands) has seen every
reachable hand: only then does it answer :data:`UNREACHABLE`.  A smaller
``max_depth`` that stops the search first gives ``None`` (not decided).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from game.tiles import NUM_KINDS, NUM_SUITED, Counts, TileError, tile_name
from strategy.deficiency.kernel import UNREACHABLE

__all__ = ["UNREACHABLE", "brute_deficiency", "is_complete"]

CountsLike = Sequence[int] | Counts

_BITS = 3
"""Bits per tile kind in a hand key (counts 0-7)."""
_SUIT_MASK = (1 << (9 * _BITS)) - 1
_HONOUR_MASK = (1 << (7 * _BITS)) - 1
_MELDS_ONLY = 1
_WITH_PAIR = 2


def _melds_only(c: list[int]) -> bool:
    """Can the nine ranks ``c`` be split into pungs and chows (``c`` is restored)?"""
    i = 0
    while i < 9 and c[i] == 0:
        i += 1
    if i == 9:
        return True
    if c[i] >= 3:
        c[i] -= 3
        ok = _melds_only(c)
        c[i] += 3
        if ok:
            return True
    if i <= 6 and c[i + 1] > 0 and c[i + 2] > 0:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        ok = _melds_only(c)
        c[i] += 1
        c[i + 1] += 1
        c[i + 2] += 1
        return ok
    return False


@lru_cache(maxsize=1 << 18)
def _suit_shapes(code: int) -> int:
    """Bit 0: the suit splits into melds; bit 1: into melds and one pair."""
    c = [(code >> (_BITS * r)) & 7 for r in range(9)]
    out = 0
    n = sum(c)
    if n % 3 == 0 and _melds_only(c):
        out |= _MELDS_ONLY
    if n % 3 == 2:
        for r in range(9):
            if c[r] >= 2:
                c[r] -= 2
                ok = _melds_only(c)
                c[r] += 2
                if ok:
                    out |= _WITH_PAIR
                    break
    return out


def _key_complete(key: int) -> bool:
    """Is the hand with this key (3 bits per kind, 34 kinds) melds plus exactly one pair?

    The caller guarantees 3m+2 tiles, so the number of melds is then m.
    """
    pairs = 0
    for base in (0, 9, 18):
        code = (key >> (_BITS * base)) & _SUIT_MASK
        if code == 0:
            continue
        shapes = _suit_shapes(code)
        if shapes & _MELDS_ONLY:
            continue
        if shapes & _WITH_PAIR:
            pairs += 1
            continue
        return False
    honours = (key >> (_BITS * NUM_SUITED)) & _HONOUR_MASK
    while honours:
        n = honours & 7
        if n == 2:
            pairs += 1
        elif n not in (0, 3):
            return False
        honours >>= _BITS
    return pairs == 1


def as_count_list(values: CountsLike, what: str) -> list[int]:
    """A 27- or 34-entry count vector as a list of 34 ints, each 0-4 (the error names the tile)."""
    arr = np.asarray(values, dtype=np.int64)
    if arr.ndim != 1 or arr.shape[0] not in (NUM_SUITED, NUM_KINDS):
        raise TileError(f"{what} must be a count vector of 27 or 34 entries")
    out = [int(x) for x in arr] + [0] * (NUM_KINDS - arr.shape[0])
    for t, n in enumerate(out):
        if not 0 <= n <= 4:
            raise TileError(f"{what} holds {n} of {tile_name(t)}")
    return out


def is_complete(counts: CountsLike, melds: int) -> bool:
    """Is ``counts`` exactly ``melds`` melds (pungs, or chows within a suit) and one pair?"""
    c = as_count_list(counts, "hand")
    if sum(c) != 3 * melds + 2:
        return False
    return _key_complete(sum(n << (_BITS * t) for t, n in enumerate(c)))


def prepare_lists(
    hand: CountsLike, unseen: CountsLike | None, melds_needed: int
) -> tuple[list[int], list[int]]:
    """Hand and unseen counts as lists, checked: at most four of a tile between them, and
    3m+1 or 3m+2 tiles for m = ``melds_needed`` (0-5).  ``unseen`` None or empty = full KB."""
    h = as_count_list(hand, "hand")
    kb = [4 - n for n in h] if unseen is None or len(unseen) == 0 else as_count_list(
        unseen, "unseen")
    for t in range(NUM_KINDS):
        if h[t] + kb[t] > 4:
            raise TileError(
                f"hand ({h[t]}) and unseen ({kb[t]}) hold {h[t] + kb[t]} of {tile_name(t)}"
            )
    total = sum(h)
    if not 0 <= melds_needed <= 5 or total not in (3 * melds_needed + 1, 3 * melds_needed + 2):
        raise TileError(f"a hand of {total} tiles cannot need {melds_needed} melds")
    return h, kb


def brute_deficiency(
    hand: CountsLike,
    unseen: CountsLike | None,
    melds_needed: int,
    max_depth: int | None = None,
) -> int | None:
    """Knowledge-aware deficiency by breadth-first search over tile changes (definition 9).

    ``unseen`` is the KB (27 or 34 entries); ``None`` or an empty vector means
    every copy not in the hand, honours included (as the production kernel
    reads an empty vector).  Returns the deficiency, :data:`UNREACHABLE` when
    the search has proved that no complete hand can be reached, or ``None``
    when ``max_depth`` changes (the first draw of a 3m+1 hand counts as one)
    did not decide.  Raises :class:`TileError` on a bad vector or hand size.
    """
    h, kb = prepare_lists(hand, unseen, melds_needed)
    target = 3 * melds_needed + 2
    total = sum(h)

    weight = [1 << (_BITS * t) for t in range(NUM_KINDS)]
    active = [t for t in range(NUM_KINDS) if h[t] > 0 or kb[t] > 0]
    start = sum(h[t] * weight[t] for t in active)
    kb_key = sum(kb[t] * weight[t] for t in active)
    covering = min(target, sum(kb))
    limit = covering if max_depth is None else min(max_depth, covering)

    visited: set[int] = set()
    frontier: list[tuple[int, int]]
    if total == target:
        if _key_complete(start):
            return 0
        frontier = [(start, kb_key)]
        visited.add(start)
        depth = 0
    else:  # a 3m+1 hand first draws one tile from the KB
        if limit < 1:
            return UNREACHABLE if limit == covering else None
        frontier = []
        for t in active:
            if kb[t] > 0:
                key = start + weight[t]
                if _key_complete(key):
                    return 1
                visited.add(key)
                frontier.append((key, kb_key - weight[t]))
        depth = 1

    while frontier and depth < limit:
        layer: list[tuple[int, int]] = []
        for key, kbk in frontier:
            outs = [t for t in active if (key >> (_BITS * t)) & 7]
            ins = [t for t in active if (kbk >> (_BITS * t)) & 7]
            for i in outs:
                base = key - weight[i]
                for j in ins:
                    if j == i:
                        continue
                    nxt = base + weight[j]
                    if nxt in visited:
                        continue
                    visited.add(nxt)
                    if _key_complete(nxt):
                        return depth + 1
                    layer.append((nxt, kbk - weight[j]))
        frontier = layer
        depth += 1
    if not frontier or depth >= covering:
        return UNREACHABLE
    return None
