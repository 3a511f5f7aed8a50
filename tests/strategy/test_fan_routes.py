"""The fan-aware deficiency (routes to 8 fan) against the brute-force oracle, which asks
PyMahjongGB about every complete hand within a few changes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from game.melds import Chow, ConcealedKong, Kong, Meld, Pung
from game.tiles import RED, WHITE, parse_counts
from strategy.fan import (
    UNREACHABLE,
    FanDeficiencyError,
    Route,
    declared_rows,
    discard_fan_deficiencies,
    draw_fan_deficiencies,
    fan_deficiency,
    route_deficiencies,
)
from strategy.fan.brute import brute_fan_deficiency, hand_fan, sample_case
from strategy.fan.kernels import bonus_overlap, pungs_overlap
from strategy.fan.lowering import draws_lowering
from strategy.fan.plain_dp import bonus_overlap_blocks, pungs_overlap_blocks
from strategy.fan.routes import after_each_discard, after_each_draw, capped_route_table, route_table
from strategy.fan.table import NUM_ROUTES

ROOT = Path(__file__).resolve().parents[2]
BUDGET = 3


def full_unseen(hand: np.ndarray, melds: tuple[Meld, ...] = ()) -> np.ndarray:
    kb = 4 - hand.astype(np.int64)
    for m in melds:
        for t in m.tiles:
            kb[t] -= 1
    return kb.astype(np.int8)


# ---------------------------------------------------------------- single hands, oracle numbers
HANDS = [
    # (hand, melds, seat, round, the brute-force oracle's answer, the routes' answer)
    ("123456789m123p55s", (), 0, 0, 0, 0),  # pure straight (16)
    ("123m456p789s11z22z", (), 0, 0, 1, 1),  # mixed straight once a pair is a pung
    ("123m123p123s5556z", (), 0, 0, 1, 1),  # 13 tiles: mixed triple chow, a tile to pair
    ("11223344556677m", (), 0, 0, 0, 0),  # seven pairs (and a full flush)
    ("19m19p19s1234567z", (), 0, 0, 1, 1),  # thirteen orphans less one tile
    # dragon pung only; all types (6) + the dragon pung needs the white pair to be a wind's
    ("234m678p345s55z", (Pung(RED, 1),), 0, 0, 2, 2),
    ("234567m888m55z", (Pung(RED, 1),), 0, 0, 0, 0),  # half flush + dragon pung
    ("11m22p333s", (ConcealedKong(27), Kong(31, 2)), 0, 0, 1, 1),
    # concealed hand 2, two concealed pungs 2, white pung 2, 9p and 1s pungs 1 + 1
    ("123m555z999p111s44z", (), 0, 0, 0, 0),
    ("124m555z999p111s44z", (), 0, 0, 1, 1),
    ("567m345p456s66z", (Pung(RED, 1),), 0, 0, 0, 0),  # mixed shifted chows + dragon pung
    ("567m345p456s6z7z", (Pung(RED, 1),), 0, 0, 1, 1),
    ("123m789m123p789s99s", (), 0, 0, 0, 0),  # outside hand, concealed, all chows
    # melded hand (6) + dragon pung 2 + pung of an honour 1, once 5p pairs
    ("5p", (Chow(1, 0, 0), Chow(10, 9, 0), Pung(27, 0), Pung(RED, 2)), 1, 2, 1, 1),
    # melded hand (6) + all chows (2)
    ("9s", (Chow(1, 0, 3), Chow(4, 3, 3), Chow(13, 12, 3), Chow(22, 21, 3)), 0, 0, 1, 1),
    # knowingly above: 1234m4m 111z = dragon pung 2 + east as seat and round wind 2 + 2,
    # mixed double chow 1, one voided suit 1: small fans no route adds up
    ("123456m11z", (Pung(WHITE, 1), Chow(19, 19, 3)), 0, 0, 2, 3),
]


@pytest.mark.parametrize(("text", "melds", "seat", "wind", "truth", "routes"), HANDS)
def test_single_hands_against_the_oracle(text: str, melds: tuple[Meld, ...], seat: int,
                                         wind: int, truth: int, routes: int) -> None:
    hand = parse_counts(text)
    unseen = full_unseen(hand, melds)
    assert brute_fan_deficiency(hand, melds, unseen, BUDGET, seat_wind=seat,
                                prevalent_wind=wind) == truth
    assert fan_deficiency(hand, melds, unseen, seat_wind=seat, prevalent_wind=wind) == routes


def test_all_chows_is_not_claimed_beside_a_declared_pung() -> None:
    """Found by arena/bench/fan.py: mixed shifted chows 567p 678s 456m with all chows
    would be 8, but the declared 2m pung is no chow."""
    hand = parse_counts("66p77789s")
    melds = (Pung(1, 3), Chow(14, 13, 1))
    unseen = full_unseen(hand, melds)
    assert brute_fan_deficiency(hand, melds, unseen, BUDGET, seat_wind=2,
                                prevalent_wind=1) is None
    assert fan_deficiency(hand, melds, unseen, seat_wind=2, prevalent_wind=1) == 4


def test_oracle_scores_known_hands() -> None:
    # pure straight 16 + concealed hand 2 + ...: at least 18 whatever the last tile
    assert hand_fan(parse_counts("123456789m123p55s"), (), 0, 0) >= 18
    # 234m 678p 345s 55z + red pung: dragon pung 2 only, below 8
    assert hand_fan(parse_counts("234m678p345s55z"), (Pung(RED, 1),), 0, 0) < 8
    assert hand_fan(parse_counts("234m678p345s5z"), (Pung(RED, 1),), 0, 0) == -1


def test_route_families_on_a_pure_straight() -> None:
    d = route_deficiencies(parse_counts("123456789m123p55s"))
    assert d[Route.PURE_STRAIGHT] == 0
    assert d[Route.FULL_FLUSH] == 5  # 123p 55s go
    assert d[Route.MIXED_TRIPLE_CHOW] == 3  # 123s and a pair from 4-9m
    assert min(d.values()) == fan_deficiency(parse_counts("123456789m123p55s"))


# ---------------------------------------------------------------- random hands: never below
def test_never_below_the_oracle_and_mostly_exact() -> None:
    """Fixed seed, 120 hands near complete ones (some declared melds, some tiles seen).
    The routes' answer is never below the truth; the routes knowingly miss hands that reach
    8 only by small fans, so it is exact on most hands, not all (see arena/bench/fan.py
    for larger samples)."""
    rng = np.random.default_rng(1313)
    exact = above = 0
    for _ in range(120):
        hand, melds, unseen, seat, wind = sample_case(rng)
        got = fan_deficiency(hand, melds, unseen, seat_wind=seat, prevalent_wind=wind)
        truth = brute_fan_deficiency(hand, melds, unseen, BUDGET, seat_wind=seat,
                                     prevalent_wind=wind)
        if truth is None:  # more than BUDGET changes
            assert got > BUDGET, (hand.tolist(), melds, seat, wind)
            continue
        assert got >= truth, (hand.tolist(), melds, seat, wind, got, truth)
        exact += got == truth
        above += got > truth
    assert exact + above >= 80
    assert exact >= 0.75 * (exact + above)


def test_discard_table_matches_one_call_per_discard() -> None:
    rng = np.random.default_rng(404)
    for _ in range(10):
        hand, melds, unseen, seat, wind = sample_case(rng)
        if int(hand.sum()) % 3 != 2:
            continue
        table = discard_fan_deficiencies(hand, melds, unseen, seat_wind=seat,
                                         prevalent_wind=wind)
        assert set(table) == {int(t) for t in np.flatnonzero(hand)}
        for t, d in table.items():
            less = hand.copy()
            less[t] -= 1
            assert d == fan_deficiency(less, melds, unseen, seat_wind=seat,
                                       prevalent_wind=wind)
    with pytest.raises(FanDeficiencyError, match="discard"):
        discard_fan_deficiencies(parse_counts("123m456p789s11z23z"))


def test_draw_table_matches_one_call_per_draw() -> None:
    rng = np.random.default_rng(405)
    checked = 0
    for _ in range(12):
        hand, melds, unseen, seat, wind = sample_case(rng)
        if int(hand.sum()) % 3 != 1:
            continue
        table = draw_fan_deficiencies(hand, melds, unseen, seat_wind=seat,
                                      prevalent_wind=wind)
        assert set(table) == {int(t) for t in np.flatnonzero(unseen)}
        for t in list(table)[::5]:
            more, less = hand.copy(), unseen.copy()
            more[t] += 1
            less[t] -= 1
            assert table[t] == fan_deficiency(more, melds, less, seat_wind=seat,
                                              prevalent_wind=wind)
            checked += 1
    assert checked > 10
    with pytest.raises(FanDeficiencyError, match="draw"):
        draw_fan_deficiencies(parse_counts("123m456p789s11z222z"))


def test_draws_lowering_counts_the_draw_table_below_the_distance() -> None:
    """The capped routes (cut off at the distance) count the same useful draws as the full
    draw table, compiled and in plain Python; a capped table is min(least, cap)."""
    rng = np.random.default_rng(406)
    checked = 0
    for _ in range(40):
        hand, melds, unseen, seat, wind = sample_case(rng)
        if int(hand.sum()) % 3 != 1:
            continue
        rows = declared_rows(melds)
        h, kb = hand.astype(np.int8), unseen.astype(np.int8)
        out = np.empty(34, dtype=np.int64)
        after_each_draw(h, kb, 4 - len(melds), rows, seat, wind, out)
        now = fan_deficiency(hand, melds, unseen, seat_wind=seat, prevalent_wind=wind)
        for distance in (now, now + 1, now - 1, UNREACHABLE):
            want = int(kb[out < distance].sum())
            for kernel in (draws_lowering, draws_lowering.py_func):
                assert kernel(h, kb, 4 - len(melds), rows, seat, wind, distance) == want
        table = np.empty(NUM_ROUTES, dtype=np.int64)
        for cap in (now - 1, now, now + 2):
            got = capped_route_table(h, kb, 4 - len(melds), rows, seat, wind, table, True,
                                     cap, -1)
            assert got == min(now, cap)
        checked += 1
    assert checked > 10


def test_never_below_the_oracle_with_many_declared_melds() -> None:
    """60 hands with one to four declared melds (melded hands, kongs)."""
    rng = np.random.default_rng(2424)
    known = 0
    for i in range(60):
        hand, melds, unseen, seat, wind = sample_case(rng, 1 + i % 2, (1, 2, 3, 4))
        got = fan_deficiency(hand, melds, unseen, seat_wind=seat, prevalent_wind=wind)
        truth = brute_fan_deficiency(hand, melds, unseen, BUDGET, seat_wind=seat,
                                     prevalent_wind=wind)
        if truth is None:
            assert got > BUDGET, (hand.tolist(), melds, seat, wind)
        else:
            known += 1
            assert got >= truth, (hand.tolist(), melds, seat, wind, got, truth)
    assert known >= 40


def test_unreachable_without_the_tiles() -> None:
    hand = parse_counts("123m456p789s11z22z")
    assert fan_deficiency(hand, (), np.zeros(34, np.int8)) == UNREACHABLE


# ---------------------------------------------------------------- pieces
def test_pungs_overlap_counts_the_fan_of_its_pungs() -> None:
    hand = parse_counts("111m222p333s444z55z").astype(np.int8)
    avail = np.full(34, 4, np.int8)
    # seat wind north (3): 444z is worth 2, 111m 1: need 2 is met by the hand itself
    assert pungs_overlap(hand, avail, 4, 2, 3, 0) == 14
    # as a plain wind (1) with 111m (1): still 2
    assert pungs_overlap(hand, avail, 4, 2, 0, 0) == 14
    no_terminal = parse_counts("222m333p444s666s55z").astype(np.int8)
    # no pung brings fan: the white pair becomes a pung (dragon, 2) and 666s the pair
    assert pungs_overlap(no_terminal, avail, 4, 1, 0, 0) == 13
    assert pungs_overlap(no_terminal, avail, 4, 0, 0, 0) == 14


def test_pungs_overlap_with_one_chow_and_a_tile_hog() -> None:
    hand = parse_counts("123m555z999p111s44z").astype(np.int8)
    avail = np.full(34, 4, np.int8)
    # white 2 + 9p 1 + 1s 1 = 4 with the chow kept
    assert pungs_overlap(hand, avail, 4, 4, 0, 0, 1) == 14
    # pungs only: 23m become 11m (a terminal pung)
    assert pungs_overlap(hand, avail, 4, 4, 0, 0, 0) == 12
    hog = parse_counts("234m444m555p888s11z").astype(np.int8)
    # 4m four times (234m + 444m) is a tile hog (2); east is the seat wind (2) only as a
    # pung, and the pair brings nothing: 2 in all
    assert pungs_overlap(hog, avail, 4, 2, 0, 0, 1) == 14
    assert pungs_overlap(hog, avail, 4, 3, 0, 0, 1) < 14


def test_bonus_overlap_takes_fan_from_the_groups() -> None:
    avail = np.full(34, 4, np.int8)

    def overlap(text: str, need: int, no_pungs: bool = False, outside: bool = False) -> int:
        return int(bonus_overlap(parse_counts(text), avail, 3, 1, need, 0, 0, no_pungs,
                                 outside))

    assert overlap("234m444m678p22s", 2) == 11  # 4m four times: a tile hog (2)
    assert overlap("234m555m678p22s", 0) == 11
    assert overlap("234m555m678p22s", 2) == 10  # 2m -> 5m: 345m + 555m, a tile hog
    assert overlap("234m555m678p22s", 0, no_pungs=True) == 9  # 555m must become a chow
    assert overlap("123m789m789p11s", 0, True, True) == 11  # every group has a terminal
    assert overlap("234m789m789p11s", 0, True, True) == 10  # 4m -> 1m


def test_declared_rows_encode_the_melds() -> None:
    rows = declared_rows((Chow(1, 0, 3), Pung(31, 1), Kong(5, 2), ConcealedKong(27)))
    assert rows.tolist() == [[0, 0], [1, 31], [2, 5], [3, 27]]


def test_bad_input_is_named() -> None:
    hand = parse_counts("123m456p789s11z22z")
    with pytest.raises(FanDeficiencyError, match="13 or 14"):
        fan_deficiency(parse_counts("123m"))
    with pytest.raises(FanDeficiencyError, match="seat_wind"):
        fan_deficiency(hand, seat_wind=4)
    kb = full_unseen(hand)
    kb[0] += 1
    with pytest.raises(FanDeficiencyError, match="5 of 1m"):
        fan_deficiency(hand, (), kb)
    with pytest.raises(FanDeficiencyError, match="melds"):
        fan_deficiency(parse_counts("23m456p789s11z22z"), (Pung(0, 1),))


# ---------------------------------------------------------------- plain Python = jitted
SCRIPT = r"""
import json, sys
import numpy as np
import strategy.jit as jit
assert not jit.HAVE_NUMBA, "numba was used"
from strategy.fan.lowering import draws_lowering
from strategy.fan.routes import after_each_discard, after_each_draw, route_table
from strategy.fan.table import NUM_ROUTES
out = []
for hand, kb, rows, seat, wind in json.load(sys.stdin):
    h, k = np.array(hand, np.int8), np.array(kb, np.int8)
    r = np.array(rows, np.int64).reshape(-1, 2)
    o = np.zeros(NUM_ROUTES, np.int64)
    least = route_table(h, k, 4 - len(rows), r, seat, wind, o, False)
    each = np.zeros(34, np.int64)
    if int(h.sum()) % 3 == 2:
        after_each_discard(h, k, 4 - len(rows), r, seat, wind, each)
        useful = -1
    else:
        after_each_draw(h, k, 4 - len(rows), r, seat, wind, each)
        useful = draws_lowering(h, k, 4 - len(rows), r, seat, wind, int(least))
    out.append([int(least), o.tolist(), each.tolist(), int(useful)])
