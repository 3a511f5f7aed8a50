"""The Botzone player's start-up (bot.start): the seat request is answered before the
player is loaded, the rest of the game is answered as bot.botzone.run answers it, and a
player never compiles a kernel during a turn (plain Python until the cache is warm)."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from bot import start
from bot.botzone import KEEP_RUNNING, BotzoneSeat, run
from game.table import BotzoneTable, random_walltiles
from protocols.botzone_codec import decode_response, format_request

ROOT = Path(__file__).resolve().parents[2]
BUDGET = 2_000


def game_requests(seed: int, seat: int) -> list[str]:
    """One seat's requests in a whole game of four seats deciding on a work budget."""
    table = BotzoneTable(random_walltiles(np.random.default_rng(seed)), seed % 4)
    seats = [BotzoneSeat(work_budget=BUDGET) for _ in range(4)]
    mine: list[str] = []
    while not table.finished:
        answers = []
        for s, event in enumerate(table.requests):
            line = format_request(event, s)
            if s == seat:
                mine.append(line)
            answers.append(decode_response(seats[s].answer(line).response))
        table.respond(answers)
    for s in seats:
        s.close()
    return mine


@pytest.mark.parametrize("json_mode", [False, True], ids=["simple", "json"])
def test_the_whole_game_is_answered_as_run_answers_it(json_mode: bool) -> None:
    requests = game_requests(21, seat=1)
    first = (json.dumps({"requests": requests[:1], "responses": []}) if json_mode
             else f"1\n{requests[0]}")
    stream = "\n".join([first, *requests[1:]]) + "\n"
    ours, theirs = io.StringIO(), io.StringIO()
    assert start.play_botzone(io.StringIO(stream), ours, io.StringIO(),
                              work_budget=BUDGET) == 0
    run(io.StringIO(stream), theirs, io.StringIO(), work_budget=BUDGET)
    assert ours.getvalue() == theirs.getvalue()
    lines = ours.getvalue().splitlines()
    assert lines.count(KEEP_RUNNING) == len(requests)
    assert lines[0] == ('{"response":"PASS","debug":""}' if json_mode else "PASS")


def test_a_later_turn_without_keep_running_is_answered_from_its_history() -> None:
    requests = game_requests(22, seat=0)
    seat = BotzoneSeat(work_budget=BUDGET)
    responses = [seat.answer(r).response for r in requests[:12]]
    seat.close()
    lines = ["12"]
    for i in range(11):
        lines += [requests[i], responses[i]]
    lines.append(requests[11])
    out = io.StringIO()
    start.play_botzone(io.StringIO("\n".join(lines) + "\n"), out, io.StringIO(),
                       keep_running=False, work_budget=BUDGET)
    assert out.getvalue().splitlines() == [responses[11]]


def test_the_first_answer_is_written_as_the_envelope_writes_it() -> None:
    from protocols import botzone_envelope as envelope

    assert (start.KEEP_RUNNING, start.MAX_LINE_CHARS) == (envelope.KEEP_RUNNING,
                                                          envelope.MAX_LINE_CHARS)
    for json_mode in (False, True):
        assert start._answer_line("PASS", json_mode) == envelope.format_answer("PASS", "",
                                                                               json_mode)


def test_the_opening_is_read_as_run_reads_it() -> None:
    pieces, seat_request, json_mode = start.read_opening(io.StringIO("\n1\n0 2 1\nmore\n"))
    assert (seat_request, json_mode) == ("0 2 1", False) and "".join(pieces) == "\n1\n0 2 1\n"
    assert start.read_opening(io.StringIO("2\n0 2 1\nPASS\n1 0 0 0 0\n"))[1] is None
    assert start.read_opening(io.StringIO("{not json\n"))[1:] == (None, True)
    assert start.read_opening(io.StringIO('{"requests": ["0 1 2"], "responses": []}\n'))[1:] \
        == ("0 1 2", True)
    assert start.read_opening(io.StringIO("[" * 100_000 + "\n"))[1] is None
    assert start.read_opening(io.StringIO('{"requests": [' + "[" * 100_000 + "]}\n"))[1] is None
    assert start.read_opening(io.StringIO(""))[1] is None
    replayed = start.Replayed(io.StringIO("rest\n"), ["a\n", "b\n"])
    assert [replayed.readline(), replayed.readline(), replayed.readline()] == \
        ["a\n", "b\n", "rest\n"]


