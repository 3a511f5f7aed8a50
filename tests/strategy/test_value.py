"""The value of an action: the win-chance chain against its closed form and an independent
recursion, the value formula, and the fan-aware distances against strategy.fan."""

from __future__ import annotations

import numpy as np
import pytest
from support.value import chain_of, recursive_win

from game.melds import Pung
from game.tiles import parse_counts, parse_tiles
from strategy.deficiency.kernel import UNREACHABLE
from strategy.fan import discard_fan_deficiencies, fan_deficiency
from strategy.value import (
    FanInputs,
    Outlook,
    ValueModel,
    WaitPoints,
    WinOut,
    action_value,
    best_by_value,
    discard_distances,
    fan_distance,
    mcr_wait_worth,
    mcr_win_choice,
    outlook,
    wait_outlook,
    wait_value,
    win_chance,
)

MODEL = ValueModel(step_rate=0.3, ready_rate=0.2, end_rate=0.05)


def test_a_waiting_hand_wins_by_the_geometric_sum() -> None:
    q = (1 - MODEL.end_rate) * MODEL.ready_rate
    stay = (1 - MODEL.end_rate) * (1 - MODEL.ready_rate)
    closed = sum(q * stay ** k for k in range(10))
    assert win_chance(1, 10, MODEL) == pytest.approx(closed, rel=1e-12)


@pytest.mark.parametrize("distance", [1, 2, 3, 5])
@pytest.mark.parametrize("turns", [0, 1, 4, 21])
def test_chain_equals_the_recursion(distance: int, turns: int) -> None:
    assert win_chance(distance, turns, MODEL) == pytest.approx(
        recursive_win(chain_of(MODEL), distance, turns), rel=1e-12, abs=1e-15)


def test_ends_of_the_chain() -> None:
    assert win_chance(0, 0, MODEL) == 1.0
    assert win_chance(UNREACHABLE, 21, MODEL) == 0.0
    assert win_chance(3, 0, MODEL) == 0.0
    # farther is worse, more time is better
    assert win_chance(2, 10, MODEL) > win_chance(3, 10, MODEL) > win_chance(3, 5, MODEL)


def test_value_formula() -> None:
    m = ValueModel(win_points=40.0, deal_in_points=14.0)
    assert action_value(0.5, 0.1, m) == pytest.approx(0.5 * 40 - 0.1 * (14 + 20))
    o = outlook(2, 10, 0.1, m)
    assert isinstance(o, Outlook) and o.value == pytest.approx(action_value(o.win, 0.1, m))
    assert "P(win)" in o.describe() and "P(deal in) 0.100" in o.describe()


def test_ties_within_the_margin_follow_the_given_order() -> None:
    m = ValueModel(margin=1.0)
    a, b, c = (Outlook(2, 10, 0.5, 0.0, v) for v in (10.0, 9.5, 8.0))
    assert best_by_value({1: a, 2: b, 3: c}, [2, 1, 3], m) == 2  # 9.5 within 1.0 of 10
    assert best_by_value({1: a, 2: b, 3: c}, [3, 2, 1], m) == 2  # 8.0 is not
    assert best_by_value({1: a, 3: c}, [3, 1], ValueModel(margin=0.0)) == 1


def test_distances_are_the_fan_aware_deficiency() -> None:
    hand = parse_counts("123m456m789m11p2z3z5z")  # 14 tiles: pure straight, one off
    unseen = (4 - hand).astype(np.int8)
    fan = FanInputs(unseen, (), 0, 0)
    assert discard_distances(hand, fan) == discard_fan_deficiencies(hand, unseen=unseen)
    h13 = hand.copy()
    h13[parse_tiles("5z")[0]] -= 1
    assert fan_distance(h13, fan) == fan_deficiency(h13, unseen=unseen)


def test_extra_melds_count_as_declared() -> None:
    red = parse_tiles("7z")[0]
    hand = parse_counts("123m456m789m1p")  # 10 tiles; the red pung is being weighed
    unseen = (4 - hand).astype(np.int8)
    unseen[red] = 1
    fan = FanInputs(unseen, (), 0, 0)
    with_pung = fan_distance(hand, fan, (Pung(red, 1),))
    assert with_pung == fan_deficiency(hand, [Pung(red, 1)], unseen)
    assert with_pung == 1  # waits on 1p with a pure straight


