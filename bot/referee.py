"""``mjbot referee botzone``: four programs play under the Botzone judge, spoken to as Botzone does.

Three layers, each replaceable on its own:

- an *interaction* turns a seat's turn into input text and the program's output
  lines into a :class:`Reply` (:class:`SimpleInteraction`, :class:`JsonInteraction`);
  pure text, no I/O;
- a :class:`BotProcess` runs one program: start it, write, read lines until the
  keep-running marker or the end of its output under a deadline, pause it
  between turns (SIGSTOP/SIGCONT on its process group) and kill it (at the end
  of its game, on a fault, in ``finally`` blocks, at exit; on Linux the kernel
  also kills it if the referee itself is killed);
- a :class:`SeatChannel` answers one turn of one seat; :class:`ProgramSeat` is
  the real one (an interaction over a process), tests may bring a scripted one.

:func:`referee_game` is the turn loop: it drives ``game.table.BotzoneTable``,
asks the four channels at once every stage, turns their replies into responses
(a platform verdict other than OK becomes ``PlatformFault``, unreadable output an
``InvalidAction``) and lets the table judge and score them.  :func:`run_match`
plays games one after another with fresh processes and writes the records.

What the platform does, and so does this referee:

- first turn of a game: the whole history (for the first turn, one request) in
  the chosen interaction; a program that ends its answer with
  ``>>>BOTZONE_REQUEST_KEEP_RUNNING<<<`` is paused and later gets only the new
  request (simple: the bare line; JSON: the request as a JSON string); one that
  exits is started afresh next turn with the whole history;
- a per-turn time limit on the wall clock from the request to the answer (start-up
  included for a fresh process), doubled on a seat's first turn of a game;
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
import atexit
import contextlib
import ctypes
import json
import os
import shlex
import signal
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from bot.logging import get_logger
from bot.records import write_record
from game.events import (
    Event,
    GameResult,
    InvalidAction,
    Penalized,
    PlatformFault,
    Response,
    WallExhausted,
    Won,
)
from game.table import BotzoneTable, WallError, check_walltiles, random_walltiles
from game.tiles import Notation, TileError, parse_tile
from protocols.botzone_codec import decode_response, format_request

KEEP_RUNNING = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
"""The line a program prints after its answer to stay running (same as ``bot.botzone``)."""
SEATS = 4
DEFAULT_TIME_LIMIT = 6.0
"""Botzone: 1 s per turn times 6 for Python."""
DEFAULT_MEMORY_LIMIT = 256
MAX_OUTPUT_BYTES = 1 << 20
"""More output than this in one turn is not an answer."""
STDERR_TAIL_BYTES = 2000
KILL_WAIT_SECONDS = 5.0

OK, TIME_LIMIT_EXCEEDED, RUNTIME_ERROR = "OK", "TLE", "RE"

log = get_logger("mjbot.referee")


class Interaction(Enum):
    SIMPLE = "simple"
    JSON = "json"


# ---------------------------------------------------------------- one turn, as data
@dataclass(frozen=True)
class TurnInput:
    """What a seat is asked on one turn of a game."""

    turn: int
    """1 for the seat's first request of the game."""
    requests: tuple[str, ...]
    """Every request of the game so far, the new one last."""
    responses: tuple[str, ...]
    """The seat's answers to the earlier requests."""
    time_limit: float
    """Seconds for this turn (already doubled on the first turn)."""
    data: str = ""
    globaldata: str = ""


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


# ---------------------------------------------------------------- interactions (pure text)
@dataclass(frozen=True)
class Output:
    """A program's output lines for one turn, read by an interaction."""

    response: str
    unreadable: str | None = None
    debug: str = ""
    data: str = ""
    globaldata: str | None = None


def _number(x: float) -> int | float:
    return int(x) if float(x).is_integer() else x


