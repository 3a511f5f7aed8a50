"""The Botzone judge mock's program sandbox: one bot program as a process.

A :class:`BotProcess` runs one program: start it, write, read lines until the
keep-running marker or the end of its output under a deadline, pause it between
turns (SIGSTOP/SIGCONT on its process group) and kill it (at the end of its game,
on a fault, in ``finally`` blocks, at exit; on Linux the kernel also kills it if
the referee itself is killed).  :class:`ProgramSeat` is the seat channel that
speaks to such a program the Botzone way (an interaction of
:mod:`protocols.botzone_envelope` over a process).
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import ctypes
import os
import signal
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from arena.platforms.botzone_judge.turns import (
    DEFAULT_MEMORY_LIMIT,
    RUNTIME_ERROR,
    TIME_LIMIT_EXCEEDED,
    Reply,
    TurnInput,
)
from protocols.botzone_envelope import KEEP_RUNNING, InteractionStyle

MAX_OUTPUT_BYTES = 1 << 20
"""More output than this in one turn is not an answer."""
STDERR_TAIL_BYTES = 2000
KILL_WAIT_SECONDS = 5.0

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
        process = self._process
        limit = turn.time_limit if process is None or turn.kept_running_limit is None \
            else turn.kept_running_limit
        deadline = start + limit
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
            detail = f"no answer within {limit:g} s"
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


