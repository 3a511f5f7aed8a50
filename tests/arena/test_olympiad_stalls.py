"""No stranger or seat holds the referee's event loop or another table.

- one frame of ``[`` and an unterminated string of ``\\"`` parsed in linear time: the loop's
  longest stall while such frames arrive stays within a few times the stall while flat
  strings of the same size arrive (both transports);
- re-joins cost the resumer: a seat that joins again and again gets at most the current
  game replayed, is held to a join rate, and another table's gaps stay those of a calm run;
  under ``--policy forfeit`` no innocent seat forfeits;
- the embedded broker limits what a seat publishes per seat, not per client id, and keeps
  one connection per seat;
- the embedded broker lets go of connections that never CONNECT, go idle or half-close,
  and backs off when it cannot accept.

Every bound is relative to a calm run in the same test, never seconds of a machine.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiomqtt
import pytest
import websockets
from support.arena import olympiad_config as _config

from arena.platforms.olympiad.access import SeatSecrets, amqtt_plugins
from arena.platforms.olympiad.broker_guards import (
    SEAT_PUBLISH_BURST,
    SEAT_PUBLISHES_PER_SECOND,
    GuardedBroker,
)
from arena.platforms.olympiad.match import local_mosquitto, mosquitto_binary, serving
from arena.platforms.olympiad.referee import Referee
from game.events import Penalized
from protocols.olympiad import Join
from protocols.olympiad_mqtt import embedded_broker
from protocols.olympiad_transport import REFEREE_USER, free_port, host_port, seat_topic, seat_user

BROKERS = ["embedded", pytest.param("mosquitto", marks=pytest.mark.skipif(
    mosquitto_binary() is None, reason="mosquitto is not installed"))]
PROBE_SLEEP = 0.001
"""The stall probe's step: stalls shorter than two of them are the timer's, not a parser's."""
FRAME = 60_000
"""A frame just under the message limit (64 KB)."""


