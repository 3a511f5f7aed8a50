"""The tai value of taiwan-16 (strategy.tai): every route's distance against a brute force
scored by game.scoring.tai, hand-worked cases, and the declare-or-wait numbers.

The brute force lists every complete concealed part C <= hand + unseen within a budget of
changes (strategy.fan.brute's enumerator, which uses no code of the kernels), asks the
scorer (:func:`game.scoring.tai.tai_items`) whether it is a win and what it holds, and
takes the least ``|(C - H)+|`` over the C a route covers.  A route covers C when:

- PLAIN: the scorer says C is a win;
- FULL_FLUSH s: the scorer gives ``full_flush`` and the suit is s;
- HALF_FLUSH s: ``full_flush`` or ``half_flush`` in suit s, or no suited tile at all (the
  route's DP allows honours-only hands, which the scorer calls no flush; they are all
  pungs, so still worth the route's 4 tai: the tai check below covers them);
- ALL_PUNGS: the scorer gives ``all_pongs``;
- HONOUR_PUNG t: the hand and its melds hold three or more of the honour t (an honour in a
  complete hand is a pair or in a pung);
- FLUSH_HONOUR s t: both.

The route's answer must equal that least number exactly (the routes are exact), or exceed
the budget when the brute force finds none; and the scorer's tai of every covered C must
be at least the route's tai plus :func:`strategy.tai.base_tai` (the route tai is a bound:
e.g. all pungs with a dragon pung scores both, the route only its own).
"""

from __future__ import annotations

import numpy as np
import pytest

from game.melds import Chow, ConcealedKong, Kong, Meld, Pung
from game.scoring.tai import tai_items, tai_total
from game.tiles import NUM_KINDS, NUM_SUITED, parse_counts, parse_tiles
from strategy.deficiency.kernel import UNREACHABLE
from strategy.fan.brute import complete_hands
from strategy.tai import (
    TAI_MODEL,
    RouteDistance,
    TaiModel,
    TaiRoute,
    TaiSeat,
    base_tai,
    first_step_chance,
    outs,
    route_distances,
    route_useful,
    tai_outlook,
    useful_kernel,
    useful_step_rate,
    wait_points,
    win_choice,
    win_points,
)
from strategy.value import wait_value, win_chance

BUDGET = 3


