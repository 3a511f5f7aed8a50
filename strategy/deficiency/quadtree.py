"""The quadtree deficiency search of Li & Yan, "Let's Play Mahjong!", and its 6-ary variant.

Both search the pseudo-decompositions (p-decompositions) of a hand: ``m``
meld holders and one eye holder, filled from the hand's tiles in sorted
order, the tiles left over forming the remainder.  By Theorem 2 of that
paper the deficiency is the least cost (missing tiles) over all
p-decompositions; the search builds them as a tree whose node acts on the
first unprocessed tile ``a`` of S, depth first, a branch being cut when its
bound cannot beat the best value found (the paper's ``val``).

:func:`quadtree4` — the paper's quadtree, hand only (definition 8: any tile
may come in while no kind exceeds four).  Four children: pass ``a``; a chow
holder ``(a a+1 a+2) ∩ S`` (when ``a+1`` or ``a+2`` is in S); the eye
``(a a)``; a pung holder ``(a a a) ∩ S`` (when ``(a a) ⊆ S``).  A branch ends
when every holder is non-empty (its cost, if the holders can be completed
together with no kind above four) or when S is empty; then the paper's leaf
rules refine the empty holders from the remainder: by Corollary 2 each empty
holder saves one tile when the eye holder is filled or four or more tiles
remain; otherwise only the eye is empty and it saves one unless every
remainder tile is a kind the hand holds four of (the kong exception).
Generalised here to 0-5 melds and honours (no chows); a 3m+1-tile hand
draws first (see :func:`quadtree4` for what the tests found).

:func:`quadtree6` — the 6-ary tree of Yan, Li & Li, "A Fast Algorithm for
Computing the Deficiency Number of a Mahjong Hand", Sec. 6, knowledge-aware
(definition 9).  Six children: pass; full chow ``(a a+1 a+2)``; pchow
``(a a+1)``; pchow ``(a a+2)``; eye ``(a a)``; pung ``(a a a) ∩ S`` (a pair
used as a meld when only two are left).  A pmeld is only made when the KB
holds a tile that completes it (definition 10).  Its leaves are evaluated
exactly: every holder's completion is chosen jointly so that the completed
hand C never holds more of a kind than hand plus KB (the tiles brought in all
come from the KB, and a changed-out tile never returns), and each empty
holder is either seeded with one remainder tile plus KB tiles or made wholly
from KB tiles.  The leaf value |C| - |tiles kept| is never below the true
cost |C - H| of reaching C, and the leaf that keeps exactly C ∩ H reaches
it, so the minimum is the knowledge-aware deficiency, for 3m+1 and 3m+2
hands alike.  Passing a copy of ``a`` means the rest of its copies are
passed too (a pure symmetry cut: copies of a kind are interchangeable).

Both are plain Python: the slow, exhaustive baselines of the benchmark.
"""

from __future__ import annotations

from collections.abc import Sequence

from game.tiles import NUM_KINDS, NUM_SUITED, Counts
from strategy.deficiency.brute import prepare_lists
from strategy.deficiency.kernel import UNREACHABLE

__all__ = ["UNREACHABLE", "quadtree4", "quadtree6"]

CountsLike = Sequence[int] | Counts
Group = tuple[int, ...]


def _rank(t: int) -> int:
    """0-8 for a suited tile, -1 for an honour."""
    return t % 9 if t < NUM_SUITED else -1


def _fills(group: Group) -> list[Group]:
    """The ways to finish a meld holder's group: () for a meld, else the missing tile."""
    if len(group) == 3:
        return [()]
    a, b = group
    if a == b:
        return [(a,)]
    if b == a + 2:
        return [(a + 1,)]
    out: list[Group] = []
    if _rank(a) >= 1:
        out.append((a - 1,))
    if _rank(b) <= 7:
        out.append((b + 1,))
    return out


