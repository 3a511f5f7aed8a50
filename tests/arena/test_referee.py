"""``mjbot referee botzone``: real programs, spoken to as Botzone does, judged by the table.

The scripted programs are small Python files written into ``tmp_path``: a
*tsumogiri* bot (discards what it drew, passes otherwise: always legal, never
wins), and bots that crash, hang, print garbage, always PASS or declare a false
win at a given turn.  Each can log every input it receives (with its pid), which
is how the golden transcripts see exactly what the referee wrote.
"""

from __future__ import annotations

import json
import os
import shlex
import sys
import time
from pathlib import Path

import numpy as np
import pytest
import structlog

import arena.platforms.botzone_judge.sandbox as sandbox
from arena.cli import main
from arena.platforms.botzone_judge.match import (
    JudgeMatchConfig,
    MatchReport,
    play_match,
    read_walls,
)
from arena.platforms.botzone_judge.turns import Reply, referee_game
from arena.records.files import read_record
from game.events import (
    Dealt,
    Discarded,
    Drew,
    Event,
    Penalized,
    PlatformFault,
    SeatAssigned,
    WallExhausted,
    Won,
    as_seen_by,
)
from game.table import play_game, random_walltiles
from game.tiles import Notation, tile_name
from protocols.botzone_codec import decode_response, format_request
from protocols.botzone_envelope import (
    KEEP_RUNNING,
    Interaction,
    JsonInteraction,
    SimpleInteraction,
    TurnInput,
)

PY = sys.executable
MJBOT = str(Path(sys.executable).parent / "mjbot")
BUDGET = 300
"""Our bots decide on kernel calls, not on the clock (the same game on any machine)."""
GENEROUS = 60.0
"""The judge's time limit where a test is not about time: a loaded machine (or kernels
still running as plain Python) never makes a well-behaved bot late."""

SCRIPTED_BOT = r'''
import json, os, sys, time

KEEP = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
behaviour = sys.argv[1]
once = "--once" in sys.argv
log = sys.argv[sys.argv.index("--log") + 1] if "--log" in sys.argv else None


def note(text):
    if log:
        with open(log, "a") as f:
            f.write(json.dumps({"pid": os.getpid(), "input": text}) + "\n")


def answer(request, turn):
    if behaviour == "crash-at-3" and turn == 3:
        raise RuntimeError("scripted crash on turn 3")
    if behaviour.startswith("hang-at-") and turn == int(behaviour[8:]):
        time.sleep(3600)
    if behaviour.startswith("sleep-5-at-") and turn == int(behaviour[11:]):
        time.sleep(5)
    if behaviour == "garbage":
        return "\u00af\\_(\u30c4)_/\u00af {not an action"
    if behaviour == "pass":
        return "PASS"
    if behaviour.startswith("hu-at-") and turn == int(behaviour[6:]):
        return "HU"
    parts = request.split()
    return "PLAY " + parts[1] if parts[0] == "2" else "PASS"


first = sys.stdin.readline()
json_mode = first.startswith("{")
if json_mode:
    note(first)
    requests = json.loads(first)["requests"]
    turn, request = len(requests), requests[-1]
else:
    n = int(first)
    rest = [sys.stdin.readline() for _ in range(2 * n + 1)]
    note(first + "".join(rest))
    turn, request = n, rest[2 * n - 2].strip()
while True:
    response = answer(request, turn)
    raw = behaviour == "garbage" or not json_mode
    print(response if raw else json.dumps({"response": response}), flush=True)
    if once:
        break
    print(KEEP, flush=True)
    line = sys.stdin.readline()
    if not line:
        break
    note(line)
    request = json.loads(line) if json_mode else line.strip()
    turn += 1
'''


@pytest.fixture
def scripted(tmp_path: Path):
    """``scripted(behaviour, once=False, log=None)`` -> a command string for the referee."""
    path = tmp_path / "scripted_bot.py"
    path.write_text(SCRIPTED_BOT)

    def command(behaviour: str, once: bool = False, log: Path | None = None) -> str:
        argv = [PY, str(path), behaviour]
        argv += ["--once"] if once else []
        argv += ["--log", str(log)] if log is not None else []
        return shlex.join(argv)

    return command


@pytest.fixture
def cli_logging():
    """The command configures structlog onto pytest's captured stderr: undo that after."""
    yield
    structlog.reset_defaults()


