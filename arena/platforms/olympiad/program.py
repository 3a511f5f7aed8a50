"""Any program on an Olympiad seat (``mjbot wrap``, and the arena's program seats): every
referee message goes to the program's stdin as a JSON line, its ``act`` lines come back
on stdout.  :func:`protocols.olympiad_session.play_seat` is the session loop around it."""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections.abc import Sequence
from typing import Any

from bot.logging import get_logger
from bot.olympiad_client import SECRET_ENV
from protocols.bounded_json import loads_bounded
from protocols.olympiad import MAX_MESSAGE_BYTES, MAX_MESSAGE_DEPTH, Act, AskMsg

log = get_logger("mjbot.olympiad")


class ProgramPlayer:
    """A program on stdin/stdout: every message goes in as a JSON line; acts come out."""

    def __init__(self, argv: Sequence[str]) -> None:
        if not argv:
            raise ValueError("mjbot wrap needs a program to run after --")
        self.argv = list(argv)
        self.proc: asyncio.subprocess.Process | None = None
        self.seat = 0

    async def start(self) -> None:
        # the program plays through us: it never needs the seat's secret
        env = {k: v for k, v in os.environ.items() if k != SECRET_ENV}
        self.proc = await asyncio.create_subprocess_exec(
            *self.argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, env=env)

    async def on_message(self, msg: Any, text: str) -> Act | None:
        proc = self.proc
        if proc is None or proc.stdin is None or proc.stdout is None:
            raise RuntimeError("the program is not running")
        if proc.returncode is not None:
            raise ProgramExited(f"{self.argv[0]} exited with code {proc.returncode}")
        try:
            proc.stdin.write(text.encode() + b"\n")
            await proc.stdin.drain()
        except (BrokenPipeError, ConnectionResetError):
            raise ProgramExited(f"{self.argv[0]} closed its stdin") from None
        if not isinstance(msg, AskMsg):
            return None
        limit = max(0.05, msg.deadline_ms / 1000.0)
        end = time.monotonic() + limit
        while True:
            left = end - time.monotonic()
            if left <= 0:
                log.warning("program_late", program=self.argv[0], ask=msg.id)
                return None  # the referee applies its policy at the deadline
            try:
                line = await asyncio.wait_for(proc.stdout.readline(), left)
            except TimeoutError:
                continue
            except ValueError:  # a line over the stream's limit: dropped, said once
                log.warning("program_said", program=self.argv[0], error="a line over 64 KiB")
                continue
            if not line:
                raise ProgramExited(f"{self.argv[0]} closed its stdout")
            try:
                data = loads_bounded(line, max_depth=MAX_MESSAGE_DEPTH,
                                     max_chars=MAX_MESSAGE_BYTES)
                if isinstance(data, dict):
                    data.setdefault("v", 1)
                    data.setdefault("type", "act")
                    data.setdefault("id", msg.id)
                act = Act.model_validate(data)
            except (ValueError, TypeError) as exc:
                log.warning("program_said", program=self.argv[0], line=line[:200].decode(
                    errors="replace"), error=str(exc)[:200])
                continue
            return act

    async def close(self) -> None:
        proc = self.proc
        if proc is not None and proc.returncode is None:
            if proc.stdin is not None:
                with contextlib.suppress(Exception):
                    proc.stdin.close()
            try:
                await asyncio.wait_for(proc.wait(), 2)
            except TimeoutError:
                proc.kill()
                await proc.wait()


class ProgramExited(RuntimeError):
    """The wrapped program is gone."""