class SimpleInteraction:
    """Line counts: ``n``, then 2n-1 lines of requests and own responses, then data and
    globaldata; the answer is the first line, then optional debug, data, globaldata lines."""

    mode = Interaction.SIMPLE

    def first_input(self, turn: TurnInput, memory_limit: int) -> str:
        lines = [str(len(turn.requests))]
        for i, request in enumerate(turn.requests):
            lines.append(request)
            if i < len(turn.requests) - 1:
                lines.append(turn.responses[i])
        lines += [turn.data, turn.globaldata]
        return "\n".join(lines) + "\n"

    def next_input(self, request: str) -> str:
        return request + "\n"

    def read_output(self, lines: Sequence[str]) -> Output:
        padded = [*lines, "", "", ""]
        globaldata = lines[3] if len(lines) > 3 else None
        return Output(response=padded[0], debug=padded[1], data=padded[2], globaldata=globaldata)


class JsonInteraction:
    """One JSON object per turn in; one compact JSON line ``{"response": ...}`` out.

    ``time_limit`` in the input is this turn's limit in seconds (doubled on the first
    turn), ``memory_limit`` the platform's in MB (not enforced here)."""

    mode = Interaction.JSON

    def first_input(self, turn: TurnInput, memory_limit: int) -> str:
        obj = {
            "requests": list(turn.requests),
            "responses": list(turn.responses),
            "data": turn.data,
            "globaldata": turn.globaldata,
            "time_limit": _number(turn.time_limit),
            "memory_limit": memory_limit,
        }
        return json.dumps(obj, separators=(",", ":")) + "\n"

    def next_input(self, request: str) -> str:
        return json.dumps(request) + "\n"

    def read_output(self, lines: Sequence[str]) -> Output:
        text = next((line for line in lines if line.strip()), "")
        if not text:
            return Output(response="", unreadable="no output")
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            return Output(response=text[:200], unreadable=f"output is not JSON ({exc})")
        if not isinstance(obj, dict) or "response" not in obj:
            return Output(response=text[:200], unreadable='output has no "response" field')
        response = obj["response"]
        if not isinstance(response, str):
            return Output(response=json.dumps(response)[:200],
                          unreadable='"response" is not a string')
        globaldata = obj.get("globaldata")
        return Output(response=response, debug=_text(obj.get("debug", "")),
                      data=_text(obj.get("data", "")),
                      globaldata=None if globaldata is None else _text(globaldata))


def _text(value: object) -> str:
    return value if isinstance(value, str) else json.dumps(value)


InteractionStyle = SimpleInteraction | JsonInteraction


def interaction_for(mode: Interaction | str) -> InteractionStyle:
    return SimpleInteraction() if Interaction(mode) is Interaction.SIMPLE else JsonInteraction()


# ---------------------------------------------------------------- a program as a process
_LIVE_GROUPS: set[int] = set()
"""Process groups of programs still running; killed at interpreter exit whatever happened."""


@atexit.register
def _kill_leftovers() -> None:
    for group in list(_LIVE_GROUPS):
        with contextlib.suppress(OSError):
            os.killpg(group, signal.SIGKILL)
    _LIVE_GROUPS.clear()


