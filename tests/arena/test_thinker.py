"""Our agents thinking in thinker processes (arena.players.thinker) over a real WebSocket referee.

Deterministic agents (a work budget, no clock) make the same decisions
wherever they think, so a match whose seats forward every message to thinker
processes must write exactly the record of the match whose agents think in
the seats' own process.  A thinker that dies or stops answering must leave
its seats answering safely, in time, with no violation.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import signal
import time
from pathlib import Path
from typing import Any

import pytest
from support import needs_extra

pytest.importorskip("pydantic", reason=needs_extra("olympiad"))  # plays through the arena
pytest.importorskip("websockets", reason=needs_extra("olympiad"))

from support.arena import olympiad_config as _config

from arena.bench.olympiad import _row
from arena.platforms.olympiad.match import our_agents, run_match, serving
from arena.platforms.olympiad.referee import Referee
from arena.platforms.olympiad.table_session import GameSummary
from arena.players.thinker import RemotePlayer, ThinkerPool, _line_safe, serve
from protocols.olympiad import Act, AskMsg
from protocols.olympiad_session import SessionReport, play_seat
from protocols.olympiad_ws import WsClient


def _records(tmp: Path) -> dict[str, list[str]]:
    return {p.name: p.read_text().splitlines() for p in sorted(tmp.glob("*.jsonl"))}


async def test_thinker_processes_play_the_games_our_in_process_agents_play(
        tmp_path: Path) -> None:
    here, there = tmp_path / "in-process", tmp_path / "thinkers"
    here.mkdir()
    there.mkdir()
    await run_match(_config(here, tables=2), "ws", players=our_agents(deterministic=True))
    async with ThinkerPool(2, deterministic=True) as pool:
        schedulers = {os.sched_getscheduler(pid) for pid in pool.pids}
        result = await run_match(_config(there, tables=2), "ws", players=lambda t, s: pool.player())
    assert schedulers == {os.SCHED_IDLE}
    assert all(s.violations == [] for s in result.summaries)
    assert result.referee is not None and result.referee.errors == []
    assert len(_records(here)) == 2
    assert _records(here) == _records(there)


async def _play_while(tmp: Path, pool: ThinkerPool, decision_ms: int,
                      trouble: Any) -> tuple[list[GameSummary], Referee, list[str]]:
    """One table of four pool seats; ``trouble(pool, players)`` runs once 6 acts have been
    sent; the reasons of the seats' safe answers."""
    referee = Referee(_config(tmp, decision_ms=decision_ms))
    async with serving(referee, "ws") as url:
        reports = [SessionReport() for _ in range(4)]
        players = [pool.player() for _ in range(4)]
        seats = [asyncio.create_task(play_seat(WsClient(url), players[s], table="t1",
                                               secret=referee.secrets.secret("t1", s),
                                               seat=s, report=reports[s])) for s in range(4)]
        game = asyncio.create_task(referee.run())
        while sum(r.acts for r in reports) < 6:
            await asyncio.sleep(0.005)
        await trouble(pool, players)
        summaries = await asyncio.wait_for(game, 120)
        await asyncio.gather(*seats)
    return summaries, referee, [why for p in players for why in p.fallbacks]


async def test_a_thinker_that_dies_leaves_its_seats_answering_safely(tmp_path: Path) -> None:
    async def kill(pool: ThinkerPool, players: list[RemotePlayer]) -> None:
        os.kill(pool.pids[0], signal.SIGKILL)

    async with ThinkerPool(1) as pool:
        summaries, referee, fallbacks = await _play_while(tmp_path, pool, 5000, kill)
    assert summaries[0].result is not None and summaries[0].violations == []
    assert referee.errors == []
    assert fallbacks and all("exited" in why for why in fallbacks), fallbacks


async def test_a_stopped_thinker_is_answered_for_and_its_late_acts_are_dropped(
        tmp_path: Path) -> None:
    async def stop_then_continue(pool: ThinkerPool, players: list[RemotePlayer]) -> None:
        os.kill(pool.pids[0], signal.SIGSTOP)
        try:
            while sum(len(p.fallbacks) for p in players) < 3:  # answered without the thinker
                await asyncio.sleep(0.01)
        finally:
            os.kill(pool.pids[0], signal.SIGCONT)

    async with ThinkerPool(1) as pool:
        summaries, referee, fallbacks = await _play_while(tmp_path, pool, 2000,
                                                          stop_then_continue)
    # every ask got a legal act in time: the late acts of the stopped thinker were not
    # sent for later asks
    assert summaries[0].result is not None and summaries[0].violations == []
    assert referee.errors == []
    assert len(fallbacks) >= 3 and all("no answer within 1800 ms" in why for why in fallbacks)