def unterminated_escapes(size: int) -> str:
    head = "[" * 17 + '"'
    return head + '\\"' * ((size - len(head)) // 2)


class StallProbe:
    """A task that sleeps 1 ms at a time and keeps the longest time it overslept: how long
    something else held the event loop."""

    def __init__(self) -> None:
        self.longest = 0.0
        self._task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        while True:
            before = time.perf_counter()
            await asyncio.sleep(PROBE_SLEEP)
            self.longest = max(self.longest, time.perf_counter() - before - PROBE_SLEEP)

    def __enter__(self) -> StallProbe:
        self._task = asyncio.create_task(self._run())
        return self

    def __exit__(self, *exc: object) -> None:
        assert self._task is not None
        self._task.cancel()


@contextlib.asynccontextmanager
async def _served(referee: Referee, transport: str, tmp: Path) -> AsyncIterator[str]:
    """The referee over WebSocket, MQTT through the embedded broker, or a mosquitto."""
    if transport != "mosquitto":
        async with serving(referee, "mqtt" if transport == "embedded" else "ws") as url:
            yield url
        return
    port = free_port()
    with local_mosquitto(port, tmp, referee.secrets, list(referee.tables)):
        async with serving(referee, "mqtt", broker=f"mqtt://127.0.0.1:{port}") as url:
            yield url


# ---------------------------------------------------------------- 2. linear parsing
async def _longest_stall(referee: Referee, url: str, transport: str, payload: str,
                         frames: int) -> float:
    """The loop's longest stall while ``frames`` copies of ``payload`` from seat 0 of t1
    are read and answered (over WebSocket on its connection, over MQTT on its topic)."""
    errors = referee.error_counts["malformed_json"]
    with StallProbe() as probe:
        if transport == "ws":
            async with websockets.connect(url, compression=None, max_size=None) as ws:
                await ws.send(Join(name="p0", table="t1", seat=0, session="s0",
                                   token=referee.secrets.secret("t1", 0)).to_json())
                while json.loads(await ws.recv())["type"] != "welcome":
                    pass
                for _ in range(frames):
                    await ws.send(payload)
                    answer = json.loads(await asyncio.wait_for(ws.recv(), 120))
                    assert answer["code"] == "malformed_json", answer
        else:
            host, port = host_port(url, 1883)
            async with aiomqtt.Client(host, port, username=seat_user("t1", 0),
                                      password=referee.secrets.secret("t1", 0)) as seat:
                for _ in range(frames):
                    await seat.publish(seat_topic("t1", 0, "up"), payload, qos=1)
                async with asyncio.timeout(120):
                    while referee.error_counts["malformed_json"] < errors + frames:
                        await asyncio.sleep(0.005)
    return probe.longest


@pytest.mark.parametrize("transport", ["ws", *BROKERS])
async def test_no_frame_holds_the_event_loop_longer_than_a_flat_one(
        tmp_path: Path, transport: str) -> None:
    """Frames of 60 KB that used to take the parser half a minute each (``[`` and an
    unterminated string of ``\\"``) stall the referee's loop at most a few times as long as
    flat strings of the same size do (before: 17 s for one frame, every table frozen)."""
    referee = Referee(_config(tmp_path, tables=2), error_burst=1e9)
    async with _served(referee, transport, tmp_path) as url:
        flat = json.dumps("a" * (FRAME - 2))
        await _longest_stall(referee, url, transport, flat, 2)  # warm up
        calm = await _longest_stall(referee, url, transport, flat, 6)
        hostile = await _longest_stall(referee, url, transport, unterminated_escapes(FRAME), 6)
    print(f"{transport}: the loop's longest stall, flat frames {calm * 1000:.1f} ms, "
          f"hostile frames {hostile * 1000:.1f} ms")
    assert hostile <= max(5 * calm, 2 * PROBE_SLEEP), (calm, hostile)


# ---------------------------------------------------------------- 3. re-joins
class Timed:
    """A seat's player that answers safely and notes when each message arrived."""

    def __init__(self) -> None:
        from arena.platforms.olympiad.soak.corpus import SafePlayer

        self.inner = SafePlayer()
        self.arrivals: list[float] = []

    async def on_message(self, msg: Any, text: str) -> Any:
        self.arrivals.append(time.perf_counter())
        return await self.inner.on_message(msg, text)

    async def close(self) -> None:
        return None


class Rejoiner:
    """A client transport that, once its seat has acted ``after`` times, sends its own join
    again ``times`` times on the same connection (same session, no ``resume_from``): each
    asked the referee to replay the seat's whole log."""

    def __init__(self, inner: Any, after: int, times: int) -> None:
        self.inner, self.after, self.times = inner, after, times
        self.join = ""
        self.acts = 0
        self.sent = 0

    async def connect(self) -> None:
        await self.inner.connect()

    async def send(self, text: str) -> None:
        await self.inner.send(text)
        if '"type":"join"' in text and not self.join:
            self.join = json.dumps({k: v for k, v in json.loads(text).items()
                                    if k != "resume_from"})
        if '"type":"act"' in text:
            self.acts += 1
            if self.acts == self.after:
                for _ in range(self.times):
                    await self.inner.send(self.join)
                    self.sent += 1

    async def recv(self) -> str:
        text: str = await self.inner.recv()
        return text

    async def close(self) -> None:
        await self.inner.close()

    def describe(self) -> str:
        return f"rejoining {self.inner.describe()}"


async def _two_tables(tmp: Path, transport: str, rejoins: int
                      ) -> tuple[float, list[Any], Rejoiner | None, Referee]:
    """Tables t1 and t2 play 8 games each with instant seats under ``--policy forfeit``;
    t1's seat 0 re-joins ``rejoins`` times once it has acted 100 times (its log then holds
    several games).  (The longest gap between two messages any seat of t2 got, every
    game summary, the rejoining transport, the referee.)"""
    from arena.platforms.olympiad.match import transport_for
    from protocols.olympiad_session import play_seat

    referee = Referee(_config(tmp, tables=2, games=8, decision_ms=2000, policy="forfeit"))
    players = {(t, s): Timed() for t in ("t1", "t2") for s in range(4)}
    attacker: Rejoiner | None = None
    async with _served(referee, transport, tmp) as url:
        seats = []
        for (table, seat), player in players.items():
            secret = referee.secrets.secret(table, seat)
            inner = transport_for("ws" if transport == "ws" else "mqtt", url, table, seat,
                                  secret)
            if (table, seat) == ("t1", 0) and rejoins:
                inner = attacker = Rejoiner(inner, 100, rejoins)
            seats.append(play_seat(inner, player, table=table, seat=seat, secret=secret,
                                   max_backoff=0.5))
        game = asyncio.create_task(referee.run())
        await asyncio.wait_for(asyncio.gather(*seats), 600)
        summaries = await game
    gaps = [b - a for s in range(4) for a, b in itertools.pairwise(players[("t2", s)].arrivals)]
    return max(gaps), summaries, attacker, referee


STALL_FLOOR = 0.5
"""A gap of t2 this short is no stall, whatever a calm run's was: the old code's were a second
or more (WebSocket 1,146 ms), and a busy machine alone gives a few hundred ms."""


@pytest.mark.parametrize("transport", ["ws", "embedded"])
async def test_a_flood_of_rejoins_costs_the_rejoiner_not_another_table(
        tmp_path: Path, transport: str) -> None:
    """t1's seat 0 sends its join 150 times mid-match.  Before: each replayed its whole
    log (thousands of messages), table t2 stalled for a second or more (30 times a calm
    run's longest gap) and, over MQTT, innocent seats forfeited.  Now: no innocent seat
    forfeits (seat 0 of t1 may: it pays for its own flood), most joins are refused
    ``too_many_joins``, and t2's longest gap stays within 5 times a calm run's (or within
    :data:`STALL_FLOOR`, the jitter of a machine running other tests beside it).  The machine
    is shared, so a calm run and a flooded one are compared twice before the gap counts
    against the referee (the old code failed every time)."""
    ratios = []
    for attempt in range(2):
        calm_gap, calm, _, _ = await _two_tables(tmp_path / f"calm{attempt}", transport, 0)
        assert not [v for s in calm for v in s.violations]
        gap, summaries, attacker, referee = await _two_tables(tmp_path / f"flood{attempt}",
                                                              transport, 150)
        assert attacker is not None and attacker.sent == 150
        innocent = [(s.table, v) for s in summaries for v in s.violations
                    if (s.table, v.seat) != ("t1", 0)]
        assert innocent == []
        forfeits = [s for s in summaries if isinstance(s.result.ending, Penalized)]
        assert all(s.table == "t1" and s.result.ending.seat == 0 for s in forfeits), forfeits
        assert referee.error_counts["too_many_joins"] > 0
        print(f"{transport}: t2 longest gap calm {calm_gap * 1000:.0f} ms, "
              f"flood {gap * 1000:.0f} ms")
        ratios.append(gap / max(calm_gap, STALL_FLOOR / 5))
        if ratios[-1] <= 5:
            break
    assert min(ratios) <= 5, ratios


# ---------------------------------------------------------------- 4. limits per seat
@contextlib.asynccontextmanager
async def _guarded(seat_secrets: SeatSecrets, broker_class: Any = GuardedBroker
                   ) -> AsyncIterator[str]:
    """The embedded broker with the referee's rules for table t1, and no referee."""
    async with embedded_broker(plugins=amqtt_plugins(seat_secrets, ["t1"]),
                               broker_class=broker_class) as url:
        yield url


async def _count(url: str, seat_secrets: SeatSecrets, topic: str, into: list[str],
                 ready: asyncio.Event) -> None:
    """Every message on ``topic``, as the referee's user reads it."""
    host, port = host_port(url, 1883)
    async with aiomqtt.Client(host, port, username=REFEREE_USER,
                              password=seat_secrets.referee) as referee:
        await referee.subscribe(topic, qos=0)
        ready.set()
        async for message in referee.messages:
            into.append(str(message.topic))


def _seat_client(url: str, seat_secrets: SeatSecrets, seat: int, identifier: str,
                 **kw: Any) -> aiomqtt.Client:
    host, port = host_port(url, 1883)
    return aiomqtt.Client(host, port, username=seat_user("t1", seat), identifier=identifier,
                          password=seat_secrets.secret("t1", seat), **kw)


async def test_a_seat_publishes_within_one_rate_whatever_its_client_ids() -> None:
    """Seat 0's user connects ten times, each with its own client id, and publishes 300
    messages on each: the broker passes on at most one seat's burst and rate (before:
    each client id had its own, ten bursts)."""
    seat_secrets = SeatSecrets.generate(["t1"])
    async with _guarded(seat_secrets) as url:
        got: list[str] = []
        ready = asyncio.Event()
        counting = asyncio.create_task(_count(url, seat_secrets, seat_topic("t1", 0, "up"),
                                              got, ready))
        await ready.wait()
        started = time.monotonic()
        cut = 0
        for n in range(10):
            try:
                async with _seat_client(url, seat_secrets, 0, f"flooder-{n}",
                                        max_queued_outgoing_messages=10_000) as flooder:
                    for _ in range(300):
                        await flooder.publish(seat_topic("t1", 0, "up"), "x", qos=0)
                    await asyncio.sleep(0.1)
            except aiomqtt.MqttError:
                cut += 1
        await asyncio.sleep(0.5)
        elapsed = time.monotonic() - started
        counting.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await counting
    allowed = SEAT_PUBLISH_BURST + SEAT_PUBLISHES_PER_SECOND * elapsed
    assert 0 < len(got) <= allowed + 50, (len(got), allowed, cut)
    # that the broker closes the connections beyond the rate is counted exactly in
    # test_olympiad_limits.py; here a QoS 0 flooder may leave before it notices (cut)


async def test_a_seat_has_one_connection_and_the_newest_replaces_the_old() -> None:
    """A second connection of seat 0's user (another client id) ends the first; the new one
    works (before: both stayed, each with its own rate)."""
    seat_secrets = SeatSecrets.generate(["t1"])
    async with _guarded(seat_secrets) as url, \
            _seat_client(url, seat_secrets, 0, "first") as first:
        await first.subscribe(seat_topic("t1", 0, "down"), qos=1)

        async def read_until_dropped() -> None:
            with contextlib.suppress(aiomqtt.MqttError):
                async for _ in first.messages:
                    pass

        dropped = asyncio.create_task(read_until_dropped())
        async with _seat_client(url, seat_secrets, 0, "second") as second:
            await asyncio.wait_for(dropped, 10)  # the first connection is gone
            await second.publish(seat_topic("t1", 0, "up"), "still here", qos=1)


@pytest.mark.parametrize("clean_session", [True, False])
async def test_no_client_takes_over_another_seats_client_id(clean_session: bool) -> None:
    """Seat 1's user (its right secret), and a stranger with a wrong password, connect with
    seat 0's client id: both are refused, and seat 0's client stays connected and keeps its
    subscription (before: seat 1 took the session over, ``session_present``, and a
    stranger's clean-session CONNECT deleted seat 0's subscription before it was refused)."""
    seat_secrets = SeatSecrets.generate(["t1"])
    host, port = host_port("mqtt://x", 1883)
    async with _guarded(seat_secrets) as url:
        host, port = host_port(url, 1883)
        async with _seat_client(url, seat_secrets, 0, "seat0-id") as seat0:
            await seat0.subscribe(seat_topic("t1", 0, "down"), qos=1)
            for user, password in ((seat_user("t1", 1), seat_secrets.secret("t1", 1)),
                                   (seat_user("t1", 0), "wrong-password-0123456789")):
                with pytest.raises(aiomqtt.MqttError):
                    async with aiomqtt.Client(host, port, username=user, password=password,
                                              identifier="seat0-id",
                                              clean_session=clean_session):
                        pass
            async with aiomqtt.Client(host, port, username=REFEREE_USER,
                                      password=seat_secrets.referee) as referee:
                await referee.publish(seat_topic("t1", 0, "down"), "for seat 0", qos=1)
            message = await asyncio.wait_for(anext(aiter(seat0.messages)), 10)
            assert message.payload == b"for seat 0"


# ---------------------------------------------------------------- 5. the broker lets go
def _connect(user: str, password: str, keepalive: int) -> bytes:
    """An MQTT 3.1.1 CONNECT (clean session, no will) with the given keepalive."""
    def field(data: bytes) -> bytes:
        return len(data).to_bytes(2, "big") + data

    payload = field(f"raw-{time.monotonic_ns()}".encode()) + field(user.encode()) \
        + field(password.encode())
    body = field(b"MQTT") + bytes([4, 0x02 | 0x80 | 0x40]) + keepalive.to_bytes(2, "big") \
        + payload
    return b"\x10" + bytes([len(body)]) + body


async def _closed_within(reader: asyncio.StreamReader, seconds: float) -> bool:
    """Whether the other side closes the connection within ``seconds`` (what it sends
    meanwhile is read and dropped)."""
    try:
        async with asyncio.timeout(seconds):
            while await reader.read(4096):
                pass
    except TimeoutError:
        return False
    except ConnectionError:
        pass
    return True


class QuickGuardedBroker(GuardedBroker):
    connect_deadline = 0.3


@contextlib.asynccontextmanager
async def _broker_for(kind: str, seat_secrets: SeatSecrets, tmp: Path) -> AsyncIterator[str]:
    if kind == "embedded":
        async with _guarded(seat_secrets, QuickGuardedBroker) as url:
            yield url
        return
    port = free_port()
    with local_mosquitto(port, tmp, seat_secrets, ["t1"]):
        yield f"mqtt://127.0.0.1:{port}"


async def test_a_connection_that_never_sends_its_connect_is_closed() -> None:
    """Twenty connections that send nothing, or one byte of a CONNECT: the embedded broker
    closes each at its CONNECT deadline (before: they stayed open for good)."""
    seat_secrets = SeatSecrets.generate(["t1"])
    async with _guarded(seat_secrets, QuickGuardedBroker) as url:
        host, port = host_port(url, 1883)
        opened = [await asyncio.open_connection(host, port) for _ in range(20)]
        for _, writer in opened[::2]:
            writer.write(b"\x10")
        closed = await asyncio.gather(*(
            _closed_within(reader, 20 * QuickGuardedBroker.connect_deadline)
            for reader, _ in opened))
        for _, writer in opened:
            writer.transport.abort()
    assert all(closed), closed.count(False)


@pytest.mark.parametrize("broker", BROKERS)
async def test_an_idle_client_is_closed_after_one_and_a_half_keepalives(
        tmp_path: Path, broker: str) -> None:
    """A seat's client connects with a keepalive of 1 s and then says nothing, not even a
    PINGREQ: the broker closes it after 1.5 keepalives (before, the embedded one: never)."""
    seat_secrets = SeatSecrets.generate(["t1"])
    async with _broker_for(broker, seat_secrets, tmp_path) as url:
        host, port = host_port(url, 1883)
        reader, writer = await asyncio.open_connection(host, port)
        writer.write(_connect(seat_user("t1", 0), seat_secrets.secret("t1", 0), 1))
        connack = await asyncio.wait_for(reader.readexactly(4), 10)
        assert connack[3] == 0
        started = time.monotonic()
        closed = await _closed_within(reader, 10 * 1.5)
        waited = time.monotonic() - started
        writer.transport.abort()
    assert closed and waited >= 1.0, waited


@pytest.mark.parametrize("broker", BROKERS)
@pytest.mark.parametrize("connected", [False, True])
async def test_a_half_closed_connection_is_closed(tmp_path: Path, broker: str,
                                                  connected: bool) -> None:
    """A client shuts its side (before or after its CONNECT): the broker closes its own
    rather than leaving the socket in CLOSE-WAIT (before, the embedded one kept every
    connection that half-closed before its CONNECT)."""
    seat_secrets = SeatSecrets.generate(["t1"])
    async with _broker_for(broker, seat_secrets, tmp_path) as url:
        host, port = host_port(url, 1883)
        connections = []
        for _ in range(20):
            reader, writer = await asyncio.open_connection(host, port)
            if connected:
                writer.write(_connect(seat_user("t1", 0), seat_secrets.secret("t1", 0), 60))
                await asyncio.wait_for(reader.readexactly(4), 10)
            writer.write_eof()
            connections.append((reader, writer))
        closed = await asyncio.gather(*(_closed_within(r, 10) for r, _ in connections))
        for _, writer in connections:
            writer.transport.abort()
    assert all(closed), closed.count(False)


_FEW_FILES_BROKER = """
import asyncio, json, resource, sys, time
from arena.platforms.olympiad.broker_guards import GuardedBroker
from arena.platforms.olympiad.access import SeatSecrets, amqtt_plugins
from protocols.olympiad_mqtt import embedded_broker

resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))
seat_secrets = SeatSecrets.from_json(sys.argv[1])

async def main():
    loop = asyncio.get_running_loop()
    async with embedded_broker(plugins=amqtt_plugins(seat_secrets, ["t1"]),
                               broker_class=GuardedBroker) as url:
        print(url, flush=True)
        await loop.run_in_executor(None, sys.stdin.readline)  # the attacker has left
        cpu, wall = time.process_time(), time.monotonic()
        await asyncio.sleep(1.0)
        quiet = (time.process_time() - cpu) / (time.monotonic() - wall)
        print(url, flush=True)
        await loop.run_in_executor(None, sys.stdin.readline)  # a seat has connected
        print(json.dumps({"quiet_cpu": quiet}), flush=True)

asyncio.run(main())
"""


async def test_out_of_file_descriptors_the_broker_backs_off_and_recovers(
        tmp_path: Path) -> None:
    """The broker runs with 64 file descriptors; 150 connections are opened at once and
    then closed.  Meanwhile its accept loop fails and waits (the failures are counted and
    logged a few times, not once per try), it spends little CPU once the attacker has
    left, and a seat connects afterwards."""
    import sys

    seat_secrets = SeatSecrets.generate(["t1"])
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-c", _FEW_FILES_BROKER, seat_secrets.to_json(),
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE)
    assert child.stdin is not None and child.stdout is not None and child.stderr is not None
    errors = asyncio.create_task(child.stderr.read())  # drained all along: a full pipe
    try:                                                 # would stop the broker
        async with asyncio.timeout(240):
            url = (await child.stdout.readline()).decode().strip()
            host, port = host_port(url, 1883)
            tries = await asyncio.gather(*(
                asyncio.wait_for(asyncio.open_connection(host, port), 5) for _ in range(150)),
                return_exceptions=True)
            opened = [t for t in tries if isinstance(t, tuple)]
            await asyncio.sleep(1.0)  # the broker runs out of descriptors and waits
            for _, writer in opened:
                writer.transport.abort()
            await asyncio.sleep(0.5)
            child.stdin.write(b"left\n")
            await child.stdout.readline()
            async with _seat_client(url, seat_secrets, 0, "after-the-storm") as seat:
                await seat.publish(seat_topic("t1", 0, "up"), "hello", qos=1)
            child.stdin.write(b"connected\n")
            report = json.loads(await child.stdout.readline())
            child.stdin.close()
            await child.wait()
            stderr = (await errors).decode(errors="replace")
    finally:
        if child.returncode is None:
            child.kill()
        errors.cancel()
    failures = [line for line in stderr.splitlines() if "cannot accept a connection" in line]
    print(report, len(stderr.splitlines()), failures[-1:])
    assert failures, stderr[-2000:]
    assert len(stderr.splitlines()) <= 60, stderr[-3000:]
    assert report["quiet_cpu"] < 0.5, report
