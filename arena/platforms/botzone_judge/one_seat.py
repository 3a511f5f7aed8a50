"""One program at one Botzone seat, played through a whole game against in-process seats: the
judge mock's turn loop reduced to one process, for the benchmarks and the upload gate that
time a bot's turns and read its memory."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from arena.players.lineup import ArenaSeat, parse_player
from game.rules import MCR_BOTZONE
from game.table import BotzoneTable, random_walltiles
from protocols.botzone_codec import decode_response, format_request
from protocols.botzone_envelope import KEEP_RUNNING


def mjbot_command() -> list[str]:
    """How to start ``mjbot`` from this Python: its script, else ``python -m arena``."""
    exe = shutil.which("mjbot") or str(Path(sys.executable).parent / "mjbot")
    return [exe] if Path(exe).exists() else [sys.executable, "-m", "arena"]


def _cpu_seconds(pid: int) -> float:
    """User and system CPU time of process ``pid`` so far (0 where /proc has none)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def play_subprocess_seat(command: list[str], seed: int, cwd: Path | None = None,
                         turn_seconds: list[float] | None = None,
                         env: dict[str, str] | None = None,
                         on_turn: Callable[[str, float, float], None] | None = None,
                         ) -> tuple[BotzoneTable, float]:
    """A whole game with ``command`` (a keep-running Botzone bot) at seat 0 against the judge
    mock (greedy, mjbot, greedy in-process); returns the finished table and the bot's peak
    resident memory in MB (VmHWM, read before the process is killed).  ``turn_seconds``
    gets the wall time of each of the bot's turns (request written to answer read);
    ``on_turn`` is called with each turn's request line, that time and the CPU time the
    bot's process spent on it (user and system, from ``/proc``; 0 where there is none),
    once the bot has finished the turn (its keep-running line read)."""
    table = BotzoneTable(random_walltiles(np.random.default_rng(seed)), 0)
    others = [ArenaSeat(parse_player(n), MCR_BOTZONE, s) for s, n in ((1, "greedy"), (2, "mjbot"),
                                                                      (3, "greedy"))]
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, cwd=cwd, env=env)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        first = True
        while not table.finished:
            requests = table.requests
            line = format_request(requests[0], 0)
            cpu = _cpu_seconds(proc.pid) if on_turn is not None else 0.0
            asked = time.perf_counter()
            proc.stdin.write(("1\n" + line + "\n\n\n") if first else line + "\n")
            proc.stdin.flush()
            first = False
            answer = proc.stdout.readline().strip()
            took = time.perf_counter() - asked
            if turn_seconds is not None:
                turn_seconds.append(took)
            if proc.stdout.readline().strip() != KEEP_RUNNING:
                raise RuntimeError("the bot left keep-running mode")
            if on_turn is not None:
                on_turn(line, took, _cpu_seconds(proc.pid) - cpu)
            responses = [decode_response(answer)]
            for s in (1, 2, 3):
                others[s - 1].observe(requests[s])
                responses.append(others[s - 1].decide())
            table.respond(responses)
        status = Path(f"/proc/{proc.pid}/status").read_text()
        kb = next(int(line.split()[1]) for line in status.splitlines()
                  if line.startswith("VmHWM:"))
        return table, kb / 1024.0
    finally:
        proc.kill()
        proc.wait()