def test_a_message_goes_down_the_pipe_on_one_line() -> None:
    pretty = '{\n\t"v": 1,\n\t"type": "draw",\r\n "seq": 3}'
    line = _line_safe(pretty)
    assert "\n" not in line and "\t" not in line and "\r" not in line
    assert json.loads(line) == json.loads(pretty)
    compact = '{"v":1,"type":"draw","note":"a b"}'
    assert _line_safe(compact) is compact


def test_a_thinker_pool_needs_a_process() -> None:
    with pytest.raises(ValueError, match="at least one"):
        ThinkerPool(0)


@pytest.mark.parametrize("thinkers", [0, 1])
def test_a_bench_row_reports_every_figure(thinkers: int) -> None:
    """`mjbot bench olympiad`'s row: two tables, our agents thinking in the seats' process or
    in a thinker process; the round trip splits into its two legs."""
    row = _row("ws", 2, 1, 0, "mjbot", 1, thinkers)
    assert (row["games"], row["violations"], row["thinkers"]) == (2, 0, thinkers)
    assert row["asks"] > 40
    for key in ("round_trip_p50_ms", "round_trip_p99_ms", "down_p99_ms", "up_p99_ms",
                "ask_to_act_p50_ms", "ask_to_act_p99_ms", "games_per_s"):
        assert row[key] == row[key] and row[key] >= 0, key  # measured, not NaN
    assert row["round_trip_p50_ms"] <= row["ask_to_act_p50_ms"]


class _Recorder:
    """A seat player that remembers what it was given and fails on one ask."""

    def __init__(self) -> None:
        self.seen: list[Any] = []

    async def on_message(self, msg: Any, text: str) -> Act | None:
        self.seen.append(msg)
        if isinstance(msg, AskMsg) and msg.id == "boom":
            raise KeyError("a bug in the strategy")
        return Act(id=msg.id, kind="pass") if isinstance(msg, AskMsg) else None

    async def close(self) -> None:
        return None


def _ask(ask_id: str, seq: int, deadline_ms: int = 1000) -> str:
    return json.dumps({"v": 1, "type": "ask", "table": "t1", "seq": seq, "id": ask_id,
                       "deadline_ms": deadline_ms,
                       "options": [{"kind": "pass"}, {"kind": "pong", "tiles": ["1m"]}]})


async def test_a_thinker_answers_each_ask_even_when_a_seat_fails() -> None:
    players: list[_Recorder] = []

    def make() -> _Recorder:
        players.append(_Recorder())
        return players[-1]

    draw = '{"v":1,"type":"draw","table":"t1","seq":1,"seat":2,"wall":50}'
    long_ago = time.monotonic() - 0.4  # the line waited 400 ms before the thinker read it
    reader = asyncio.StreamReader()
    for line in (f"0\t{time.monotonic()!r}\t{draw}", f"0\t{long_ago!r}\t{_ask('a1', 2)}",
                 "not a line of the pipe", f"1\t{time.monotonic()!r}\t{_ask('boom', 1)}",
                 f"1\t{time.monotonic()!r}\t{_ask('a2', 2)}"):
        reader.feed_data(line.encode() + b"\n")
    reader.feed_eof()
    out = io.BytesIO()
    await serve(reader, out, make)
    lines = out.getvalue().decode().splitlines()
    assert lines[0] == "ready"
    replies = [(n, json.loads(act)) for n, act in (line.split("\t") for line in lines[1:])]
    # every ask answered, in order; the failing one with the safest option (pass)
    assert [(n, a["id"], a["kind"]) for n, a in replies] == [
        ("0", "a1", "pass"), ("1", "boom", "pass"), ("1", "a2", "pass")]
    assert len(players) == 2 and [m.type for m in players[0].seen] == ["draw", "ask"]
    assert 500 <= players[0].seen[1].deadline_ms <= 600  # 1000 ms less the 400 ms it waited
