"""The Botzone judge mock's turn loop: four seat channels play one game.

:func:`referee_game` drives ``game.table.BotzoneTable``, asks the four channels at
once every stage, turns their replies into responses (a platform verdict other
than OK becomes ``PlatformFault``, unreadable output an ``InvalidAction``) and lets
the table judge and score them.  A :class:`JudgeSeat` answers one turn of one
seat: :class:`arena.platforms.botzone_judge.sandbox.ProgramSeat` is the real one (a program
in a process), tests and in-process players bring their own.

What the platform does, and so does this referee:

- first turn of a game: the whole history (for the first turn, one request) in
  the chosen interaction; a program that ends its answer with
  ``>>>BOTZONE_REQUEST_KEEP_RUNNING<<<`` is paused and later gets only the new
  request (simple: the bare line; JSON: the request as a JSON string); one that
  exits is started afresh next turn with the whole history;
- a per-turn time limit on the wall clock from the request to the answer: 6 s for a turn
  that starts the program (start-up included), doubled on a seat's first turn of a game,
  and 4 s for a turn that resumes a kept-running one (Botzone's Python limits);
- a program that exits with a non-zero status, closes its pipes or cannot be
  started gets ``RE``; one that does not answer in time gets ``TLE``; either
  way the table penalises it (-30, the others +10) and the game ends;
- ``data`` a program outputs is given back to it on its next fresh start in the
  game, ``globaldata`` on every fresh start, across the games of a match.

Not reproduced: the 256 MB memory limit (only passed on in JSON input) and the
one-CPU-core limit; time is wall time, not CPU time.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from arena.records.decisions import JudgeAnswer
from arena.records.lines import SeatReport
from bot.logging import get_logger
from game.events import (
    Event,
    GameResult,
    InvalidAction,
    Penalized,
    PlatformFault,
    Response,
    Won,
)
from game.table import BotzoneTable
from game.turn_order import SEATS
from protocols.botzone_codec import decode_response, format_request
from protocols.botzone_envelope import TurnInput

DEFAULT_TIME_LIMIT = 6.0
"""Botzone: 1 s per turn times 6 for Python, for a turn that starts the program (doubled
on a game's first turn)."""
KEPT_RUNNING_SHARE = 4.0 / 6.0
"""A turn that resumes a kept-running program gets this share of :data:`DEFAULT_TIME_LIMIT`
's kind of turn: Botzone's ``sub_time_limit`` for Python is 4 s against 6 s
(botzone-local's ``compiler.py``, entry ``py36``)."""
DEFAULT_MEMORY_LIMIT = 256

OK, TIME_LIMIT_EXCEEDED, RUNTIME_ERROR = "OK", "TLE", "RE"

log = get_logger("mjbot.referee")


@dataclass(frozen=True)
class Reply:
    """A seat's answer to one turn, as the platform saw it."""

    verdict: str = OK
    """``OK``, ``TLE`` or ``RE``."""
    response: str = ""
    unreadable: str | None = None
    """Why the output could not be read as an answer (``None``: it could)."""
    debug: str = ""
    data: str = ""
    globaldata: str | None = None
    """``None``: the program did not output any, keep the old one."""
    seconds: float = 0.0
    kept_running: bool = False
    detail: str = ""
    """What went wrong when the verdict is not OK (stderr's tail included)."""

    def as_response(self) -> Response:
        if self.verdict != OK:
            return PlatformFault(self.verdict)
        if self.unreadable is not None:
            return InvalidAction(text=self.response, reason=self.unreadable)
        return decode_response(self.response)



# ---------------------------------------------------------------- seats
class JudgeSeat(Protocol):
    """One seat's program for one game: answers turns, then is closed (it never raises for
    what the program does; faults come back as a :class:`Reply` verdict).  A channel with
    a true ``blocking`` attribute answers on the event loop's thread (an in-process
    player): it is asked before the others, whose clocks then do not run while it thinks."""

    async def turn(self, turn: TurnInput) -> Reply: ...

    async def close(self) -> None: ...



# ---------------------------------------------------------------- one game
@dataclass(frozen=True)
class GameReport:
    game: int
    walltiles: tuple[int, ...]
    prevalent_wind: int
    result: GameResult
    history: tuple[Event, ...]
    seats: tuple[SeatReport, ...]
    answers: tuple[JudgeAnswer, ...]
    """Every answer that was not a plain PASS, and every one with debug text."""
    requests: tuple[tuple[str, ...], ...]
    """Each seat's request lines, in order."""
    responses: tuple[tuple[str, ...], ...]
    """Each seat's answers (raw text), in order."""


@dataclass
class _SeatState:
    requests: list[str] = field(default_factory=list)
    responses: list[str] = field(default_factory=list)
    data: str = ""
    last: Reply | None = None
    max_seconds: float = 0.0
    total_seconds: float = 0.0


async def referee_game(channels: Sequence[JudgeSeat], walltiles: Sequence[int],
                       prevalent_wind: int, *, time_limit: float = DEFAULT_TIME_LIMIT,
                       kept_running_limit: float | None = None,
                       globaldata: list[str] | None = None, commands: Sequence[str] = (),
                       game: int = 0,
                       on_turn: Callable[[BotzoneTable], None] | None = None) -> GameReport:
    """Play one game with four channels to its end; the channels are closed on return.

    ``globaldata`` (one string per seat) is read and updated in place.  ``on_turn`` (tests)
    is called with the table every turn once all four seats have answered and before the
    table takes their answers: the table is then as the seats were last shown it.
    ``kept_running_limit``: seconds for a turn that resumes a kept-running program (None:
    :data:`KEPT_RUNNING_SHARE` of ``time_limit``, 4 s at Botzone's 6 s).
    """
    if kept_running_limit is None:
        kept_running_limit = time_limit * KEPT_RUNNING_SHARE
    if len(channels) != SEATS:
        raise ValueError(f"a game needs 4 seats, got {len(channels)}")
    shared = globaldata if globaldata is not None else [""] * SEATS
    names = list(commands) or [f"seat {s}" for s in range(SEATS)]
    table = BotzoneTable(walltiles, prevalent_wind)
    states = [_SeatState() for _ in range(SEATS)]
    answers: list[JudgeAnswer] = []
    log.info("game start", game=game, prevalent_wind=prevalent_wind)
    try:
        while not table.finished:
            requests = table.requests
            turns = []
            for s, state in enumerate(states):
                state.requests.append(format_request(requests[s], s))
                n = len(state.requests)
                turns.append(TurnInput(
                    turn=n, requests=tuple(state.requests), responses=tuple(state.responses),
                    time_limit=time_limit * (2 if n == 1 else 1),
                    data=state.data, globaldata=shared[s],
                    kept_running_limit=kept_running_limit))
            # a seat that answers on the event loop's own thread (an in-process player)
            # answers first: while it thinks, no program's clock runs (on Botzone each
            # program has a core of its own)
            early = {s: await c.turn(turns[s]) for s, c in enumerate(channels)
                     if getattr(c, "blocking", False)}
            async with asyncio.TaskGroup() as group:
                tasks = {s: group.create_task(c.turn(turns[s]))
                         for s, c in enumerate(channels) if s not in early}
            replies = [early[s] if s in early else tasks[s].result() for s in range(SEATS)]
            if on_turn is not None:
                on_turn(table)
            for s, reply in enumerate(replies):
                state = states[s]
                state.last = reply
                state.responses.append(reply.response)
                state.data = reply.data
                if reply.globaldata is not None:
                    shared[s] = reply.globaldata
                state.max_seconds = max(state.max_seconds, reply.seconds)
                state.total_seconds += reply.seconds
                if reply.verdict != OK:
                    log.warning("seat fault", game=game, seat=s, verdict=reply.verdict,
                                turn=turns[s].turn, detail=reply.detail)
                if reply.verdict != OK or reply.response.strip() != "PASS" or reply.debug:
                    answers.append(JudgeAnswer(s, turns[s].turn, turns[s].requests[-1],
                                               reply.verdict, reply.response, reply.debug,
                                               round(reply.seconds, 4)))
            table.respond([r.as_response() for r in replies])
    finally:
        await asyncio.gather(*(c.close() for c in channels), return_exceptions=True)
    result = table.result
    assert result is not None
    seats = tuple(_seat_report(s, names[s], states[s], result) for s in range(SEATS))
    log.info("game over", game=game, ending=type(result.ending).__name__,
             scores=list(result.scores), **ending_fields(result))
    return GameReport(
        game=game, walltiles=tuple(walltiles), prevalent_wind=prevalent_wind, result=result,
        history=table.history, seats=seats, answers=tuple(answers),
        requests=tuple(tuple(st.requests) for st in states),
        responses=tuple(tuple(st.responses) for st in states))


def ending_fields(result: GameResult) -> dict[str, Any]:
    ending = result.ending
    if isinstance(ending, Penalized):
        return {"seat": ending.seat, "reason": ending.reason, "detail": ending.detail}
    if isinstance(ending, Won):
        return {"seat": ending.seat, "fan": ending.fan_total, "self_drawn": ending.self_drawn}
    return {}


def _seat_report(seat: int, command: str, state: _SeatState, result: GameResult) -> SeatReport:
    ending = result.ending
    verdict, detail = OK, ""
    if isinstance(ending, Penalized) and ending.seat == seat:
        verdict, detail = ending.reason, ending.detail
        if state.last is not None and state.last.verdict != OK:
            detail = state.last.detail
    last = state.last
    return SeatReport(seat=seat, command=command, verdict=verdict, detail=detail,
                      turns=len(state.responses), max_seconds=state.max_seconds,
                      total_seconds=state.total_seconds,
                      kept_running=last is not None and last.kept_running)