PROBE = """
import io, sys
sys.stdin = io.StringIO({text!r})

class Out(io.StringIO):
    loaded_at_first_answer = None

    def write(self, s):
        if self.loaded_at_first_answer is None:
            self.loaded_at_first_answer = sorted(
                m for m in sys.modules if m.startswith(
                    ("bot.planner", "bot.session", "strategy", "numba", "numpy", "structlog")))
        return super().write(s)

sys.stdout = out = Out()
if {cli!r}:
    from arena.cli import main
    main(["play", "botzone", "--work-budget", "50"] + ([] if {keep!r} else ["--no-keep-running"]))
else:
    from bot.start import play_botzone
    play_botzone(keep_running={keep!r}, work_budget=50)
print(out.loaded_at_first_answer, file=sys.__stdout__)
print(repr(out.getvalue()), file=sys.__stdout__)
"""


@pytest.mark.parametrize("cli", [False, True], ids=["python -m bot", "mjbot play botzone"])
@pytest.mark.parametrize("keep", [True, False], ids=["keep-running", "one-turn"])
def test_the_player_is_loaded_in_the_first_turn_when_it_keeps_running(keep: bool,
                                                                      cli: bool) -> None:
    """Kept running, the planner and its kernels are loaded when the seat request is answered
    (Botzone gives the first turn 6 s and pauses the bot between turns, so loading after the
    answer would cost the deal's 4 s turn); one turn only, nothing of them is loaded."""
    code = PROBE.format(text="1\n0 3 1\n", keep=keep, cli=cli)
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=300, check=True)
    loaded, output = done.stdout.splitlines()[-2:]
    if keep:
        assert "bot.planner" in loaded and "bot.session" in loaded and "numpy" in loaded
    else:
        assert loaded == "[]"
    assert output == repr("PASS\n" + (KEEP_RUNNING + "\n" if keep else ""))


def test_a_cold_cache_means_plain_python_for_a_player(tmp_path: Path) -> None:
    """MJBOT_JIT=cached: numba only once strategy.warmup has stamped the cache."""
    probe = ("from strategy import jit; import os; print(jit.HAVE_NUMBA, jit.COLD); "
             "os.makedirs(jit.cache_dir(), exist_ok=True); "
             "open(os.path.join(jit.cache_dir(), jit.STAMP), 'w').close()")
    env = {**os.environ, "MJBOT_JIT": "cached", "NUMBA_CACHE_DIR": str(tmp_path)}
    env.pop("MJBOT_NO_NUMBA", None)

    def probe_run() -> str:
        return subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=300,
                              check=True).stdout.strip()

    if not start_numba_installed():
        pytest.skip("numba is not installed: nothing is ever compiled")
    assert probe_run() == "False True"  # nothing cached: plain Python, said to be cold
    assert probe_run() == "True False"  # stamped: the compiled kernels


def start_numba_installed() -> bool:
    from strategy.jit import numba_installed

    return numba_installed()


def test_one_background_warm_up_at_a_time(monkeypatch: pytest.MonkeyPatch,
                                          tmp_path: Path) -> None:
    from strategy import jit

    started: list[list[str]] = []

    class FakeChild:
        pid = os.getpid()  # alive while the test runs

        def __init__(self, argv: list[str], **kwargs: object) -> None:
            started.append(argv)
            assert "MJBOT_JIT" not in kwargs["env"]  # type: ignore[operator]

    monkeypatch.setattr(jit, "COLD", True)
    monkeypatch.setattr(jit, "cache_dir", lambda base=None: str(tmp_path))
    monkeypatch.setattr(start.subprocess, "Popen", FakeChild)
    said: list[str] = []
    assert start.warm_in_background(said.append) == os.getpid()
    assert start.warm_in_background(said.append) == os.getpid()
    assert started == [[sys.executable, "-m", "strategy.warmup"]]
    assert "compiling them in the background" in said[0]
    assert f"while process {os.getpid()} compiles them" in said[1]
    monkeypatch.setattr(jit, "COLD", False)
    assert start.warm_in_background(said.append) is None and len(said) == 2


def test_the_warm_up_says_what_it_does() -> None:
    env = {**os.environ, "MJBOT_NO_NUMBA": "1"}
    done = subprocess.run([sys.executable, "-m", "strategy.warmup"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300, check=True)
    assert "MJBOT_NO_NUMBA is set" in done.stdout and "nothing to compile" in done.stdout
    from strategy.warmup import steps, warm_up

    heard: list[str] = []
    warm_up(heard.append)
    assert len(heard) == len(steps()) and heard[0].startswith(f"[1/{len(steps())}] ")
