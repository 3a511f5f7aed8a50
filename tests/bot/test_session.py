"""The seat session both platforms use: deadlines, fallbacks and a lost view.

Each test puts a real agent in a real position (tile notation) and then makes
its strategy fail in one way, through the session's strategy seam (a
:class:`bot.agent.Strategy` handed to the session); the answer must still be legal
and say why.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from bot.agent import Agent, Decision
from bot.seat import PlayerState
from bot.session import SeatSession
from game.events import Dealt, Discard, Discarded, Drew, Pass, SeatAssigned
from game.rules import MCR_BOTZONE
from game.tiles import Notation, parse_tile, parse_tiles
from strategy.deadline import Deadline
from strategy.policy import Method

HAND = "1m2m3m 4p5p6p 7s8s 1z1z 2z3z 5z"  # 13 tiles, no win on a 9m


def t(name: str) -> int:
    return parse_tile(name, Notation.COMPACT)


class Scripted:
    """A strategy whose decision is a function of the deadline (to fail on purpose)."""

    def __init__(self, decide: Callable[[Deadline | None], Decision]) -> None:
        self._decide = decide

    def decide(self, view: PlayerState, deadline: Deadline | None = None) -> Decision:
        return self._decide(deadline)

    def reset(self) -> None:
        pass


def _session(work_budget: int | None = None,
             decide: Callable[[Deadline | None], Decision] | None = None) -> SeatSession:
    strategy = Agent(MCR_BOTZONE) if decide is None else Scripted(decide)
    session = SeatSession(MCR_BOTZONE, strategy, work_budget=work_budget)
    session.observe([SeatAssigned(0, 0), Dealt(0, tuple(parse_tiles(HAND)))])
    return session


def _draw(session: SeatSession, tile: str = "9m") -> None:
    session.observe([Drew(0, t(tile))])


def test_a_deterministic_session_answers_what_the_agent_decides() -> None:
    a, b = _session(work_budget=20_000), _session(work_budget=20_000)
    _draw(a)
    _draw(b)
    direct = b.strategy.decide(b.view, Deadline(budget=20_000))
    decision = a.answer_now(1.0)
    assert decision.action == direct.action and decision.method is not Method.FALLBACK
    assert a.view.own_answer == decision.action


def test_a_failing_strategy_gives_the_drawn_tile_and_the_reason() -> None:
    def broken(deadline: Deadline | None = None) -> Decision:
        raise RuntimeError("kernel exploded")

    s = _session(decide=broken)
    _draw(s)
    decision = s.answer_now(0.5)
    assert decision.action == Discard(t("9m"))
    assert decision.method is Method.FALLBACK and "kernel exploded" in decision.note


def test_a_late_strategy_is_cut_at_the_thinking_time() -> None:
    """The strategy is held until the answer is given: an answer that waited for it would be
    its decision (after a minute), not the fallback."""
    release = threading.Event()

    def slow(deadline: Deadline | None = None) -> Decision:
        release.wait(60)
        return Decision(Discard(t("1z")), Method.SEARCH)

    s = _session(decide=slow)
    _draw(s)
    try:
        decision = s.answer_now(0.1)
    finally:
        release.set()
    assert decision.method is Method.FALLBACK and "longer than" in decision.note
    assert s.view.ask.allows(decision.action)


def test_an_answer_the_view_does_not_allow_is_replaced() -> None:
    not_held = Discard(t("9p"))
    s = _session(decide=lambda deadline: Decision(not_held, Method.SEARCH))
    _draw(s)
    decision = s.answer_now(0.5)
    assert decision.method is Method.FALLBACK and "not legal" in decision.note
    assert decision.action == Discard(t("9m"))


def test_a_lost_view_answers_safely_until_the_next_game() -> None:
    s = _session()
    five = t("1z")
    s.observe([Discarded(1, five), Discarded(2, five), Discarded(3, five)])
    assert "fifth" in s.lost and "1z" in s.lost
    s.observe([Discarded(1, t("9s"))])
    decision = s.answer_now(0.5)
    assert decision.action == Pass() and decision.method is Method.FALLBACK
    assert decision.note.startswith("state lost")
    s.new_game()
    assert not s.lost


async def test_the_async_answer_is_the_same_decision() -> None:
    a, b = _session(work_budget=20_000), _session(work_budget=20_000)
    for s in (a, b):
        _draw(s, "6s")
    sync = a.answer_now(1.0)
    asynchronous = await b.answer(1.0)
    assert sync.action == asynchronous.action and sync.reasons == asynchronous.reasons


async def test_async_run_falls_back_on_time_and_on_failure() -> None:
    s = _session()
    _draw(s)

    release = threading.Event()

    def slow(deadline: Deadline) -> Decision:
        release.wait(60)  # held until the answer is given
        return Decision(Pass(), Method.SEARCH)

    def why(text: str) -> Decision:
        return Decision(Pass(), Method.FALLBACK, note=text)

    try:
        late = await s.run(slow, 0.05, why)
    finally:
        release.set()
    assert late.method is Method.FALLBACK and "longer than" in late.note
    failed = await s.run(lambda d: 1 / 0, 0.5, why)  # type: ignore[arg-type,return-value]
    assert failed.method is Method.FALLBACK and "ZeroDivisionError" in failed.note


async def test_async_decisions_run_on_the_loops_executor() -> None:
    """Many seats in one process share the event loop's threads (not one thread per seat)."""
    import asyncio
    import threading
    from concurrent.futures import ThreadPoolExecutor

    loop = asyncio.get_running_loop()
    loop.set_default_executor(ThreadPoolExecutor(max_workers=1, thread_name_prefix="decide"))
    names: set[str] = set()
    sessions: list[SeatSession] = []

    def spy(deadline: Deadline | None = None) -> Decision:
        names.add(threading.current_thread().name)
        return Decision(Discard(t("9m")), Method.SEARCH)

    for _ in range(2):
        s = _session(decide=spy)
        _draw(s)
        sessions.append(s)
    for s in sessions:
        assert (await s.answer(1.0)).method is not Method.FALLBACK
    assert len(names) == 1 and names.pop().startswith("decide")
