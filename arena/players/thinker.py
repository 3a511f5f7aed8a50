"""Our agents for many seats, thinking in separate processes of lower CPU priority.

One process that runs the sockets of hundreds of seats (``mjbot bench
olympiad``, a large ``mjbot match olympiad``) must not also think for them: a
decision thread holds the GIL between the event loop's reads, and on a
machine with few cores the thinking competes with the referee's and the
seats' event loops for the CPU, so messages wait in socket buffers.  A
:class:`ThinkerPool` moves every decision out:

- the seats' process keeps the session loops (connect, join, resume, seqs,
  the transports) and gives each seat a :class:`RemotePlayer`, which
  forwards every referee message, as its text, to the thinker process that
  owns the seat and awaits the ``act`` for an ``ask``;
- each thinker process (``python -m arena.players.thinker``) runs the same
  :class:`bot.olympiad_client.AgentPlayer` — the same agent behind the same
  :class:`bot.session.SeatSession`, deadline and fallback — for its seats,
  one message at a time, under ``SCHED_IDLE`` (Linux; ``nice 19``
  elsewhere): it gets whatever CPU the event loops leave, and never delays
  them.

A thinker says ``ready`` once its kernels are loaded; the pool waits for it.
The pipe between them then carries one line per message, ``N<TAB>ARRIVED<TAB>TEXT``
down (``N`` the seat's number in the pool, ``ARRIVED`` the ``time.monotonic``
instant the text reached the seat's loop, so the thinker takes the time the
line waited off the ask's deadline) and ``N<TAB>ACT`` up (the act carries its
ask id).  A thinker that dies, or has no act within 90 % of an ask's deadline,
leaves the seat answering the safest option (pass, or discard the drawn
tile), so every ask still gets a legal answer in time; a late act is dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from bot.logging import configure_logging, get_logger
from bot.olympiad_client import AgentPlayer
from protocols.olympiad import Act, AskMsg, Draw, MessageError, Welcome, parse_referee_message
from protocols.olympiad_codec import safest_act
from protocols.olympiad_session import SeatPlayer

log = get_logger("mjbot.thinker")

__all__ = ["RemotePlayer", "ThinkerPool", "lower_priority"]


def lower_priority() -> None:
    """Give this process the CPU only when nothing else wants it (SCHED_IDLE, else nice 19)."""
    sched_idle = getattr(os, "SCHED_IDLE", None)
    if sched_idle is not None:
        try:
            os.sched_setscheduler(0, sched_idle, os.sched_param(0))
            return
        except OSError:
            pass
    os.nice(19)


def _line_safe(text: str) -> str:
    """The text on one line without tabs: a referee may send valid JSON with raw whitespace."""
    if "\n" in text or "\t" in text or "\r" in text:
        return json.dumps(json.loads(text), separators=(",", ":"))
    return text


@dataclass
class RemotePlayer:
    """One seat whose agent lives in a thinker process (a :class:`SeatPlayer`)."""

    pool: ThinkerPool
    number: int
    _drawn: str | None = None
    seat: int = -1
    fallbacks: list[str] = field(default_factory=list)
    """Why each ask was answered safely here instead of by the thinker."""

    async def on_message(self, msg: Any, text: str) -> Act | None:
        if isinstance(msg, Draw):
            self._drawn = msg.tile if msg.seat == self.seat else None
        elif isinstance(msg, Welcome):
            self.seat = msg.seat
        ask_id = msg.id if isinstance(msg, AskMsg) else None
        reply = self.pool.forward(self.number, time.monotonic(), _line_safe(text), ask_id)
        if not isinstance(msg, AskMsg):
            return None
        assert reply is not None
        try:
            act_text = await asyncio.wait_for(reply, msg.deadline_ms * ANSWER_WITHIN / 1000.0)
            return Act.model_validate_json(act_text)
        except (ThinkerGone, TimeoutError, ValueError) as exc:
            self.pool.forget(self.number, msg.id)
            why = f"no answer within {msg.deadline_ms * ANSWER_WITHIN:.0f} ms" \
                if isinstance(exc, TimeoutError) else str(exc)
            log.warning("thinker_failed", seat=self.number, ask=msg.id, error=why)
            self.fallbacks.append(f"{msg.id}: {why}")
            return safest_act(msg, self._drawn)

    async def close(self) -> None:
        return None


ANSWER_WITHIN = 0.9
"""The fraction of an ask's deadline a seat waits for its thinker before answering safely."""


class ThinkerGone(RuntimeError):
    """The thinker process serving a seat has exited."""


@dataclass
class _Thinker:
    proc: asyncio.subprocess.Process
    waiting: dict[str, asyncio.Future[str]] = field(default_factory=dict)
    """Per ask id, the seat waiting for its act."""
    reader: asyncio.Task[None] | None = None
    gone: str = ""