def _death_signal_setter() -> Callable[[], None] | None:
    """On Linux, a function for the child (between fork and exec) asking the kernel to
    SIGKILL it when the referee dies, even by SIGKILL.  Resolved here, in the parent."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    set_parent_death_signal, kill = 1, int(signal.SIGKILL)  # PR_SET_PDEATHSIG

    def set_death_signal() -> None:
        prctl(set_parent_death_signal, kill)

    return set_death_signal


_SET_DEATH_SIGNAL = _death_signal_setter()


@dataclass(frozen=True)
class Exchange:
    """How one turn's output ended: ``marker`` (kept running), ``exit`` (the program ended,
    ``returncode``), ``timeout``, ``broken`` (it closed stdin or could not be written to),
    ``overflow`` (too much output)."""

    lines: tuple[str, ...]
    ended: str
    returncode: int | None = None


class BotProcess:
    """One running program in its own process group (so pausing and killing reach any
    children it started).  Its stderr is drained all the time; the tail is kept."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self._proc = proc
        self.pid = proc.pid
        self._stderr = bytearray()
        self._stderr_task = asyncio.ensure_future(self._drain_stderr())
        self._paused = False
        _LIVE_GROUPS.add(self.pid)

    @classmethod
    async def start(cls, argv: Sequence[str], cwd: Path | None = None) -> BotProcess:
        if not argv:
            raise OSError("empty command")
        proc = await asyncio.create_subprocess_exec(
            *argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            cwd=cwd,
            start_new_session=True,
            preexec_fn=_SET_DEATH_SIGNAL,
            limit=MAX_OUTPUT_BYTES,
        )
        return cls(proc)

    @property
    def running(self) -> bool:
        return self._proc.returncode is None

    @property
    def stderr_tail(self) -> str:
        return self._stderr.decode("utf-8", "replace").strip()

    async def _drain_stderr(self) -> None:
        stream = self._proc.stderr
        assert stream is not None
        while chunk := await stream.read(4096):
            self._stderr += chunk
            del self._stderr[:-STDERR_TAIL_BYTES]

    def _signal(self, sig: signal.Signals) -> None:
        if self.running:
            with contextlib.suppress(OSError):
                os.killpg(self.pid, sig)

    def pause(self) -> None:
        self._signal(signal.SIGSTOP)
        self._paused = True

    def resume(self) -> None:
        if self._paused:
            self._signal(signal.SIGCONT)
            self._paused = False

    async def exchange(self, text: str, deadline: float) -> Exchange:
        """Write ``text``, then read lines until the keep-running marker, the end of the
        output (then wait for the exit status) or ``deadline`` (``time.monotonic``)."""
        stdin, stdout = self._proc.stdin, self._proc.stdout
        assert stdin is not None and stdout is not None
        try:
            stdin.write(text.encode())
            await asyncio.wait_for(stdin.drain(), max(deadline - time.monotonic(), 0.001))
        except TimeoutError:
            return Exchange((), "timeout")
        except (ConnectionError, RuntimeError):
            return Exchange((), "broken", await self._exit_status(deadline))
        lines: list[str] = []
        size = 0
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return Exchange(tuple(lines), "timeout")
            try:
                raw = await asyncio.wait_for(stdout.readline(), remaining)
            except TimeoutError:
                return Exchange(tuple(lines), "timeout")
            except (ValueError, asyncio.LimitOverrunError):
                return Exchange(tuple(lines), "overflow")
            if not raw:
                status = await self._exit_status(deadline)
                return Exchange(tuple(lines), "exit" if status is not None else "timeout", status)
            line = raw.decode("utf-8", "replace").rstrip("\r\n")
            if line.strip() == KEEP_RUNNING:
                return Exchange(tuple(lines), "marker")
            lines.append(line)
            size += len(raw)
            if size > MAX_OUTPUT_BYTES:
                return Exchange(tuple(lines), "overflow")

    async def _exit_status(self, deadline: float) -> int | None:
        try:
            return await asyncio.wait_for(self._proc.wait(),
                                          max(deadline - time.monotonic(), 0.05))
        except TimeoutError:
            return None

    async def kill(self) -> None:
        """Kill the program and whatever it started; wait for it; never raises.

        Called as soon as a turn ends without the keep-running marker, so the group is
        killed even when its leader has just exited (a PID is not reused while a process
        group of that ID still has members)."""
        with contextlib.suppress(OSError):
            os.killpg(self.pid, signal.SIGKILL)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._proc.wait(), KILL_WAIT_SECONDS)
        _LIVE_GROUPS.discard(self.pid)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._stderr_task, 1.0)
        self._stderr_task.cancel()
        if self._proc.stdin is not None:
            self._proc.stdin.close()


