"""The seat session both platforms drive: events in, one legal answer out.

A :class:`SeatSession` owns one seat's :class:`bot.seat.PlayerState` (every event goes
to it) and the seat's strategy (:class:`bot.agent.Strategy`, our
:func:`bot.planner.default_strategy` in play: the planner under mcr-botzone, else
:class:`bot.agent.Agent`; tests bring their own), which it hands the view.
It is the only place where a decision is asked for, timed and made safe:

- the agent decides in one worker thread under a :class:`Deadline` (a wall
  clock at 80 % of the seat's thinking time, or a work budget when the
  session is deterministic, which is what tests and reproducible matches
  use); the answer is awaited for the whole thinking time and no longer;
- a strategy that fails, is late or answers something the seat's view does
  not call legal is replaced by the safest legal action
  (:func:`bot.seat.safest_action`: pass if allowed, else discard the drawn
  tile) with the reason in the decision's note;
- when an event cannot be applied (a wire line that does not decode, a fifth
  copy of a tile), the view is no longer trusted: every answer until the next
  game is the safest one, with the reason.

Botzone's stdin/stdout loop (:mod:`bot.botzone`) calls :meth:`answer_now`;
the Olympiad client (:mod:`bot.olympiad_client`) awaits :meth:`answer`.  The
loops around it differ only in their transport.
"""

import asyncio
import concurrent.futures
import sys
import time
from collections.abc import Iterable
from typing import Callable

from bot.agent import Decision, Strategy
from bot.planner import default_strategy
from bot.seat import AskKind, PlayerState
from game.events import Action, DeclareWin, Event
from game.rulebook import minimum_fan
from game.rules import Ruleset
from strategy.deadline import Deadline
from strategy.knowledge import KnowledgeError
from strategy.policy import Method

__all__ = ["SeatSession", "Work"]

Work = Callable[[Deadline], Decision]
"""One decision to make under a deadline."""


