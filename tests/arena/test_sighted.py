"""What reading the opponents could be worth at most (arena/lab/experiments/sighted.py): the true
danger of a position in tile notation, and a sighted seat that never deals in."""

from __future__ import annotations

import numpy as np
import pytest

from arena.lab.experiments.sighted import PLAYER, play, summarise, true_danger
from game.tiles import NUM_KINDS, parse_counts, parse_tiles


def test_the_true_danger_is_one_on_the_waits_of_a_hand_with_8_fan_and_zero_elsewhere() -> None:
    # seat 1 holds 123456789m 11z 56p: a pure straight (16 fan) waiting on 4p and 7p; seat
    # 2 holds 147m 258p 369s 1234z, lesser honours and knitted tiles (12 fan) on the
    # three dragons; seat 3 waits on 1s and 5s with no 8 fan on a discard: no danger
    hands = [np.zeros(NUM_KINDS, dtype=np.int64), parse_counts("123456789m11z56p"),
             parse_counts("147m258p369s1234z"), parse_counts("123m789m456p11s55s")]
    dz = true_danger(hands, [(), (), (), ()], 0, 0)
    assert set(np.flatnonzero(dz)) == set(parse_tiles("4p7p5z6z7z"))
    # the seat asking is never its own danger
    mine = true_danger(hands, [(), (), (), ()], 1, 0)
    assert set(np.flatnonzero(mine)) == set(parse_tiles("5z6z7z"))


def test_a_sighted_seat_never_deals_in_and_plays_every_rotation_both_ways() -> None:
    games = play(61001, 0, "mjbot", "planner-v1")
    outcomes = [o for g in games for o in (g.plain, g.sighted)]
    assert len(outcomes) == 8
    # the player sits in each seat once, plain and sighted
    assert sorted(o.seats_of(PLAYER) for g in games for o in (g.plain, g.sighted)) == [
        (s,) for s in range(4) for _ in range(2)]
    assert {g.seating for g in games} == set(range(4))
    assert not any(g.sighted.payer in g.sighted.seats_of(PLAYER) for g in games)
    assert not any(o.penalized is not None for o in outcomes)
    out = summarise(games + play(61001, 1, "mjbot", "planner-v1"))
    assert out["sighted"]["dealt_in"] == 0.0 and out["plain"]["games"] == 8


def test_a_partial_reader_names_only_dangers_and_keeps_its_estimate_elsewhere() -> None:
    from arena.lab.experiments.sighted import _sight
    from arena.tables.games import GameSpec, Rules, _seats, seat_answer
    from bot.planner import Planner
    from game.table import BotzoneTable

    four = ("mjbot", "planner-v1", "planner-v1", "planner-v1")
    spec = GameSpec(Rules.MCR_BOTZONE, 61001, 1, 0, four, four)
    seats = _seats(spec)
    table = BotzoneTable(spec.wall_tiles(), spec.prevalent_wind)
    with pytest.raises(ValueError, match="seeded generator"):
        _sight(seats, table, 0, spec.prevalent_wind, 0.5)
    _sight(seats, table, 0, spec.prevalent_wind, 0.5, np.random.default_rng(1))
    planner = seats[0].strategy
    assert isinstance(planner, Planner)
    checked = named = missed = 0
    while True:  # the whole game (wall 1: about a hundred requests)
        answers = []
        for s, request in enumerate(table.requests):
            seats[s].observe(request)
            answers.append(seat_answer(s, seats[s]))
        table.respond(answers)
        if table.finished:
            break
        hands = []
        for o in range(4):
            counts = np.zeros(NUM_KINDS, dtype=np.int64)
            for t in table.view(o).hand:
                counts[t] += 1
            hands.append(counts)
        truth = true_danger(hands, [table.view(o).melds for o in range(4)], 0,
                            spec.prevalent_wind)
        own = Planner._danger(planner, seats[0].view)
        read = planner._danger(seats[0].view)
        # a kind is named only where it would deal in; every other kind is the estimate
        assert ((read == 1.0) | (read == own)).all()
        assert not ((read == 1.0) & (own < 1.0) & (truth == 0)).any()
        named += int(((read == 1.0) & (truth > 0) & (own < 1.0)).sum())
        missed += int(((read == own) & (truth > 0)).sum())
        checked += 1
    # at recall 0.5 both happen: dangers named, and dangers left to the estimate
    assert checked > 50 and named > 0 and missed > 0
