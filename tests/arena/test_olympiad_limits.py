"""The rate limits fit honest bots and still cut a flooder: a seat's message budget is a
time allowance plus one message per ask the referee sends it, so four instant seats (and the
example program through ``mjbot wrap``'s player) play on at any pace, while a seat that
sends more than it is asked gets only the time allowance.

The embedded broker holds each seat's user to its own budgets, whatever its client ids, so
that a flood costs the flooding seat and not the broker's (the referee's) event loop: a
CONNECT beyond the seat's CONNECT budget is refused before it ends any connection, the
connection that publishes beyond the seat's publish budget is closed unread, a will is
checked against the ACL without spending a publish, absurd client ids are refused, and a
broadcast survives a subscription made while it is sent.  These tests freeze the broker's
buckets (they never refill), so each limit is an exact count.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiomqtt
import pytest
import websockets
from amqtt.contexts import Action
from amqtt.session import Session
from support import ROOT
from support.arena import olympiad_config
from support.olympiad_players import QuickPlayer

from arena.platforms.olympiad import broker_guards
from arena.platforms.olympiad.access import SeatSecrets, amqtt_plugins
from arena.platforms.olympiad.broker_guards import (
    SEAT_CONNECT_BURST,
    SEAT_PUBLISH_BURST,
    GuardedBroker,
)
from arena.platforms.olympiad.match import serving, transport_for
from arena.platforms.olympiad.program import ProgramPlayer
from arena.platforms.olympiad.referee import Referee
from arena.platforms.olympiad.soak.corpus import connect_packet, mqtt_varint
from protocols.olympiad import Act, Join
from protocols.olympiad_mqtt import embedded_broker
from protocols.olympiad_session import SeatPlayer, SessionReport, play_seat
from protocols.olympiad_transport import (
    REFEREE_USER,
    Limits,
    RateLimit,
    host_port,
    presence_topic,
    seat_topic,
    seat_user,
)
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


async def test_four_instant_seats_over_the_embedded_broker_are_never_cut(
        tmp_path: Path) -> None:
    """The broker's own limits (CONNECTs, publishes per seat) leave honest instant seats
    alone: no seat reconnects, every game is played."""
    referee = Referee(olympiad_config(tmp_path, games=2, records=None))
    async with serving(referee, "mqtt") as url:
        reports = [SessionReport() for _ in range(4)]
        seats = [play_seat(transport_for("mqtt", url, "t1", s, referee.secrets.secret("t1", s)),
                           QuickPlayer(), table="t1", seat=s, name=f"p{s}",
                           secret=referee.secrets.secret("t1", s), report=reports[s])
                 for s in range(4)]
        run = asyncio.create_task(referee.run())
        await asyncio.gather(*seats)
        await run
    assert [r.reconnects for r in reports] == [0, 0, 0, 0]
    assert all(r.games == 2 and r.fatal == "" for r in reports)
    assert all(not s.violations for s in referee.tables["t1"].summaries)


# ---------------------------------------------------------------- the embedded broker
@pytest.fixture
def frozen(monkeypatch: pytest.MonkeyPatch) -> None:
    """The broker's buckets never refill: what a seat may do is a count, not a rate."""
    monkeypatch.setattr(broker_guards, "RateLimit", lambda burst, per_second: RateLimit(
        burst, per_second, clock=lambda: 0.0))


@contextlib.asynccontextmanager
async def _broker(seat_secrets: SeatSecrets, broker_class: Any = GuardedBroker
                  ) -> AsyncIterator[str]:
    async with embedded_broker(plugins=amqtt_plugins(seat_secrets, ["t1"]),
                               broker_class=broker_class) as url:
        yield url


Raw = tuple[int, asyncio.StreamReader, asyncio.StreamWriter]


