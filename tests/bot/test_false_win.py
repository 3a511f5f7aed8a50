"""The safety net holds against false wins: the seat's Ask offers a win only when the rule
book (:mod:`game.rulebook`) allows one, so a :class:`SeatSession` replaces a strategy's false
win (−30 on Botzone) by the safest legal answer and says why.

Shown with a strategy that declares a win at every question, playing whole games at the
Botzone judge's table on two seats beside two step-value agents: no game ends in a
penalty, every real win it was offered is taken, and every other answer is the session's
replacement with its reason.
"""

from __future__ import annotations

import numpy as np

from bot.agent import Agent, Decision
from bot.seat import PlayerState
from bot.session import SeatSession
from game.events import DeclareWin, Pass, Penalized, Won
from game.rules import MCR_BOTZONE
from game.table import BotzoneTable, random_walltiles
from strategy.deadline import Deadline
from strategy.policy import Method


class AlwaysWin:
    """Declares a win whatever it is asked."""

    def reset(self) -> None:
        return None

    def decide(self, view: PlayerState, deadline: Deadline | None = None) -> Decision:
        return Decision(DeclareWin(), Method.WIN)


def test_a_strategy_that_always_declares_a_win_is_never_penalised() -> None:
    replaced = declared = won = agents_won = 0
    for game in range(16):
        table = BotzoneTable(random_walltiles(np.random.default_rng([31, game])), game % 4)
        seats = [SeatSession(MCR_BOTZONE, AlwaysWin() if s % 2 else Agent(MCR_BOTZONE),
                             work_budget=300) for s in range(4)]
        while not table.finished:
            answers = []
            for seat, request in enumerate(table.requests):
                session = seats[seat]
                session.observe([request])
                if not session.asked():
                    answers.append(Pass())
                    continue
                offered = session.view.ask.win is not None
                decision = session.answer_inline(Deadline(budget=300))
                if seat % 2 == 0:
                    assert not decision.fell_back, decision
                elif offered:
                    assert decision.action == DeclareWin()
                    declared += 1
                else:
                    assert decision.fell_back and "false win" in decision.note, decision
                    replaced += 1
                answers.append(decision.action)
            table.respond(answers)
        result = table.result
        assert result is not None
        assert not isinstance(result.ending, Penalized), (game, result.ending)
        ending = result.ending
        won += isinstance(ending, Won) and ending.seat % 2 == 1
        agents_won += isinstance(ending, Won) and ending.seat % 2 == 0
    # every win the always-win seats were offered was taken and ended its game; the
    # agents beside them won games as usual
    assert replaced > 500 and declared == won and agents_won > 0


def test_an_offered_win_is_declared_through_the_session() -> None:
    """Dealt a complete hand, the drawn tile makes a win of 8 fan or more: the Ask offers
    it with its fan, and the always-win strategy's answer stands."""
    from game.events import Dealt, Drew, SeatAssigned
    from game.tiles import parse_tiles

    session = SeatSession(MCR_BOTZONE, AlwaysWin(), work_budget=1)
    hand = parse_tiles("123m456p789s1122z")
    session.observe([SeatAssigned(0, 0), Dealt(0, tuple(hand)), Drew(0, parse_tiles("2z")[0])])
    win = session.view.ask.win
    assert win is not None and win.fan >= 8
    decision = session.answer_inline(Deadline(budget=1))
    assert decision.action == DeclareWin() and not decision.fell_back
