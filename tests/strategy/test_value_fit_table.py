"""The win chain fitted to self-play (strategy.value.WIN_FIT): its table against an
independent recursion and the closed form of a waiting hand, read back through
win_chance, and the mix of ``ValueModel.win_fit``."""

from __future__ import annotations

import pytest
from support.value import chain_of, recursive_win

from strategy.deficiency.kernel import UNREACHABLE
from strategy.value import DEFAULT_MODEL, WIN_FIT, ValueModel, chain_table, win_chance

FITTED = ValueModel(win_fit=1.0)


@pytest.mark.parametrize("distance", [1, 2, 4, 7, 9])
@pytest.mark.parametrize("turns", [0, 1, 5, 20, 34])
def test_the_fitted_chance_is_the_recursion_on_the_fitted_numbers(distance: int,
                                                                 turns: int) -> None:
    assert win_chance(distance, turns, FITTED) == pytest.approx(
        recursive_win(WIN_FIT, distance, turns), abs=1e-12)


def test_a_waiting_hand_wins_by_the_geometric_sum_of_the_fitted_rates() -> None:
    q = (1 - WIN_FIT.end_rate) * WIN_FIT.ready_rate
    stay = (1 - WIN_FIT.end_rate) * (1 - WIN_FIT.ready_rate)
    assert win_chance(1, 12, FITTED) == pytest.approx(sum(q * stay ** k for k in range(12)),
                                                      rel=1e-12)


def test_the_table_with_the_hand_set_rates_is_the_hand_set_chain() -> None:
    m = DEFAULT_MODEL
    table = chain_table(chain_of(m), 6, 34)
    for d in range(1, 7):
        for t in (0, 3, 17, 34):
            assert table[d, t] == pytest.approx(win_chance(d, t, m), abs=1e-12)


def test_the_mix_and_the_edges() -> None:
    half = ValueModel(win_fit=0.5)
    mixed = 0.5 * win_chance(3, 15) + 0.5 * win_chance(3, 15, FITTED)
    assert win_chance(3, 15, half) == pytest.approx(mixed, abs=1e-12)
    for m in (FITTED, half):
        assert win_chance(0, 0, m) == 1.0
        assert win_chance(UNREACHABLE, 30, m) == 0.0
        assert win_chance(2, 0, m) == 0.0
