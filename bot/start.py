"""The Botzone player's start-up: load in the first turn, never wait for a compile.

A keep-running game's first request is the seat assignment (``0 SEAT WIND``), and its
answer is ``PASS``.  Botzone gives that turn 6 s and every later one 4 s, and pauses a
kept-running bot between turns, so :func:`play_botzone` loads the player (the planner,
the kernels) before it answers, then hands every line it read to
:func:`bot.botzone.run`, which rebuilds the seat from them without writing that answer
again.

The strategy's kernels are numba-compiled and cached on disk.  A turn must never wait
for a compile (minutes on a loaded machine): the player sets ``MJBOT_JIT=cached``
(:mod:`strategy.jit`), so when the cache lacks them this process runs them as plain
Python, and a background ``python -m strategy.warmup`` (one at a time, at idle CPU
priority) compiles them for the next start; stderr says so.
"""

import contextlib
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, TextIO, cast

from game.compat import ascii_digits

if TYPE_CHECKING:  # the seat request is answered before any of these is loaded
    from bot.agent import Strategy
    from game.rules import Ruleset

SEAT_REQUEST = re.compile(r"0 [0-3] [0-3]")
"""The first request of a game: the seat and the prevalent wind; answered ``PASS``."""
KEEP_RUNNING = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
MAX_LINE_CHARS = 1 << 22
"""Copies of :mod:`protocols.botzone_envelope`'s (tests check they agree): the first
answer is written with the standard library alone, before numpy is imported."""


def prefer_cached_kernels() -> None:
    """Use numba only when every kernel is cached (call before the strategy is imported)."""
    os.environ.setdefault("MJBOT_JIT", "cached")


def warm_in_background(say: "Callable[[str], None]") -> "int | None":
    """When this process runs the kernels as plain Python for want of a cache, start one
    background warm-up (unless one is running) and say so; its pid, or None."""
    from strategy import jit

    if not jit.COLD:
        return None
    folder = jit.cache_dir()
    os.makedirs(folder, exist_ok=True)
    lock = os.path.join(folder, "warming.pid")
    running = _running_pid(lock)
    if running is not None:
        say(f"the numba kernels are not compiled yet: playing in plain Python while "
            f"process {running} compiles them")
        return running
    env = {k: v for k, v in os.environ.items() if k != "MJBOT_JIT"}
    log_path = os.path.join(folder, "warmup.log")
    with open(log_path, "w", encoding="utf-8") as log:
        child = subprocess.Popen(
            [sys.executable, "-m", "strategy.warmup"], stdin=subprocess.DEVNULL,
            stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True,
            preexec_fn=_idle_priority)
    with open(lock, "w", encoding="utf-8") as f:
        f.write(str(child.pid))
    say(f"the numba kernels are not compiled yet: playing in plain Python; compiling them "
        f"in the background for the next start (python -m strategy.warmup, pid {child.pid}, "
        f"log {log_path})")
    return child.pid


def _idle_priority() -> None:  # pragma: no cover - runs in the child
    os.nice(19)


def _running_pid(lock: str) -> "int | None":
    try:
        with open(lock, encoding="utf-8") as f:
            pid = int(f.read().strip())
        os.kill(pid, 0)
    except (OSError, ValueError):
        return None
    return pid


