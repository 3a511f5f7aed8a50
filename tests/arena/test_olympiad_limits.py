"""The rate limits fit honest bots and still cut a flooder: a seat's message budget is a
time allowance plus one message per ask the referee sends it, so four instant seats (and the
example program through ``mjbot wrap``'s player) play on at any pace, while a seat that
sends more than it is asked gets only the time allowance."""

from __future__ import annotations

import asyncio
import contextlib
import sys
from pathlib import Path

import websockets
from support import ROOT
from support.arena import olympiad_config
from support.olympiad_players import QuickPlayer

from arena.platforms.olympiad.program import ProgramPlayer
from arena.platforms.olympiad.referee import Referee
from protocols.olympiad import Act, Join
from protocols.olympiad_session import SeatPlayer, SessionReport, play_seat
from protocols.olympiad_transport import Limits
from protocols.olympiad_ws import WsClient, serve_ws

EXAMPLE = ROOT / "examples" / "olympiad_simple_bot.py"
TIGHT = Limits(message_burst=20, messages_per_second=20)
"""A time allowance an instant table's seats outrun within a game."""


async def _table(referee: Referee, url: str, players: list[SeatPlayer]) -> list[SessionReport]:
    reports = [SessionReport() for _ in range(4)]
    seats = [play_seat(WsClient(url), players[s], table="t1", seat=s, name=f"p{s}",
                       secret=referee.secrets.secret("t1", s), report=reports[s])
             for s in range(4)]
    run = asyncio.create_task(referee.run())
    await asyncio.gather(*seats)
    await run
    return reports


async def test_four_instant_seats_are_never_taken_for_flooders(tmp_path: Path) -> None:
    """Every seat is asked after every discard and answers at once: far more than the time
    allowance (here 20 a second) at an instant table's pace, but never more than asked."""
    referee = Referee(olympiad_config(tmp_path, games=6, records=None))
    async with serve_ws(referee, "127.0.0.1", 0, limits=TIGHT) as port:
        reports = await _table(referee, f"ws://127.0.0.1:{port}/",
                               [QuickPlayer() for _ in range(4)])
    assert [r.reconnects for r in reports] == [0, 0, 0, 0]
    assert all(r.games == 6 for r in reports)
    asks = sum(s.asks for s in referee.tables["t1"].summaries)
    seconds = sum(s.seconds for s in referee.tables["t1"].summaries)
    assert asks / 4 / seconds > TIGHT.messages_per_second  # the pace was above the allowance


async def test_the_example_program_through_wrap_plays_without_a_drop(tmp_path: Path) -> None:
    referee = Referee(olympiad_config(tmp_path, games=4, records=None))
    players: list[ProgramPlayer] = []
    for _ in range(4):
        players.append(ProgramPlayer([sys.executable, str(EXAMPLE)]))
        await players[-1].start()
    try:
        async with serve_ws(referee, "127.0.0.1", 0, limits=TIGHT) as port:
            reports = await _table(referee, f"ws://127.0.0.1:{port}/", list(players))
    finally:
        for p in players:
            await p.close()
    assert [r.reconnects for r in reports] == [0, 0, 0, 0]
    assert all(r.games == 4 and r.fatal == "" for r in reports)
    assert all(not s.violations for s in referee.tables["t1"].summaries)


async def test_a_seat_sending_more_than_it_is_asked_is_cut_off(tmp_path: Path) -> None:
    """A joined seat that floods its own connection with acts gets its time allowance and
    the answers to its asks, no more: the connection is dropped and the seat's table waits
    for it as for any lost connection."""
    referee = Referee(olympiad_config(tmp_path))
    async with (serve_ws(referee, "127.0.0.1", 0, limits=TIGHT) as port,
                websockets.connect(f"ws://127.0.0.1:{port}/") as ws):
        await ws.send(Join(name="flood", table="t1", seat=0,
                           token=referee.secrets.secret("t1", 0)).to_json())
        await ws.recv()
        junk = Act(id="x", kind="pass").to_json()

        async def flood() -> None:
            with contextlib.suppress(websockets.ConnectionClosed):
                for _ in range(2000):
                    await ws.send(junk)

        flooding = asyncio.create_task(flood())
        channel = referee.tables["t1"].seats[0]
        for _ in range(400):  # the referee lets go of the seat's connection
            if channel.link is None:
                break
            await asyncio.sleep(0.05)
        flooding.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await flooding
        assert channel.link is None
    assert referee.error_counts["not_joined"] == 0
    # the burst of 20, less the join, and what 20 a second refilled meanwhile
    assert sum(referee.error_counts.values()) < 100
