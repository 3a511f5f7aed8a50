"""The agreement bench counts what it says it counts (on the real Botzone logs)."""

from __future__ import annotations

from support import botzone_logs

from arena.bench.agreement import measure
from bot.agent import Agent, Decision
from bot.seat import SeatView
from game.rules import MCR_BOTZONE
from strategy.policy import Method
from strategy.stepvalue import Deadline

LOGS = botzone_logs()[:2]


class Safest:
    """Discards the drawn tile, never calls."""

    def decide(self, view: SeatView, deadline: Deadline | None = None) -> Decision:
        return Decision(view.ask.safest(), Method.FALLBACK)

    def reset(self) -> None:
        pass


def test_a_strategy_that_never_calls_agrees_on_every_pass_and_no_call() -> None:
    tally = measure("safest", Safest, LOGS, budget=1_000)
    assert tally.discards > 40 and tally.calls > 0 and tally.passes > 0
    assert tally.same_calls == 0 and tally.same_passes == tally.passes
    # the rank-1 bot rarely throws the tile it just drew
    assert tally.same_discards < tally.discards // 2


def test_our_agent_is_measured_on_the_same_decisions() -> None:
    ours = measure("baseline-v1", lambda: Agent(MCR_BOTZONE), LOGS, budget=1_000)
    safest = measure("safest", Safest, LOGS, budget=1_000)
    assert (ours.discards, ours.calls, ours.passes) == (safest.discards, safest.calls,
                                                        safest.passes)
    assert ours.same_discards > safest.same_discards
