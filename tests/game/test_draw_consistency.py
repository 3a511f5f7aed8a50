"""Consistent draws (Tang, Chen & Wu, "An Efficient Method for Assessing the
Strength of Mahjong Programs", section 4.2) on hand-made rounds and histories,
and on seeded Botzone games, whose per-seat walls keep every draw."""

from __future__ import annotations

import numpy as np
import pytest

from game.draw_consistency import (
    DrawConsistency,
    agreeing_draws,
    consistent_draws,
    draw_rounds,
    per_seat_wall_references,
    single_wall_references,
)
from game.events import (
    Action,
    ActionKind,
    Chowed,
    DeclareWin,
    Discard,
    Drew,
    Event,
    FlowerReplaced,
    Konged,
    Melded,
    Pass,
    Punged,
)
from game.table import BotzoneStage, BotzoneTable, random_walltiles


def test_consistent_draws_by_hand() -> None:
    references = ((1, 2, 3), (4, 5), (6,), ())
    rounds = ((1, None, 3), (5,), (6, 7), ())
    # seat 0: 1 = 1, a claim, 3 = 3; seat 1: 5 != 4; seat 2: 6 = 6, 7 past its reference
    assert consistent_draws(references, rounds) == DrawConsistency(3, 5)
    assert DrawConsistency(3, 5).rate == pytest.approx(0.6)
    assert DrawConsistency(3, 5) + DrawConsistency(1, 3) == DrawConsistency(4, 8)
    assert DrawConsistency(0, 0).rate == 1.0
    with pytest.raises(ValueError, match="four seats"):
        consistent_draws(references[:3], rounds)


def test_agreeing_draws_by_hand() -> None:
    first = ((1, None, 3), (4,), (), (8, 9))
    second = ((1, 2, 7), (), (), (8, None, 5))
    # both drew: seat 0 rounds 0 (1 = 1) and 2 (3 != 7); seat 3 round 0 (8 = 8)
    assert agreeing_draws(first, second) == DrawConsistency(2, 3)
    assert agreeing_draws(second, first) == DrawConsistency(2, 3)
    assert agreeing_draws(first, first) == DrawConsistency(5, 5)


def test_single_wall_references_are_w_64_plus_4k_plus_p() -> None:
    refs = single_wall_references(range(144), dealer=1)
    assert refs[1][:3] == (64, 68, 72) and refs[1][-1] == 140  # the dealer, p = 0
    assert refs[0][:2] == (67, 71) and refs[0][-1] == 143  # p = 3
    assert [len(r) for r in refs] == [20] * 4
    paper = single_wall_references(range(136), dealer=0)
    assert paper[2][:2] == (66, 70) and len(paper[2]) == 18


def test_per_seat_wall_references_are_the_botzone_draw_order() -> None:
    refs = per_seat_wall_references(range(136))
    assert refs[0] == tuple(range(20, -1, -1))
    assert refs[1][:3] == (54, 53, 52) and refs[1][-1] == 34
    with pytest.raises(ValueError, match="136"):
        per_seat_wall_references(range(144))


def test_draw_rounds_from_a_history() -> None:
    history: list[Event] = [
        Drew(0, 5),
        Drew(1, 34),  # a flower, drawn normally: a round
        FlowerReplaced(1, 34),
        Drew(1, 7, replacement=True),  # its replacement: not a round
        Melded(2, ActionKind.PUNG, (9, 9, 9), 9, 1),
        Konged(3, 11),
        Drew(3, 12, replacement=True),
        Punged(0, 4, 8),
        Chowed(1, 2, 1, 8),
        Drew(2, 13),
    ]
    assert draw_rounds(history, claims_take_rounds=True) == (
        (5, None), (34, None), (None, 13), (None,)
    )
    assert draw_rounds(history, claims_take_rounds=False) == ((5,), (34,), (13,), ())
    with pytest.raises(ValueError, match="hidden draw of seat 2"):
        draw_rounds([Drew(2, None)], claims_take_rounds=False)


def _botzone_choice(table: BotzoneTable, seat: int, rng: np.random.Generator) -> Action:
    legal = table.legal_actions(seat)
    if DeclareWin() in legal:
        return DeclareWin()
    claims = [a for a in legal if not isinstance(a, Discard | Pass)]
    if claims and (table.stage is not BotzoneStage.DRAWN or rng.random() < 0.2):
        return claims[int(rng.integers(len(claims)))]
    return legal[int(rng.integers(len(legal)))]


def test_botzone_per_seat_walls_keep_every_draw() -> None:
    """Claims in every game, and still each seat's k-th draw is its wall's k-th tile."""
    claims = 0
    total = DrawConsistency(0, 0)
    for seed in range(20):
        rng = np.random.default_rng(seed)
        walltiles = random_walltiles(rng)
        table = BotzoneTable(walltiles, seed % 4)
        while not table.finished:
            table.respond([_botzone_choice(table, s, rng) for s in range(4)])
        history = table.history
        claims += sum(isinstance(e, Punged | Chowed | Konged) for e in history)
        total += consistent_draws(
            per_seat_wall_references(walltiles), draw_rounds(history, claims_take_rounds=False)
        )
    assert claims >= 20 and total.draws > 200
    assert total == DrawConsistency(total.draws, total.draws)