class ThinkerPool:
    """``processes`` thinker processes for the seats of this process; an async context."""

    def __init__(self, processes: int = 1, *, max_think_ms: int | None = None,
                 deterministic: bool = False, idle: bool = True) -> None:
        if processes < 1:
            raise ValueError("a thinker pool needs at least one process")
        self.processes = processes
        self.args = [f"--max-think-ms={max_think_ms or 0}",
                     *(["--deterministic"] if deterministic else []),
                     *(["--idle"] if idle else [])]
        self._thinkers: list[_Thinker] = []
        self._seats = 0

    async def __aenter__(self) -> ThinkerPool:
        try:
            await self._start()
        except BaseException:
            await self.__aexit__()
            raise
        return self

    async def _start(self) -> None:
        for _ in range(self.processes):
            proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "arena.players.thinker", *self.args,
                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
            thinker = _Thinker(proc)
            self._thinkers.append(thinker)
            assert proc.stdout is not None
            ready = await proc.stdout.readline()  # after the thinker's warm-up
            if ready != b"ready\n":
                raise ThinkerGone(f"thinker process did not start: {ready!r}")
            thinker.reader = asyncio.create_task(self._read(thinker))

    async def __aexit__(self, *exc: object) -> None:
        for thinker in self._thinkers:
            if thinker.proc.stdin is not None:
                with contextlib.suppress(Exception):
                    thinker.proc.stdin.close()
        for thinker in self._thinkers:
            try:
                await asyncio.wait_for(thinker.proc.wait(), 10)
            except TimeoutError:
                thinker.proc.kill()
                await thinker.proc.wait()
            if thinker.reader is not None:
                with contextlib.suppress(asyncio.CancelledError):
                    await thinker.reader

    def player(self) -> RemotePlayer:
        """A new seat; seats go to the thinker processes in turn."""
        self._seats += 1
        return RemotePlayer(self, self._seats - 1)

    def _thinker(self, number: int) -> _Thinker:
        return self._thinkers[number % len(self._thinkers)]

    @property
    def pids(self) -> list[int]:
        return [t.proc.pid for t in self._thinkers]

    def forward(self, number: int, arrived: float, text: str,
                ask_id: str | None) -> asyncio.Future[str] | None:
        """Send seat ``number``'s message to its thinker; for an ask, the future of its act."""
        thinker = self._thinker(number)
        future: asyncio.Future[str] | None = None
        if ask_id is not None:
            future = asyncio.get_running_loop().create_future()
            if thinker.gone:
                future.set_exception(ThinkerGone(thinker.gone))
                return future
            thinker.waiting[ask_id] = future
        stdin = thinker.proc.stdin
        if stdin is not None and not thinker.gone:
            try:
                stdin.write(f"{number}\t{arrived!r}\t{text}\n".encode())
            except (BrokenPipeError, ConnectionResetError, RuntimeError) as exc:
                self._gone(thinker, f"thinker stdin: {exc}")
        return future

    def forget(self, number: int, ask_id: str) -> None:
        """Stop waiting for an ask's act (a late one is then dropped)."""
        self._thinker(number).waiting.pop(ask_id, None)

    async def _read(self, thinker: _Thinker) -> None:
        out = thinker.proc.stdout
        assert out is not None
        while line := await out.readline():
            _, _, act = line.decode().rstrip("\n").partition("\t")
            try:
                ask_id = str(json.loads(act)["id"])
            except (ValueError, KeyError, TypeError):
                log.warning("thinker_said", line=line[:200].decode(errors="replace"))
                continue
            future = thinker.waiting.pop(ask_id, None)
            if future is not None and not future.done():
                future.set_result(act)
        self._gone(thinker, f"thinker process exited with code {await thinker.proc.wait()}")

    @staticmethod
    def _gone(thinker: _Thinker, why: str) -> None:
        thinker.gone = thinker.gone or why
        for future in thinker.waiting.values():
            if not future.done():
                future.set_exception(ThinkerGone(why))
        thinker.waiting.clear()


# ---------------------------------------------------------------- the thinker process
async def serve(reader: asyncio.StreamReader, out: BinaryIO,
                make_player: Callable[[], SeatPlayer], adjust_deadlines: bool = True) -> None:
    """Say ``ready``, then read seat messages from ``reader`` and write the acts of asks to
    ``out``, until ``reader`` ends; ``make_player`` gives each new seat its player."""
    out.write(b"ready\n")
    out.flush()
    players: dict[int, SeatPlayer] = {}
    while line := await reader.readline():
        try:
            number_text, arrived_text, text = line.decode().rstrip("\n").split("\t", 2)
            number, arrived = int(number_text), float(arrived_text)
            msg = parse_referee_message(text)
        except (ValueError, MessageError) as exc:  # the seat's loop parsed it: not expected
            log.warning("unreadable", line=line[:200].decode(errors="replace"), error=str(exc))
            continue
        player = players.get(number)
        if player is None:
            player = players[number] = make_player()
        if isinstance(msg, AskMsg) and adjust_deadlines:
            waited_ms = int((time.monotonic() - arrived) * 1000.0)
            msg = msg.model_copy(update={"deadline_ms": max(1, msg.deadline_ms - waited_ms)})
        try:
            act = await player.on_message(msg, text)
        except Exception as exc:  # a bug in one seat must not silence every other seat
            log.error("thinker_error", seat=number, error=f"{type(exc).__name__}: {exc}")
            act = safest_act(msg) if isinstance(msg, AskMsg) else None
        if act is not None:
            out.write(f"{number}\t{act.to_json()}\n".encode())
            out.flush()
    for player in players.values():
        await player.close()


async def _serve_stdio(max_think_ms: int | None, deterministic: bool) -> None:
    loop = asyncio.get_running_loop()
    loop.set_default_executor(ThreadPoolExecutor(max_workers=1))
    from strategy.warmup import warm_up

    warm_up()  # every kernel loaded from numba's cache before the first ask
    reader = asyncio.StreamReader(limit=2**20)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    await serve(reader, sys.stdout.buffer,
                lambda: AgentPlayer(max_think_ms=max_think_ms, deterministic=deterministic),
                adjust_deadlines=not deterministic)


def main(argv: list[str]) -> int:
    configure_logging("WARNING")
    max_think = next((int(a.split("=", 1)[1]) for a in argv
                      if a.startswith("--max-think-ms=")), 0)
    if "--idle" in argv:
        lower_priority()
    asyncio.run(_serve_stdio(max_think or None, "--deterministic" in argv))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
