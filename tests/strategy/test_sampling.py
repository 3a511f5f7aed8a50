"""The sampling search: deals consistent with the knowledge base, common random numbers,
determinism for a seed, and a position where the right discard is plain."""

from __future__ import annotations

import numpy as np
import pytest

from bot.sampling_planner import knowledge
from bot.seat import PlayerState
from game.events import Dealt, Discarded, Drew, Punged, SeatAssigned
from game.melds import Pung
from game.rules import MCR_BOTZONE
from game.tiles import NUM_KINDS, parse_tiles
from strategy.sampling import Budget, DealError, Knowledge, Line, compare, deal


def tile(name: str) -> int:
    return parse_tiles(name)[0]


def counts(text: str) -> np.ndarray:
    return np.bincount(parse_tiles(text), minlength=NUM_KINDS).astype(np.int8)


def mid_game_view() -> PlayerState:
    """Seat 0 after a few turns: seat 2 punged a 9s; seat 0 has just drawn."""
    v = PlayerState(MCR_BOTZONE)
    v.observe(SeatAssigned(0, 0))
    v.observe(Dealt(0, tuple(parse_tiles("123m456m789m1p2p3z4z"))))
    for e in (Drew(0, tile("5z")), Discarded(0, tile("5z")),
              Drew(1, None), Discarded(1, tile("9s")),
              Punged(2, tile("9s"), tile("1z")),
              Drew(3, None), Discarded(3, tile("6z")),
              Drew(0, tile("3p"))):
        v.observe(e)  # type: ignore[arg-type]
    return v


def test_the_knowledge_of_a_view_adds_up() -> None:
    k = knowledge(mid_game_view())
    assert k.hand_sizes == (14, 13, 10, 13)
    assert k.melds_needed == (4, 4, 3, 4)
    assert k.melds[2] == (Pung(tile("9s"), 1),)
    assert k.wall_left == (19, 20, 21, 20)
    # 136 - own 14 - seen (5z 9s 9s 9s 1z 6z) = 116 = 13 + 10 + 13 hands + 80 wall tiles
    assert int(k.unseen.sum()) == 116 == 13 + 10 + 13 + 19 + 20 + 21 + 20


def test_a_deal_keeps_to_the_unseen_counts_and_the_sizes() -> None:
    k = knowledge(mid_game_view())
    for s in range(20):
        d = deal(k, np.random.default_rng([5, s]))
        used = d.hands.sum(axis=0).astype(np.int64)
        for w in d.walls:
            used += np.bincount(w, minlength=NUM_KINDS)
        assert (used == k.unseen).all()  # every unseen copy placed, none invented
        assert [int(h.sum()) for h in d.hands] == [0, 13, 10, 13]
        assert [len(w) for w in d.walls] == [19, 20, 21, 20]


def test_a_fixed_seed_deals_the_same_and_another_seed_differs() -> None:
    k = knowledge(mid_game_view())
    a, b = deal(k, np.random.default_rng([1, 0])), deal(k, np.random.default_rng([1, 0]))
    c = deal(k, np.random.default_rng([2, 0]))
    assert (a.hands == b.hands).all()
    assert all((x == y).all() for x, y in zip(a.walls, b.walls, strict=True))
    assert (a.ties == b.ties).all()
    assert not (a.hands == c.hands).all()


def test_too_few_unseen_tiles_is_an_error() -> None:
    k = knowledge(mid_game_view())
    short = Knowledge(k.seat, k.prevalent_wind, np.zeros(NUM_KINDS, np.int8), k.melds,
                      k.melds_needed, k.hand_sizes, k.wall_left, k.shown)
    with pytest.raises(DealError):
        deal(short, np.random.default_rng(0))


def _discard_line(v: PlayerState, name: str) -> Line:
    hand = v.hand.copy()
    hand[tile(name)] -= 1
    return Line(hand, None, tile(name), v.seat, f"discard {name}")


def test_identical_candidates_see_identical_samples() -> None:
    v = mid_game_view()
    k = knowledge(v)
    lines = [_discard_line(v, "3z"), _discard_line(v, "3z")]
    r = compare(k, lines, seed=11, budget=Budget(rollouts=40))
    a, b = r.estimates
    assert r.samples == 20 and a.n == b.n == 20 and r.rollouts == 40
    assert a.mean == b.mean and a.se == b.se
    assert b.diff == 0.0 and b.diff_se == 0.0


def test_the_comparison_is_deterministic_for_a_seed() -> None:
    v = mid_game_view()
    lines = [_discard_line(v, "3z"), _discard_line(v, "5m")]
    one = compare(knowledge(v), lines, seed=3, budget=Budget(rollouts=30))
    two = compare(knowledge(v), lines, seed=3, budget=Budget(rollouts=30))
    assert one.estimates == two.estimates


def test_the_sampler_keeps_a_ready_pure_straight() -> None:
    # 123m 456m 789m 1p2p3p 3z4z: discarding 3z (or 4z) waits on the other honour for a
    # pure straight (16 fan); discarding 5m breaks the straight and leaves a hand far from 8
    v = mid_game_view()
    lines = [_discard_line(v, "3z"), _discard_line(v, "5m")]
    r = compare(knowledge(v), lines, seed=7, budget=Budget(rollouts=120))
    keep, breaks = r.estimates
    assert keep.mean > breaks.mean
    assert breaks.diff < -2 * breaks.diff_se


def test_a_budget_needs_a_count_or_a_clock() -> None:
    with pytest.raises(ValueError):
        Budget()
