"""The seat session both platforms drive: events in, one legal answer out.

A :class:`SeatSession` owns the :class:`bot.agent.Agent` of one seat and is
the only place where a decision is asked for, timed and made safe:

- the agent decides in one worker thread under a :class:`Deadline` (a wall
  clock at 80 % of the seat's thinking time, or a work budget when the
  session is deterministic, which is what tests and reproducible matches
  use); the answer is awaited for the whole thinking time and no longer;
- a strategy that fails, is late or answers something the seat's view does
  not call legal is replaced by the agent's safest legal action (discard the
  drawn tile, else pass) with the reason in the decision's note;
- when an event cannot be applied (a wire line that does not decode, a fifth
  copy of a tile), the view is no longer trusted: every answer until the next
  game is the safest one, with the reason.

Botzone's stdin/stdout loop (:mod:`bot.botzone`) calls :meth:`answer_now`;
the Olympiad client (:mod:`bot.olympiad_client`) awaits :meth:`answer`.  The
loops around it differ only in their transport.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import time
from collections.abc import Callable, Iterable

from bot.agent import Agent, Decision
from game.events import Event
from strategy.knowledge import KnowledgeError
from strategy.stepvalue import Deadline

__all__ = ["SeatSession", "Work"]

Work = Callable[[Deadline], Decision]
"""One decision to make under a deadline."""


class SeatSession:
    """One seat's agent behind a deadline and a legality check."""

    def __init__(self, agent: Agent, *, work_budget: int | None = None,
                 executor: concurrent.futures.Executor | None = None) -> None:
        self.agent = agent
        self.work_budget = work_budget
        """Deterministic mode: a work budget per decision and no clock at all."""
        self.lost = ""
        """Why the view cannot be trusted any more (empty while it can)."""
        self.executor = executor
        """Where decisions run: None is a thread of this session's own for
        :meth:`answer_now` and the event loop's default executor for :meth:`answer`,
        so many seats in one process share threads (200 seats thinking in 200
        threads would starve the event loop of the GIL)."""
        self._own: concurrent.futures.ThreadPoolExecutor | None = None

    def close(self) -> None:
        if self._own is not None:
            self._own.shutdown(wait=False, cancel_futures=True)

    # ------------------------------------------------------------------ events
    def new_game(self) -> None:
        self.agent.reset()
        self.lost = ""

    def lose(self, why: str) -> None:
        """The view missed or could not apply an event: answer safely until the next game."""
        if not self.lost:
            self.lost = why

    def observe(self, events: Iterable[Event]) -> None:
        """Apply events in order; one that cannot be applied marks the view lost."""
        for event in events:
            try:
                self.agent.observe(event)
            except (KnowledgeError, ValueError) as exc:
                self.lose(f"{type(exc).__name__}: {exc}")

    def asked(self) -> bool:
        """Whether the last event asks this seat for an answer."""
        return self.agent.view.asked() != "none"

    # ------------------------------------------------------------------ decisions
    def deadline(self, seconds: float) -> Deadline:
        if self.work_budget is not None:
            return Deadline(budget=self.work_budget)
        return Deadline(clock=time.monotonic, until=time.monotonic() + seconds * 0.8)

    def answer_now(self, seconds: float) -> Decision:
        """The answer to the last event, within ``seconds`` (blocks the calling thread)."""
        if self.lost:
            return self._answered(self.agent.fallback(f"state lost: {self.lost}"))
        if self.executor is None and self._own is None:
            self._own = concurrent.futures.ThreadPoolExecutor(max_workers=1)
        pool = self.executor or self._own
        assert pool is not None
        future = pool.submit(self.agent.decide, self.deadline(seconds))
        try:
            decision = future.result(timeout=None if self.work_budget else seconds)
        except Exception as exc:  # the seat must answer whatever the strategy did
            decision = self.agent.fallback(self._why(exc, seconds))
        return self._answered(self._legal(decision))

    async def answer(self, seconds: float) -> Decision:
        """The answer to the last event, within ``seconds`` (the event loop keeps running)."""
        if self.lost:
            return self._answered(self.agent.fallback(f"state lost: {self.lost}"))
        decision = await self.run(self.agent.decide, seconds, self.agent.fallback)
        return self._answered(self._legal(decision))

    async def run(self, work: Work, seconds: float,
                  fallback: Callable[[str], Decision]) -> Decision:
        """Any decision in the worker thread, under the same deadline and time limit."""
        deadline = self.deadline(seconds)
        future = asyncio.get_running_loop().run_in_executor(self.executor, work, deadline)
        try:
            return await asyncio.wait_for(future,
                                          None if self.work_budget else seconds)
        except Exception as exc:  # the seat must answer whatever the strategy did
            return fallback(self._why(exc, seconds))

    @staticmethod
    def _why(exc: Exception, seconds: float) -> str:
        if isinstance(exc, TimeoutError):
            return f"strategy took longer than {seconds:.3f} s"
        return f"strategy failed: {type(exc).__name__}: {exc}"

    def _legal(self, decision: Decision) -> Decision:
        if decision.action in self.agent.view.legal_actions():
            return decision
        return self.agent.fallback(
            f"strategy answered {decision.action!r}, which is not legal here")

    def _answered(self, decision: Decision) -> Decision:
        self.agent.view.answered(decision.action)
        return decision
