"""The troubles a soak puts tables through: a transport that drops and delays, hostile
WebSocket and MQTT clients, wills and retained messages, slow-to-parse frames and half-open
connections."""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import aiomqtt
import numpy as np

from arena.platforms.olympiad.access import SeatSecrets
from arena.platforms.olympiad.referee import Referee
from arena.platforms.olympiad.soak.corpus import (
    connect_packet,
    hostile_payloads,
    slow_parse_payloads,
)
from protocols.olympiad import (
    Act,
    Join,
)
from protocols.olympiad_transport import (
    REFEREE_USER,
    ConnectionLost,
    host_port,
    presence_topic,
    referee_topic,
    seat_topic,
    seat_user,
)
from protocols.olympiad_ws import WsClient


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


JOIN_REFUSED = frozenset({"forbidden", "too_many_joins"})
"""How a hostile join is refused: ``forbidden``, or ``too_many_joins`` when it meets the
address's join limit first (the chaos's own seats rejoin from the same address); neither
tells anything of the table."""


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
            kind, text = "ws deep JSON or a huge number", payload
            expect = frozenset({"malformed_json"})
        elif choice == 0:
            kind, text, expect = "ws join, no token", Join(
                name="hostile", table=table, seat=seat).to_json(), JOIN_REFUSED
        elif choice == 1:
            target = (seat + 1) % 4 if table == tables[0] and seat == 1 else seat
            kind, text, expect = "ws join, another seat's secret", Join(
                name="hostile", table=table, seat=target, token=known).to_json(), JOIN_REFUSED
        elif choice == 2:
            kind, text, expect = "ws act, guessed id", Act(
                id=f"{table}-0-{step}-{seat}", kind="pass").to_json(), frozenset({"not_joined"})
        else:
            kind, text, expect = "ws join, unknown table", Join(
                name="hostile", table="nowhere", seat=seat, token=known).to_json(), \
                JOIN_REFUSED
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
              and answers[0].get("code") in expect and answers[0].get("seq") == 0)
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