def _meld_options(t: int) -> list[Group]:
    """Every meld that contains tile ``t`` (as sorted tuples)."""
    out: list[Group] = [(t, t, t)]
    r = _rank(t)
    if r >= 0:
        for lo in (t - 2, t - 1, t):
            if lo >= 0 and lo // 9 == t // 9 and _rank(lo) <= 6:
                out.append((lo, lo + 1, lo + 2))
    return out


_ALL_MELDS: list[Group] = [(t, t, t) for t in range(NUM_KINDS)]
_ALL_MELDS += [(t, t + 1, t + 2) for t in range(NUM_SUITED) if _rank(t) <= 6]


class _Search:
    """The state of one tree search: remaining tiles S, holders, remainder."""

    def __init__(
        self, hand: list[int], kb: list[int], melds: int, six: bool, literal: bool = False
    ) -> None:
        self.hand = hand
        self.literal = literal
        self.paper_setting = sum(hand) == 3 * melds + 2 and not any(hand[NUM_SUITED:])
        self.kb = kb
        self.avail = [hand[t] + kb[t] for t in range(NUM_KINDS)]
        self.melds = melds
        self.six = six
        self.target = 3 * melds + 2
        self.S = list(hand)
        self.n_S = sum(hand)
        self.R = [0] * NUM_KINDS
        self.n_R = 0
        self.groups: list[Group] = []
        self.eye: Group | None = None
        self.placed = 0
        self.best = UNREACHABLE

    # ------------------------------------------------------------ the tree
    def run(self) -> int:
        self._visit(0, -1)
        return self.best

    def _bound(self) -> int:
        """No leaf below this node costs less (each empty holder gains at most 3 or 2)."""
        room = 3 * (self.melds - len(self.groups)) + (2 if self.eye is None else 0)
        return self.target - self.placed - min(room, self.n_S + self.n_R)

    def _visit(self, pos: int, passed: int) -> None:
        if self.best == 0:
            return
        if (len(self.groups) == self.melds and self.eye is not None) or self.n_S == 0:
            value = self._leaf_exact() if self.six else self._leaf4()
            if value < self.best:
                self.best = value
            return
        if self._bound() >= self.best:
            return
        S = self.S
        while S[pos] == 0:
            pos += 1
        a = pos
        r = _rank(a)
        if passed != a:  # after a pass at `a` its other copies are passed too (6-ary)
            for group in self._actions(a, r):
                self._take(group, a)
                self._visit(a, -1)
                self._untake(group, a)
        S[a] -= 1
        self.n_S -= 1
        self.R[a] += 1
        self.n_R += 1
        self._visit(a, a if self.six else -1)
        S[a] += 1
        self.n_S += 1
        self.R[a] -= 1
        self.n_R -= 1

    def _actions(self, a: int, r: int) -> list[Group]:
        """Groups to place at the first tile ``a``, melds first; ``(-1, a)`` stands for the eye."""
        S, kb = self.S, self.kb
        out: list[Group] = []
        free = len(self.groups) < self.melds
        has1 = 0 <= r <= 7 and S[a + 1] > 0
        has2 = 0 <= r <= 6 and S[a + 2] > 0
        if free:
            if self.six:
                if has1 and has2:
                    out.append((a, a + 1, a + 2))
            elif has1 or has2:
                out.append(tuple(x for x, ok in ((a, True), (a + 1, has1), (a + 2, has2)) if ok))
            if S[a] >= 2 and (not self.six or S[a] >= 3 or kb[a] > 0):
                out.append((a,) * min(3, S[a]))
            if self.six:
                if has1 and ((r >= 1 and kb[a - 1] > 0) or (r <= 6 and kb[a + 2] > 0)):
                    out.append((a, a + 1))
                if has2 and kb[a + 1] > 0:
                    out.append((a, a + 2))
        if self.eye is None and S[a] >= 2:
            out.append((-1, a))  # marker: the eye
        return out

    def _take(self, group: Group, a: int) -> None:
        if group[0] == -1:
            self.eye = (a, a)
            tiles: Group = (a, a)
        else:
            self.groups.append(group)
            tiles = group
        for t in tiles:
            self.S[t] -= 1
        self.n_S -= len(tiles)
        self.placed += len(tiles)

    def _untake(self, group: Group, a: int) -> None:
        if group[0] == -1:
            self.eye = None
            tiles: Group = (a, a)
        else:
            self.groups.pop()
            tiles = group
        for t in tiles:
            self.S[t] += 1
        self.n_S += len(tiles)
        self.placed -= len(tiles)

    # ------------------------------------------------------------ leaves
    def _kept(self) -> list[int]:
        kept = [0] * NUM_KINDS
        for g in self.groups:
            for t in g:
                kept[t] += 1
        if self.eye is not None:
            kept[self.eye[0]] += 2
        return kept

    def _holders_completable(self, used: list[int], i: int = 0) -> bool:
        """Can groups i.. be finished together without any kind above ``avail``?"""
        if i == len(self.groups):
            return True
        for fill in _fills(self.groups[i]):
            if all(used[t] < self.avail[t] for t in fill):
                for t in fill:
                    used[t] += 1
                ok = self._holders_completable(used, i + 1)
                for t in fill:
                    used[t] -= 1
                if ok:
                    return True
        return False

    def _leaf4(self) -> int:
        """The paper's leaf rules (quadtree, hand only)."""
        empty_melds = self.melds - len(self.groups)
        empty_eye = self.eye is None
        base = self.target - self.placed  # empty holders counted as 3 (meld) or 2 (eye)
        if base - empty_melds - empty_eye >= self.best:
            return UNREACHABLE
        if not self._holders_completable(self._kept()):
            return UNREACHABLE
        empties = empty_melds + int(empty_eye)
        if empties == 0:
            return base
        if not (self.literal or self.paper_setting):
            return self._leaf_exact()
        n_rem = self.n_R + self.n_S
        if not empty_eye or n_rem >= 4:  # Corollary 2
            return base - empties
        # only the eye is empty and at most three tiles remain: the kong exception
        remainder = [t for t in range(NUM_KINDS) if self.R[t] + self.S[t] > 0]
        if any(self.hand[t] < self.avail[t] for t in remainder):
            return base - 1
        return base

    def _leaf_exact(self) -> int:
        """Exact leaf: complete every holder jointly within hand + KB, seeding empty ones."""
        groups = self.groups
        empty_melds = self.melds - len(groups)
        empty_eye = self.eye is None
        remainder = [self.R[t] + self.S[t] for t in range(NUM_KINDS)]
        n_rem = self.n_R + self.n_S
        fixed = sum(3 - len(g) for g in groups)
        empties = empty_melds + int(empty_eye)
        floor = fixed + 2 * empty_melds + int(empty_eye) + max(0, empties - n_rem)
        if floor >= self.best:
            return UNREACHABLE
        used = self._kept()
        avail = self.avail
        best = [self.best]

        def finish_eye(cost: int) -> None:
            if not empty_eye:
                best[0] = min(best[0], cost)
                return
            if cost + 1 >= best[0]:
                return
            for t in range(NUM_KINDS):  # seeded: one remainder tile and one KB tile
                if remainder[t] > 0 and used[t] + 2 <= avail[t]:
                    best[0] = cost + 1
                    return
            if cost + 2 >= best[0]:
                return
            for t in range(NUM_KINDS):  # wholly from the KB
                if used[t] + 2 <= avail[t]:
                    best[0] = cost + 2
                    return

        def add(meld: Group, seed: int) -> bool:
            for t in meld:
                used[t] += 1
            if any(used[t] > avail[t] for t in meld):
                for t in meld:
                    used[t] -= 1
                return False
            if seed >= 0:
                remainder[seed] -= 1
            return True

        def remove(meld: Group, seed: int) -> None:
            for t in meld:
                used[t] -= 1
            if seed >= 0:
                remainder[seed] += 1

        def empty_meld(k: int, cost: int, floor_rest: int, start: int) -> None:
            """Fill empty meld holders k..; options in a fixed order, non-decreasing."""
            if k == empty_melds:
                finish_eye(cost)
                return
            if cost + floor_rest >= best[0]:
                return
            # option index: seeded (seed t, its slot-th meld) as 8 t + slot, then wholly-KB melds
            for t in range(NUM_KINDS):
                if remainder[t] == 0:
                    continue
                for slot, meld in enumerate(_meld_options(t)):
                    idx = 8 * t + slot
                    if idx < start:
                        continue
                    if add(meld, t):
                        # the seed is a kept tile: meld already counted it in `used`
                        empty_meld(k + 1, cost + 2, floor_rest - 2, idx)
                        remove(meld, t)
            if cost + 3 + floor_rest - 2 >= best[0]:
                return
            for j, meld in enumerate(_ALL_MELDS):
                idx = 8 * NUM_KINDS + j
                if idx < start:
                    continue
                if add(meld, -1):
                    empty_meld(k + 1, cost + 3, floor_rest - 2, idx)
                    remove(meld, -1)

        def holder(i: int, cost: int) -> None:
            if i == len(groups):
                empty_meld(0, cost, 2 * empty_melds + int(empty_eye), 0)
                return
            for fill in _fills(groups[i]):
                if all(used[t] < avail[t] for t in fill):
                    for t in fill:
                        used[t] += 1
                    holder(i + 1, cost)
                    for t in fill:
                        used[t] -= 1

        holder(0, fixed)
        return best[0] if best[0] < self.best else UNREACHABLE