# ---------------------------------------------------------------- seats
class SeatChannel(Protocol):
    """One seat's program for one game: answers turns, then is closed (it never raises for
    what the program does; faults come back as a :class:`Reply` verdict)."""

    async def turn(self, turn: TurnInput) -> Reply: ...

    async def close(self) -> None: ...


class ProgramSeat:
    """A program spoken to the Botzone way: fresh with the whole history, or paused and
    resumed with only the new request while it asks to keep running."""

    def __init__(self, argv: Sequence[str], interaction: InteractionStyle, *,
                 memory_limit: int = DEFAULT_MEMORY_LIMIT, cwd: Path | None = None) -> None:
        self.argv = list(argv)
        self.interaction = interaction
        self.memory_limit = memory_limit
        self.cwd = cwd
        self._process: BotProcess | None = None

    async def turn(self, turn: TurnInput) -> Reply:
        start = time.monotonic()
        deadline = start + turn.time_limit
        process = self._process
        if process is None:
            text = self.interaction.first_input(turn, self.memory_limit)
            try:
                process = await BotProcess.start(self.argv, self.cwd)
            except OSError as exc:
                return Reply(verdict=RUNTIME_ERROR, detail=f"cannot start {self.argv!r}: {exc}")
            self._process = process
        else:
            text = self.interaction.next_input(turn.requests[-1])
            process.resume()
        exchange = await process.exchange(text, deadline)
        seconds = time.monotonic() - start
        if exchange.ended == "marker":
            process.pause()
            return self._reply(exchange.lines, seconds, kept_running=True)
        self._process = None
        await process.kill()
        if exchange.ended == "exit" and exchange.returncode == 0:
            return self._reply(exchange.lines, seconds, kept_running=False)
        if exchange.ended == "overflow":
            return Reply(response="", unreadable=f"more than {MAX_OUTPUT_BYTES} bytes of output",
                         seconds=seconds)
        if exchange.ended == "timeout":
            verdict = TIME_LIMIT_EXCEEDED
            detail = f"no answer within {turn.time_limit:g} s"
        elif exchange.ended == "broken":
            verdict = RUNTIME_ERROR
            detail = f"the program closed its input (exit status {exchange.returncode})"
        else:
            verdict = RUNTIME_ERROR
            detail = f"the program exited with status {exchange.returncode}"
        tail = process.stderr_tail
        if tail:
            detail += "; stderr: " + tail[-500:]
        return Reply(verdict=verdict, seconds=seconds, detail=detail)

    def _reply(self, lines: Sequence[str], seconds: float, *, kept_running: bool) -> Reply:
        out = self.interaction.read_output(lines)
        return Reply(response=out.response, unreadable=out.unreadable, debug=out.debug,
                     data=out.data, globaldata=out.globaldata, seconds=seconds,
                     kept_running=kept_running)

    async def close(self) -> None:
        process, self._process = self._process, None
        if process is not None:
            await process.kill()


# ---------------------------------------------------------------- one game
@dataclass(frozen=True)
class SeatReport:
    """How one seat did in one game."""

    seat: int
    command: str
    verdict: str
    """``OK``, or the reason it was penalised: ``WA``, ``WH``, ``TLE``, ``RE``."""
    detail: str
    turns: int
    max_seconds: float
    total_seconds: float
    kept_running: bool
    """Did the program ask to keep running after its last answer?"""

    def to_json(self) -> dict[str, object]:
        return {"seat": self.seat, "command": self.command, "verdict": self.verdict,
                "detail": self.detail, "turns": self.turns,
                "max_seconds": round(self.max_seconds, 4),
                "total_seconds": round(self.total_seconds, 4),
                "kept_running": self.kept_running}


@dataclass(frozen=True)
class GameReport:
    game: int
    walltiles: tuple[int, ...]
    prevalent_wind: int
    result: GameResult
    history: tuple[Event, ...]
    seats: tuple[SeatReport, ...]
    answers: tuple[dict[str, object], ...]
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