async def _raw(url: str, packet: bytes) -> Raw:
    """Send a CONNECT by hand: (the CONNACK's return code, -1 if the broker hung up; the
    connection)."""
    host, port = host_port(url, 1883)
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(packet)
    await writer.drain()
    try:
        connack = await asyncio.wait_for(reader.readexactly(4), 10)
    except (asyncio.IncompleteReadError, ConnectionError):
        return -1, reader, writer
    return connack[3], reader, writer


async def _code(url: str, packet: bytes) -> int:
    code, _, writer = await _raw(url, packet)
    writer.transport.abort()
    return code


async def _closed(reader: asyncio.StreamReader, seconds: float = 10.0) -> bool:
    """Whether the broker closes the connection within ``seconds`` (a bound for a failing
    run, not a measure: a passing one is closed at once)."""
    try:
        async with asyncio.timeout(seconds):
            while await reader.read(65536):
                pass
    except TimeoutError:
        return False
    except ConnectionError:
        pass
    return True


def _publishes(topic: str, count: int) -> bytes:
    name = len(topic.encode()).to_bytes(2, "big") + topic.encode()
    one = b"\x30" + mqtt_varint(len(name) + 1) + name + b"x"
    return one * count


async def _counting(url: str, seat_secrets: SeatSecrets, topic: str, into: list[str],
                    identifier: str = "counter") -> asyncio.Task[None]:
    """A task reading, as the referee's user, every message on ``topic`` into ``into``."""
    ready = asyncio.Event()
    host, port = host_port(url, 1883)

    async def read() -> None:
        async with aiomqtt.Client(host, port, username=REFEREE_USER, identifier=identifier,
                                  password=seat_secrets.referee) as client:
            await client.subscribe(topic, qos=1)
            ready.set()
            async for message in client.messages:
                into.append(str(message.topic))

    task = asyncio.create_task(read())
    await ready.wait()
    return task


async def _stop(task: asyncio.Task[None]) -> None:
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task


async def _settled(into: list[str]) -> None:
    """Until ``into`` stops growing (four quiet looks in a row)."""
    quiet, last = 0, -1
    while quiet < 4:
        await asyncio.sleep(0.1)
        quiet, last = (quiet + 1, last) if len(into) == last else (0, len(into))


@pytest.mark.usefixtures("frozen")
async def test_connects_beyond_a_seats_budget_are_refused_and_end_no_connection() -> None:
    """Seat 0's user connects with its burst of CONNECTs, the last one kept open, then 20
    more: each of those is refused (CONNACK 3) and the kept connection still gets its
    messages (before: every CONNECT was taken, each ending the one before).  A stranger's
    CONNECTs with a wrong password spend no seat's budget, and the referee's user has none."""
    seat_secrets = SeatSecrets.generate(["t1"])
    user0, secret0 = seat_user("t1", 0), seat_secrets.secret("t1", 0)
    async with _broker(seat_secrets) as url:
        host, port = host_port(url, 1883)
        first = [await _code(url, connect_packet(f"c{n}", user0, secret0))
                 for n in range(int(SEAT_CONNECT_BURST) - 1)]
        async with aiomqtt.Client(host, port, username=user0, password=secret0,
                                  identifier="kept") as kept:
            await kept.subscribe(seat_topic("t1", 0, "down"), qos=1)
            beyond = [await _code(url, connect_packet(f"d{n}", user0, secret0))
                      for n in range(20)]
            strangers = [await _code(url, connect_packet(f"s{n}", seat_user("t1", 1),
                                                         "wrong-password-0123456789"))
                         for n in range(20)]
            seat1 = await _code(url, connect_packet("seat1", seat_user("t1", 1),
                                                    seat_secrets.secret("t1", 1)))
            referee = [await _code(url, connect_packet(f"r{n}", REFEREE_USER,
                                                       seat_secrets.referee))
                       for n in range(20)]
            async with aiomqtt.Client(host, port, username=REFEREE_USER,
                                      password=seat_secrets.referee) as sender:
                await sender.publish(seat_topic("t1", 0, "down"), "still yours", qos=1)
            message = await asyncio.wait_for(anext(aiter(kept.messages)), 10)
    assert first == [0] * (int(SEAT_CONNECT_BURST) - 1)
    assert beyond == [3] * 20
    assert message.payload == b"still yours"
    assert strangers == [5] * 20 and seat1 == 0
    assert referee == [0] * 20


