"""``mjbot bench soak``: Olympiad tables under trouble must play exactly the undisturbed games.

Twenty tables (``--quick``: four), one game each, seed ``--seed``: most over WebSocket,
the rest over MQTT through a real mosquitto configured by the referee (password file
and ACL), which is restarted once mid-run.  Seat 0 of every table is our agent
(deterministic: a work budget, no clock), seats 1-3 answer safely (pass, or discard
the drawn tile).  Every seat's connection is a :class:`ChaosTransport` (seeded per
table and seat): it drops the connection at random (the message in flight is lost),
delivers duplicates of received messages late (after later ones), and sends acts twice
and old acts again after newer ones.  Now and then a seat's bot is killed and
restarted from nothing (a takeover with its secret: the old connection is told
``replaced``).  A hostile client keeps trying the attacks of issue 14 on both
transports: joins without or with another seat's secret, acts with guessed ask ids
before joining, unknown tables, deep JSON and 5,000-digit numbers; anonymous and
wrong-password broker logins; a seat's user subscribing to everything, publishing forged
joins and acts on another seat's topic, deep JSON and huge numbers on its own, and
leaving last wills on another seat's topics (a retained fake ``end`` on its ``down``: a
seat that took it would stop, and its table would not match).  Strangers also send frames
that are slow to check (:func:`slow_parse_payloads`) and open broker connections that
half-close before their CONNECT or go silent past their keepalive.

Checked: every table's record equals the undisturbed run's (the same seed over
WebSocket with no trouble), no violation (no ask timed out, nothing applied twice),
every hostile attempt refused.  Prints a table of the figures (``--json``: JSON);
exits 1 if any check fails.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import secrets
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiomqtt
import numpy as np

from arena.platforms.olympiad.access import SeatSecrets
from arena.platforms.olympiad.config import RefereeConfig
from arena.platforms.olympiad.match import local_mosquitto, mosquitto_binary, run_match, serving
from arena.platforms.olympiad.referee import Referee
from arena.platforms.olympiad.table_session import GameSummary
from bot.logging import configure_logging
from bot.olympiad_client import AgentPlayer
from protocols.olympiad import Act, Ask, Join
from protocols.olympiad_codec import safest_act
from protocols.olympiad_mqtt import MqttClient
from protocols.olympiad_session import SeatPlayer, SessionReport, play_seat
from protocols.olympiad_transport import (
    REFEREE_USER,
    ClientTransport,
    ConnectionLost,
    free_port,
    host_port,
    presence_topic,
    referee_topic,
    seat_topic,
    seat_user,
)
from protocols.olympiad_ws import WsClient

DECISION_MS = 30_000
"""Long enough that no reconnect, restart or broker restart makes an ask time out."""
WORK_BUDGET = 3_000


class SafePlayer:
    """Pass when allowed, else discard the drawn tile: deterministic and instant."""

    def __init__(self) -> None:
        self.drawn: str | None = None
        self.seat = -1

    async def on_message(self, msg: Any, text: str) -> Act | None:
        kind = getattr(msg, "type", "")
        if kind == "welcome":
            self.seat = msg.seat
        elif kind == "draw":
            self.drawn = msg.tile if msg.seat == self.seat else None
        elif isinstance(msg, Ask):
            return safest_act(msg, self.drawn)
        return None

    async def close(self) -> None:
        return None


@dataclass
class Trouble:
    disconnects: int = 0
    late_duplicates_down: int = 0
    duplicate_acts_up: int = 0
    old_acts_resent_up: int = 0
    restarts: int = 0
    broker_restarts: int = 0


class ChaosTransport:
    """A client transport that misbehaves, seeded: drops, late duplicates, repeated acts."""

    def __init__(self, inner: ClientTransport, rng: np.random.Generator, trouble: Trouble,
                 p_drop: float = 0.01, p_dup: float = 0.03) -> None:
        self.inner, self.rng, self.trouble = inner, rng, trouble
        self.p_drop, self.p_dup = p_drop, p_dup
        self.late: list[list[Any]] = []
        self.acts: list[str] = []

    async def connect(self) -> None:
        await self.inner.connect()

    async def send(self, text: str) -> None:
        await self.inner.send(text)
        if '"type":"act"' not in text:
            return
        if self.rng.random() < self.p_dup:
            await self.inner.send(text)
            self.trouble.duplicate_acts_up += 1
        if self.acts and self.rng.random() < self.p_dup:
            await self.inner.send(self.acts[int(self.rng.integers(len(self.acts)))])
            self.trouble.old_acts_resent_up += 1
        self.acts.append(text)

    async def recv(self) -> str:
        for item in self.late:
            item[0] -= 1
        due = next((item for item in self.late if item[0] < 0), None)
        if due is not None:
            self.late.remove(due)
            self.trouble.late_duplicates_down += 1
            return str(due[1])
        text = await self.inner.recv()
        roll = self.rng.random()
        if roll < self.p_drop:
            await self.inner.close()
            self.trouble.disconnects += 1
            raise ConnectionLost("chaos: connection dropped with a message in flight")
        if roll < self.p_drop + self.p_dup:
            self.late.append([int(self.rng.integers(1, 5)), text])
        return text

    async def close(self) -> None:
        await self.inner.close()

    def describe(self) -> str:
        return f"chaos over {self.inner.describe()}"


# ---------------------------------------------------------------- hostile clients
def hostile_payloads() -> list[str]:
    """Texts that used to end a receive loop (issue 24): deep arrays and objects, integers
    of 5,000 digits where a number or a seat goes, and a text over the message limit.
    The referee answers each with ``malformed_json``; a frame over the limit closes a
    WebSocket, a packet over it disconnects an MQTT client at the broker."""
    digits = "9" * 5000
    return ["[" * 60_000,
            '{"a":' * 10_000 + "1" + "}" * 10_000,
            '{"v":1,"type":"act","id":"x","kind":"pass","n":' + digits + "}",
            '{"v":1,"type":"join","name":"x","table":"t1","seat":' + digits + "}",
            digits,
            "[" * 100_000]


def slow_parse_payloads(size: int = 60_000) -> list[str]:
    """Texts of ``size`` characters that a regex depth scan takes quadratic time on: 17
    ``[`` and an unterminated string of ``\\"``, of backslashes, of quotes and escapes
    mixed (once, one such frame held the referee's loop half a minute).  Each is refused
    as ``malformed_json`` (too deep) in about the time ``json.loads`` takes on a flat
    string of the same size."""
    head = "[" * 17 + '"'
    return [head + '\\"' * ((size - len(head)) // 2),
            head + "\\" * (size - len(head)),
            ("[" * 17 + '"\\"' * size)[:size]]


@dataclass
class Attacks:
    tried: Counter[str] = field(default_factory=Counter)
    refused: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)

    def note(self, kind: str, refused: bool, detail: str = "") -> None:
        self.tried[kind] += 1
        if refused:
            self.refused[kind] += 1
        else:
            self.failures.append(f"{kind}: {detail}")


async def hostile_ws(url: str, referee: Referee, attacks: Attacks, rng: np.random.Generator,
                     done: asyncio.Event) -> None:
    tables = list(referee.tables)
    known = referee.secrets.secret(tables[0], 1)  # a player who knows its own seat's secret
    while not done.is_set():
        table = tables[int(rng.integers(len(tables)))]
        seat = int(rng.integers(4))
        step = int(rng.integers(1, 40))
        choice = int(rng.integers(5))
        if choice == 4:
            payload = hostile_payloads()[int(rng.integers(len(hostile_payloads()) - 1))]
            kind, text, expect = "ws deep JSON or a huge number", payload, "malformed_json"
        elif choice == 0:
            kind, text, expect = "ws join, no token", Join(
                name="hostile", table=table, seat=seat).to_json(), "forbidden"
        elif choice == 1:
            target = (seat + 1) % 4 if table == tables[0] and seat == 1 else seat
            kind, text, expect = "ws join, another seat's secret", Join(
                name="hostile", table=table, seat=target, token=known).to_json(), "forbidden"
        elif choice == 2:
            kind, text, expect = "ws act, guessed id", Act(
                id=f"{table}-0-{step}-{seat}", kind="pass").to_json(), "not_joined"
        else:
            kind, text, expect = "ws join, unknown table", Join(
                name="hostile", table="nowhere", seat=seat, token=known).to_json(), \
                "forbidden"
        client = WsClient(url)
        answers: list[dict[str, Any]] = []
        try:
            await client.connect()
            await client.send(text)
            with contextlib.suppress(TimeoutError, ConnectionLost):  # closed after a fatal one
                async with asyncio.timeout(0.3):
                    while True:
                        answers.append(json.loads(await client.recv()))
        except ConnectionLost as exc:
            attacks.note(kind, False, f"connection: {exc}")
            continue
        finally:
            await client.close()
        ok = (len(answers) == 1 and answers[0].get("type") == "error"
              and answers[0].get("code") == expect and answers[0].get("seq") == 0)
        attacks.note(kind, ok, json.dumps(answers)[:200])
        await asyncio.sleep(0.05)


async def hostile_slow_parse_ws(url: str, attacks: Attacks, rng: np.random.Generator,
                                done: asyncio.Event) -> None:
    """A stranger sends texts that are slow to check (:func:`slow_parse_payloads`): each
    must be answered ``malformed_json``, as fast as any other bad frame."""
    payloads = slow_parse_payloads()
    while not done.is_set():
        kind = "ws frame slow to check (unterminated escapes)"
        client = WsClient(url)
        try:
            await client.connect()
            await client.send(payloads[int(rng.integers(len(payloads)))])
            async with asyncio.timeout(5):
                answer = json.loads(await client.recv())
            attacks.note(kind, answer.get("code") == "malformed_json", json.dumps(answer)[:200])
        except (ConnectionLost, TimeoutError) as exc:
            attacks.note(kind, False, f"no answer: {exc!r}")
        finally:
            await client.close()
        await asyncio.sleep(0.2)


async def hostile_half_open_mqtt(url: str, attacks: Attacks, done: asyncio.Event) -> None:
    """Connections to the broker that half-close before their CONNECT, or connect with a
    keepalive of 1 s and then say nothing: the broker must close each (within a few
    seconds), not keep it (CLOSE-WAIT, idle sockets)."""
    host, port = host_port(url, 1883)
    while not done.is_set():
        for kind, keepalive in (("mqtt half-closed before its CONNECT", None),
                                ("mqtt client silent past 1.5 keepalives", 1)):
            try:
                reader, writer = await asyncio.open_connection(host, port)
            except OSError:
                continue  # the broker is being restarted
            try:
                if keepalive is None:
                    writer.write_eof()
                else:
                    writer.write(connect_packet(f"idle-{secrets.token_hex(4)}", "nobody",
                                                "nothing", keepalive=keepalive))
                closed = False
                with contextlib.suppress(TimeoutError, ConnectionError):
                    async with asyncio.timeout(5):
                        while await reader.read(4096):
                            pass
                        closed = True
                attacks.note(kind, closed, "still open after 5 s")
            finally:
                writer.transport.abort()
        await asyncio.sleep(0.5)


def _mqtt_str(data: bytes) -> bytes:
    return len(data).to_bytes(2, "big") + data


def mqtt_varint(n: int) -> bytes:
    """MQTT's variable-length integer (a packet's remaining length)."""
    out = bytearray()
    while True:
        byte, n = n % 128, n // 128
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def connect_packet(client_id: str, user: str, password: str,
                   will: tuple[str, bytes, bool] | None = None, keepalive: int = 60) -> bytes:
    """An MQTT 3.1.1 CONNECT (clean session) written by hand, with a QoS 1 last will
    (topic, payload, retained) when given: what a hostile client sends."""
    flags = 0x02 | 0x80 | 0x40
    payload = _mqtt_str(client_id.encode())
    if will is not None:
        flags |= 0x04 | 0x08 | (0x20 if will[2] else 0)
        payload += _mqtt_str(will[0].encode()) + _mqtt_str(will[1])
    payload += _mqtt_str(user.encode()) + _mqtt_str(password.encode())
    body = _mqtt_str(b"MQTT") + bytes([4, flags]) + keepalive.to_bytes(2, "big") + payload
    return b"\x10" + mqtt_varint(len(body)) + body


def publish_header(topic: str, payload_bytes: int) -> bytes:
    """A QoS 0 PUBLISH's fixed header and topic, announcing ``payload_bytes`` to follow."""
    name = _mqtt_str(topic.encode())
    return b"\x30" + mqtt_varint(len(name) + payload_bytes) + name


async def raw_connect(url: str, user: str, password: str,
                      will: tuple[str, bytes, bool] | None = None
                      ) -> tuple[int, asyncio.StreamReader, asyncio.StreamWriter]:
    """Connect by hand: (the CONNACK's return code, or -1 if the broker hung up; the
    connection).  ``writer.transport.abort()`` then drops it without a DISCONNECT, so
    the broker sends the will."""
    host, port = host_port(url, 1883)
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(connect_packet(f"raw-{secrets.token_hex(6)}", user, password, will))
    await writer.drain()
    try:
        connack = await asyncio.wait_for(reader.readexactly(4), 5)
    except (asyncio.IncompleteReadError, ConnectionError, TimeoutError):
        return -1, reader, writer
    return connack[3], reader, writer


def fake_end(table: str) -> str:
    """A referee's ``end`` nobody sent, far ahead of any seq: what a will could plant."""
    return json.dumps({"v": 1, "type": "end", "table": table, "seq": 1_000_000_000, "game": 0,
                       "result": "draw", "scores": [0, 0, 0, 0], "hands": [[], [], [], []],
                       "more": False})


async def hostile_wills(url: str, user: str, password: str, table: str, victim: int,
                        marker: str) -> None:
    """``user`` leaves last wills on seat ``victim``'s topics (a retained fake ``end`` on
    its ``down``, a join naming ``marker`` on its ``up``, deep JSON on a ``²`` seat), each
    then dropping its connection so the broker would send it."""
    wills = [(seat_topic(table, victim, "down"), fake_end(table).encode(), True),
             (seat_topic(table, victim, "up"), Join(name=marker, table=table, seat=victim,
                                                    token="hostile-" + "x" * 20)
              .to_json().encode(), False),
             (f"mjbot/v1/{table}/seat/\u00b2/up", b"[" * 1000, False)]
    for will in wills:
        with contextlib.suppress(OSError):
            _, _, writer = await raw_connect(url, user, password, will)
            writer.transport.abort()


async def hostile_mqtt(url: str, seat_secrets: SeatSecrets, table: str, attacks: Attacks,
                       read_by_referee: list[str], done: asyncio.Event) -> None:
    """Seat 2's user (it knows its own secret) and strangers try the broker."""
    host, port = host_port(url, 1883)
    forged: list[str] = []
    while not done.is_set():
        for kind, user, password in (("mqtt login, anonymous", None, None),
                                     ("mqtt login, wrong password", seat_user(table, 2),
                                      "wrong-password-0123456789"),
                                     ("mqtt login, a seat's secret as the referee",
                                      REFEREE_USER, seat_secrets.secret(table, 2))):
            try:
                async with aiomqtt.Client(host, port, username=user, password=password,
                                          timeout=5):
                    attacks.note(kind, False, "connected")
            except aiomqtt.MqttError:
                attacks.note(kind, True)
        received: list[str] = []
        try:
            async with aiomqtt.Client(host, port, username=seat_user(table, 2),
                                      password=seat_secrets.secret(table, 2), timeout=5) as spy:
                await spy.subscribe("#", qos=1)
                await spy.subscribe(seat_topic(table, 0, "down"), qos=1)
                for payload in hostile_payloads()[:-1]:  # on its own topic: malformed_json
                    await spy.publish(seat_topic(table, 2, "up"), payload, qos=1)
                marker = f"hostile-{len(forged)}w"
                forged.append(marker)
                await hostile_wills(url, seat_user(table, 2), seat_secrets.secret(table, 2),
                                    table, 0, marker)
                for seat in (0, 1, 3):
                    marker = f"hostile-{len(forged)}"
                    forged += [marker + "a", marker + "j"]
                    await spy.publish(seat_topic(table, seat, "up"), Act(
                        id=marker + "a", kind="pass").to_json(), qos=1)
                    await spy.publish(seat_topic(table, seat, "up"), Join(
                        name=marker + "j", table=table, seat=seat,
                        token="hostile-" + "x" * 20).to_json(), qos=1)

                async def listen(spy: aiomqtt.Client = spy, into: list[str] = received) -> None:
                    async for message in spy.messages:
                        into.append(str(message.topic))

                listening = asyncio.create_task(listen())
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(done.wait(), 1.0)
                listening.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await listening
        except aiomqtt.MqttError:
            continue  # the broker is being restarted
        own = {seat_topic(table, 2, "down"), presence_topic(table, 2), referee_topic(table)}
        foreign = sorted(set(received) - own)

        attacks.note("mqtt subscribe '#' and another seat's down", not foreign, str(foreign))
    read = "\n".join(read_by_referee)
    for marker in forged:
        attacks.note("mqtt publish on another seat's up", marker not in read, marker)


# ---------------------------------------------------------------- the runs
def _player(seat: int) -> SeatPlayer:
    return AgentPlayer(deterministic=True, work_budget=WORK_BUDGET) if seat == 0 else SafePlayer()


def _records(directory: Path) -> dict[str, list[str]]:
    out = {}
    for path in sorted(directory.glob("*.jsonl")):
        lines = path.read_text().splitlines()
        header = json.loads(lines[0])
        header.pop("seats", None)
        out[path.name] = [json.dumps(header, sort_keys=True), *lines[1:]]
    return out


async def _troubled_tables(referee: Referee, url: str, kind: str, seed: int, trouble: Trouble,
                           restart_at: dict[tuple[str, int], int]) -> list[SessionReport]:
    """Every seat of ``referee``'s tables through a chaos transport; a seat listed in
    ``restart_at`` is killed once it has sent that many acts and started again.  The
    report of each seat's last bot."""
    reports: list[SessionReport] = []

    def start(table: str, seat: int, index: int) -> tuple[asyncio.Task[SessionReport],
                                                         SessionReport, ClientTransport]:
        secret = referee.secrets.secret(table, seat)
        inner: ClientTransport = (WsClient(url) if kind == "ws"
                                  else MqttClient(url, table, seat, secret))
        rng = np.random.default_rng([seed, index, seat, len(reports)])
        transport = ChaosTransport(inner, rng, trouble)
        report = SessionReport()
        reports.append(report)
        task = asyncio.create_task(play_seat(transport, _player(seat), table=table, seat=seat,
                                             report=report, secret=secret, max_backoff=0.5))
        return task, report, transport

    async def seat_life(table: str, seat: int, index: int) -> SessionReport:
        task, report, transport = start(table, seat, index)
        limit = restart_at.get((table, seat))
        if limit is not None:
            while report.acts < limit and not task.done():
                await asyncio.sleep(0.01)
            if not task.done():
                task.cancel()  # the bot's process is gone: no state survives
                with contextlib.suppress(asyncio.CancelledError):
                    await task
                if kind == "mqtt":
                    await transport.close()
                trouble.restarts += 1
                task, report, transport = start(table, seat, index)
        return await task

    return list(await asyncio.gather(*(seat_life(t, s, k) for k, t in enumerate(referee.tables)
                                       for s in range(4))))


@dataclass
class SoakResult:
    tables: int
    ws_tables: int
    mqtt_tables: int
    games_identical: int
    violations: int
    seconds: float
    trouble: Trouble
    attacks: Attacks
    unfinished: list[str]
    """Seats whose last bot did not play its game to the end (a fatal error, say)."""
    mismatched: list[str]
    referee_errors: Counter[str] = field(default_factory=Counter)
    """The errors the referees sent, by code (``replaced``: takeovers of live connections)."""

    @property
    def ok(self) -> bool:
        return (self.games_identical == self.tables and self.violations == 0
                and not self.attacks.failures and not self.unfinished
                and sum(self.attacks.tried.values()) > 0)


async def soak(seed: int, ws_tables: int, mqtt_tables: int, workdir: Path) -> SoakResult:
    tables = ws_tables + mqtt_tables
    calm = workdir / "undisturbed"
    calm.mkdir()
    await run_match(RefereeConfig(tables=max(ws_tables, mqtt_tables), seed=seed,
                                  decision_ms=DECISION_MS, records=calm), "ws",
                    players=lambda table, seat: _player(seat))
    expected = _records(calm)
    trouble, attacks = Trouble(), Attacks()
    rng = np.random.default_rng([seed, 14])
    started = time.perf_counter()
    summaries: list[GameSummary] = []
    reports: list[SessionReport] = []
    referees: list[Referee] = []
    ws_dir, mqtt_dir = workdir / "ws", workdir / "mqtt"
    ws_dir.mkdir()
    mqtt_dir.mkdir()

    def restarts(ids: list[str]) -> dict[tuple[str, int], int]:
        chosen = rng.choice(len(ids) * 4, size=max(1, len(ids) // 2), replace=False)
        return {(ids[int(c) // 4], int(c) % 4): int(rng.integers(2, 12)) for c in chosen}

    async def ws_part() -> None:
        referee = Referee(RefereeConfig(tables=ws_tables, seed=seed, decision_ms=DECISION_MS,
                                        records=ws_dir))
        referees.append(referee)
        done = asyncio.Event()
        async with serving(referee, "ws") as url:
            game = asyncio.create_task(referee.run())
            hostile = asyncio.create_task(hostile_ws(url, referee, attacks, rng, done))
            slow = asyncio.create_task(hostile_slow_parse_ws(url, attacks, rng, done))
            reports.extend(await _troubled_tables(referee, url, "ws", seed, trouble,
                                                  restarts(list(referee.tables))))
            summaries.extend(await game)
            done.set()
            await hostile
            await slow

    async def mqtt_part() -> None:
        if not mqtt_tables:
            return
        config = RefereeConfig(tables=mqtt_tables, seed=seed, decision_ms=DECISION_MS,
                               records=mqtt_dir)
        seat_secrets = SeatSecrets.generate(config.table_ids())
        referee = Referee(config, seat_secrets=seat_secrets)
        referees.append(referee)
        read: list[str] = []
        original = referee.on_text

        async def spying(link: Any, text: str | bytes) -> None:
            read.append(text.decode(errors="replace") if isinstance(text, bytes) else text)
            await original(link, text)

        referee.on_text = spying  # type: ignore[method-assign]
        port = free_port()
        url = f"mqtt://127.0.0.1:{port}"
        broker = local_mosquitto(port, workdir, seat_secrets, config.table_ids())
        broker.__enter__()
        done = asyncio.Event()
        try:
            async with serving(referee, "mqtt", broker=url) as served:
                game = asyncio.create_task(referee.run())
                hostile = asyncio.create_task(hostile_mqtt(served, seat_secrets, "t1",
                                                           attacks, read, done))
                half_open = asyncio.create_task(hostile_half_open_mqtt(served, attacks, done))
                seats = asyncio.create_task(_troubled_tables(
                    referee, served, "mqtt", seed + 1, trouble, restarts(config.table_ids())))
                while sum(ch.seq for s in referee.tables.values() for ch in s.seats) < 200 \
                        and not seats.done():
                    await asyncio.sleep(0.01)
                broker.__exit__(None, None, None)  # the broker goes down mid-game ...
                await asyncio.sleep(0.5)
                broker = local_mosquitto(port, workdir, seat_secrets, config.table_ids())
                broker.__enter__()  # ... and comes back on the same port
                trouble.broker_restarts += 1
                reports.extend(await seats)
                summaries.extend(await game)
                done.set()
                await hostile
                await half_open
        finally:
            broker.__exit__(None, None, None)

    await asyncio.gather(ws_part(), mqtt_part())
    seconds = time.perf_counter() - started
    got = {**{f"ws/{k}": v for k, v in _records(ws_dir).items()},
           **{f"mqtt/{k}": v for k, v in _records(mqtt_dir).items()}}
    mismatched = [name for name, lines in got.items() if expected.get(name.split("/")[1]) != lines]
    unfinished = [f"{r.fatal or 'no end'}" for r in reports if r.fatal or r.games != 1]
    errors = sum((r.error_counts for r in referees), Counter[str]())
    return SoakResult(tables, ws_tables, mqtt_tables, len(got) - len(mismatched),
                      sum(len(s.violations) for s in summaries), seconds, trouble, attacks,
                      unfinished, mismatched, errors)


def render(r: SoakResult) -> str:
    t = r.trouble
    lines = [
        f"soak: {r.tables} tables ({r.ws_tables} WebSocket, {r.mqtt_tables} MQTT via mosquitto "
        f"with ACL), {r.seconds:.1f} s",
        f"{'records identical to the undisturbed run':<44} {r.games_identical}/{r.tables}",
        f"{'violations (timeouts, illegal answers)':<44} {r.violations}",
        f"{'connections dropped (message in flight lost)':<44} {t.disconnects}",
        f"{'late duplicates delivered to seats':<44} {t.late_duplicates_down}",
        f"{'acts sent twice':<44} {t.duplicate_acts_up}",
        f"{'old acts sent again after newer ones':<44} {t.old_acts_resent_up}",
        f"{'bots killed and restarted (takeovers)':<44} {t.restarts}",
        f"{'broker restarts':<44} {t.broker_restarts}",
        f"{'errors the referees sent, by code':<44} "
        f"{', '.join(f'{c} {n}' for c, n in sorted(r.referee_errors.items()))}",
        "hostile attempts (refused/tried):",
        *(f"  {kind:<50} {r.attacks.refused[kind]}/{n}" for kind, n in
          sorted(r.attacks.tried.items())),
        f"{'hostile attempts refused, total':<44} {sum(r.attacks.refused.values())}/"
        f"{sum(r.attacks.tried.values())}",
    ]
    if r.mismatched:
        lines.append(f"records that differ: {', '.join(r.mismatched)}")
    if r.attacks.failures:
        lines.append(f"attacks not refused: {r.attacks.failures[:5]}")
    if r.unfinished:
        lines.append(f"seats that did not finish: {r.unfinished[:5]}")
    lines.append("OK" if r.ok else "FAILED")
    return "\n".join(lines)


def to_json(r: SoakResult) -> dict[str, Any]:
    return {"tables": r.tables, "ws_tables": r.ws_tables, "mqtt_tables": r.mqtt_tables,
            "records_identical": r.games_identical, "violations": r.violations,
            "seconds": round(r.seconds, 1), "trouble": vars(r.trouble),
            "attacks_tried": dict(r.attacks.tried), "attacks_refused": dict(r.attacks.refused),
            "attack_failures": r.attacks.failures, "mismatched": r.mismatched,
            "unfinished": r.unfinished, "referee_errors": dict(r.referee_errors),
            "ok": r.ok}


def run_soak(seed: int, ws_tables: int, mqtt_tables: int) -> SoakResult:
    with tempfile.TemporaryDirectory() as tmp:
        return asyncio.run(soak(seed, ws_tables, mqtt_tables, Path(tmp)))


def main(args: argparse.Namespace) -> int:
    configure_logging("ERROR")
    mqtt = (1 if args.quick else 6) if mosquitto_binary() is not None else 0
    if not mqtt:
        print("mosquitto is not installed: the MQTT tables are left out", file=sys.stderr)
    result = run_soak(args.seed, 3 if args.quick else 14, mqtt)
    print(json.dumps(to_json(result)) if args.json else render(result))
    return 0 if result.ok else 1