def logged(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def name(tile: int) -> str:
    return tile_name(tile, Notation.BOTZONE)


def check_replayable(report: MatchReport) -> None:
    """Each game's result follows from the answers alone, and every seat got the requests
    the table's history shows it (an independent re-run of the judge)."""
    for game in report.games:
        table = play_game(game.walltiles, game.prevalent_wind,
                          zip(*([decode_response(r) for r in rs] for rs in game.responses),
                              strict=False))
        assert table.result == game.result
        for seat in range(4):
            seen = [e for e in table.events_seen_by(seat)]
            assert list(game.requests[seat]) == [format_request(e, seat) for e in seen]


# ---------------------------------------------------------------- (1) whole games
@pytest.mark.parametrize("interaction", ["simple", "json"])
def test_four_keep_running_bots_play_a_whole_game(interaction: str, tmp_path: Path) -> None:
    command = f"{MJBOT} play botzone --work-budget {BUDGET}"
    config = JudgeMatchConfig(commands=(command,) * 4, games=1, seed=3, time_limit=GENEROUS,
                         interaction=Interaction(interaction), records=tmp_path)
    report = play_match(config)
    game = report.games[0]
    assert isinstance(game.result.ending, Won | WallExhausted), game.result
    assert all(s.verdict == "OK" and s.kept_running for s in game.seats)
    assert len({s.turns for s in game.seats}) == 1 and game.seats[0].turns > 20
    assert sum(1 for r in game.responses[0] if r.startswith("PLAY")) >= 5
    check_replayable(report)
    record = read_record(tmp_path / "game-3-00000.jsonl")
    assert record.header.verdicts == ("OK",) * 4
    assert record.header.judge_seats is not None
    assert [s.command for s in record.header.judge_seats] == [command] * 4
    assert record.header.interaction is Interaction(interaction)
    assert record.result == game.result
    assert not sandbox._LIVE_GROUPS


# ---------------------------------------------------------------- (2) golden transcripts
def tsumogiri_requests(wall: tuple[int, ...], quan: int, turns: int) -> list[str]:
    """What seat 0 is sent when four tsumogiri bots play ``wall``: derived from the wall."""
    events: list[Event] = [SeatAssigned(0, quan), Dealt(0, tuple(wall[33 - k] for k in range(13)))]
    for round_ in range(turns):
        for seat in range(4):
            tile = wall[34 * seat + 20 - round_]
            events += [Drew(seat, tile), Discarded(seat, tile)]
    return [format_request(as_seen_by(e, 0), 0) for e in events[:turns]]


def tsumogiri_responses(requests: list[str]) -> list[str]:
    return [f"PLAY {r.split()[1]}" if r.startswith("2 ") else "PASS" for r in requests]


def expected_inputs(requests: list[str], interaction: str, keep_running: bool,
                    limit: float) -> list[str]:
    """The Botzone protocol rules, written out for seat 0's first turns."""
    responses = tsumogiri_responses(requests)
    inputs = []
    for n in range(1, len(requests) + 1):
        if keep_running and n > 1:
            inputs.append(json.dumps(requests[n - 1]) + "\n" if interaction == "json"
                          else requests[n - 1] + "\n")
        elif interaction == "json":
            seconds = 2 * limit if n == 1 else limit
            inputs.append('{"requests":' + json.dumps(requests[:n], separators=(",", ":"))
                          + ',"responses":' + json.dumps(responses[:n - 1],
                                                         separators=(",", ":"))
                          + f',"data":"","globaldata":"","time_limit":{seconds:g}'
                          + ',"memory_limit":256}\n')
        else:
            history = []
            for i in range(n - 1):
                history += [requests[i], responses[i]]
            inputs.append(f"{n}\n" + "".join(line + "\n" for line in history)
                          + requests[n - 1] + "\n" + "\n" + "\n")
    return inputs


@pytest.mark.parametrize("interaction", ["simple", "json"])
@pytest.mark.parametrize("keep_running", [True, False], ids=["keep-running", "fresh"])
def test_golden_transcript_of_seat_0(interaction: str, keep_running: bool, scripted,
                                     tmp_path: Path) -> None:
    seed, turns, limit = 7, 12, GENEROUS
    log = tmp_path / "seat0.jsonl"
    commands = (scripted("tsumogiri", once=not keep_running, log=log),
                scripted("tsumogiri", once=not keep_running),
                scripted("tsumogiri", once=not keep_running),
                scripted(f"hu-at-{turns}", once=not keep_running))
    config = JudgeMatchConfig(commands=commands, games=2, seed=seed, time_limit=limit,
                         interaction=Interaction(interaction))
    report = play_match(config)
    expected = []
    for game in range(2):
        wall = random_walltiles(np.random.default_rng([seed, game]))
        assert report.games[game].walltiles == wall
        requests = tsumogiri_requests(wall, quan=game, turns=turns)
        assert requests[1].startswith("1 0 0 0 0 " + name(wall[33]))
        assert requests[2:4] == [f"2 {name(wall[20])}", f"3 0 PLAY {name(wall[20])}"]
        expected += expected_inputs(requests, interaction, keep_running, limit)
        ending = report.games[game].result.ending
        assert isinstance(ending, Penalized) and ending.seat == 3, ending
    received = logged(log)
    assert [r["input"] for r in received] == expected
    pids = [r["pid"] for r in received]
    if keep_running:  # one process per game
        assert pids[:turns] == [pids[0]] * turns and pids[turns:] == [pids[turns]] * turns
        assert pids[0] != pids[turns]
    else:  # one process per turn
        assert len(set(pids)) == 2 * turns


# ---------------------------------------------------------------- (3) faults are penalised
@pytest.mark.parametrize(("behaviour", "seat", "interaction", "reason", "detail"), [
    ("crash-at-3", 1, "simple", "RE", "scripted crash on turn 3"),
    ("hang-at-1", 2, "simple", "TLE", "no answer within 2 s"),
    ("garbage", 3, "simple", "WA", "unknown action"),
    ("garbage", 3, "json", "WA", "not JSON"),
    ("pass", 0, "json", "WA", "after its draw must PLAY"),
])
def test_faulty_bots_are_penalised_and_the_next_game_runs(
        behaviour: str, seat: int, interaction: str, reason: str, detail: str, scripted,
        tmp_path: Path) -> None:
    logs = [tmp_path / f"seat{s}.jsonl" for s in range(4)]
    commands = [scripted("tsumogiri", log=logs[s]) for s in range(4)]
    commands[seat] = scripted(behaviour, log=logs[seat])
    c0, c1, c2, c3 = commands
    limit = 1.0 if behaviour.startswith("hang") else GENEROUS
    config = JudgeMatchConfig(commands=(c0, c1, c2, c3), games=2, seed=11, time_limit=limit,
                         interaction=Interaction(interaction), records=tmp_path / "records")
    report = play_match(config)
    for game in report.games:
        ending = game.result.ending
        assert isinstance(ending, Penalized), ending
        assert (ending.seat, ending.reason) == (seat, reason)
        assert game.result.scores == tuple(-30 if s == seat else 10 for s in range(4))
        assert game.seats[seat].verdict == reason and detail in game.seats[seat].detail
        assert all(s.verdict == "OK" for s in game.seats if s.seat != seat)
        record = read_record(tmp_path / "records" / f"game-11-{game.game:05d}.jsonl")
        assert record.header.verdicts is not None and record.header.verdicts[seat] == reason
    totals = report.totals
    assert totals[seat].score == -60 and totals[seat].penalties == {reason: 2}
    assert all(t.score == 20 and not t.penalties for t in totals if t.seat != seat)
    # the second game ran with fresh processes for every seat
    for s in range(4):
        pids = [r["pid"] for r in logged(logs[s])]
        first_game = pids[:report.games[0].seats[s].turns]
        assert pids[0] not in pids[len(first_game):]
    if behaviour.startswith("hang"):  # first turn: double the limit (never less), then killed
        assert report.games[0].seats[seat].max_seconds >= 2 * limit
        for pid in {r["pid"] for r in logged(logs[seat])}:
            with pytest.raises(ProcessLookupError):
                os.kill(pid, 0)
    assert not sandbox._LIVE_GROUPS


@pytest.mark.parametrize("once", [False, True], ids=["kept running", "started afresh"])
def test_a_kept_running_turn_gets_two_thirds_of_a_fresh_start_s_time(once: bool, scripted,
                                                                     tmp_path: Path) -> None:
    """Botzone gives Python 6 s for a turn that starts the program and 4 s for one that
    resumes it: 5 s of thought on turn 3 is late for a kept-running bot only."""
    c0 = scripted("sleep-5-at-3", once=once)
    others = scripted("tsumogiri")
    config = JudgeMatchConfig(commands=(c0, others, others, others), games=1, seed=11,
                         time_limit=6.0)
    game = play_match(config).games[0]
    if once:
        assert game.seats[0].verdict == "OK"
    else:
        assert game.seats[0].verdict == "TLE"
        assert "no answer within 4 s" in game.seats[0].detail
    assert not sandbox._LIVE_GROUPS


# ---------------------------------------------------------------- (4) without keep-running
@pytest.mark.parametrize(("interaction", "turns"), [("simple", 16), ("json", 12)])
def test_a_bot_without_keep_running_is_restarted_every_turn(
        interaction: str, turns: int, scripted, tmp_path: Path) -> None:
    config = JudgeMatchConfig(
        commands=(f"{MJBOT} play botzone --no-keep-running --work-budget {BUDGET}",
                  scripted("tsumogiri"), scripted("tsumogiri"), scripted(f"hu-at-{turns}")),
        games=1, seed=5, time_limit=GENEROUS, interaction=Interaction(interaction))
    report = play_match(config)
    game = report.games[0]
    ending = game.result.ending
    assert (isinstance(ending, Penalized) and ending.seat == 3) or \
        (isinstance(ending, Won) and ending.seat == 0), ending
    ours = game.seats[0]
    assert ours.verdict == "OK" and not ours.kept_running
    assert ours.turns == turns or isinstance(ending, Won)
    # two rounds of play: the second discard needs the hand rebuilt from the whole history
    assert sum(1 for r in game.responses[0] if r.startswith(("PLAY", "PENG", "CHI"))) >= 2
    check_replayable(report)


# ---------------------------------------------------------------- the command line
def test_command_line_with_a_walls_file(scripted, tmp_path: Path, cli_logging,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    walls = [random_walltiles(np.random.default_rng([99, g])) for g in range(2)]
    walls_file = tmp_path / "walls.txt"
    walls_file.write_text("# two walls\n" + " ".join(name(t) for t in walls[0]) + "\n\n"
                          + json.dumps([name(t) for t in walls[1]]) + "\n")
    assert read_walls(walls_file) == walls
    bots = [scripted("tsumogiri")] * 3 + [scripted("hu-at-5")]
    code = main(["referee", "botzone", "--bots", *bots, "--walls", str(walls_file),
                 "--time-limit", "60", "--records", str(tmp_path / "rec"), "--json",
                 "--log-level", "WARNING"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["games"] == 2 and [r["prevalent_wind"] for r in out["results"]] == [0, 1]
    assert [s["score"] for s in out["seats"]] == [20, 20, 20, -60]
    assert out["seats"][3]["penalties"] in ({"WA": 2}, {"WH": 2}, {"WA": 1, "WH": 1})
    for g in range(2):
        record = read_record(tmp_path / "rec" / f"game-walls-{g:05d}.jsonl")
        assert record.header.walltiles == walls[g]
    code = main(["referee", "botzone", "--bots", *bots, "--time-limit", "60",
                 "--log-level", "WARNING"])
    assert code == 0
    text = capsys.readouterr().out
    assert "penalties" in text and "-30" in text


def test_command_line_names_a_bad_wall_line_and_a_missing_program(
        scripted, tmp_path: Path, cli_logging, capsys: pytest.CaptureFixture[str]) -> None:
    walls_file = tmp_path / "walls.txt"
    walls_file.write_text("W1 " * 136 + "\n")
    bots = [scripted("tsumogiri")] * 4
    assert main(["referee", "botzone", "--bots", *bots, "--walls", str(walls_file)]) == 2
    assert "walls.txt:1" in capsys.readouterr().err
    assert main(["referee", "botzone", "--bots", *bots[:3], "no-such-bot-program"]) == 2
    assert "seat 3" in capsys.readouterr().err


# ---------------------------------------------------------------- the turn loop alone
class FakeSeat:
    """A scripted in-process channel: tsumogiri, with a fault on a chosen turn."""

    def __init__(self, seat: int, fault_at: int | None = None) -> None:
        self.seat = seat
        self.fault_at = fault_at
        self.inputs: list[TurnInput] = []
        self.closed = False

    async def turn(self, turn: TurnInput) -> Reply:
        self.inputs.append(turn)
        if turn.turn == self.fault_at:
            return Reply(verdict="TLE", detail="scripted")
        request = turn.requests[-1].split()
        response = f"PLAY {request[1]}" if request[0] == "2" else "PASS"
        return Reply(response=response, data=f"data {turn.turn}",
                     globaldata=f"global {self.seat}", kept_running=True)

    async def close(self) -> None:
        self.closed = True


def test_the_turn_loop_with_fake_channels() -> None:
    import asyncio

    wall = random_walltiles(np.random.default_rng(0))
    seats = [FakeSeat(s, fault_at=9 if s == 2 else None) for s in range(4)]
    shared = ["", "", "", "old"]
    report = asyncio.run(referee_game(seats, wall, 2, time_limit=1.5, globaldata=shared))
    assert report.result.ending == Penalized(2, "TLE", "platform verdict")
    assert report.seats[2].verdict == "TLE" and report.seats[2].detail == "scripted"
    assert all(s.closed for s in seats)
    inputs = seats[3].inputs
    assert [t.turn for t in inputs] == list(range(1, 10))
    assert [t.time_limit for t in inputs[:2]] == [3.0, 1.5]
    assert inputs[0].globaldata == "old" and inputs[1].globaldata == "global 3"
    assert inputs[0].data == "" and inputs[4].data == "data 4"
    assert inputs[-1].requests == report.requests[3] and len(inputs[-1].responses) == 8
    assert shared == [f"global {s}" for s in range(4)]
    assert PlatformFault("TLE") == Reply(verdict="TLE").as_response()


def test_interactions_read_answers_and_name_garbage() -> None:
    simple, js = SimpleInteraction(), JsonInteraction()
    out = simple.read_output(["PLAY W1", "thinking", "saved"])
    assert (out.response, out.debug, out.data, out.globaldata) == ("PLAY W1", "thinking",
                                                                   "saved", None)
    assert js.read_output(['{"response":"HU","debug":"x","globaldata":"g"}']).globaldata == "g"
    assert js.read_output(["PASS"]).unreadable is not None
    assert js.read_output(['{"debug":"x"}']).unreadable == 'output has no "response" field'
    assert js.read_output(['{"response":3}']).unreadable == '"response" is not a string'
    turn = TurnInput(turn=2, requests=("0 1 0", "1 0 0 0 0 W1"), responses=("PASS",),
                     time_limit=1.0)
    assert simple.first_input(turn, 256) == "2\n0 1 0\nPASS\n1 0 0 0 0 W1\n\n\n"
    assert json.loads(js.first_input(turn, 256)) == {
        "requests": ["0 1 0", "1 0 0 0 0 W1"], "responses": ["PASS"], "data": "",
        "globaldata": "", "time_limit": 1, "memory_limit": 256}
    assert js.next_input("3 1 PLAY W1") == '"3 1 PLAY W1"\n'
    assert KEEP_RUNNING == ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_a_keep_running_program_is_paused_between_turns_and_killed_at_close(scripted) -> None:
    import asyncio

    def state(pid: int) -> str:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]

    def stopped(pid: int) -> bool:
        """SIGSTOP is delivered asynchronously: on a loaded machine the process may still
        show R for a moment after the signal was sent."""
        deadline = time.monotonic() + 30.0  # polls: returns as soon as it shows T
        while state(pid) != "T" and time.monotonic() < deadline:
            time.sleep(0.01)
        return state(pid) == "T"

    async def scenario() -> None:
        seat = sandbox.ProgramSeat(shlex.split(scripted("tsumogiri")), SimpleInteraction())
        first = await seat.turn(TurnInput(turn=1, requests=("0 0 0",), responses=(),
                                          time_limit=GENEROUS))
        assert (first.verdict, first.response, first.kept_running) == ("OK", "PASS", True)
        process = seat._process
        assert process is not None and stopped(process.pid)
        second = await seat.turn(TurnInput(turn=2, requests=("0 0 0", "2 W1"),
                                           responses=("PASS",), time_limit=GENEROUS))
        assert second.response == "PLAY W1" and seat._process is process
        assert stopped(process.pid)
        await seat.close()
        assert not process.running and process.pid not in sandbox._LIVE_GROUPS

    asyncio.run(scenario())