def _covers(r: RouteDistance, c: np.ndarray, melds: tuple[Meld, ...], names: set[str]) -> bool:
    total = c.copy()
    for m in melds:
        for t in m.tiles:
            total[t] += 1
    suits = {t // 9 for t in range(NUM_SUITED) if total[t]}
    if r.route is TaiRoute.PLAIN:
        return True
    if r.route is TaiRoute.FULL_FLUSH:
        return "full_flush" in names and suits == {r.suit}
    flush = (("full_flush" in names or "half_flush" in names) and suits == {r.suit}) \
        or not suits
    if r.route is TaiRoute.HALF_FLUSH:
        return flush
    if r.route is TaiRoute.ALL_PUNGS:
        return "all_pongs" in names
    pung = total[r.honour] >= 3
    if r.route is TaiRoute.HONOUR_PUNG:
        return pung
    return flush and pung  # FLUSH_HONOUR


def brute_routes(hand: np.ndarray, melds: tuple[Meld, ...], unseen: np.ndarray,
                 seat: TaiSeat, routes: tuple[RouteDistance, ...]
                 ) -> dict[RouteDistance, int | None]:
    """Each route -> the least changes to a complete hand it covers (None: above BUDGET),
    checking on the way that every covered hand scores the route's tai at least."""
    h = np.asarray(hand, dtype=np.int64)
    avail = h + np.asarray(unseen, dtype=np.int64)
    best: dict[RouteDistance, int | None] = {r: None for r in routes}
    floor = base_tai(melds, seat)
    for cost, c in complete_hands(h, avail, 5 - len(melds), BUDGET):
        tiles = [t for t in range(NUM_KINDS) for _ in range(int(c[t]))]
        items = tai_items(tiles, melds, winning_tile=tiles[-1], self_drawn=False,
                          seat_wind=seat.seat_wind, prevalent_wind=seat.prevalent_wind,
                          dealer_involved=seat.dealer)
        if items is None:
            continue  # a special shape of the enumerator: no taiwan-16 win
        names = {i.name for i in items}
        for r in routes:
            if _covers(r, c, melds, names):
                assert tai_total(items) >= floor + r.tai, (r.describe(), tiles, items)
                if best[r] is None:
                    best[r] = cost
    return best


def sample(rng: np.random.Generator) -> tuple[np.ndarray, tuple[Meld, ...], np.ndarray,
                                              TaiSeat]:
    """A random taiwan-16 hand near a complete one: five groups and a pair in one of a few
    styles (any, one suit with honours, pungs, honour-heavy), one to three of them
    declared, up to two random changes, a tile less half the time, some kinds seen."""
    style = int(rng.integers(4))
    suit = int(rng.integers(3))
    while True:
        used = np.zeros(NUM_KINDS, np.int64)
        groups: list[tuple[int, int, int]] = []
        for _ in range(5):
            r = rng.random()
            if style == 2 or (style == 3 and r < 0.6) or (style == 1 and r < 0.3):
                lo = 27 if style == 3 or (style == 1 and r < 0.15) else 0
                t = int(rng.integers(lo, NUM_KINDS))
                if style == 1 and t < 27:
                    t = 9 * suit + t % 9
                groups.append((t, t, t))
            else:
                lo = 9 * (suit if style == 1 else int(rng.integers(3)))
                t = lo + int(rng.integers(7))
                groups.append((t, t + 1, t + 2))
            for t in groups[-1]:
                used[t] += 1
        p = int(rng.integers(27, NUM_KINDS)) if style == 3 else \
            9 * suit + int(rng.integers(9)) if style == 1 else int(rng.integers(NUM_KINDS))
        used[p] += 2
        if (used <= 4).all():
            break
    seat = TaiSeat(int(rng.integers(4)), int(rng.integers(4)), 0)
    n_declared = 1 + int(rng.integers(3))
    melds: list[Meld] = []
    shown = np.zeros(NUM_KINDS, np.int64)
    hand = np.zeros(NUM_KINDS, np.int64)
    hand[p] += 2
    for i, g in enumerate(groups):
        if i < n_declared:
            if g[0] != g[1]:
                melds.append(Chow(g[1], g[int(rng.integers(3))], 3))
                shown[list(g)] += 1
            elif used[g[0]] == 3 and rng.random() < 0.3:
                melds.append(ConcealedKong(g[0]) if rng.random() < 0.5 else Kong(g[0], 1))
                shown[g[0]] += 4
                used[g[0]] += 1
            else:
                melds.append(Pung(g[0], 2))
                shown[g[0]] += 3
        else:
            np.add.at(hand, list(g), 1)
    for _ in range(int(rng.integers(3))):
        hand[rng.choice(np.repeat(np.arange(NUM_KINDS), hand))] -= 1
        hand[int(rng.choice(np.flatnonzero(hand + shown < 4)))] += 1
    if rng.random() < 0.5:
        hand[rng.choice(np.repeat(np.arange(NUM_KINDS), hand))] -= 1
    unseen = 4 - hand - shown
    unseen[rng.integers(0, NUM_KINDS, int(rng.integers(0, 10)))] = 0
    return hand.astype(np.int8), tuple(melds), unseen.astype(np.int8), seat


@pytest.mark.parametrize("seed", range(40))
def test_every_route_is_exact_against_the_brute_force(seed: int) -> None:
    hand, melds, unseen, seat = sample(np.random.default_rng(1000 + seed))
    routes = route_distances(hand, unseen, melds, seat)
    truth = brute_routes(hand, melds, unseen, seat, routes)
    for r in routes:
        want = truth[r]
        if want is None:
            assert r.distance > BUDGET, r.describe()
        else:
            assert r.distance == want, (r.describe(), hand.tolist(), melds)


# ---------------------------------------------------------------- hand-worked cases
SEAT = TaiSeat(seat_wind=1, prevalent_wind=0, own_flowers=0)  # South, not the dealer


def _by(routes: tuple[RouteDistance, ...]) -> dict[str, int]:
    return {r.describe(): r.distance for r in routes}


def test_a_full_flush_one_tile_away() -> None:
    # 1m pung and 456m declared; 234 567 78 99m and a red dragon: swap 7z for 6m or 9m
    melds = (Pung(parse_tiles("1m")[0], 2), Chow(parse_tiles("5m")[0], parse_tiles("4m")[0], 0))
    hand = parse_counts("23456778m99m7z")
    unseen = (4 - hand).astype(np.int8)
    for m in melds:
        for t in m.tiles:
            unseen[t] -= 1
    got = _by(route_distances(hand, unseen, melds, SEAT))
    assert got["plain (+0)"] == 1
    assert got["full flush m (+8)"] == 1
    assert got["half flush m (+4)"] == 1
    assert got["honour pung 7z (+1)"] == 2  # 234 567 99 + 777z: two red dragons missing
    assert got["half flush with an honour pung m 7z (+5)"] == 2
    assert not any(k.startswith("all pungs") for k in got)  # a chow is declared
    assert not any(k.startswith("full flush p") for k in got)
    # a claimed meld: no concealed hand; South, East round: no dealer, no valued wind
    assert base_tai(melds, SEAT) == 0
    truth = brute_routes(hand, melds, unseen, SEAT, route_distances(hand, unseen, melds, SEAT))
    assert all(t == r.distance for r, t in truth.items() if t is not None)


def test_all_pungs_and_a_dragon_pung_waiting() -> None:
    # concealed 111m 222p 333s 444m 55z 66z: waits on 5z or 6z (16 tiles, nothing declared)
    hand = parse_counts("111m444m222p333s55z66z")
    unseen = (4 - hand).astype(np.int8)
    got = _by(route_distances(hand, unseen, (), SEAT))
    assert got["plain (+0)"] == 1
    assert got["all pungs (+4)"] == 1
    assert got["honour pung 5z (+1)"] == 1
    assert got["honour pung 6z (+1)"] == 1
    assert got["honour pung 2z (+1)"] == 3  # South is the seat wind: 222z from nothing
    # the win on 5z as the scorer counts it: concealed 1, dragon pong 1, all pongs 4
    win = [*parse_tiles("111m444m222p333s555z66z")]
    items = tai_items(win, (), winning_tile=parse_tiles("5z")[0], self_drawn=False,
                      seat_wind=1, prevalent_wind=0, dealer_involved=False)
    assert items is not None and tai_total(items) == 6
    # the outlook takes the all-pungs route (the first of the best: 1 + 4 tai)
    o = tai_outlook(hand, unseen, (), SEAT, turns=10, deal_in=0.0)
    assert o.tai == 5 and o.distance == 1
    assert o.value == pytest.approx(win_chance(1, 10, TAI_MODEL) * win_points(5, SEAT))
    assert o.route == "all pungs (+4)"


def test_a_dragon_pung_two_away() -> None:
    # 123m 456p 789s 234m, 55z and 1p 9s: 555z and a pair of 1p (or 9s) need one tile each
    hand = parse_counts("123m234m456p1p789s9s55z")
    unseen = (4 - hand).astype(np.int8)
    got = _by(route_distances(hand, unseen, (), SEAT))
    assert got["plain (+0)"] == 2
    assert got["honour pung 5z (+1)"] == 2
    assert got["all pungs (+4)"] == 7  # pungs of 2m 3m 9s 5z and a pair: overlap 10


def test_the_value_formula_and_deal_in() -> None:
    hand = parse_counts("111m444m222p333s55z66z")
    unseen = (4 - hand).astype(np.int8)
    o = tai_outlook(hand, unseen, (), SEAT, turns=10, deal_in=0.1)
    v = win_chance(1, 10, TAI_MODEL) * win_points(5, SEAT)
    assert o.value == pytest.approx(v - 0.1 * (TAI_MODEL.deal_in_points + v))
    # win points: 30 % self-drawn, 3 * (1 + 5 + 1) = 21; else 1 + 5 + 1/3
    assert win_points(5, SEAT) == pytest.approx(0.3 * 21 + 0.7 * (6 + 1 / 3))


def test_outs_and_the_wait() -> None:
    hand = parse_counts("123m234m456p789s555z1p")  # a single wait on 1p
    unseen = (4 - hand).astype(np.int8)
    assert outs(hand, unseen, 5) == 3
    m = TaiModel(end_rate=0.1, self_draw_share=0.5, other_self_draw_points=4.0,
                 discard_release=0.5, deal_in_points=3.0)
    pts = wait_points(2, SEAT, m)

    def wait(outs: int, turns: int) -> float:
        return wait_value(outs, outs, 30, turns, pts, 0.02, m.end_rate, m.discard_release)

    # one turn: -0.1 * 0.5 * 4 + 0.9 * (0.1 * 3 * (2 + 2) + 0.15 * (1 + 2 + 1/3) - 0.02 * 3)
    want = -0.2 + 0.9 * (0.1 * 12 + 0.15 * (3 + 1 / 3) - 0.06)
    assert wait(3, 1) == pytest.approx(want)
    # two turns: the second weighted by the chance the first ended nothing
    alive = 0.9 * (1 - 0.1 - 0.15 - 0.02)
    want2 = want - alive * 0.2 + alive * 0.9 * (0.1 * 12 + 0.15 * (3 + 1 / 3) - 0.06)
    assert wait(3, 2) == pytest.approx(want2)
    assert wait(0, 5) == 0.0


def test_declare_or_wait() -> None:
    # a 1-tai discard win (2 points) against eight outs of forty for ten turns: wait
    c = win_choice(1, False, 1, 8, 40, 10, SEAT, 0.01)
    assert c.now == 2.0 and c.wait > c.now + TAI_MODEL.win_margin and not c.declare
    # the same hand with a single out left: declare
    assert win_choice(1, False, 1, 1, 40, 10, SEAT, 0.01).declare
    # a self-draw is declared: the wait's best is the same self-draw later
    assert win_choice(2, True, 1, 8, 40, 10, SEAT, 0.01).declare
    # no turn left: declare whatever the outs
    assert win_choice(0, False, 0, 12, 40, 0, SEAT, 0.0).declare


def test_route_distances_refuses_a_wrong_size() -> None:
    hand = parse_counts("123m456p789s")
    with pytest.raises(ValueError, match="16 or 17 tiles"):
        route_distances(hand, (4 - hand).astype(np.int8), (), SEAT)


def test_unreachable_routes() -> None:
    # every red dragon is seen: no pung of it
    hand = parse_counts("123m234m456p789s55z1p")
    unseen = (4 - hand).astype(np.int8)
    unseen[parse_tiles("7z")[0]] = 0
    hand16 = hand.copy()
    hand16[parse_tiles("9s")[0]] += 1
    got = _by(route_distances(hand16, unseen, (), SEAT))
    assert got["honour pung 7z (+1)"] == UNREACHABLE


def test_a_half_flush_as_far_as_a_plain_hand_wins_on_its_tai() -> None:
    # 12345678m 99m, 5p 3s 7s, 1z 2z 7z: the half flush in m with a red-dragon pung is as
    # far as the red-dragon pung alone (5); every route steps alike, so it wins on its tai
    hand = parse_counts("12345678m99m5p37s1z2z7z")
    unseen = (4 - hand).astype(np.int8)
    routes = {r.describe(): r for r in route_distances(hand, unseen, (), SEAT)}
    half = routes["half flush with an honour pung m 7z (+5)"]
    assert half.distance == routes["honour pung 7z (+1)"].distance == 5
    flat = tai_outlook(hand, unseen, (), SEAT, turns=12, deal_in=0.0)
    assert flat.route == half.describe() and flat.tai == 6  # and 1 for the concealed hand


@pytest.mark.parametrize("seed", range(6))
def test_route_useful_counts_the_draws_that_lower_the_route(seed: int) -> None:
    # the oracle: each unseen kind drawn, the route's distance of the 3m+2 hand by
    # route_distances (exact against the brute force above)
    hand, melds, unseen, seat = sample(np.random.default_rng(seed))
    if int(hand.sum()) % 3 == 2:
        hand[int(np.flatnonzero(hand)[0])] -= 1
    for r in route_distances(hand, unseen, melds, seat):
        if r.distance >= UNREACHABLE:
            continue
        want = 0
        for t in np.flatnonzero(unseen):
            h, u = hand.copy(), unseen.copy()
            h[t] += 1
            u[t] -= 1
            after = _by(route_distances(h, u, melds, seat))[r.describe()]
            want += int(unseen[t]) if after < r.distance else 0
        assert route_useful(hand, unseen, melds, seat, r) == want, r.describe()
    # the kernel in plain Python gives the same counts
    avail = (hand + unseen).astype(np.int8)
    for kind, honour in ((0, 0), (1, 31), (2, 0)):
        args = (hand, avail, unseen, 5 - len(melds), kind, honour, seat.seat_wind,
                seat.prevalent_wind)
        assert useful_kernel.py_func(*args) == useful_kernel(*args)  # type: ignore[attr-defined]


def test_the_first_step_at_the_hand_s_own_rate() -> None:
    m = TAI_MODEL
    for d in (1, 2, 4):
        rate = m.ready_rate if d == 1 else m.step_rate
        assert first_step_chance(d, 9, rate, m) == pytest.approx(win_chance(d, 9, m))
    # one turn left, waiting on 3 of 100 unseen tiles, looking at 3 tiles a turn
    first = useful_step_rate(3, 100, 3.0)
    assert first == round(1 - 0.97 ** 3, 2)
    assert first_step_chance(1, 1, first, m) == pytest.approx((1 - m.end_rate) * first)
    # two away, two turns: the first step at its own rate, then the win at ready_rate
    assert first_step_chance(2, 2, 0.5, m) == pytest.approx(
        (1 - m.end_rate) * 0.5 * (1 - m.end_rate) * m.ready_rate)
    # a single wait on 1p: 3 outs; with ready_looks the win rate is theirs
    hand = parse_counts("123m234m456p789s555z1p")
    unseen = (4 - hand).astype(np.int8)
    model = TaiModel(ready_looks=3.0)
    o = tai_outlook(hand, unseen, (), SEAT, turns=6, deal_in=0.0, model=model)
    rate = useful_step_rate(3, int(unseen.sum()), 3.0)
    assert o.win == pytest.approx(first_step_chance(1, 6, rate, model))