async def referee_game(channels: Sequence[SeatChannel], walltiles: Sequence[int],
                       prevalent_wind: int, *, time_limit: float = DEFAULT_TIME_LIMIT,
                       globaldata: list[str] | None = None, commands: Sequence[str] = (),
                       game: int = 0) -> GameReport:
    """Play one game with four channels to its end; the channels are closed on return.

    ``globaldata`` (one string per seat) is read and updated in place.
    """
    if len(channels) != SEATS:
        raise ValueError(f"a game needs 4 seats, got {len(channels)}")
    shared = globaldata if globaldata is not None else [""] * SEATS
    names = list(commands) or [f"seat {s}" for s in range(SEATS)]
    table = BotzoneTable(walltiles, prevalent_wind)
    states = [_SeatState() for _ in range(SEATS)]
    answers: list[dict[str, object]] = []
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
                    data=state.data, globaldata=shared[s]))
            async with asyncio.TaskGroup() as group:
                tasks = [group.create_task(c.turn(t))
                         for c, t in zip(channels, turns, strict=True)]
            replies = [task.result() for task in tasks]
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
                    answers.append({"seat": s, "turn": turns[s].turn,
                                    "request": turns[s].requests[-1],
                                    "verdict": reply.verdict, "response": reply.response,
                                    "debug": reply.debug, "seconds": round(reply.seconds, 4)})
            table.respond([r.as_response() for r in replies])
    finally:
        await asyncio.gather(*(c.close() for c in channels), return_exceptions=True)
    result = table.result
    assert result is not None
    seats = tuple(_seat_report(s, names[s], states[s], result) for s in range(SEATS))
    log.info("game over", game=game, ending=type(result.ending).__name__,
             scores=list(result.scores), **_ending_fields(result))
    return GameReport(
        game=game, walltiles=tuple(walltiles), prevalent_wind=prevalent_wind, result=result,
        history=table.history, seats=seats, answers=tuple(answers),
        requests=tuple(tuple(st.requests) for st in states),
        responses=tuple(tuple(st.responses) for st in states))


def _ending_fields(result: GameResult) -> dict[str, Any]:
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


# ---------------------------------------------------------------- walls
class WallsFileError(ValueError):
    """A ``--walls`` file line that is not a 136-tile duplicate wall; names file and line."""


def seeded_walltiles(seed: int, game: int) -> tuple[int, ...]:
    """Game ``game``'s wall from ``seed`` (the same walls as ``mjbot selfplay``'s)."""
    return random_walltiles(np.random.default_rng([seed, game]))


def _tile_of(item: object, where: str) -> int:
    if isinstance(item, bool):
        raise WallsFileError(f"{where}: {item!r} is not a tile")
    if isinstance(item, int):
        return item
    try:
        return parse_tile(str(item), Notation.BOTZONE)
    except TileError:
        raise WallsFileError(f"{where}: {item!r} is not a Botzone tile name") from None