json.dump(out, sys.stdout)
"""


def test_plain_python_matches_the_jitted_kernel() -> None:
    """route_table, each discard and each draw (and the useful draws) without numba, where
    the plain-Python twins of the DPs and the route loops (strategy.fan.plain_dp,
    strategy.fan.plain_routes, the remembered overlaps)
    stand in for the kernels, give the jitted answers."""
    rng = np.random.default_rng(77)
    cases = []
    for i in range(12):
        hand, melds, unseen, seat, wind = sample_case(rng, 2, (0, 1, 2) if i < 8 else (3, 4))
        cases.append((hand.tolist(), unseen.tolist(), declared_rows(melds).tolist(), seat, wind))
    env = {**os.environ, "MJBOT_NO_NUMBA": "1"}
    done = subprocess.run([sys.executable, "-W", "error::RuntimeWarning", "-c", SCRIPT],
                          input=json.dumps(cases), cwd=ROOT, capture_output=True, text=True,
                          env=env, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    sizes = set()
    for case, (least, table, each, useful) in zip(cases, json.loads(done.stdout), strict=True):
        hand, kb, rows, seat, wind = case
        h, k = np.array(hand, np.int8), np.array(kb, np.int8)
        r = np.array(rows, np.int64).reshape(-1, 2)
        o = np.zeros(NUM_ROUTES, np.int64)
        got = route_table(h, k, 4 - len(rows), r, seat, wind, o, False)
        assert [int(got), o.tolist()] == [least, table], case
        out = np.zeros(34, np.int64)
        sizes.add(int(h.sum()) % 3)
        if int(h.sum()) % 3 == 2:
            after_each_discard(h, k, 4 - len(rows), r, seat, wind, out)
            assert useful == -1
        else:
            after_each_draw(h, k, 4 - len(rows), r, seat, wind, out)
            assert useful == draws_lowering(h, k, 4 - len(rows), r, seat, wind, least)
        assert out.tolist() == each, case
    assert sizes == {1, 2}


def test_the_block_twins_are_the_dense_kernels() -> None:
    """The plain-Python twins of pungs_overlap and bonus_overlap (one DP per suit and the
    honours, merged; :mod:`strategy.fan.plain_dp`) against the kernels on random counts,
    with and without the pungs DP's one chow, a pair or none, chows only, outside."""
    rng = np.random.default_rng(31)
    found = 0
    for _ in range(150):
        avail = rng.integers(0, 5, 34).astype(np.int8)
        avail[rng.random(34) < 0.3] = 0
        hand = np.minimum(avail, rng.integers(0, 3, 34)).astype(np.int8)
        melds, need = int(rng.integers(0, 5)), int(rng.integers(0, 5))
        seat, wind = (int(x) for x in rng.integers(0, 4, 2))
        for chows in (0, 1):
            want = pungs_overlap(hand, avail, melds, need, seat, wind, chows)
            assert pungs_overlap_blocks(hand, avail, melds, need, seat, wind, chows) == want
            found += want >= 0
        for pairs, no_pungs, outside in ((1, False, False), (0, False, True), (1, True, False),
                                         (1, False, True)):
            want = bonus_overlap(hand, avail, melds, pairs, min(need, 3), seat, wind,
                                 no_pungs, outside)
            assert bonus_overlap_blocks(hand, avail, melds, pairs, min(need, 3), seat, wind,
                                        no_pungs, outside) == want
            found += want >= 0
    assert found > 200
