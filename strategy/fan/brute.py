"""The brute-force oracle of the fan-aware deficiency: PyMahjongGB judges every near hand.

Definition (the one :mod:`strategy.fan.routes` bounds from above): a complete hand C (the
concealed tiles; the declared melds stay as they are) is *worth 8* when PyMahjongGB scores
it at least ``min_fan`` as a win on a discard for every choice of its last tile among the
concealed kinds (no flowers, not the last tile of the wall, not about a kong, not the
fourth copy).  The fan-aware deficiency of a hand H is the least ``|(C - H)+|`` over such C
with ``C <= H + unseen`` — changes as in definition 9 of Yan, Li & Li, "A Fast Algorithm for
Computing the Deficiency Number of a Mahjong Hand".  "Whatever the last tile" makes the
worth independent of the wait (edge, closed and single wait, a pung completed on a discard
is not concealed): a hand counts only if it is worth 8 however it is finished.

The search lists every complete hand within ``budget`` changes, nearest first: groups are
chosen in a fixed order (the pair, then melds in index order) and a branch stops as soon as
its tiles from outside the hand exceed the budget; the special shapes are listed apart.  No
code of the routes or of the deficiency kernels is used.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np

from game.melds import Meld
from game.scoring.mcr import WinContext, mcr_fans
from game.tiles import NUM_KINDS, TERMINALS_AND_HONOURS

_MELDS: list[tuple[int, int, int]] = [(t, t, t) for t in range(NUM_KINDS)] + [
    (9 * s + r, 9 * s + r + 1, 9 * s + r + 2) for s in range(3) for r in range(7)
]
_MELDS.sort()
_KNITTED = [
    [9 * perm[g] + g + 3 * step for g in range(3) for step in range(3)]
    for perm in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))
]


def _missing(counts: np.ndarray, hand: np.ndarray) -> int:
    return int(np.maximum(counts - hand, 0).sum())


def _regular(hand: np.ndarray, avail: np.ndarray, melds: int, budget: int
             ) -> Iterator[np.ndarray]:
    h = [int(x) for x in hand]
    a = [int(x) for x in avail]
    c = [0] * NUM_KINDS
    groups = [g for g in _MELDS if all(a[t] >= g.count(t) for t in g)]

    def walk(start: int, left: int, spent: int) -> Iterator[np.ndarray]:
        if left == 0:
            yield np.array(c, dtype=np.int64)
            return
        for i in range(start, len(groups)):
            x, y, z = groups[i]
            cost = spent
            c[x] += 1
            cost += c[x] > h[x]
            c[y] += 1
            cost += c[y] > h[y]
            c[z] += 1
            cost += c[z] > h[z]
            if cost <= budget and c[x] <= a[x] and c[y] <= a[y] and c[z] <= a[z]:
                yield from walk(i, left - 1, cost)
            c[x] -= 1
            c[y] -= 1
            c[z] -= 1

    for p in range(NUM_KINDS):
        if a[p] < 2:
            continue
        c[p] = 2
        spent = max(0, 2 - h[p])
        if spent <= budget:
            yield from walk(0, melds, spent)
        c[p] = 0


def _seven_pairs(hand: np.ndarray, avail: np.ndarray, budget: int) -> Iterator[np.ndarray]:
    c = np.zeros(NUM_KINDS, dtype=np.int64)

    def walk(start: int, left: int) -> Iterator[np.ndarray]:
        if left == 0:
            yield c.copy()
            return
        for t in range(start, NUM_KINDS):
            if c[t] + 2 > avail[t]:
                continue
            c[t] += 2
            if _missing(c, hand) <= budget:
                yield from walk(t, left - 1)  # the same kind twice: four of a kind
            c[t] -= 2

    yield from walk(0, 7)


def _special(hand: np.ndarray, avail: np.ndarray, melds: int, budget: int
             ) -> Iterator[np.ndarray]:
    if melds == 4:
        yield from _seven_pairs(hand, avail, budget)
        for extra in TERMINALS_AND_HONOURS:
            c = np.zeros(NUM_KINDS, dtype=np.int64)
            c[list(TERMINALS_AND_HONOURS)] = 1
            c[extra] += 1
            yield c
        for knit in _KNITTED:
            tiles = knit + list(range(27, 34))
            if 14 - sum(1 for t in tiles if hand[t] > 0) > budget:
                continue
            for i in range(16):
                for j in range(i + 1, 16):
                    c = np.zeros(NUM_KINDS, dtype=np.int64)
                    c[[t for k, t in enumerate(tiles) if k not in (i, j)]] = 1
                    yield c
    if melds >= 3:
        for knit in _KNITTED:
            base = np.zeros(NUM_KINDS, dtype=np.int64)
            base[knit] = 1
            if (base > avail).any():
                continue
            rest_hand = np.maximum(hand - base, 0)
            spent = _missing(base, hand)
            if spent > budget:
                continue
            for rest in _regular(rest_hand, avail - base, melds - 3, budget - spent):
                yield base + rest


def complete_hands(hand: np.ndarray, avail: np.ndarray, melds: int, budget: int
                   ) -> list[tuple[int, np.ndarray]]:
    """Every complete concealed part within ``budget`` changes of ``hand`` inside ``avail``,
    as (changes, counts), nearest first, each once."""
    seen: set[bytes] = set()
    out = []
    for c in [*_regular(hand, avail, melds, budget), *_special(hand, avail, melds, budget)]:
        if (c > avail).any():
            continue
        cost = _missing(c, hand)
        key = c.tobytes()
        if cost <= budget and key not in seen:
            seen.add(key)
            out.append((cost, c))
    out.sort(key=lambda x: x[0])
    return out


def hand_fan(counts: np.ndarray, melds: Sequence[Meld], seat_wind: int,
             prevalent_wind: int, stop_below: int | None = None) -> int:
    """The least fan PyMahjongGB gives the complete hand (concealed ``counts`` + ``melds``)
    over its last tile, won on a discard; -1 if it is no win.  With ``stop_below`` the
    search stops at the first last tile that scores less (its fan is returned)."""
    tiles = [t for t in range(NUM_KINDS) for _ in range(int(counts[t]))]
    least = 10**9
    on_a_discard = WinContext(seat_wind, prevalent_wind)
    for win in sorted(set(tiles)):
        rest = list(tiles)
        rest.remove(win)
        fans = mcr_fans(rest, melds, win, on_a_discard)
        if fans is None:
            return -1
        total = sum(f.total for f in fans)
        least = min(least, total)
        if stop_below is not None and least < stop_below:
            break
    return least


def brute_fan_deficiency(hand: np.ndarray, melds: Sequence[Meld], unseen: np.ndarray,
                         budget: int, *, seat_wind: int = 0, prevalent_wind: int = 0,
                         min_fan: int = 8) -> int | None:
    """The fan-aware deficiency by enumeration, or None when it is above ``budget``."""
    h = np.asarray(hand, dtype=np.int64)
    avail = h + np.asarray(unseen, dtype=np.int64)
    needed = 4 - len(melds)
    if int(h.sum()) not in (3 * needed + 1, 3 * needed + 2):
        raise ValueError(f"a hand beside {len(melds)} melds holds {3 * needed + 1} or "
                         f"{3 * needed + 2} tiles, not {int(h.sum())}")
    for cost, c in complete_hands(h, avail, needed, budget):
        # |(C - H)+| = (3m + 2) - |C ∩ H| for a hand of 3m+1 or 3m+2 tiles alike
        if hand_fan(c, melds, seat_wind, prevalent_wind, stop_below=min_fan) >= min_fan:
            return cost
    return None


# ---------------------------------------------------------------- test cases
_STYLES = ("any", "flush", "pungs", "honours")


def sample_case(rng: np.random.Generator, max_changes: int = 2,
                declared: Sequence[int] = (0, 0, 1, 2)
                ) -> tuple[np.ndarray, tuple[Meld, ...], np.ndarray, int, int]:
    """A random (hand, declared melds, unseen, seat wind, prevalent wind) near a complete
    hand: groups drawn in one of a few styles (any, one suit with honours, pungs only,
    honour-heavy), some of them declared (a number drawn from ``declared``), then up to
    ``max_changes`` random changes, a tile less half the time, and some kinds seen
    elsewhere."""
    from game.melds import Chow, ConcealedKong, Kong, Pung

    style = _STYLES[int(rng.integers(len(_STYLES)))]
    suit = int(rng.integers(3))
    while True:
        used = np.zeros(NUM_KINDS, dtype=np.int64)
        groups: list[tuple[int, ...]] = []
        for _ in range(4):
            for _try in range(50):
                if style == "pungs" or (style == "honours" and rng.random() < 0.5):
                    lo = 27 if style == "honours" else 0
                    t = int(rng.integers(lo, NUM_KINDS))
                    g: tuple[int, ...] = (t, t, t)
                elif style == "flush":
                    if rng.random() < 0.25:
                        t = int(rng.integers(27, NUM_KINDS))
                        g = (t, t, t)
                    elif rng.random() < 0.3:
                        t = 9 * suit + int(rng.integers(9))
                        g = (t, t, t)
                    else:
                        t = 9 * suit + int(rng.integers(7))
                        g = (t, t + 1, t + 2)
                else:
                    g = _MELDS[int(rng.integers(len(_MELDS)))]
                if all(used[t] + g.count(t) <= 4 for t in set(g)):
                    break
            for t in g:
                used[t] += 1
            groups.append(g)
        lo = 9 * suit if style == "flush" else 0
        p = int(rng.integers(lo, NUM_KINDS))
        if used[p] + 2 <= 4 and all(used <= 4):
            used[p] += 2
            break
    seat, prevalent = int(rng.integers(4)), int(rng.integers(4))
    n_declared = int(rng.choice(list(declared)))
    melds: list[Meld] = []
    shown = np.zeros(NUM_KINDS, dtype=np.int64)
    hand = np.zeros(NUM_KINDS, dtype=np.int64)
    hand[p] += 2
    for i, g in enumerate(groups):
        if i < n_declared:
            other = (seat + 1 + int(rng.integers(3))) % 4
            if g[0] != g[1]:
                melds.append(Chow(g[1], g[int(rng.integers(3))], (seat + 3) % 4))
                shown[list(g)] += 1
                continue
            t = g[0]
            kong = used[t] == 3 and rng.random() < 0.3
            if kong:
                melds.append(ConcealedKong(t) if rng.random() < 0.5 else Kong(t, other))
                shown[t] += 4
                used[t] += 1
            else:
                melds.append(Pung(t, other))
                shown[t] += 3
        else:
            for t in g:
                hand[t] += 1
    for _ in range(int(rng.integers(max_changes + 1))):
        out = rng.choice(np.repeat(np.arange(NUM_KINDS), hand))
        hand[out] -= 1
        free = np.flatnonzero(hand + shown < 4)
        hand[int(rng.choice(free))] += 1
    if rng.random() < 0.5:
        hand[rng.choice(np.repeat(np.arange(NUM_KINDS), hand))] -= 1
    unseen = 4 - hand - shown
    unseen[rng.integers(0, NUM_KINDS, int(rng.integers(0, 12)))] = 0
    return (hand.astype(np.int8), tuple(melds), unseen.astype(np.int8), seat, prevalent)
