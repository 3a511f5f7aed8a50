"""The production kernel against every number in oracles.md and against `mahjong`."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from game.rules import MCR_BOTZONE
from game.tiles import NUM_KINDS, parse_counts, parse_paper_counts
from strategy.deficiency import (
    UNREACHABLE,
    DeficiencyError,
    deficiency,
    shape_deficiency,
)
from strategy.deficiency import shapes as shape_kernels
from strategy.deficiency.kernel import kernel_deficiency, kernel_deficiency_batch

FULL = np.zeros(0, dtype=np.int8)


def one_suit_hands(size: int) -> np.ndarray:
    """Every one-suit count vector (at most four of a rank) with ``size`` tiles, as 34-vectors."""
    rows = [c for c in itertools.product(range(5), repeat=9) if sum(c) == size]
    out = np.zeros((len(rows), NUM_KINDS), dtype=np.int8)
    out[:, :9] = np.array(rows, dtype=np.int8)
    return out


def suits_only_unseen(hands: np.ndarray) -> np.ndarray:
    """Mahjong-0: every copy of a suit tile not in the hand; no honours."""
    kb = (4 - hands).astype(np.int8)
    kb[:, 27:] = 0
    return kb


def batch(hands: np.ndarray, unseen: np.ndarray, melds: int) -> np.ndarray:
    out = np.zeros(len(hands), dtype=np.int32)
    kernel_deficiency_batch(hands, unseen, melds, out)
    return out


# ---------------------------------------------------------------- one-suit counts (papers 000, 003)
def test_one_suit_14_tile_counts() -> None:
    hands = one_suit_hands(14)
    assert len(hands) == 118_800
    d = batch(hands, suits_only_unseen(hands), 4)
    assert np.bincount(d).tolist() == [13_259, 91_065, 14_386, 90]


def test_one_suit_17_tile_counts() -> None:
    hands = one_suit_hands(17)
    assert len(hands) == 175_725
    d = batch(hands, suits_only_unseen(hands), 5)
    assert int((d == 0).sum()) == 26_414


def test_one_suit_13_tile_waits() -> None:
    hands = one_suit_hands(13)
    assert len(hands) == 93_600
    waits = np.zeros(len(hands), dtype=np.int64)
    for r in range(9):
        plus = hands.copy()
        plus[:, r] += 1
        ok = plus[:, r] <= 4  # a rank you already hold four of does not count
        d = batch(plus, suits_only_unseen(np.minimum(plus, 4)), 4)
        waits += ok & (d == 0)
    expected = {9: 1, 8: 16, 7: 79, 6: 392, 5: 1_335, 4: 2_948, 3: 6_739, 2: 14_493,
                1: 14_067, 0: 53_530}
    assert dict(enumerate(np.bincount(waits).tolist())) == expected
    nine_gates = hands[waits == 9][0][:9].tolist()
    assert nine_gates == [3, 1, 1, 1, 1, 1, 1, 1, 3]


# ---------------------------------------------------------------- single hands
SINGLE_HANDS = [
    ("(B1B2B2B3B3B4B7B7B7)(C1C1)(D4D5D6)", None, 0),
    ("(B1B1B2B2B2B2B3B3)(C1C2C8)(D2D2D8)", None, 2),
    ("(B1B1B2B5B8)(C1C2C2C5C8)(D3D6D8D9)", None, 6),
    ("(B3B5B6B9)(C2C2C3C6C9)(D1D1D2D5D8)", None, 6),
    ("11225566888899s", None, 3),
    ("(B1B5B6B8B8B8B9)(D1D2D4D5D5D6D7)", None, 3),
    ("(C1C4C6C7C8C9)(D1D2D3D6D6D7D8)", "(001100121)(010000030)(032242321)", 4),
    ("(C1C4C6C7C8C9)(D1D2D3D6D6D7D8)", None, 2),
]


@pytest.mark.parametrize(("hand", "kb", "expected"), SINGLE_HANDS)
def test_single_hands(hand: str, kb: str | None, expected: int) -> None:
    counts = parse_counts(hand)
    unseen = parse_paper_counts(kb) if kb else None
    assert deficiency(counts, 4, unseen, honours=False) == expected


def test_incompatible_kb_is_refused_naming_the_tile() -> None:
    hand = parse_counts("(B1B5B6B8B8B8B9)(D1D2D4D5D5D6D7)")
    kb = parse_paper_counts("(343423023)(434434443)(334220344)")
    with pytest.raises(DeficiencyError, match="8s"):
        deficiency(hand, 4, kb)
    # the kernel itself reports the tile: -(1 + index of 8s)
    assert kernel_deficiency(hand, kb, 4) == -(1 + 25)


def test_no_unseen_tile_can_make_the_pair() -> None:
    # 123m 456m 789m 123p + 5s: the pair must be 5s 5s but no 5s is unseen
    hand = parse_counts("123456789m123p5s")
    kb = np.full(34, 4, dtype=np.int8) - hand
    kb[22] = 0
    assert deficiency(hand, 4, kb) == 2  # change 5s for a tile that pairs with one unseen copy
    kb[:] = 0
    assert deficiency(hand, 4, kb) == UNREACHABLE
    kb[0] = 1  # one 1m unseen: draw it, keep 1m 1m as the pair? 123m needs its 1m: no
    assert deficiency(hand, 4, kb) == UNREACHABLE


def test_declared_melds_reduce_melds_needed() -> None:
    assert deficiency(parse_counts("123m55p"), 1) == 0
    assert deficiency(parse_counts("123m5p"), 1) == 1
    assert deficiency(parse_counts("5p"), 0) == 1
    assert deficiency(parse_counts("55p"), 0) == 0
    kb = np.zeros(34, dtype=np.int8)
    assert deficiency(parse_counts("5p"), 0, kb) == UNREACHABLE


def test_bad_sizes_and_counts_are_refused() -> None:
    with pytest.raises(DeficiencyError, match="14"):
        deficiency(parse_counts("123m"), 4)
    with pytest.raises(DeficiencyError, match=r"holds -1"):
        bad = parse_counts("123456789m123p55s").astype(np.int8)
        bad[30] = -1
        bad[22] += 1
        deficiency(bad, 4)


# ---------------------------------------------------------------- against the mahjong package
def random_hands(rng: np.random.Generator, n: int, quads: int = 0) -> np.ndarray:
    out = np.zeros((n, NUM_KINDS), dtype=np.int8)
    for i in range(n):
        tiles = list(rng.choice(NUM_KINDS, quads, replace=False) if quads else [])
        counts = np.zeros(NUM_KINDS, dtype=np.int8)
        for t in tiles:
            counts[t] = 4
        free = np.repeat(np.arange(NUM_KINDS), 4 - counts)
        rest = rng.choice(free, 14 - 4 * quads, replace=False)
        counts += np.bincount(rest, minlength=NUM_KINDS).astype(np.int8)
        out[i] = counts
    return out


@pytest.mark.parametrize(("quads", "n"), [(0, 20_000), (1, 5_000), (2, 5_000), (3, 2_000)])
def test_matches_mahjong_shanten_hand_only(quads: int, n: int) -> None:
    rng = np.random.default_rng(1000 + quads)
    hands = random_hands(rng, n, quads)
    ours = batch(hands, np.zeros((n, 0), dtype=np.int8), 4)
    mahjong_shanten = pytest.importorskip("mahjong.shanten", reason="the mahjong oracle is "
                                          "in the dev extra: pip install -e '.[dev]'")
    shanten = mahjong_shanten.Shanten()
    theirs = [shanten.calculate_shanten_for_regular_hand(h.tolist()) + 1 for h in hands]
    mismatches = [(hands[i], ours[i], theirs[i]) for i in range(n) if ours[i] != theirs[i]]
    assert not mismatches[:5]


def test_mean_shanten_of_random_hands() -> None:
    """oracles.md: about 3.157 — that is the least over regular, seven pairs and thirteen
    orphans (the usual 'shanten'); the regular shape alone averages about 3.316."""
    rng = np.random.default_rng(7)
    n = 60_000
    hands = np.array([np.bincount(rng.choice(136, 14, replace=False) // 4, minlength=34)
                      for _ in range(n)], dtype=np.int8)
    regular = batch(hands, np.zeros((n, 0), dtype=np.int8), 4)
    avail = np.full(34, 4, dtype=np.int8)
    special = np.array([min(shape_kernels.seven_pairs(h, avail),
                            shape_kernels.thirteen_orphans(h, avail)) for h in hands])
    assert abs((regular.mean() - 1) - 3.316) < 0.02
    assert abs((np.minimum(regular, special).mean() - 1) - 3.157) < 0.02


# ---------------------------------------------------------------- jitted against plain Python
@pytest.mark.parametrize("jitted", [True, False], ids=["numba", "plain"])
def test_a_full_kb_gives_what_its_explicit_counts_give(jitted: bool) -> None:
    """The full-KB kernel (groups that touch no tile of the hand passed over, free fillers)
    against the general rank DP given every copy not in the hand as its KB: random hands of
    every size, single-suit and honour-heavy ones, four of a kind, 0-4 melds needed."""
    rng = np.random.default_rng(2026)
    run = kernel_deficiency if jitted else kernel_deficiency.py_func
    cases = 6_000 if jitted else 600
    for i in range(cases):
        melds = int(rng.integers(0, 5))
        size = 3 * melds + int(rng.integers(1, 3))
        style = i % 4
        if style == 0:
            pool = np.repeat(np.arange(NUM_KINDS), 4)
        elif style == 1:
            pool = np.repeat(np.arange(9 * (i % 3), 9 * (i % 3) + 9), 4)
        elif style == 2:
            pool = np.repeat(np.r_[np.arange(27, 34), np.arange(9 * (i % 3), 9 * (i % 3) + 9)], 4)
        else:
            pool = np.repeat(rng.choice(NUM_KINDS, 5, replace=False), 4)
        hand = np.bincount(rng.choice(pool, size, replace=False),
                           minlength=NUM_KINDS).astype(np.int8)
        explicit = (4 - hand).astype(np.int8)
        assert run(hand, FULL, melds) == kernel_deficiency(hand, explicit, melds), hand
    assert run(parse_counts("11112222333344m"), FULL, 4) == 0  # 123m x4 + 44m
    assert run(parse_counts("11112222333345m"), FULL, 4) == 0  # 111 123 222 345 + 33
    assert run(parse_counts("1112345678999m"), FULL, 4) == 1  # nine gates: 13 tiles, waiting


def test_the_public_call_refuses_other_types_into_the_checked_path() -> None:
    hand = parse_counts("1112345678999m")
    assert deficiency(hand, 4) == 1
    assert deficiency(hand.astype(np.int64), 4) == 1  # not int8: the checked path
    assert deficiency(hand.tolist(), 4) == 1
    assert deficiency(hand[::-1][::-1].copy(), 4) == 1
    with pytest.raises(DeficiencyError, match=r"five copies|at most four"):
        bad = hand.copy()
        bad[0] = 5
        deficiency(bad, 4)


def test_jitted_and_plain_python_agree() -> None:
    rng = np.random.default_rng(11)
    plain = kernel_deficiency.py_func
    for _ in range(400):
        hand = random_hands(rng, 1, int(rng.integers(0, 2)))[0]
        kb = np.minimum(rng.integers(0, 5, NUM_KINDS), 4 - hand).astype(np.int8)
        if rng.random() < 0.2:
            kb[rng.integers(0, NUM_KINDS, 10)] = 0
        for unseen in (kb, FULL):
            assert kernel_deficiency(hand, unseen, 4) == plain(hand, unseen, 4)
    for fn in ("seven_pairs", "thirteen_orphans", "honors_and_knitted"):
        jitted = getattr(shape_kernels, fn)
        for _ in range(100):
            hand = random_hands(rng, 1)[0]
            avail = (hand + np.minimum(rng.integers(0, 5, 34), 4 - hand)).astype(np.int8)
            assert jitted(hand, avail) == jitted.py_func(hand, avail)


def test_shape_deficiency_of_special_hands() -> None:
    sd = shape_deficiency(parse_counts("19m19p19s1234567z1m"), MCR_BOTZONE)
    assert sd.thirteen_orphans == 0
    sd = shape_deficiency(parse_counts("147m258p369s12345z"), MCR_BOTZONE)
    assert sd.honors_and_knitted == 0 and sd.knitted_straight > 0
    sd = shape_deficiency(parse_counts("147m258p369s567m11z"), MCR_BOTZONE)
    assert sd.knitted_straight == 0
    sd = shape_deficiency(parse_counts("1111m3355p77s1122z"), MCR_BOTZONE)
    assert sd.seven_pairs == 0  # four of a kind counts as two pairs
