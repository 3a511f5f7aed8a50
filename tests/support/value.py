"""An oracle of the win chain (strategy.value.win_chance): its first-step recursion, written
apart from the forward DP and the backward table it checks."""

from __future__ import annotations

from functools import cache

from strategy.value import ValueModel, WinChain


def chain_of(model: ValueModel) -> WinChain:
    """The hand-set chain of ``model``: one step rate for every distance."""
    return WinChain(model.ready_rate, (model.step_rate,), model.end_rate)


def recursive_win(chain: WinChain, distance: int, turns: int) -> float:
    """P(win from ``distance`` within ``turns``) by first-step recursion on the chain's
    numbers."""

    @cache
    def w(d: int, n: int) -> float:
        if d == 0:
            return 1.0
        if n == 0:
            return 0.0
        go = 1.0 - chain.end_rate
        if d == 1:
            return go * (chain.ready_rate + (1.0 - chain.ready_rate) * w(1, n - 1))
        s = chain.step_rates[min(d - 2, len(chain.step_rates) - 1)]
        return go * (s * w(d - 1, n - 1) + (1.0 - s) * w(d, n - 1))

    return w(distance, turns)
