"""The agent asks PyMahjongGB for the fans of a hand only when the hand has a winning shape
(least shape deficiency 0): that must never hide a win PyMahjongGB would score, nor is a
shape of deficiency 0 ever refused by it."""

from __future__ import annotations

import numpy as np

from game.melds import Chow, Meld, Pung
from game.scoring.mcr import WinContext, mcr_fans
from game.tiles import NUM_KINDS, TERMINALS_AND_HONOURS
from strategy.candidates import best_shape_deficiency
from strategy.deficiency.shapes import KNITTED


def has_shape(counts: np.ndarray, melds_needed: int) -> bool:
    return best_shape_deficiency(counts.astype(np.int8), (4 - counts).astype(np.int8),
                                 melds_needed, True, melds_needed == 4) == 0


def pymahjonggb_wins(counts: np.ndarray, melds: list[Meld]) -> bool:
    tiles = np.repeat(np.arange(NUM_KINDS), counts).tolist()
    win = tiles.pop()
    return mcr_fans(tiles, melds, win, WinContext(seat=0, prevalent_wind=0)) is not None


def random_meld(rng: np.random.Generator, counts: np.ndarray) -> None:
    lo = int(rng.integers(0, 34))
    if lo < 27 and lo % 9 <= 6 and rng.random() < 0.6:
        counts[lo:lo + 3] += 1
    else:
        counts[lo] += 3


def complete_hands(rng: np.random.Generator) -> list[tuple[np.ndarray, list[Meld], int]]:
    """(concealed counts, declared melds, melds needed) of complete hands of every shape."""
    out: list[tuple[np.ndarray, list[Meld], int]] = []
    for i in range(300):
        counts = np.zeros(NUM_KINDS, dtype=np.int64)
        melds: list[Meld] = []
        shape = i % 6
        if shape == 0:  # melds and a pair, some declared
            declared = i % 3
            for _ in range(4 - declared):
                random_meld(rng, counts)
            counts[int(rng.integers(0, 34))] += 2
            for d in range(declared):
                t = int(rng.integers(0, 27))
                melds.append(Chow(t - t % 9 + 1, t - t % 9 + 1, 3) if d % 2 else Pung(t, 2))
        elif shape == 1:  # seven pairs (a four of a kind is two of them)
            for t in rng.choice(34, 7, replace=False):
                counts[t] += 2
            if i % 4 == 1:
                counts[np.nonzero(counts)[0][0]] += 2
                counts[np.nonzero(counts)[0][-1]] -= 2
        elif shape == 2:  # thirteen orphans
            counts[list(TERMINALS_AND_HONOURS)] += 1
            counts[int(rng.choice(TERMINALS_AND_HONOURS))] += 1
        elif shape == 3:  # honors and knitted: 14 of the 9 knitted tiles and 7 honours
            pool = [*KNITTED[i % 6].tolist(), *range(27, 34)]
            counts[rng.choice(pool, 14, replace=False)] += 1
        else:  # knitted straight, a meld and a pair (the meld declared when shape == 5)
            counts[KNITTED[i % 6]] += 1
            if shape == 5:
                melds.append(Pung(int(rng.integers(27, 34)), 1))
            else:
                random_meld(rng, counts)
            counts[int(rng.integers(0, 34))] += 2
        if counts.max() <= 4 and all(counts[m.tile] + 3 <= 4 for m in melds
                                     if isinstance(m, Pung)):
            out.append((counts, melds, 4 - len(melds)))
    return out


def test_every_complete_shape_is_a_win_and_has_deficiency_zero() -> None:
    hands = complete_hands(np.random.default_rng(3))
    assert len(hands) > 200
    for counts, melds, needed in hands:
        assert has_shape(counts, needed), (counts.tolist(), melds)
        assert pymahjonggb_wins(counts, melds), (counts.tolist(), melds)


def test_a_hand_without_a_winning_shape_is_never_a_win() -> None:
    rng = np.random.default_rng(4)
    hands = complete_hands(rng)
    wins = 0
    for n, (complete, melds, needed) in enumerate(hands * 4):
        counts = complete.copy()
        for _ in range(1 + n % 2):  # swap one or two tiles
            counts[int(rng.choice(np.nonzero(counts)[0]))] -= 1
            counts[int(rng.integers(0, 34))] += 1
        if counts.max() > 4:
            continue
        shaped = has_shape(counts, needed)
        assert shaped == pymahjonggb_wins(counts, melds), (counts.tolist(), melds)
        wins += shaped
    assert wins > 20


def test_the_seat_views_bound_with_nothing_unseen_sees_the_same_wins() -> None:
    """The seat view asks PyMahjongGB for an offered win only where the concealed tiles
    themselves are complete (:meth:`bot.seat.PlayerState._complete_shape`: the least shape
    deficiency with nothing unseen is 0): that is so exactly for the hands PyMahjongGB
    scores, complete ones and the same with one or two tiles swapped."""
    rng = np.random.default_rng(5)
    none_unseen = np.zeros(NUM_KINDS, dtype=np.int8)
    wins = 0
    for n, (complete, melds, needed) in enumerate(complete_hands(rng) * 2):
        counts = complete.copy()
        for _ in range(n % 3):  # as it is, or one or two tiles swapped
            counts[int(rng.choice(np.nonzero(counts)[0]))] -= 1
            counts[int(rng.integers(0, 34))] += 1
        if counts.max() > 4:
            continue
        bound = best_shape_deficiency(counts.astype(np.int8), none_unseen, needed, True,
                                      needed == 4) == 0
        assert bound == pymahjonggb_wins(counts, melds), (counts.tolist(), melds)
        wins += bound
    assert wins > 200