class SeatSession:
    """One seat's agent behind a deadline and a legality check."""

    def __init__(self, rules: "Ruleset", strategy: "Strategy | None" = None, *,
                 work_budget: "int | None" = None,
                 executor: "concurrent.futures.Executor | None" = None) -> None:
        self.rules = rules
        self.strategy: "Strategy" = strategy if strategy is not None else default_strategy(rules)
        self.view = PlayerState(rules)
        self.work_budget = work_budget
        """Deterministic mode: a work budget per decision and no clock at all."""
        self.lost = ""
        """Why the view cannot be trusted any more (empty while it can)."""
        self.executor = executor
        """Where decisions run: None is a thread of this session's own for
        :meth:`answer_now` and the event loop's default executor for :meth:`answer`,
        so many seats in one process share threads (200 seats thinking in 200
        threads would starve the event loop of the GIL)."""
        self._own: "concurrent.futures.ThreadPoolExecutor | None" = None

    def close(self) -> None:
        own, self._own = self._own, None
        if own is None:
            return
        if sys.version_info >= (3, 9):
            own.shutdown(wait=False, cancel_futures=True)
        else:  # no cancel_futures before 3.9 (Botzone's 3.6); each answer is awaited, so
            own.shutdown(wait=False)  # nothing is queued behind the last one


    # ------------------------------------------------------------------ events
    def new_game(self) -> None:
        self.view = PlayerState(self.rules)
        self.strategy.reset()
        self.lost = ""

    def lose(self, why: str) -> None:
        """The view missed or could not apply an event: answer safely until the next game."""
        if not self.lost:
            self.lost = why

    def observe(self, events: "Iterable[Event]") -> None:
        """Apply events in order; one that cannot be applied marks the view lost."""
        for event in events:
            try:
                self.view.observe(event)
            except (KnowledgeError, ValueError) as exc:
                self.lose(f"{type(exc).__name__}: {exc}")

    def asked(self) -> bool:
        """Whether the last event asks this seat for an answer."""
        return self.view.ask.kind is not AskKind.NOTHING

    def answered(self, action: "Action") -> None:
        """Note an answer given outside :meth:`answer` (a replayed history)."""
        self.view.answered(action)

    def fallback(self, why: str) -> "Decision":
        """The safest legal answer to the view's ask, with the reason."""
        return Decision(self.view.ask.safest(), Method.FALLBACK, note=why)

    def decide(self, deadline: "Deadline") -> "Decision":
        """The strategy's decision on the current view (in the worker thread)."""
        return self.strategy.decide(self.view, deadline)

    # ------------------------------------------------------------------ decisions
    def deadline(self, seconds: float) -> "Deadline":
        if self.work_budget is not None:
            return Deadline(budget=self.work_budget)
        return Deadline(clock=time.monotonic, until=time.monotonic() + seconds * 0.8)

    def answer_now(self, seconds: float) -> "Decision":
        """The answer to the last event, within ``seconds`` (blocks the calling thread)."""
        if self.lost:
            return self._answered(self.fallback(f"state lost: {self.lost}"))
        if self.executor is None and self._own is None:
            self._own = concurrent.futures.ThreadPoolExecutor(max_workers=1)
        pool = self.executor or self._own
        assert pool is not None
        future = pool.submit(self.decide, self.deadline(seconds))
        try:
            decision = future.result(timeout=None if self.work_budget else seconds)
        except Exception as exc:  # the seat must answer whatever the strategy did
            decision = self.fallback(self._why(exc, seconds))
        return self._answered(self._legal(decision))

    def answer_inline(self, deadline: "Deadline") -> "Decision":
        """The answer to the last event, decided in the calling thread under ``deadline``
        (the arena's seats: a work budget, so no thread and no clock), with the same
        legality check and fallback as :meth:`answer_now`."""
        if self.lost:
            return self._answered(self.fallback(f"state lost: {self.lost}"))
        try:
            decision = self.decide(deadline)
        except Exception as exc:  # the seat must answer whatever the strategy did
            decision = self.fallback(f"strategy failed: {type(exc).__name__}: {exc}")
        return self._answered(self._legal(decision))

    async def answer(self, seconds: float) -> "Decision":
        """The answer to the last event, within ``seconds`` (the event loop keeps running)."""
        if self.lost:
            return self._answered(self.fallback(f"state lost: {self.lost}"))
        decision = await self.run(self.decide, seconds, self.fallback)
        return self._answered(self._legal(decision))

    async def run(self, work: "Work", seconds: float,
                  fallback: "Callable[[str], Decision]") -> "Decision":
        """Any decision in the worker thread, under the same deadline and time limit."""
        deadline = self.deadline(seconds)
        future = asyncio.get_event_loop().run_in_executor(self.executor, work, deadline)
        try:
            return await asyncio.wait_for(future,
                                          None if self.work_budget else seconds)
        except Exception as exc:  # the seat must answer whatever the strategy did
            return fallback(self._why(exc, seconds))

    @staticmethod
    def _why(exc: "Exception", seconds: float) -> str:
        if isinstance(exc, (TimeoutError, asyncio.TimeoutError)):  # apart before 3.11
            return f"strategy took longer than {seconds:.3f} s"
        return f"strategy failed: {type(exc).__name__}: {exc}"

    def _legal(self, decision: "Decision") -> "Decision":
        ask = self.view.ask
        if ask.allows(decision.action):
            return decision
        if isinstance(decision.action, DeclareWin):
            minimum = minimum_fan(self.rules, int(self.view.kb.flowers[self.view.seat]))
            return self.fallback(f"strategy declared a false win (the hand does not win here"
                                 f"{f' with {minimum} fan' if minimum else ''}), replaced")
        return self.fallback(
            f"strategy answered {decision.action!r}, which is not legal here")

    def _answered(self, decision: "Decision") -> "Decision":
        self.view.answered(decision.action)
        return decision