@pytest.mark.usefixtures("frozen")
async def test_a_connection_beyond_its_seats_publish_budget_is_closed_unread() -> None:
    """Seat 0 sends 1,000 messages at once: the broker passes on at most the seat's burst
    (those still queued when it closes are dropped with the connection) and closes the
    connection (before: it read and dropped the rest and kept it open); the seat's next
    connection, with another client id, is closed at its first message."""
    seat_secrets = SeatSecrets.generate(["t1"])
    user0, secret0 = seat_user("t1", 0), seat_secrets.secret("t1", 0)
    up = seat_topic("t1", 0, "up")
    got: list[str] = []
    async with _broker(seat_secrets) as url:
        counting = await _counting(url, seat_secrets, up, got)
        code, reader, writer = await _raw(url, connect_packet("flood-1", user0, secret0))
        writer.write(_publishes(up, 1000))
        first_closed = await _closed(reader)
        writer.transport.abort()
        code2, reader, writer = await _raw(url, connect_packet("flood-2", user0, secret0))
        writer.write(_publishes(up, 1))
        second_closed = await _closed(reader)
        writer.transport.abort()
        await _settled(got)
        await _stop(counting)
    assert code == code2 == 0
    assert first_closed and second_closed
    assert 0 < len(got) <= SEAT_PUBLISH_BURST


@pytest.mark.usefixtures("frozen")
async def test_a_seat_that_spent_its_publish_budget_may_still_leave_its_will() -> None:
    """Seat 0 spends its publish budget, then reconnects with its last will on its own
    presence topic: accepted (before: refused as "not its to publish", the will check
    having spent a publish), while a will on seat 1's topic is still refused."""
    seat_secrets = SeatSecrets.generate(["t1"])
    user0, secret0 = seat_user("t1", 0), seat_secrets.secret("t1", 0)
    async with _broker(seat_secrets) as url:
        _, reader, writer = await _raw(url, connect_packet("spender", user0, secret0))
        writer.write(_publishes(seat_topic("t1", 0, "up"), int(SEAT_PUBLISH_BURST) + 50))
        await _closed(reader, 2.0)
        writer.transport.abort()
        own = await _code(url, connect_packet("with-will", user0, secret0,
                                              (presence_topic("t1", 0), b"offline", True)))
        other = await _code(url, connect_packet("with-will", user0, secret0,
                                                (presence_topic("t1", 1), b"offline", True)))
    assert own == 0
    assert other == 5


def _connect_raw_id(client_id: bytes, user: str, password: str) -> bytes:
    """A clean-session CONNECT whose client id is the given bytes, as they are."""
    def field(data: bytes) -> bytes:
        return len(data).to_bytes(2, "big") + data

    body = field(b"MQTT") + bytes([4, 0x02 | 0x80 | 0x40]) + (60).to_bytes(2, "big") \
        + field(client_id) + field(user.encode()) + field(password.encode())
    return b"\x10" + mqtt_varint(len(body)) + body


async def test_client_ids_mqtt_forbids_or_that_are_absurd_are_refused() -> None:
    """U+0000, ill-formed UTF-8 (a stray byte, an encoded surrogate, a cut sequence),
    over 256 bytes, a topic wildcard: CONNACK 2 and the connection closed (before: each
    was taken, an ill-formed one as the text of its bytes' repr).  A 256-byte id and a
    non-ASCII one are taken."""
    seat_secrets = SeatSecrets.generate(["t1"])
    user0, secret0 = seat_user("t1", 0), seat_secrets.secret("t1", 0)
    refused = [b"seat\x000", b"seat\xff0", b"seat\xed\xa0\x800", b"x" * 257, b"seat#0",
               b"seat+0", b"seat\xc3"]
    taken = [b"x" * 256, "s\u00e9at-0".encode()]
    async with _broker(seat_secrets) as url:
        outcomes = []
        for client_id in refused:
            code, reader, writer = await _raw(url, _connect_raw_id(client_id, user0, secret0))
            outcomes.append((code, await _closed(reader)))
            writer.transport.abort()
        codes = [await _code(url, _connect_raw_id(c, user0, secret0)) for c in taken]
    assert outcomes == [(2, True)] * len(refused)
    assert codes == [0, 0]


