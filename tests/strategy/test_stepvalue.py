"""δ and val_k against the worked examples of "Let's Play Mahjong!" (oracles.md)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from game.events import ActionKind
from game.rules import MAHJONG_0, MCR_BOTZONE
from game.tiles import Notation, parse_counts, parse_paper_counts, parse_tiles
from strategy.deadline import Cut, Deadline, OutOfTime
from strategy.deficiency.kernel import kernel_deficiency
from strategy.policy import Method, PolicyError, choose_claim, choose_discard
from strategy.stepvalue import StepValue, delta


def test_example_2_delta() -> None:
    text = "(B1B1B1B8B8B9)(C1C5C5C5)(D1D5D6D7)"
    hand = parse_counts(text)
    kb = parse_paper_counts("(111111111)(111111111)(111111111)")
    assert kernel_deficiency(hand, kb, 4) == 2
    d = delta(hand, kb, 4)
    assert [d[t] for t in parse_tiles(text, Notation.PAPER)] == [0, 0, 0, 3, 3, 7, 6, 0, 0, 0,
                                                                  6, 0, 0, 0]
    choice = choose_discard(hand, kb, 4, MAHJONG_0)
    assert max(d, key=lambda t: d[t]) == parse_tiles("B9", Notation.PAPER)[0]
    assert choice.chosen.deficiency == 2


def test_example_3_step_values() -> None:
    hand = parse_counts("(B1B2B3B7B8B9)(C2C2C2)(D1D2D3D5D9)")
    kb = parse_paper_counts("(000000000)(000000000)(010110001)")
    values = StepValue(4, exact=True).per_discard(hand, kb, 2)
    tile = {name: parse_tiles(name, Notation.PAPER)[0] for name in ("D9", "D5", "D1", "D2")}
    assert values.pop(tile["D9"]) == Fraction(7, 12)
    assert values.pop(tile["D5"]) == Fraction(1, 2)
    assert values.pop(tile["D1"]) == Fraction(5, 12)
    assert values.pop(tile["D2"]) == Fraction(1, 3)
    assert all(v == 0 for v in values.values())
    choice = choose_discard(hand, kb, 4, MAHJONG_0)
    assert choice.tile == tile["D9"] and choice.describe_method().startswith("search")
    assert choice.chosen.value == pytest.approx(7 / 12)


def test_val_1_is_delta_over_kb_size() -> None:
    """eq. 20: val_1(T, ω, i) = δ(i) / |ω| (one change: a draw that completes)."""
    rng = np.random.default_rng(3)
    for _ in range(30):
        hand = parse_counts("123m456p789s1z2z")
        hand = hand.copy()
        kb = np.minimum(rng.integers(0, 3, 34), 4 - hand).astype(np.int8)
        if kernel_deficiency(hand, kb, 4) != 1:
            continue
        d = delta(hand, kb, 4)
        v = StepValue(4, exact=True).per_discard(hand, kb, 1)
        for t in d:
            assert v[t] == Fraction(d[t], int(kb.sum()))


def test_deadline_cuts_the_search_and_an_answer_still_comes() -> None:
    hand = parse_counts("1234m2356p1278s12z")
    kb = (4 - hand).astype(np.int8)
    with pytest.raises(OutOfTime):
        StepValue(4, deadline=Deadline(budget=10)).per_discard(hand, kb, 3)
    choice = choose_discard(hand, kb, 4, MCR_BOTZONE, Deadline(budget=10))
    assert choice.tile is not None and hand[choice.tile] > 0


def test_a_cut_search_says_what_cut_it_the_work_budget_or_the_clock() -> None:
    hand = parse_counts("123m456p789s3z7z")  # three melds to make, deficiency 1: searched
    kb = (4 - hand).astype(np.int8)
    choice = choose_discard(hand, kb, 3, MCR_BOTZONE, Deadline(budget=10))
    assert choice.method is Method.SEARCH_CUT and not choice.finished
    assert choice.method.describe() == "search (cut by work budget)"
    passed = Deadline(budget=10**9, clock=lambda: 1.0, until=0.0)  # the clock has passed
    choice = choose_discard(hand, kb, 3, MCR_BOTZONE, passed)
    assert choice.method is Method.SEARCH_CLOCK_CUT and not choice.finished
    assert choice.method.describe() == "search (cut by the clock)"
    with pytest.raises(OutOfTime) as raised:
        Deadline(budget=10**9, clock=lambda: 1.0, until=0.0).check_clock()
    assert raised.value.cut is Cut.CLOCK
    with pytest.raises(OutOfTime) as raised:
        Deadline(budget=0).tick()
    assert raised.value.cut is Cut.BUDGET


def test_wrong_sizes_are_refused() -> None:
    hand = parse_counts("123m456p789s11z234m5p")
    with pytest.raises(PolicyError, match="14 tiles, not 15"):
        choose_discard(hand, (4 - hand).astype(np.int8), 4, MCR_BOTZONE)


def test_claims_that_lower_the_deficiency_are_taken() -> None:
    hand = parse_counts("1223m456p789s11z5p")
    kb = (4 - hand).astype(np.int8)
    kb[0] -= 1  # the discarded 1m is seen
    c = choose_claim(hand, kb, 4, MCR_BOTZONE, tile=0, can_chow=True, can_win=False)
    assert c.action is ActionKind.CHOW and c.meld_tiles == (0, 1, 2)
    c = choose_claim(hand, kb, 4, MCR_BOTZONE, tile=0, can_chow=False, can_win=False)
    assert c.action is ActionKind.PASS
    # a pung that leaves the deficiency as it is is not taken
    hand = parse_counts("123m456p789s1155z")
    kb = (4 - hand).astype(np.int8)
    c = choose_claim(hand, kb, 4, MCR_BOTZONE, tile=27, can_chow=False, can_win=False)
    assert c.action is ActionKind.PASS