def quadtree4(hand: CountsLike, melds_needed: int, *, literal: bool = False) -> int:
    """Hand-only deficiency by the quadtree of "Let's Play Mahjong!" (leaf rules of Sec. 4.2).

    Every copy of every tile not in the hand may come in (honours too), as
    the production kernel reads an empty KB.  ``melds_needed`` is 0-5; the
    hand holds 3m+1 or 3m+2 tiles.

    Not exact everywhere, because the tree never splits ``a a+1`` from an
    ``a+2`` in S: the one-suit hands 2222 5 66 7777 88 9 and
    1111 5 66 7777 88 9 have deficiency 1 (change a 2 or a 1 for a 4:
    222 456 678 789 77) and the tree finds 2 — the only two of the 118,800
    one-suit 14-tile hands.  A 3m+1-tile hand therefore first draws each
    tile it can (definition 9 for 13-tiles): on its own tiles the tree would
    miss e.g. 5 66 7777 88 9 + 4.  The paper proves its leaf rules for
    suits-only hands; with honours a leaf with empty holders is refined
    exactly (as in :func:`quadtree6`).  ``literal=True`` applies the rules
    everywhere, and then e.g. 44p 4444z 6666z 7777z (4 melds) gets 2 where
    the deficiency is 3: no remainder tile (the fourth copy of an honour)
    can seed a meld.
    """
    h, _ = prepare_lists(hand, None, melds_needed)
    if sum(h) == 3 * melds_needed + 2:
        return _Search(h, [4 - n for n in h], melds_needed, six=False, literal=literal).run()
    best = UNREACHABLE
    for t in range(NUM_KINDS):
        if h[t] < 4 and best > 1:
            h[t] += 1
            search = _Search(h, [4 - n for n in h], melds_needed, six=False, literal=literal)
            search.best = best - 1  # only a better answer matters
            found = search.run()
            h[t] -= 1
            if found + 1 < best:
                best = found + 1
    return best


def quadtree6(hand: CountsLike, unseen: CountsLike | None, melds_needed: int) -> int:
    """Exact knowledge-aware deficiency by the 6-ary tree (Yan, Li & Li, Sec. 6).

    ``unseen`` is the KB (27 or 34 entries); ``None`` or an empty vector means
    every copy not in the hand.  Returns :data:`UNREACHABLE` when the KB
    cannot complete the hand.
    """
    h, kb = prepare_lists(hand, unseen, melds_needed)
    return _Search(h, kb, melds_needed, six=True).run()