def test_watched_distances_are_the_same_numbers_and_stop_when_the_clock_passes() -> None:
    """With a deadline to watch, the discards are tried one by one (the Botzone zip, plain
    Python): the same distances as the one kernel call, on seeded hands with and without
    a declared pung, four of a kind and honours; a passed clock raises OutOfTime."""
    from strategy.deadline import Deadline, OutOfTime

    rng = np.random.default_rng(7)
    never = Deadline(clock=lambda: 0.0, until=1.0)
    for i in range(60):
        melds = (Pung(27 + i % 7, 1),) if i % 2 else ()
        size = 14 - 3 * len(melds)
        pool = np.repeat(np.arange(34), 4)
        pool = pool[pool != 27 + i % 7] if melds else pool
        hand = np.bincount(rng.choice(pool, size, replace=False), minlength=34).astype(np.int8)
        if i % 10 == 0:  # four of a kind twice: 1111m 1111p 111s (+ 222z without a meld)
            hand[:] = 0
            hand[0], hand[9], hand[18], hand[28] = 4, 4, 3, size - 11
        unseen = (4 - hand).astype(np.int8)
        for m in melds:
            unseen[m.tile] = 0
        fan = FanInputs(unseen, melds, i % 4, (i // 4) % 4)
        assert discard_distances(hand, fan, watch=never) == discard_distances(hand, fan), hand
    passed = Deadline(clock=lambda: 2.0, until=1.0)
    with pytest.raises(OutOfTime):
        discard_distances(parse_counts("123m456m789m11p2z3z5z"),
                          FanInputs((4 - parse_counts("123m456m789m11p2z3z5z")).astype(np.int8),
                                    (), 0, 0), watch=passed)
    with pytest.raises(OutOfTime):
        fan_distance(parse_counts("123m456m789m11p2z3z"), FanInputs(
            (4 - parse_counts("123m456m789m11p2z3z")).astype(np.int8), (), 0, 0), watch=passed)


def test_useful_draws_count_the_unseen_copies_that_lower_the_distance() -> None:
    """Against the distance after each draw, one draw at a time (fan_distance), on seeded
    13-tile hands (with a declared pung for half of them)."""
    from strategy.value import useful_draws

    rng = np.random.default_rng(3)
    for i in range(20):
        melds = (Pung(31, 2),) if i % 2 else ()
        pool = np.repeat(np.arange(34), 4)
        pool = pool[pool != 31] if melds else pool
        hand = np.bincount(rng.choice(pool, 13 - 3 * len(melds), replace=False),
                           minlength=34).astype(np.int8)
        unseen = (4 - hand).astype(np.int8)
        if melds:
            unseen[31] = 0
        fan = FanInputs(unseen, melds, 0, 1)
        d = fan_distance(hand, fan)
        expected = 0
        for t in np.flatnonzero(unseen):
            h = hand.copy()
            h[t] += 1
            kb = unseen.copy()
            kb[t] -= 1
            if fan_distance(h, FanInputs(kb, melds, 0, 1)) < d:
                expected += int(unseen[t])
        assert useful_draws(hand, fan, d) == expected, hand


def recursive_wait(n: int, p_self: float, p_discard: float, risk: float, end: float,
                   pts: WaitPoints) -> float:
    """The kept hand's worth by first-step recursion over the turns left (an independent
    oracle of the forward loop): pay another seat's win, then if the game goes on gain
    this turn's outcomes, and go on only where none of them ended the hand."""
    if n == 0:
        return 0.0
    go = 1.0 - end
    now = p_self * pts.self_draw + p_discard * pts.on_discard - risk * pts.deal_in
    rest = max(0.0, 1.0 - p_self - p_discard - risk)
    return -pts.other_win + go * (now + rest * recursive_wait(n - 1, p_self, p_discard,
                                                               risk, end, pts))


def test_the_wait_equals_the_recursion() -> None:
    rng = np.random.default_rng(7)
    for _ in range(300):
        total = int(rng.integers(20, 120))
        self_outs = int(rng.integers(0, 13))
        discard_outs = int(rng.integers(0, self_outs + 1))
        turns = int(rng.integers(0, 30))
        risk, end, release = (float(x) for x in rng.uniform(0.0, 0.2, 3))
        pts = WaitPoints(*(float(x) for x in rng.uniform(0.0, 300.0, 4)))
        got = wait_value(self_outs, discard_outs, total, turns, pts, risk, end, release)
        if self_outs == 0 or turns == 0:
            assert got == 0.0
            continue
        p_self = self_outs / total
        p_discard = min(1.0 - p_self, 3.0 * release * discard_outs / total)
        assert got == pytest.approx(recursive_wait(turns, p_self, p_discard, risk, end, pts),
                                    rel=1e-9, abs=1e-9)


def test_a_win_on_a_discard_against_the_kept_hand_worked_by_hand() -> None:
    m = ValueModel(end_rate=0.1, other_win_points=10.0, deal_in_win_points=20.0,
                   discard_release=0.5, win_margin=4.0)
    c = mcr_win_choice(8, [WinOut(0, 4, 10, 8)], 40, 1, 0.02, m)
    # now: 8 from each seat and the fan from the discarder
    assert c.now == 32.0 and c.worth == 8 and c.outs == 4
    # one turn: another seat's win costs 0.1 * 10; then 4/40 self-draw worth 3 * (8 + 10),
    # 1.5 * 4/40 a discard worth 24 + 8, 0.02 deals in for 20
    assert c.wait == pytest.approx(-1.0 + 0.9 * (0.1 * 54 + 0.15 * 32 - 0.02 * 20))
    assert c.declare and "declare: now 8 fan = +32.00" in c.describe()


def test_a_huge_hand_with_many_outs_early_waits_for_its_self_draw() -> None:
    # nine gates waiting on all nine characters, 21 copies of 110 unseen, 15 draws left:
    # 88 + 24 now against 3 * (8 + 89) drawn
    outs = [WinOut(t, 2 if t % 4 else 3, 89, 88) for t in range(9)]
    c = mcr_win_choice(88, outs, 110, 15, 0.01)
    assert c.now == 112.0 and c.wait > c.now + ValueModel().win_margin and not c.declare
    # the same wait with one draw left, or a single copy left: declare
    assert mcr_win_choice(88, outs, 110, 1, 0.01).declare
    assert mcr_win_choice(88, [WinOut(0, 1, 89, 88)], 110, 15, 0.01).declare


def test_a_wait_with_no_out_left_declares() -> None:
    c = mcr_win_choice(9, [], 60, 10, 0.0)
    assert c.declare and c.wait == 0.0 and c.outs == 0
    # outs that would not reach 8 fan drawn are no outs
    assert mcr_win_choice(9, [WinOut(3, 4, None, None)], 60, 10, 0.0).outs == 0


def test_a_waits_worth_counts_each_out_at_its_own_fan() -> None:
    m = ValueModel(end_rate=0.1, other_win_points=10.0, deal_in_win_points=20.0)
    # one turn, as in the win choice above: 4 of 40 drawn at 3 * (8 + 10), 1.5 * 4/40 thrown
    # at 24 + 8, 0.02 deals in for 20, another seat's win costs 0.1 * 10
    assert mcr_wait_worth([WinOut(0, 4, 10, 8)], 40, 1, 0.02, m) == pytest.approx(
        -1.0 + 0.9 * (0.1 * 54 + 0.15 * 32 - 0.02 * 20))
    # two outs: the copies weigh the points
    two = [WinOut(0, 3, 10, 8), WinOut(1, 1, 26, 24)]
    points = WaitPoints((3 * 54 + 1 * 102) / 4, (3 * 32 + 1 * 48) / 4, 20.0, 1.0)
    assert mcr_wait_worth(two, 40, 6, 0.02, m) == pytest.approx(
        wait_value(4, 4, 40, 6, points, 0.02, 0.1, m.discard_release))
    # the same copies at more fan are worth more; no out is worth nothing
    assert mcr_wait_worth([WinOut(0, 4, 26, 24)], 40, 6, 0.0, m) > mcr_wait_worth(
        [WinOut(0, 4, 10, 8)], 40, 6, 0.0, m)
    assert mcr_wait_worth([], 40, 6, 0.0, m) == 0.0


def test_a_waits_outlook_wins_by_the_geometric_sum_of_its_outs() -> None:
    m = ValueModel(end_rate=0.05, discard_release=0.5, deal_in_points=0.0)
    outs = [WinOut(0, 3, 10, 8), WinOut(1, 2, 26, 24)]
    o = wait_outlook(outs, 50, 8, 0.04, m)
    self_rate, thrown_rate = 5 / 50, 3 * 0.5 * 5 / 50
    r = self_rate + thrown_rate
    closed = sum((1 - m.end_rate) ** k * (1 - r) ** (k - 1) * r for k in range(1, 9))
    worth = (self_rate * (3 * 54 + 2 * 102) / 5 + thrown_rate * (3 * 32 + 2 * 48) / 5) / r
    assert o.distance == 1 and o.win == pytest.approx(closed, rel=1e-12)
    assert o.value == pytest.approx(closed * worth * (1 - 0.04), rel=1e-12)
    assert wait_outlook([], 50, 8, 0.04, m).win == 0.0