def read_walls(path: Path) -> list[tuple[int, ...]]:
    """One wall per line: 136 Botzone tile names (``W1 .. J3``) separated by spaces, or a
    JSON list of names or tile indices.  Blank lines and ``#`` comments are skipped."""
    walls: list[tuple[int, ...]] = []
    for n, line in enumerate(path.read_text().splitlines(), 1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        where = f"{path}:{n}"
        if text.startswith("["):
            try:
                items = json.loads(text)
            except json.JSONDecodeError as exc:
                raise WallsFileError(f"{where}: not a JSON list ({exc})") from None
            if not isinstance(items, list):
                raise WallsFileError(f"{where}: not a JSON list")
        else:
            items = text.split()
        tiles = [_tile_of(item, where) for item in items]
        try:
            walls.append(check_walltiles(tiles))
        except WallError as exc:
            raise WallsFileError(f"{where}: {exc}") from None
    if not walls:
        raise WallsFileError(f"{path}: no walls in the file")
    return walls


# ---------------------------------------------------------------- a match
@dataclass(frozen=True)
class MatchConfig:
    commands: tuple[str, str, str, str]
    games: int = 1
    seed: int = 1
    walls: tuple[tuple[int, ...], ...] | None = None
    """Explicit walls, one per game (else from ``seed``)."""
    time_limit: float = DEFAULT_TIME_LIMIT
    memory_limit: int = DEFAULT_MEMORY_LIMIT
    interaction: Interaction = Interaction.SIMPLE
    records: Path | None = None
    cwd: Path | None = None

    def walltiles(self, game: int) -> tuple[int, ...]:
        if self.walls is not None:
            return self.walls[game]
        return seeded_walltiles(self.seed, game)


ChannelFactory = Callable[[int, str], SeatChannel]
"""``(seat, command) -> channel`` for one game."""


@dataclass
class SeatTotals:
    seat: int
    command: str
    games: int = 0
    score: int = 0
    wins: int = 0
    self_draws: int = 0
    deal_ins: int = 0
    penalties: dict[str, int] = field(default_factory=dict)
    penalty_details: list[str] = field(default_factory=list)
    max_seconds: float = 0.0

    def add(self, game: GameReport) -> None:
        ending = game.result.ending
        s = self.seat
        self.games += 1
        self.score += game.result.scores[s]
        if isinstance(ending, Won):
            self.wins += ending.seat == s
            self.self_draws += ending.seat == s and ending.self_drawn
            self.deal_ins += ending.payer == s and not ending.self_drawn
        report = game.seats[s]
        if report.verdict != OK:
            self.penalties[report.verdict] = self.penalties.get(report.verdict, 0) + 1
            self.penalty_details.append(f"game {game.game}: {report.verdict} {report.detail}")
        self.max_seconds = max(self.max_seconds, report.max_seconds)

    def to_json(self) -> dict[str, object]:
        return {"seat": self.seat, "command": self.command, "games": self.games,
                "score": self.score, "mean_score": self.score / self.games if self.games else 0.0,
                "wins": self.wins, "self_draws": self.self_draws, "deal_ins": self.deal_ins,
                "penalties": dict(self.penalties), "penalty_details": list(self.penalty_details),
                "max_seconds": round(self.max_seconds, 4)}


@dataclass(frozen=True)
class MatchReport:
    config: MatchConfig
    games: tuple[GameReport, ...]
    totals: tuple[SeatTotals, ...]

    def to_json(self) -> dict[str, object]:
        c = self.config
        return {
            "games": len(self.games), "seed": c.seed if c.walls is None else None,
            "interaction": c.interaction.value, "time_limit": c.time_limit,
            "seats": [t.to_json() for t in self.totals],
            "results": [{"game": g.game, "prevalent_wind": g.prevalent_wind,
                         "ending": type(g.result.ending).__name__,
                         "scores": list(g.result.scores), **_ending_fields(g.result)}
                        for g in self.games],
        }


def program_channels(config: MatchConfig) -> ChannelFactory:
    style = interaction_for(config.interaction)

    def make(seat: int, command: str) -> SeatChannel:
        return ProgramSeat(shlex.split(command), style, memory_limit=config.memory_limit,
                           cwd=config.cwd)

    return make


async def run_match(config: MatchConfig, channels: ChannelFactory | None = None) -> MatchReport:
    """Play ``config.games`` games, each with fresh channels; write records when asked."""
    if config.walls is not None and len(config.walls) < config.games:
        raise ValueError(f"{config.games} games asked but only {len(config.walls)} walls given")
    factory = channels or program_channels(config)
    globaldata = [""] * SEATS
    games: list[GameReport] = []
    totals = tuple(SeatTotals(s, config.commands[s]) for s in range(SEATS))
    for g in range(config.games):
        walls = config.walltiles(g)
        prevalent = g % 4
        seats = [factory(s, config.commands[s]) for s in range(SEATS)]
        report = await referee_game(seats, walls, prevalent, time_limit=config.time_limit,
                                    globaldata=globaldata, commands=config.commands, game=g)
        games.append(report)
        for t in totals:
            t.add(report)
        if config.records is not None:
            write_game_record(config, report)
    return MatchReport(config, tuple(games), totals)


def write_game_record(config: MatchConfig, report: GameReport) -> Path:
    name = f"game-{config.seed}-{report.game:05d}.jsonl" if config.walls is None \
        else f"game-walls-{report.game:05d}.jsonl"
    assert config.records is not None
    path = config.records / name
    header = {
        "rules": "mcr-botzone", "referee": "botzone",
        "seed": config.seed if config.walls is None else None,
        "game": report.game, "walltiles": list(report.walltiles),
        "prevalent_wind": report.prevalent_wind,
        "interaction": config.interaction.value, "time_limit": config.time_limit,
        "memory_limit": config.memory_limit,
        "seats": [s.to_json() for s in report.seats],
        "verdicts": [s.verdict for s in report.seats],
    }
    write_record(path, header, report.history, report.answers, report.result)
    return path


class MatchInterrupted(Exception):
    """The match was stopped by a signal; every program it started has been killed."""

    def __init__(self, signal_number: int) -> None:
        super().__init__(f"stopped by {signal.Signals(signal_number).name}")
        self.signal_number = signal_number


def play_match(config: MatchConfig, channels: ChannelFactory | None = None) -> MatchReport:
    """:func:`run_match` on its own event loop.  SIGTERM (and Ctrl-C) cancel it: the programs
    are killed, then :class:`MatchInterrupted` (or ``KeyboardInterrupt``) is raised."""
    terminated: list[int] = []

    async def main() -> MatchReport:
        task = asyncio.current_task()
        loop = asyncio.get_running_loop()
        installed = False

        def stop() -> None:
            terminated.append(signal.SIGTERM)
            if task is not None:
                task.cancel()

        if sys.platform != "win32":
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(signal.SIGTERM, stop)
                installed = True
        try:
            return await run_match(config, channels)
        finally:
            if installed:
                loop.remove_signal_handler(signal.SIGTERM)

    try:
        return asyncio.run(main())
    except asyncio.CancelledError:
        if terminated:
            raise MatchInterrupted(terminated[0]) from None
        raise


# ---------------------------------------------------------------- output
def describe_ending(game: GameReport) -> str:
    ending = game.result.ending
    if isinstance(ending, Won):
        how = "self-drawn" if ending.self_drawn else f"on seat {ending.payer}'s tile"
        return f"seat {ending.seat} won {how}, {ending.fan_total} fan"
    if isinstance(ending, WallExhausted):
        return "wall exhausted"
    return f"seat {ending.seat} penalised {ending.reason}: {game.seats[ending.seat].detail}"


def render(report: MatchReport) -> str:
    c = report.config
    source = f"seed {c.seed}" if c.walls is None else "walls from file"
    lines = [f"{len(report.games)} games ({source}), {c.interaction.value} interaction, "
             f"{c.time_limit:g} s per turn (first turn {2 * c.time_limit:g} s)"]
    for g in report.games:
        scores = " ".join(f"{x:+d}" for x in g.result.scores)
        lines.append(f"  game {g.game} (wind {g.prevalent_wind}): {scores}  "
                     f"{describe_ending(g)}")
    lines.append(f"{'seat':<4} {'score':>6} {'mean':>7} {'wins':>4} {'self':>4} "
                 f"{'dealt-in':>8} {'max s':>6}  {'penalties':<12} command")
    for t in report.totals:
        penalties = ", ".join(f"{k}x{v}" for k, v in sorted(t.penalties.items())) or "-"
        mean = t.score / t.games if t.games else 0.0
        lines.append(f"{t.seat:<4} {t.score:>+6d} {mean:>+7.2f} {t.wins:>4} {t.self_draws:>4} "
                     f"{t.deal_ins:>8} {t.max_seconds:>6.2f}  {penalties:<12} {t.command}")
        lines += [f"       {d}" for d in t.penalty_details]
    return "\n".join(lines)
