"""The seat session both platforms use: deadlines, fallbacks and a lost view.

Each test puts a real agent in a real position (tile notation) and then makes
its strategy fail in one way; the answer must still be legal and say why.
"""

from __future__ import annotations

import time

from bot.agent import Agent, Decision
from bot.session import SeatSession
from game.events import Dealt, Discard, Discarded, Drew, Pass, SeatAssigned
from game.rules import MCR_BOTZONE
from game.tiles import Notation, parse_tile, parse_tiles
from strategy.stepvalue import Deadline

HAND = "1m2m3m 4p5p6p 7s8s 1z1z 2z3z 5z"  # 13 tiles, no win on a 9m


def t(name: str) -> int:
    return parse_tile(name, Notation.COMPACT)


def _session(work_budget: int | None = None) -> SeatSession:
    session = SeatSession(Agent(MCR_BOTZONE), work_budget=work_budget)
    session.observe([SeatAssigned(0, 0), Dealt(0, tuple(parse_tiles(HAND)))])
    return session


def _draw(session: SeatSession, tile: str = "9m") -> None:
    session.observe([Drew(0, t(tile))])


def test_a_deterministic_session_answers_what_the_agent_decides() -> None:
    a, b = _session(work_budget=20_000), _session(work_budget=20_000)
    _draw(a)
    _draw(b)
    direct = b.agent.decide(Deadline(budget=20_000))
    decision = a.answer_now(1.0)
    assert decision.action == direct.action and decision.method != "fallback"
    assert a.agent.view.own_answer == decision.action


def test_a_failing_strategy_gives_the_drawn_tile_and_the_reason() -> None:
    s = _session()
    _draw(s)

    def broken(deadline: Deadline | None = None) -> Decision:
        raise RuntimeError("kernel exploded")

    s.agent.decide = broken  # type: ignore[method-assign]
    decision = s.answer_now(0.5)
    assert decision.action == Discard(t("9m"))
    assert decision.method == "fallback" and "kernel exploded" in decision.note


def test_a_late_strategy_is_cut_at_the_thinking_time() -> None:
    s = _session()
    _draw(s)

    def slow(deadline: Deadline | None = None) -> Decision:
        time.sleep(1.0)
        return Decision(Discard(t("1z")), "late")

    s.agent.decide = slow  # type: ignore[method-assign]
    start = time.monotonic()
    decision = s.answer_now(0.1)
    assert time.monotonic() - start < 0.8
    assert decision.method == "fallback" and "longer than" in decision.note
    assert decision.action in s.agent.view.legal_actions()


def test_an_answer_the_view_does_not_allow_is_replaced() -> None:
    s = _session()
    _draw(s)
    not_held = Discard(t("9p"))
    s.agent.decide = lambda deadline=None: Decision(not_held, "bogus")  # type: ignore[method-assign]
    decision = s.answer_now(0.5)
    assert decision.method == "fallback" and "not legal" in decision.note
    assert decision.action == Discard(t("9m"))


def test_a_lost_view_answers_safely_until_the_next_game() -> None:
    s = _session()
    five = t("1z")
    s.observe([Discarded(1, five), Discarded(2, five), Discarded(3, five)])
    assert "fifth" in s.lost and "1z" in s.lost
    s.observe([Discarded(1, t("9s"))])
    decision = s.answer_now(0.5)
    assert decision.action == Pass() and decision.method == "fallback"
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

    def slow(deadline: Deadline) -> Decision:
        time.sleep(0.5)
        return Decision(Pass(), "late")

    def why(text: str) -> Decision:
        return Decision(Pass(), "fallback", note=text)

    late = await s.run(slow, 0.05, why)
    assert late.method == "fallback" and "longer than" in late.note
    failed = await s.run(lambda d: 1 / 0, 0.5, why)  # type: ignore[arg-type,return-value]
    assert failed.method == "fallback" and "ZeroDivisionError" in failed.note


async def test_async_decisions_run_on_the_loops_executor() -> None:
    """Many seats in one process share the event loop's threads (not one thread per seat)."""
    import asyncio
    import threading
    from concurrent.futures import ThreadPoolExecutor

    loop = asyncio.get_running_loop()
    loop.set_default_executor(ThreadPoolExecutor(max_workers=1, thread_name_prefix="decide"))
    names: set[str] = set()
    sessions = [_session(), _session()]
    for s in sessions:
        _draw(s)
        real = s.agent.decide

        def spy(deadline: Deadline | None = None, real: object = real) -> Decision:
            names.add(threading.current_thread().name)
            return real(deadline)  # type: ignore[operator,no-any-return]

        s.agent.decide = spy  # type: ignore[method-assign]
    for s in sessions:
        assert (await s.answer(1.0)).method != "fallback"
    assert len(names) == 1 and names.pop().startswith("decide")
