"""Whole Olympiad games through the real transports: WebSocket, MQTT (embedded amqtt and a
real mosquitto), resuming clients, a restarted broker, misbehaving players, ``mjbot wrap``.

Our agents run deterministically here (a work budget, no clock), so the same
seed gives the same game whatever happens to the connections: a resumed or
restarted run must write exactly the record of an uninterrupted one.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from support.arena import olympiad_config as _config

from arena.platforms.olympiad.match import (
    local_mosquitto,
    our_agents,
    run_match,
    serving,
    transport_for,
)
from arena.platforms.olympiad.referee import Referee
from arena.platforms.olympiad.table_session import GameSummary
from arena.records.decisions import Fault
from arena.records.files import read_record
from bot.olympiad_client import AgentPlayer
from game.events import Penalized
from game.rules import TAIWAN_16
from protocols.olympiad import Act, AskMsg, End, Join, parse_referee_message
from protocols.olympiad_codec import safest_act
from protocols.olympiad_session import SessionReport, play_seat
from protocols.olympiad_transport import free_port
from protocols.olympiad_ws import WsClient
from strategy.warmup import warm_up

ROOT = Path(__file__).resolve().parents[2]


def _record_lines(path: Path) -> list[str]:
    """A record without what may differ between runs (nothing should, but the header's names)."""
    lines = path.read_text().splitlines()
    header = json.loads(lines[0])
    header.pop("seats", None)
    return [json.dumps(header, sort_keys=True), *lines[1:]]


def _seat_logs(referee: Referee) -> dict[tuple[str, int], list[str]]:
    """Every message sent to each seat, each ask's random wire id replaced by its
    deterministic name (the one the records keep)."""
    def named(text: str, ask_id: str | None, names: dict[str, str]) -> str:
        return text if ask_id is None else text.replace(ask_id, names[ask_id])

    return {(tid, ch.seat): [named(e.text, e.ask_id, session.ask_names) for e in ch.log.entries]
            for tid, session in referee.tables.items() for ch in session.seats}


@pytest.fixture(scope="module")
def baseline(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """One uninterrupted deterministic game over WebSocket: its record and every seat's log."""
    tmp = tmp_path_factory.mktemp("baseline")
    result = asyncio.run(run_match(_config(tmp), "ws", players=our_agents(deterministic=True)))
    assert result.referee is not None
    return {"record": _record_lines(tmp / "t1-game0000.jsonl"), "path": tmp / "t1-game0000.jsonl",
            "logs": _seat_logs(result.referee), "summaries": result.summaries}


# ---------------------------------------------------------------- whole games
async def test_whole_games_over_websocket_with_four_of_our_bots(tmp_path: Path) -> None:
    players: list[AgentPlayer] = []

    def make(table: str, seat: int) -> AgentPlayer:
        # the clock's path (no work budget), thinking at most 1 s of a deadline a loaded
        # machine never reaches
        players.append(AgentPlayer(think_fraction=0.05))
        return players[-1]

    result = await run_match(_config(tmp_path, tables=2, games=3, decision_ms=20_000), "ws",
                             players=make)
    assert len(result.summaries) == 6
    for s in result.summaries:
        assert s.violations == [] and sum(s.result.scores) == 0
    assert all(r.games == 3 and r.errors == [] for r in result.sessions.values())
    assert result.referee is not None and result.referee.errors == []
    # our seat views never lost track, and never needed a fallback
    assert all(p.session.lost == "" for p in players)
    assert not [d for p in players for d in p.decisions if d.method.startswith("fallback")]
    records = sorted(tmp_path.glob("*.jsonl"))
    assert len(records) == 6
    for path in records:
        record = read_record(path)
        assert record.header.rules is TAIWAN_16 and record.result is not None
        assert record.header.walltiles is not None and len(record.header.walltiles) == 144


async def test_a_whole_game_over_mqtt_with_the_embedded_broker(
        tmp_path: Path, baseline: dict[str, Any]) -> None:
    result = await run_match(_config(tmp_path), "mqtt", players=our_agents(deterministic=True))
    assert result.url.startswith("mqtt://127.0.0.1:")
    assert _record_lines(tmp_path / "t1-game0000.jsonl") == baseline["record"]
    assert result.referee is not None and _seat_logs(result.referee) == baseline["logs"]


# ---------------------------------------------------------------- mosquitto



async def test_a_whole_game_over_a_real_mosquitto(tmp_path: Path,
                                                  baseline: dict[str, Any]) -> None:
    port = free_port()
    with local_mosquitto(port, tmp_path):
        result = await run_match(_config(tmp_path), "mqtt", broker=f"mqtt://127.0.0.1:{port}",
                                 players=our_agents(deterministic=True))
    assert _record_lines(tmp_path / "t1-game0000.jsonl") == baseline["record"]
    assert result.referee is not None and _seat_logs(result.referee) == baseline["logs"]


async def test_the_broker_restarted_mid_game(tmp_path: Path, baseline: dict[str, Any]) -> None:
    """mosquitto dies after a few actions and comes back on the same port; nothing is lost."""
    port = free_port()
    url = f"mqtt://127.0.0.1:{port}"
    broker = local_mosquitto(port, tmp_path)
    broker.__enter__()
    reports: dict[tuple[str, int], SessionReport] = {}
    try:
        referee = Referee(_config(tmp_path))
        async with serving(referee, "mqtt", broker=url):
            tasks = []
            for seat in range(4):
                reports[("t1", seat)] = SessionReport()
                secret = referee.secrets.secret("t1", seat)
                tasks.append(asyncio.create_task(play_seat(
                    transport_for("mqtt", url, "t1", seat, secret),
                    AgentPlayer(deterministic=True), table="t1", seat=seat,
                    report=reports[("t1", seat)], secret=secret)))
            game = asyncio.create_task(referee.run())
            while sum(r.acts for r in reports.values()) < 12:
                await asyncio.sleep(0.01)
            broker.__exit__(None, None, None)
            await asyncio.sleep(0.5)
            broker = local_mosquitto(port, tmp_path)
            broker.__enter__()
            await asyncio.wait_for(asyncio.gather(*tasks), 120)
            summaries = await game
    finally:
        broker.__exit__(None, None, None)
    assert summaries[0].violations == []
    assert sum(r.reconnects for r in reports.values()) >= 4
    assert _record_lines(tmp_path / "t1-game0000.jsonl") == baseline["record"]
    assert _seat_logs(referee) == baseline["logs"]


# ---------------------------------------------------------------- resuming
@contextlib.asynccontextmanager
async def _table(tmp: Path, **kw: Any) -> AsyncIterator[tuple[Referee, str]]:
    referee = Referee(_config(tmp, **kw))
    async with serving(referee, "ws") as url:
        yield referee, url


async def _seat_task(url: str, seat: int, report: SessionReport, referee: Referee,
                     work_budget: int = 20_000) -> asyncio.Task[SessionReport]:
    player = AgentPlayer(deterministic=True, work_budget=work_budget)
    return asyncio.create_task(play_seat(WsClient(url), player,
                                         table="t1", seat=seat, report=report,
                                         secret=referee.secrets.secret("t1", seat)))


@pytest.mark.parametrize("how", ["killed and restarted", "connection dropped"])
async def test_a_client_comes_back_mid_game(tmp_path: Path, baseline: dict[str, Any],
                                            how: str) -> None:
    async with _table(tmp_path) as (referee, url):
        reports = [SessionReport() for _ in range(4)]
        tasks = [await _seat_task(url, s, reports[s], referee) for s in range(4)]
        game = asyncio.create_task(referee.run())
        victim = 1
        for stop_at in (3, 9):  # twice in one game
            while reports[victim].acts < stop_at:
                await asyncio.sleep(0.002)
            if how == "killed and restarted":
                tasks[victim].cancel()  # the process is gone: no state survives
                with contextlib.suppress(asyncio.CancelledError):
                    await tasks[victim]
                referee.on_close(referee.tables["t1"].seats[victim].link)  # type: ignore[arg-type]
                reports[victim] = SessionReport()
                tasks[victim] = await _seat_task(url, victim, reports[victim], referee)
            else:
                link = referee.tables["t1"].seats[victim].link
                assert link is not None
                await link.connection.close()  # type: ignore[attr-defined]
        await asyncio.wait_for(asyncio.gather(*tasks), 120)
        summaries = await game
    assert summaries[0].violations == []
    if how == "connection dropped":
        assert reports[victim].reconnects == 2
    assert _record_lines(tmp_path / "t1-game0000.jsonl") == baseline["record"]
    assert _seat_logs(referee) == baseline["logs"]


# ---------------------------------------------------------------- misbehaving players
async def _misbehave(url: str, seat: int, errors: list[dict[str, Any]], secret: str) -> End:
    """Seat ``seat`` sends garbage, wrong ids, acts out of turn and one illegal tile."""
    client = WsClient(url)
    await client.connect()
    await client.send(Act(id="nothing-open", kind="pass").to_json())  # before joining
    await client.send(Join(name="rude", table="t1", seat=seat, token=secret).to_json())
    await client.send(Act(id="nothing-open", kind="pass").to_json())  # out of turn
    asks = 0
    while True:
        msg = parse_referee_message(await client.recv())
        if msg.type == "error":
            errors.append(msg.model_dump())
        if isinstance(msg, End):
            await client.close()
            return msg
        if not isinstance(msg, AskMsg):
            continue
        asks += 1
        if asks == 1:
            for garbage in ("{oops", '{"v":1,"type":"shout"}', '{"v":1,"type":"act","id":"'
                            + msg.id + '"}', Act(id="no-such-ask", kind="pass").to_json()):
                await client.send(garbage)
        discard = next((o for o in msg.options if o.kind == "discard"), None)
        if discard is not None and asks <= 3:
            held = {t for t in discard.tiles or [] if isinstance(t, str)}
            absent = next(t for t in ("1m", "2m", "3m", "4m", "5m", "6m") if t not in held)
            await client.send(Act(id=msg.id, kind="discard", tile=absent).to_json())
            asks = 10  # one illegal tile is enough
            continue
        answer = safest_act(msg).to_json()
        await client.send(answer)
        await client.send(answer)  # a repeated act is ignored
        if asks == 11:
            await client.send(answer)


async def _rude_game(tmp: Path, **kw: Any) -> tuple[list[GameSummary], End,
                                                     list[dict[str, Any]]]:
    """One game in which seat 0 misbehaves (:func:`_misbehave`) and our agents play seats 1-3:
    the referee's summaries, seat 0's end and the errors it was sent."""
    async with _table(tmp, decision_ms=20_000, **kw) as (referee, url):
        tasks = [await _seat_task(url, s, SessionReport(), referee) for s in (1, 2, 3)]
        errors: list[dict[str, Any]] = []
        rude = asyncio.create_task(_misbehave(url, 0, errors, referee.secrets.secret("t1", 0)))
        summaries = await asyncio.wait_for(referee.run(), 120)
        end = await rude
        await asyncio.gather(*tasks)
    return summaries, end, errors


async def test_errors_are_answered_and_the_game_goes_on(tmp_path: Path) -> None:
    summaries, end, errors = await _rude_game(tmp_path)
    codes = [e["code"] for e in errors]
    for code in ("not_joined", "out_of_turn", "malformed_json", "unknown_type",
                 "invalid_message", "unknown_id", "illegal_action"):
        assert code in codes, (code, errors)
    illegal = next(e for e in errors if e["code"] == "illegal_action")
    assert "policy default" in illegal["message"] and not illegal["fatal"]
    assert not any(e["fatal"] for e in errors)
    assert [v.kind for v in summaries[0].violations] == [Fault.ILLEGAL]
    assert end.result in ("win", "draw") and sum(end.scores) == 0


async def test_forfeit_policy_ends_the_game_with_the_penalty(tmp_path: Path) -> None:
    summaries, end, _ = await _rude_game(tmp_path, policy="forfeit")
    assert end.result == "forfeit" and end.from_seat == 0
    assert end.scores == [-90, 30, 30, 30]
    ending = summaries[0].result.ending
    assert isinstance(ending, Penalized) and ending.seat == 0


async def test_a_silent_seat_is_defaulted_at_each_deadline(tmp_path: Path) -> None:
    # the playing seats think little (a small work budget, kernels loaded beforehand), so
    # only the silent one is late, even on a loaded machine
    warm_up()
    async with _table(tmp_path, decision_ms=150) as (referee, url):
        tasks = [await _seat_task(url, s, SessionReport(), referee, work_budget=300)
                 for s in (0, 1, 2)]
        silent = WsClient(url)
        await silent.connect()
        await silent.send(Join(name="silent", table="t1", seat=3,
                               token=referee.secrets.secret("t1", 3)).to_json())
        summaries = await asyncio.wait_for(referee.run(), 120)
        await asyncio.gather(*tasks)
        await silent.close()
    violations = summaries[0].violations
    assert violations and {v.kind for v in violations} == {Fault.TIMEOUT}
    # seat 3 is late at every ask; on a loaded machine a playing seat may be late too (150 ms
    # is the platform's rule, not a work budget), so only seat 3's lateness is asserted
    late_3 = sum(1 for v in violations if v.seat == 3)
    assert late_3 >= 5 and late_3 >= len(violations) // 2


# ---------------------------------------------------------------- mjbot wrap
async def test_a_program_behind_mjbot_wrap(tmp_path: Path) -> None:
    async with _table(tmp_path, decision_ms=20_000, games=2) as (referee, url):
        tasks = [await _seat_task(url, s, SessionReport(), referee) for s in (0, 1, 2)]
        wrap = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "arena", "wrap", "--ws", url, "--table", "t1", "--seat", "3",
            "--", sys.executable, str(ROOT / "examples" / "olympiad_simple_bot.py"),
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
            env={**os.environ, "MJBOT_SEAT_SECRET": referee.secrets.secret("t1", 3)})
        summaries = await asyncio.wait_for(referee.run(), 120)
        await asyncio.gather(*tasks)
        _, err = await asyncio.wait_for(wrap.communicate(), 30)
    assert wrap.returncode == 0, err.decode()[-2000:]
    assert len(summaries) == 2 and all(s.violations == [] for s in summaries)
    assert referee.tables["t1"].seats[3].name == sys.executable
    match = re.search(r"games 2, reconnects 0, acts (\d+)", err.decode())
    assert match is not None and int(match.group(1)) > 0


def test_every_message_sent_is_a_valid_v1_message_with_consecutive_seqs(
        baseline: dict[str, Any]) -> None:
    kinds: set[str] = set()
    for texts in baseline["logs"].values():
        seqs = []
        for text in texts:
            msg = parse_referee_message(text)  # the pydantic models validate every field
            seqs.append(msg.seq)
            kinds.add(msg.type)
        assert seqs == list(range(1, len(seqs) + 1))
    assert {"deal", "draw", "discard", "ask", "end"} <= kinds


async def test_mqtt_presence_is_online_and_the_last_will_says_offline(tmp_path: Path) -> None:
    """A seat's client killed with SIGKILL (no DISCONNECT): the broker publishes its will."""
    import aiomqtt

    from protocols.olympiad_mqtt import embedded_broker
    from protocols.olympiad_transport import host_port, presence_topic

    async with embedded_broker() as url:  # no referee needed: the client keeps asking to join
        host, port = host_port(url, 1883)
        client = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "arena", "play", "olympiad", "--mqtt", url, "--table", "t9",
            "--seat", "2", stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL,
            env={**os.environ, "MJBOT_SEAT_SECRET": "s" * 20})
        seen: list[str] = []
        async with aiomqtt.Client(host, port) as watcher:
            await watcher.subscribe(presence_topic("t9", 2), qos=1)
            async with asyncio.timeout(60):
                async for message in watcher.messages:
                    payload = message.payload
                    seen.append(payload.decode() if isinstance(payload, bytes) else str(payload))
                    if seen[-1] == "online":
                        client.kill()
                        await client.wait()
                    elif seen[-1] == "offline" and "online" in seen:
                        break
    assert seen[-2:] == ["online", "offline"]


def test_the_replay_rebuilds_every_seat_of_an_olympiad_record(baseline: dict[str, Any]) -> None:
    """Fed the record, a fresh agent with the same work budget sees what the client saw."""
    from arena.review.replay import replay, steps_from_record

    decided = 0
    for seat in range(4):
        rules, steps = steps_from_record(baseline["path"], seat)
        assert rules.name == "taiwan-16"
        turns = replay(steps, budget=20_000, rules=rules)
        ours = [t for t in turns if t.ours is not None]
        decided += len(ours)
        assert [t for t in ours if t.disagrees()] == [], seat
    assert decided > 40