class _SubscribedMeanwhile(GuardedBroker):
    """Another client subscribes (a new filter) while a broadcast is being sent: what
    ``add_subscription`` does between the broadcast's awaits."""

    async def _topic_filtering(self, session: Session, topic: str, action: Action) -> bool:
        if action == Action.RECEIVE and "mjbot/v1/t1/late" not in self._subscriptions:
            self._subscriptions["mjbot/v1/t1/late"] = []
        return await super()._topic_filtering(session, topic, action)


async def test_a_broadcast_reaches_every_subscriber_when_a_subscription_is_made_meanwhile(
        ) -> None:
    """Two referee clients read seat 0's messages through two filters; a subscription is
    made while the first message is sent: both get it (before: "dictionary changed size
    during iteration" ended the broadcast after the first filter)."""
    seat_secrets = SeatSecrets.generate(["t1"])
    up = seat_topic("t1", 0, "up")
    exact: list[str] = []
    wildcard: list[str] = []
    async with _broker(seat_secrets, _SubscribedMeanwhile) as url:
        readers = [await _counting(url, seat_secrets, up, exact, "exact"),
                   await _counting(url, seat_secrets, "mjbot/v1/t1/seat/+/up", wildcard,
                                   "wildcard")]
        host, port = host_port(url, 1883)
        async with aiomqtt.Client(host, port, username=seat_user("t1", 0),
                                  password=seat_secrets.secret("t1", 0)) as seat:
            for _ in range(3):
                await seat.publish(up, "hello", qos=1)
        await _settled(exact)
        await _settled(wildcard)
        for task in readers:
            await _stop(task)
    assert (len(exact), len(wildcard)) == (3, 3)


@pytest.mark.usefixtures("frozen")
async def test_each_message_the_referee_sends_a_seat_lets_it_publish_one_more() -> None:
    """Seat 0 spends its burst; the referee's user sends it 50 messages; seat 0 then
    publishes 50 more and all pass, on the same connection (before: the burst was all it
    got): an instant bot answers every ask whatever the pace, a flooder gets no more than
    it is sent."""
    seat_secrets = SeatSecrets.generate(["t1"])
    up, down = seat_topic("t1", 0, "up"), seat_topic("t1", 0, "down")
    got: list[str] = []
    async with _broker(seat_secrets) as url:
        host, port = host_port(url, 1883)
        counting = await _counting(url, seat_secrets, up, got)
        async with aiomqtt.Client(host, port, username=seat_user("t1", 0),
                                  password=seat_secrets.secret("t1", 0), identifier="seat0",
                                  max_queued_outgoing_messages=10_000) as seat:
            await seat.subscribe(down, qos=1)
            for _ in range(int(SEAT_PUBLISH_BURST)):
                await seat.publish(up, "x", qos=0)
            await _settled(got)
            spent = len(got)
            async with aiomqtt.Client(host, port, username=REFEREE_USER,
                                      password=seat_secrets.referee) as referee:
                for _ in range(50):
                    await referee.publish(down, "ask", qos=1)
            messages = aiter(seat.messages)
            for _ in range(50):
                await asyncio.wait_for(anext(messages), 10)
            for _ in range(50):
                await seat.publish(up, "answer", qos=1)
            await _settled(got)
        await _stop(counting)
    assert spent == SEAT_PUBLISH_BURST
    assert len(got) == SEAT_PUBLISH_BURST + 50