class Replayed:
    """A text stream that gives the pieces already read from ``stream`` again, then the
    rest of ``stream``."""

    def __init__(self, stream: "TextIO", pieces: "list[str]") -> None:
        self.stream = stream
        self.pieces = pieces

    def readline(self, size: int = -1) -> str:
        if self.pieces:
            return self.pieces.pop(0)
        return self.stream.readline(size)

    def reconfigure(self, **kwargs: object) -> None:
        reconfigure = getattr(self.stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(**kwargs)


def read_opening(stdin: "TextIO") -> "tuple[list[str], str | None, bool]":
    """Read the start of the first input as :func:`bot.botzone.run` reads it: (every piece
    read, the seat request to answer ``PASS`` at once or None, whether it is the JSON
    interaction).  Anything but a one-request first input of a seat request is left for
    :func:`bot.botzone.run` to read and judge."""
    pieces: "list[str]" = []

    def piece() -> "str | None":
        text = stdin.readline(MAX_LINE_CHARS + 1)
        pieces.append(text)
        if not text or (len(text) > MAX_LINE_CHARS and not text.endswith("\n")):
            return None  # the end, or a line too long to judge here: run() says why
        return text.rstrip("\r\n")

    first = piece()
    while first is not None and not first.strip():
        first = piece()
    if first is None:
        return pieces, None, False
    text = first.strip()
    if text.startswith("{"):
        try:
            obj = json.loads(text)
        except (ValueError, RecursionError):
            return pieces, None, True
        requests = obj.get("requests") if isinstance(obj, dict) else None
        only = requests[0] if isinstance(requests, list) and len(requests) == 1 else None
        return pieces, _seat_request(only), True
    if text != "1":
        return pieces, None, False
    return pieces, _seat_request(piece()), False


def _seat_request(request: object) -> "str | None":
    if isinstance(request, str) and SEAT_REQUEST.fullmatch(request.strip()):
        return request.strip()
    return None


def _answer_line(response: str, json_mode: bool) -> str:
    """:func:`protocols.botzone_envelope.format_answer` with no debug text."""
    if json_mode:
        return json.dumps({"response": response, "debug": ""}, separators=(",", ":"))
    return response


def play_botzone(stdin: "TextIO | None" = None, stdout: "TextIO | None" = None,
                 stderr: "TextIO | None" = None, *, keep_running: bool = True,
                 think_seconds: "float | None" = None,
                 strategy: "Callable[[Ruleset], Strategy] | None" = None,
                 work_budget: "int | None" = None) -> int:
    """Serve a Botzone game on stdin/stdout (:func:`bot.botzone.run`).

    In keep-running mode the player is loaded (its modules, the kernels, the strategy)
    before the seat request is answered: Botzone gives a game's first turn 6 s and every
    later one 4 s, and a kept-running bot is paused between turns, so whatever it does
    after an answer counts against the next turn.  Without keep-running the seat request
    is answered at once and the process ends.  ``strategy``: as :func:`bot.botzone.run`
    takes it."""
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    stderr = sys.stderr if stderr is None else stderr
    reconfigure = getattr(stdin, "reconfigure", None)
    if reconfigure is not None:  # bytes that are not UTF-8 reach the decoder, which says so
        with contextlib.suppress(Exception):  # a stream that cannot is read as it is
            reconfigure(errors="replace")
    pieces, seat_request, json_mode = read_opening(stdin)
    if seat_request is not None and not keep_running:
        stdout.write(_answer_line("PASS", json_mode) + "\n")
        stdout.flush()
        return 0
    prefer_cached_kernels()
    from bot.botzone import THINK_SECONDS, run
    from game.rules import MCR_BOTZONE

    def say(note: str) -> None:
        stderr.write(f"mjbot: {note}\n")
        stderr.flush()

    warm_in_background(say)
    if strategy is None:
        from bot.planner import default_strategy

        strategy = default_strategy
    made = strategy(MCR_BOTZONE)
    if seat_request is not None:
        stdout.write(_answer_line("PASS", json_mode) + "\n" + KEEP_RUNNING + "\n")
        stdout.flush()
    return run(cast(TextIO, Replayed(stdin, pieces)), stdout, stderr, keep_running=keep_running,
               think_seconds=THINK_SECONDS if think_seconds is None else think_seconds,
               strategy=lambda rules: made, work_budget=work_budget,
               first_answered=seat_request is not None)


def main(argv: "list[str]") -> int:
    """``python -m bot`` and the Botzone zip: ``--no-keep-running`` answers one turn,
    ``--work-budget CALLS`` decides on kernel calls instead of the clock (Botzone passes
    neither; the upload gate and the benches do)."""
    budget = None
    if "--work-budget" in argv:
        at = argv.index("--work-budget") + 1
        if at >= len(argv) or not ascii_digits(argv[at]) or int(argv[at]) <= 0:
            sys.stderr.write("mjbot: --work-budget takes a positive whole number of calls\n")
            return 2
        budget = int(argv[at])
    return play_botzone(keep_running="--no-keep-running" not in argv, work_budget=budget)
