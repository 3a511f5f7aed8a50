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
every hostile attempt refused.

Then, one after another on tables of their own (:data:`SCENARIOS`), the troubles of a
tournament, each judged the same way (the troubled tables play their undisturbed games):

- ``walls``: a secret seed; seat 0 searches seeds for its own deal and finds none (the same
  search finds a given seed), sees the first record mid-match at mode 0600 without the
  seed, and checks the revealed seed against the commitment of every ``welcome`` and the
  header as ``mjbot referee verify`` does; the revealed seed plays the same games again;
- ``rejoin``: seat 0 of t1 re-joins in bursts all match long, with and without
  ``resume_from``, over WebSocket and the embedded broker, under ``--policy forfeit``
  with 2 s to answer: t2 plays its calm games and no innocent seat times out;
- ``client_ids``: seat 0's user connects to the embedded broker with 20 client ids (from a
  process of its own) and floods its topic: the referee reads at most one seat's allowance,
  t2 plays its calm games, no innocent seat times out;
- ``timing``: the threshold classifier of the gap after a discard against who could claim,
  without the claim-window floor (the control: it reads the gap) and with it (chance);
- ``honest``: four instant seats (WebSocket, the embedded broker) and the example program
  through ``mjbot wrap``'s player play without a drop, a reconnect or a timeout.

Prints the figures and a table with a row per trouble (what, pass, result; ``--json``:
JSON); exits 1 if any row fails.  ``--quick``: fewer tables and games (:data:`QUICK`).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import itertools
import json
import logging
import math
import secrets
import stat
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiomqtt
import numpy as np

from arena.platforms.olympiad.access import SeatSecrets
from arena.platforms.olympiad.broker_guards import (
    SEAT_PUBLISH_BURST,
    SEAT_PUBLISHES_PER_SECOND,
)
from arena.platforms.olympiad.config import JOIN_BURST, RefereeConfig
from arena.platforms.olympiad.match import (
    local_mosquitto,
    mosquitto_binary,
    run_match,
    serving,
    transport_for,
)
from arena.platforms.olympiad.program import ProgramPlayer
from arena.platforms.olympiad.referee import Referee
from arena.platforms.olympiad.table_session import GameSummary
from arena.platforms.olympiad.walls import (
    RECORD_MODE_PLAYING,
    RECORD_MODE_REVEALED,
    WallSeed,
    table_wall,
    verify_records,
)
from bot.logging import configure_logging
from bot.olympiad_client import AgentPlayer
from game.events import Dealt
from game.taiwan import TaiwanTable
from game.tiles import is_flower
from protocols.olympiad import (
    MAX_NAME_CHARS,
    Act,
    Ask,
    Deal,
    DiscardMsg,
    End,
    Join,
    Welcome,
    tile_index,
    tile_str,
)
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


HOSTILE_NAMES = {
    "p\x00": "NUL", "\u202eevil": "a right-to-left override (U+202E)",
    "\x1b[31mred": "an ESC colour sequence", "\x1b]0;title\x07": "an ESC title sequence",
    "a\u200db": "a zero-width joiner", "\ufeffname": "a byte-order mark",
    "x" * 65: "65 letters", "\ufdfa" * 4: "72 letters after NFKC", " lead": "a leading space",
    "\U000e0041tag": "a tag character"}
"""Names a join may not carry, and what is wrong with each: ``bad_name``, or
``invalid_message`` for one longer than a join's name may be."""


@dataclass(frozen=True)
class JoinCase:
    """One frame of the join corpus: who sends it (``seat``: the connection that holds seat 0
    of table t1; ``stranger``: a connection that holds no seat) and what it must get back
    first (``welcome``, or an error's code)."""

    what: str
    who: str
    frame: str
    expect: str


def join_corpus(token: Callable[[int], str], name: str = "p0", session: str = "s0"
                ) -> list[list[JoinCase]]:
    """Joins that must be refused, each list to be sent in order to a referee whose table
    t1 has all four seats joined once (seat 0 as ``name``, session ``session``; ``token``:
    a seat's secret): names with control, invisible or bidi characters, another name, another
    seat, another seat's secret, a bad ``resume_from``; a session taken over; and a seat
    re-joining again and again with and without ``resume_from`` (the first
    ``JOIN_BURST - 1`` are welcomed, then ``too_many_joins``)."""
    def join(**kw: Any) -> str:
        fields = {"v": 1, "type": "join", "name": name, "table": "t1", "seat": 0,
                  "token": token(0), "session": session, **kw}
        return json.dumps({k: v for k, v in fields.items() if v is not None})

    cases = [[JoinCase(f"a name with {why}", "seat", join(name=bad),
                       "invalid_message" if len(bad) > MAX_NAME_CHARS else "bad_name")]
             for bad, why in HOSTILE_NAMES.items()]
    full_width = "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in name)
    cases += [
        [JoinCase("another name for a seat whose name is fixed", "seat", join(name="mallory"),
                  "name_fixed")],
        [JoinCase("the fixed name in full-width letters (the same after NFKC)", "seat",
                  join(name=full_width), "welcome")],
        [JoinCase("another seat, on a connection that holds seat 0", "seat",
                  join(seat=1, token=token(1)), "wrong_seat")],
        [JoinCase("seat 0 with seat 1's secret", "stranger", join(token=token(1)),
                  "forbidden")],
        [JoinCase("resume_from below 0", "seat",
                  join(resume_from=-1),
                  "invalid_message")],
        [JoinCase("a new session takes the seat over", "stranger", join(session=session + "b"),
                  "welcome"),
         JoinCase("the session taken over joins again", "seat", join(), "replaced")],
        [JoinCase(f"re-join {k + 1} (resume_from {resume})", "seat", join(resume_from=resume),
                  "welcome" if k < JOIN_BURST - 1 else "too_many_joins")
         for k, resume in enumerate([None, 0, 1, 10**6] * 3)],
    ]
    return cases


CLIENT_ID_HELD = "seat0-client"
"""The client id seat 0 of table t1 holds while the client-id corpus is sent."""


def client_id_corpus(user: Callable[[int], tuple[str, str]], referee: tuple[str, str]
                     ) -> list[tuple[str, bytes, int]]:
    """CONNECTs the embedded broker must refuse while seat 0 of t1 is connected as
    :data:`CLIENT_ID_HELD`: (what, the packet, the CONNACK return code expected: 2 the
    identifier rejected, 5 not authorised).  ``user(seat)``: that seat's user and password;
    ``referee``: the referee's."""
    (u0, _), (u1, p1) = user(0), user(1)
    wrong = "wrong-password-0123456789"
    return [
        ("seat 1's user with seat 0's client id", connect_packet(CLIENT_ID_HELD, u1, p1), 2),
        ("seat 1's user with seat 0's client id, persistent session",
         connect_packet(CLIENT_ID_HELD, u1, p1, clean=False), 2),
        ("seat 0's user, a wrong password, seat 0's client id",
         connect_packet(CLIENT_ID_HELD, u0, wrong), 5),
        ("no user name, seat 0's client id", connect_packet(CLIENT_ID_HELD, None, None), 5),
        ("an empty client id with a persistent session", connect_packet("", u1, p1, clean=False),
         2),
        ("the referee's user with a seat's secret", connect_packet("r", referee[0], p1), 5),
        ("seat 1's user with the referee's password", connect_packet("r", u1, referee[1]), 5),
    ]


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


def connect_packet(client_id: str, user: str | None, password: str | None,
                   will: tuple[str, bytes, bool] | None = None, keepalive: int = 60,
                   clean: bool = True) -> bytes:
    """An MQTT 3.1.1 CONNECT written by hand (a clean session unless ``clean`` is false;
    no user name or password where None), with a QoS 1 last will (topic, payload,
    retained) when given: what a hostile client sends."""
    flags = (0x02 if clean else 0) | (0x80 if user is not None else 0) \
        | (0x40 if password is not None else 0)
    payload = _mqtt_str(client_id.encode())
    if will is not None:
        flags |= 0x04 | 0x08 | (0x20 if will[2] else 0)
        payload += _mqtt_str(will[0].encode()) + _mqtt_str(will[1])
    for text in (user, password):
        if text is not None:
            payload += _mqtt_str(text.encode())
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


# ---------------------------------------------------------------- the scenarios of issue 38
@dataclass
class Scenario:
    """One trouble beyond the chaos run: what it does, what came of it, whether it passed."""

    what: str
    result: str
    ok: bool
    figures: dict[str, Any] = field(default_factory=dict)


class WatchingPlayer(SafePlayer):
    """:class:`SafePlayer` that notes when each message arrived (``seen``: time.monotonic,
    message) and, with ``think``, sleeps that long before answering an ask that offers more
    than ``pass`` and is not its turn to discard (a claim it could make)."""

    def __init__(self, think: float = 0.0) -> None:
        super().__init__()
        self.think = think
        self.seen: list[tuple[float, Any]] = []

    async def on_message(self, msg: Any, text: str) -> Act | None:
        self.seen.append((time.monotonic(), msg))
        if self.think and isinstance(msg, Ask):
            kinds = {o.kind for o in msg.options}
            if kinds - {"pass"} and "discard" not in kinds:
                await asyncio.sleep(self.think)
        return await super().on_message(msg, text)

    def messages(self, kind: type) -> list[Any]:
        return [m for _, m in self.seen if isinstance(m, kind)]


Seen = Sequence[tuple[float, Any]]


def longest_gap(seen: Seen) -> float:
    """The longest time between two messages a seat got in a row (0 with fewer than two)."""
    return max((b[0] - a[0] for a, b in itertools.pairwise(seen)), default=0.0)


# ------------------------------------------------ 6. the timing attack (its classifier)
def gaps_after_discards(seen: Seen) -> list[tuple[float, bool | None]]:
    """Per discard a seat saw, in order: the gap to the next message that is not its own
    ask, and whether its own next message was an ask with a real choice (None: no ask)."""
    out: list[tuple[float, bool | None]] = []
    for i, (at, msg) in enumerate(seen):
        if not isinstance(msg, DiscardMsg):
            continue
        choice: bool | None = None
        gap = math.inf
        for later, nxt in seen[i + 1:]:
            if isinstance(nxt, Ask):
                if choice is None:
                    choice = any(o.kind != "pass" for o in nxt.options)
                continue
            gap = later - at
            break
        out.append((gap, choice))
    return out


def claim_samples(seen: Mapping[int, Seen]) -> list[tuple[float, bool]]:
    """What the attacker at seat 0 learns per discard: (the gap it saw, whether a seat other
    than the discarder could claim the tile), from every seat's ``seen``."""
    discarders = [m.seat for _, m in seen[0] if isinstance(m, DiscardMsg)]
    gaps = gaps_after_discards(seen[0])
    others = {s: gaps_after_discards(seen[s]) for s in (1, 2, 3)}
    out = []
    for k, (gap, _) in enumerate(gaps):
        claimable = any(others[s][k][1] for s in (1, 2, 3) if s != discarders[k])
        if math.isfinite(gap):
            out.append((gap, bool(claimable)))
    return out


def binomial_tail(successes: int, n: int, p: float) -> float:
    """P(X >= successes) for X ~ Binomial(n, p)."""
    return sum(math.comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(successes, n + 1))


def threshold_attack(samples: Sequence[tuple[float, bool]]) -> tuple[int, int, float, float]:
    """The classifier that once read 112 of 112 discards: "someone could claim" when the gap
    is above a threshold, the threshold fitted on the first half of the samples (the best it
    can do) and scored on the second.  (Right, scored, the commoner answer's rate there, the
    one-sided binomial p-value of doing that well by always guessing the commoner answer.)"""
    half = len(samples) // 2
    train, test = samples[:half], samples[half:]
    if not test:
        return 0, 0, 1.0, 1.0

    def right(threshold: float, rows: Sequence[tuple[float, bool]]) -> int:
        return sum((gap > threshold) == label for gap, label in rows)

    candidates = [-math.inf, *sorted({g for g, _ in train})]
    best = max(candidates, key=lambda t: right(t, train))
    hits = right(best, test)
    positive = sum(label for _, label in test) / len(test)
    base = max(positive, 1 - positive)
    return hits, len(test), base, binomial_tail(hits, len(test), base)


# ------------------------------------------------ tables the scenarios play
@dataclass
class TableRun:
    """One run of a scenario's tables: its referee, summaries, seats and records."""

    referee: Referee
    summaries: list[GameSummary]
    players: dict[tuple[str, int], SeatPlayer]
    reports: dict[tuple[str, int], SessionReport]
    records: dict[str, list[str]]
    seconds: float

    def watching(self, table: str, seat: int) -> WatchingPlayer:
        """The seat's player, a :class:`WatchingPlayer` (the default)."""
        player = self.players[(table, seat)]
        if not isinstance(player, WatchingPlayer):
            raise TypeError(f"{table} seat {seat} was played by {type(player).__name__}")
        return player

    def seen(self, table: str) -> dict[int, list[tuple[float, Any]]]:
        """What each seat of ``table`` got, and when."""
        return {s: self.watching(table, s).seen for s in range(4)}

    def gap(self, table: str) -> float:
        """The longest gap between two messages any seat of ``table`` got."""
        return max(longest_gap(seen) for seen in self.seen(table).values())

    def violations(self, but: tuple[str, int] | None = None) -> list[str]:
        """Every ask that timed out or got an illegal answer, except at seat ``but``."""
        return [f"{s.table} seat {v.seat} game {s.game}: {v.kind.value}" for s in self.summaries
                for v in s.violations if (s.table, v.seat) != but]

    def drops(self) -> int:
        return sum(r.reconnects for r in self.reports.values())


Wrap = Callable[[str, int, ClientTransport], ClientTransport]
During = Callable[[Referee, str, asyncio.Event], Coroutine[Any, Any, None]]


async def play_tables(config: RefereeConfig, via: str, *,
                      players: Callable[[str, int], SeatPlayer] | None = None,
                      wrap: Wrap | None = None, during: During | None = None,
                      walls: WallSeed | None = None) -> TableRun:
    """Play ``config``'s tables over ``via`` (``ws``; ``embedded``: MQTT through the embedded
    broker), every seat by ``players`` (default :class:`WatchingPlayer`), its transport
    through ``wrap`` when given; ``during(referee, url, over)`` runs beside the games until
    they are ``over``; ``walls``: every table's (a revealed seed, to play its games again)."""
    referee = Referee(config)
    if walls is not None:
        for session in referee.tables.values():
            session.walls = walls
    make = players or (lambda table, seat: WatchingPlayer())
    seated = {(t, s): make(t, s) for t in referee.tables for s in range(4)}
    reports = {key: SessionReport() for key in seated}
    kind = "ws" if via == "ws" else "mqtt"
    started = time.perf_counter()
    async with serving(referee, kind) as url:
        seats = []
        for (table, seat), player in seated.items():
            secret = referee.secrets.secret(table, seat)
            transport = transport_for(kind, url, table, seat, secret)
            if wrap is not None:
                transport = wrap(table, seat, transport)
            seats.append(play_seat(transport, player, table=table, seat=seat, name=f"p{seat}",
                                   report=reports[(table, seat)], secret=secret,
                                   max_backoff=0.5))
        over = asyncio.Event()
        beside = asyncio.create_task(during(referee, url, over)) if during else None
        game = asyncio.create_task(referee.run())
        try:
            await asyncio.gather(*seats)
            summaries = await game
        finally:
            over.set()
            if beside is not None:
                await beside
    assert config.records is not None
    return TableRun(referee, summaries, seated, reports, _records(config.records),
                    time.perf_counter() - started)


def _fresh(workdir: Path, name: str) -> Path:
    path = workdir / name
    path.mkdir(parents=True)
    return path


# ------------------------------------------------ 1. walls no seat can predict
def dealt_hand(seed: int) -> list[str]:
    """Seat 0's first hand at table t1's first game, had the walls come from ``seed``."""
    table = TaiwanTable(table_wall(seed, 0, 0))
    dealt = next(e for e in table.history if isinstance(e, Dealt) and e.seat == 0)
    return sorted(tile_str(t) for t in dealt.tiles)


SEAT0_DEAL = [i for k in range(4) for i in range(16 * k, 16 * k + 4)]
"""Where seat 0's first sixteen tiles lie in the first game's wall (dealer 0, four at a
time in turn); its flowers are replaced from the back."""


def seed_from_deal(hand: Sequence[str], seeds: range) -> int | None:
    """The attack that found seed 1 in 0.02 s: deal every candidate seed's first wall and
    compare seat 0's hand (a seed whose front tiles seat 0 does not hold is passed over
    without dealing the table)."""
    wanted = sorted(hand)
    held = Counter(tile_index(t) for t in hand)
    for seed in seeds:
        wall = table_wall(seed, 0, 0)
        front = Counter(wall[i] for i in SEAT0_DEAL if not is_flower(wall[i]))
        if front <= held and dealt_hand(seed) == wanted:
            return seed
    return None


async def walls_scenario(workdir: Path, given: int, search: int) -> Scenario:
    """One table, two games, a secret seed: seat 0 looks for it from its own deal among
    ``search`` seeds (the same search finds the given seed ``given % search``), checks the
    first record while the second game is dealt (mode 0600, no seed in it), and after the
    last ``end`` checks the revealed seed against the commitment every ``welcome`` and the
    header carried, as ``mjbot referee verify`` does; the revealed seed then plays the very
    same games again."""
    records = _fresh(workdir, "walls")
    first = records / "t1-game0000.jsonl"
    peeked: dict[str, Any] = {}

    class Peeking(WatchingPlayer):
        async def on_message(self, msg: Any, text: str) -> Act | None:
            if isinstance(msg, Deal) and msg.game == 1 and not peeked:
                peeked["mode"] = stat.S_IMODE(first.stat().st_mode)
                peeked["text"] = first.read_text()
            return await super().on_message(msg, text)

    config = RefereeConfig(tables=1, games=2, seed=None, decision_ms=DECISION_MS, records=records)
    run = await play_tables(config, "ws", players=lambda table, seat: Peeking() if seat == 0
                            else WatchingPlayer())
    seen = {s: run.watching("t1", s) for s in range(4)}
    commitments = {p.messages(Welcome)[0].commitment for p in seen.values()}
    header = json.loads(peeked.get("text", "{}\n").splitlines()[0])
    ends = seen[0].messages(End)
    reveal = ends[-1].walls if ends else None
    commitment = next(iter(commitments)) if len(commitments) == 1 else None
    opened = (reveal is not None and commitment is not None and reveal.opens(commitment)
              and header.get("commitment") == commitment)
    kept_secret = (peeked.get("mode") == RECORD_MODE_PLAYING and header.get("seed") is None
                   and reveal is not None and reveal.seed not in peeked.get("text", ""))
    paths = sorted(records.glob("*.jsonl"))
    verified = verify_records(paths)
    readable = all(stat.S_IMODE(p.stat().st_mode) == RECORD_MODE_REVEALED for p in paths)
    clients = all(r.walls_opened is True for r in run.reports.values())
    hand = seen[0].messages(Deal)[0].hand
    started = time.perf_counter()
    found = seed_from_deal(hand, range(search))
    control = seed_from_deal(dealt_hand(given % search), range(search))
    per_second = 2 * search / (time.perf_counter() - started)
    same = False
    if reveal is not None:
        again = await play_tables(
            dataclasses.replace(config, records=_fresh(workdir, "walls-again")), "ws",
            walls=WallSeed(int(reveal.seed), reveal.salt))
        same = again.records == run.records
    ok = (found is None and control == given % search and opened and kept_secret
          and verified.ok and verified.games == {"t1": 2} and readable and clients and same
          and not run.violations())
    result = (f"secret seed: {'none' if found is None else found} of {search:,} seeds deals "
              f"seat 0's hand (a given seed {given % search}: "
              f"{'found' if control == given % search else 'NOT found'}, {per_second:,.0f} "
              f"seeds/s); commitment {'opens' if opened else 'does NOT open'}; mid-match "
              f"record {oct(peeked.get('mode', 0))}, seed {'absent' if kept_secret else 'SEEN'}; "
              f"verify: {sum(verified.games.values())} games as committed; revealed seed "
              f"replays {'the same' if same else 'OTHER'} games")
    return Scenario("1 walls: seed from a seat's deal, commitment, records", result, ok, {
        "seeds_searched": search, "found_secret": found, "found_given": control,
        "commitment_opens": opened, "mid_match_mode": peeked.get("mode"),
        "mid_match_seed_absent": kept_secret, "verify_problems": verified.problems,
        "verified_games": verified.games, "records_readable_after": readable,
        "clients_opened": clients, "revealed_seed_replays_same_games": same})


# ------------------------------------------------ 3. re-join floods
class RejoinFlood:
    """A client transport that, after every ``every`` acts of its seat, sends its own join
    ``burst`` times again on the same connection: without ``resume_from``, with 1 and with
    the last seq it got, in turn (each once asked the referee to replay the seat's log)."""

    def __init__(self, inner: ClientTransport, every: int, burst: int) -> None:
        self.inner, self.every, self.burst = inner, every, burst
        self.join: dict[str, Any] = {}
        self.acts = self.sent = self.received = self.last_seq = 0

    async def connect(self) -> None:
        await self.inner.connect()

    async def send(self, text: str) -> None:
        await self.inner.send(text)
        if '"type":"join"' in text:
            self.join = json.loads(text)
        if '"type":"act"' not in text or not self.join:
            return
        self.acts += 1
        if self.acts % self.every:
            return
        for _ in range(self.burst):
            join = {k: v for k, v in self.join.items() if k != "resume_from"}
            resume = (None, 1, self.last_seq)[self.sent % 3]
            if resume is not None:
                join["resume_from"] = resume
            await self.inner.send(json.dumps(join))
            self.sent += 1

    async def recv(self) -> str:
        text: str = await self.inner.recv()
        self.received += 1
        with contextlib.suppress(ValueError, AttributeError):
            self.last_seq = max(self.last_seq, int(json.loads(text).get("seq", 0)))
        return text

    async def close(self) -> None:
        await self.inner.close()

    def describe(self) -> str:
        return f"rejoining {self.inner.describe()}"


FLOOD_DECISION_MS = 2000
"""The scenarios with an attacker at the table: short enough that a stalled table times out."""


def flood_config(records: Path, seed: int, games: int) -> RefereeConfig:
    """Two tables under ``--policy forfeit``: an innocent seat that timed out would forfeit."""
    return RefereeConfig(tables=2, games=games, seed=seed, decision_ms=FLOOD_DECISION_MS,
                         policy="forfeit", records=records)


def _innocence(calm: TableRun, troubled: TableRun, attacker: tuple[str, int]
               ) -> tuple[bool, list[str], list[str]]:
    """(Whether every other table played its calm games, their names that did not, the
    violations of seats other than the attacker's)."""
    other = [name for name, lines in calm.records.items() if not name.startswith(attacker[0])
             and troubled.records.get(name) != lines]
    return not other, other, troubled.violations(but=attacker)


async def rejoin_scenario(workdir: Path, via: str, seed: int, games: int, calm: TableRun
                          ) -> Scenario:
    """t1's seat 0 re-joins in bursts all through the match (with and without
    ``resume_from``); t2 must play its calm games, no innocent seat may time out."""
    floods: list[RejoinFlood] = []

    def wrap(table: str, seat: int, inner: ClientTransport) -> ClientTransport:
        if (table, seat) != ("t1", 0):
            return inner
        floods.append(RejoinFlood(inner, every=5, burst=6))
        return floods[-1]

    run = await play_tables(flood_config(_fresh(workdir, f"rejoin-{via}"), seed, games), via,
                            wrap=wrap)
    same, other, innocent = _innocence(calm, run, ("t1", 0))
    joins = sum(f.sent for f in floods)
    refused = run.referee.error_counts["too_many_joins"]
    got = sum(f.received for f in floods)
    calm_got = len(calm.watching("t1", 0).seen)
    own_same = all(run.records.get(n) == lines for n, lines in calm.records.items()
                   if n.startswith("t1"))
    ok = same and not innocent and joins > 0 and refused > 0
    result = (f"{joins} joins ({refused} refused too_many_joins); seat 0 got {got} messages "
              f"(calm {calm_got}); t2 {'plays its calm games' if same else 'CHANGED'}, "
              f"longest gap {run.gap('t2') * 1000:.0f} ms (calm {calm.gap('t2') * 1000:.0f}); "
              f"innocent timeouts {len(innocent)}; t1 "
              f"{'unchanged' if own_same else 'changed (its own cost)'}")
    return Scenario(f"3 re-join flood over {'WebSocket' if via == 'ws' else 'embedded MQTT'}",
                    result, ok, {
                        "joins": joins, "refused_too_many_joins": refused,
                        "messages_to_rejoiner": got, "messages_to_seat_calm": calm_got,
                        "other_tables_identical": same, "changed": other,
                        "innocent_violations": innocent, "rejoiners_table_identical": own_same,
                        "t2_longest_gap_ms": round(run.gap("t2") * 1000),
                        "t2_longest_gap_calm_ms": round(calm.gap("t2") * 1000)})


# ------------------------------------------------ 4. many client ids for one seat
FLOOD_MARK = '{"v":1,"type":"flood"'


async def client_id_flood(url: str, user: str, password: str, topic: str, ids: int,
                          seconds: float) -> Counter[str]:
    """``ids`` connections as ``user``, each with its own client id, publishing on
    ``topic`` (QoS 0, a burst of 100 at a time) for ``seconds``, reconnecting when dropped
    (the broker keeps one connection per seat: each new one ends the one before).  Counts
    ``sent`` and ``dropped`` (connections lost)."""
    host, port = host_port(url, 1883)
    until = time.monotonic() + seconds
    sent: Counter[str] = Counter()

    async def one(k: int) -> None:
        while time.monotonic() < until:
            try:
                async with aiomqtt.Client(host, port, username=user, password=password,
                                          identifier=f"{user}-flood-{k}", timeout=2,
                                          max_queued_outgoing_messages=1000) as client:
                    while time.monotonic() < until:
                        for _ in range(100):
                            await client.publish(topic, f'{FLOOD_MARK},"n":{sent["sent"]}}}')
                            sent["sent"] += 1
                        await asyncio.sleep(0.01)
            except aiomqtt.MqttError:
                sent["dropped"] += 1
                await asyncio.sleep(0.05)

    await asyncio.gather(*(one(k) for k in range(ids)))
    return sent


def flood_process_main() -> None:
    """The flooder's own process (what a seat's machine would do): reads a JSON line of
    :func:`client_id_flood`'s arguments on stdin, prints its counts as JSON."""
    args = json.loads(sys.stdin.readline())
    print(json.dumps(asyncio.run(client_id_flood(**args))))


async def client_id_flood_process(**args: Any) -> Counter[str]:
    """:func:`client_id_flood` in a process of its own, so that its own work does not
    share the referee's event loop (the password goes on stdin, not the command line)."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-c", f"import {__name__} as m; m.flood_process_main()",
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL)
    out, _ = await proc.communicate(json.dumps(args).encode() + b"\n")
    return Counter(json.loads(out or b"{}"))


async def client_id_scenario(workdir: Path, seed: int, games: int, calm: TableRun,
                             ids: int = 20, seconds: float = 2.0) -> Scenario:
    """Over the embedded broker, t1's seat 0 user connects with ``ids`` client ids and
    floods its own topic while its bot plays: the broker passes on one seat's rate (its
    burst, and its rate from the flood's start to the last flood message the referee
    read), t2 plays its calm games and no innocent seat times out."""
    sent: Counter[str] = Counter()
    read = [0]
    flooded = [0.0]
    window = [0.0, 0.0]
    """The flood's start, the last flood message the referee read (time.monotonic)."""

    async def during(referee: Referee, url: str, over: asyncio.Event) -> None:
        original = referee.on_text

        async def counting(link: Any, text: str | bytes) -> None:
            if (text.decode(errors="replace") if isinstance(text, bytes) else text
                    ).startswith(FLOOD_MARK):
                read[0] += 1
                window[1] = time.monotonic()
            await original(link, text)

        referee.on_text = counting  # type: ignore[method-assign]
        await referee.tables["t1"].all_joined.wait()
        started = window[0] = time.monotonic()
        sent.update(await client_id_flood_process(
            url=url, user=seat_user("t1", 0), password=referee.secrets.secret("t1", 0),
            topic=seat_topic("t1", 0, "up"), ids=ids, seconds=seconds))
        flooded[0] = time.monotonic() - started

    run = await play_tables(flood_config(_fresh(workdir, "client-ids"), seed, games),
                            "embedded", during=during)
    same, other, innocent = _innocence(calm, run, ("t1", 0))
    allowed = SEAT_PUBLISH_BURST + SEAT_PUBLISHES_PER_SECOND * max(0.0, window[1] - window[0])
    limited = 0 < read[0] <= allowed < sent["sent"]
    ok = same and not innocent and limited
    result = (f"{ids} client ids sent {sent['sent']} in {flooded[0]:.1f} s, the referee read "
              f"{read[0]} (a seat's allowance {allowed:.0f}); t2 "
              f"{'plays its calm games' if same else 'CHANGED'}, longest gap "
              f"{run.gap('t2') * 1000:.0f} ms (calm {calm.gap('t2') * 1000:.0f}); innocent "
              f"timeouts {len(innocent)}")
    return Scenario("4 one seat, many client ids (embedded broker)", result, ok, {
        "client_ids": ids, "sent": sent["sent"], "connections_dropped": sent["dropped"],
        "read_by_referee": read[0], "seat_allowance": round(allowed),
        "flood_seconds": round(flooded[0], 2),
        "read_window_seconds": round(max(0.0, window[1] - window[0]), 2),
        "other_tables_identical": same,
        "changed": other, "innocent_violations": innocent,
        "t2_longest_gap_ms": round(run.gap("t2") * 1000),
        "t2_longest_gap_calm_ms": round(calm.gap("t2") * 1000)})


# ------------------------------------------------ 6. the timing channel
TIMING_THINK = 0.020
"""The opponents' thought over a claim they could make: what the gap once showed."""
TIMING_P = 1e-3
"""The classifier reads the gap when always guessing the commoner answer would do as well
with at most this probability (one-sided binomial)."""
TIMING_RARER = 8
"""Scored discards of the rarer kind (claimable or not) the control needs to show the attack
(at some seeds nearly every discard is of one kind)."""


async def timing_scenario(workdir: Path, seed: int, games: int, floor_ms: int) -> Scenario:
    """Seat 0 (instant) times every discard while seats 1-3 think 20 ms over a claim they
    could make: without a floor the classifier reads who could claim (the control: the
    attack works here), with ``floor_ms`` it does no better than chance, and the floored
    table plays the same games.  The shortest gap under the floor is reported, not judged
    (it is measured at the seat, the floor at the referee)."""
    def players(table: str, seat: int) -> SeatPlayer:
        return WatchingPlayer(think=0.0 if seat == 0 else TIMING_THINK)

    runs = {}
    for floor in (0, floor_ms):
        config = RefereeConfig(tables=1, games=games, seed=seed, decision_ms=DECISION_MS,
                               round_floor_ms=floor, records=_fresh(workdir, f"timing-{floor}"))
        runs[floor] = await play_tables(config, "ws", players=players)
    attacks = {floor: threshold_attack(claim_samples(run.seen("t1")))
               for floor, run in runs.items()}
    hits0, n0, base0, p0 = attacks[0]
    hits, n, base, p = attacks[floor_ms]
    samples = claim_samples(runs[floor_ms].seen("t1"))
    shortest = min((g for g, _ in samples), default=0.0)
    same = runs[0].records == runs[floor_ms].records
    control = claim_samples(runs[0].seen("t1"))
    scored = control[len(control) // 2:]
    rarer = min(sum(label for _, label in scored), sum(not label for _, label in scored))
    ok = p0 < TIMING_P and p > TIMING_P and same and rarer >= TIMING_RARER
    result = (f"no floor: {hits0}/{n0} read (chance {base0:.0%}, p={p0:.1g}); floor "
              f"{floor_ms} ms: {hits}/{n} (chance {base:.0%}, p={p:.2g}), shortest gap "
              f"{shortest * 1000:.0f} ms; {'the same' if same else 'OTHER'} games")
    if rarer < TIMING_RARER:
        result += (f"; too few discards of the rarer kind to judge ({rarer}): play more games "
                   "or another seed")
    return Scenario("6 timing: gap after a discard vs who could claim", result, ok, {
        "floor_ms": floor_ms, "control": dict(zip(("right", "scored", "chance", "p"), attacks[0],
                                                  strict=True)),
        "floored": dict(zip(("right", "scored", "chance", "p"), attacks[floor_ms], strict=True)),
        "shortest_gap_ms": round(shortest * 1000, 1), "same_games": same,
        "rarer_scored": rarer})


# ------------------------------------------------ 7. honest fast bots
EXAMPLE_BOT = "examples/olympiad_simple_bot.py"


def example_bot() -> Path | None:
    """The project's example Olympiad program (a checkout's), or None when not found."""
    for parent in Path(__file__).resolve().parents:
        if (parent / EXAMPLE_BOT).is_file():
            return parent / EXAMPLE_BOT
    return None


async def honest_scenario(workdir: Path, seed: int, games: Mapping[str, int],
                          wrapped_games: int) -> Scenario:
    """Four instant seats over WebSocket and over the embedded broker (``games`` by
    transport), under the referee's own limits, and four copies of the example program
    through ``mjbot wrap``'s player: no seat is dropped, reconnects or times out, and the
    games both transports played are the same."""
    rows = []
    runs = {}
    for via, count in games.items():
        config = RefereeConfig(tables=1, games=count, seed=seed, decision_ms=DECISION_MS,
                               records=_fresh(workdir, f"honest-{via}"))
        runs[via] = await play_tables(config, via)
        asks = sum(s.asks for s in runs[via].summaries)
        rows.append(f"{via} {count} games {asks / 4 / runs[via].seconds:.0f} asks/s a seat")
    both = set.intersection(*(set(run.records) for run in runs.values()))
    same = bool(both) and all(len({str(run.records[name]) for run in runs.values()}) == 1
                              for name in both)
    checked = list(runs.values())
    program = example_bot()
    if program is not None and wrapped_games:
        config = RefereeConfig(tables=1, games=wrapped_games, seed=seed, decision_ms=DECISION_MS,
                               records=_fresh(workdir, "honest-wrap"))
        made = [ProgramPlayer([sys.executable, str(program)]) for _ in range(4)]
        try:
            for player in made:
                await player.start()
            checked.append(await play_tables(config, "ws", players=lambda t, s: made[s]))
        finally:
            for player in made:
                await player.close()
        rows.append(f"example via wrap {wrapped_games} games")
    drops = sum(r.drops() for r in checked)
    fatal = [r.fatal for run in checked for r in run.reports.values() if r.fatal]
    violations = [v for run in checked for v in run.violations()]
    finished = all(len(run.summaries) == run.referee.config.games for run in checked)
    ok = drops == 0 and not fatal and not violations and finished and same
    result = (f"{'; '.join(rows)}: {drops} drops/reconnects, {len(violations)} timeouts, "
              f"{len(fatal)} refused; WebSocket and MQTT {'the same' if same else 'OTHER'} games")
    return Scenario("7 honest fast bots (instant seats, example via wrap)", result, ok, {
        "runs": rows, "drops": drops, "fatal": fatal, "violations": violations,
        "transports_same_games": same, "example_bot": str(program) if program else None})


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
    scenarios: list[Scenario] = field(default_factory=list)
    """The troubles played on their own tables after the chaos run (:data:`SCENARIOS`)."""
    unretrieved: Counter[str] = field(default_factory=Counter)
    """Exceptions of background tasks nobody awaited (amqtt's, aiomqtt's), by type."""

    @property
    def chaos_ok(self) -> bool:
        return (self.games_identical == self.tables and self.violations == 0
                and not self.attacks.failures and not self.unfinished
                and sum(self.attacks.tried.values()) > 0)

    @property
    def ok(self) -> bool:
        return self.chaos_ok and all(s.ok for s in self.scenarios)

    def rows(self) -> list[Scenario]:
        """A row per trouble: the chaos run's, its strangers' by issue item, the scenarios."""
        t, a = self.trouble, self.attacks

        def attack_row(what: str, prefix: tuple[str, ...]) -> Scenario:
            kinds = [k for k in a.tried if k.startswith(prefix)]
            tried, refused = sum(a.tried[k] for k in kinds), sum(a.refused[k] for k in kinds)
            return Scenario(what, f"{refused}/{tried} refused", bool(tried) and refused == tried)

        slow = ("ws frame slow to check",)
        idle = ("mqtt half-closed", "mqtt client silent")
        others = tuple(k for k in a.tried if not k.startswith(slow + idle))
        return [
            Scenario("chaos: drops, duplicates, old acts, restarts",
                     f"{self.games_identical}/{self.tables} records as undisturbed, "
                     f"{self.violations} violations; {t.disconnects} drops, {t.restarts} "
                     f"restarts, {t.broker_restarts} broker restart",
                     self.games_identical == self.tables and not self.violations
                     and not self.unfinished),
            attack_row("2 frames slow to check (WebSocket)", slow),
            *([attack_row("5 half-open and idle broker connections", idle)]
              if self.mqtt_tables else []),
            attack_row("hostile strangers and seats (logins, joins, wills)", others),
            *self.scenarios,
        ]


SCENARIOS = ("walls", "rejoin", "client_ids", "timing", "honest")


@dataclass(frozen=True)
class Sizes:
    """How much each scenario plays (``--quick``: :data:`QUICK`)."""

    flood_games_ws: int = 3
    """Games at each of the two tables of the re-join flood over WebSocket."""
    flood_games_mqtt: int = 1
    """... over the embedded broker (about 30 asks a second there), and under the
    client-id flood."""
    honest_games: int = 20
    """Games four instant seats play over WebSocket (once a seat was cut after 17)."""
    wrapped_games: int = 4
    """Games of the example program through ``mjbot wrap``'s player (0: none)."""
    timing_games: int = 2
    """Games of the timing attack, with and without the floor (about 56 discards each)."""
    floor_ms: int = 100
    seeds_searched: int = 20_000
    flood_seconds: float = 2.0
    rejoin_via: tuple[str, ...] = ("ws", "embedded")
    """The transports the re-join flood is played over."""


QUICK = Sizes(flood_games_ws=1, flood_games_mqtt=1, honest_games=3, wrapped_games=1,
              timing_games=2, floor_ms=60, seeds_searched=2_000, flood_seconds=1.5)


async def scenarios(seed: int, workdir: Path, sizes: Sizes,
                    which: Sequence[str] = SCENARIOS) -> list[Scenario]:
    """The troubles of :data:`SCENARIOS` named in ``which``, one after another (each times
    its tables: they must not share the machine with one another)."""
    unknown = set(which) - set(SCENARIOS)
    if unknown:
        raise ValueError(f"scenarios {sorted(unknown)}: expected some of {', '.join(SCENARIOS)}")
    out: list[Scenario] = []
    if "walls" in which:
        out.append(await walls_scenario(workdir, seed, sizes.seeds_searched))
    calm: dict[str, TableRun] = {}
    games = {"ws": sizes.flood_games_ws, "embedded": sizes.flood_games_mqtt}

    async def calm_run(via: str) -> TableRun:
        if via not in calm:
            calm[via] = await play_tables(
                flood_config(_fresh(workdir, f"calm-{via}"), seed, games[via]), via)
        return calm[via]

    if "rejoin" in which:
        for via in sizes.rejoin_via:
            out.append(await rejoin_scenario(workdir, via, seed, games[via], await calm_run(via)))
    if "client_ids" in which:
        out.append(await client_id_scenario(workdir, seed, games["embedded"],
                                            await calm_run("embedded"),
                                            seconds=sizes.flood_seconds))
    if "timing" in which:
        out.append(await timing_scenario(workdir, seed, sizes.timing_games, sizes.floor_ms))
    if "honest" in which:
        out.append(await honest_scenario(
            workdir, seed, {"ws": sizes.honest_games, "embedded": sizes.flood_games_mqtt},
            sizes.wrapped_games))
    return out


async def soak(seed: int, ws_tables: int, mqtt_tables: int, workdir: Path,
               sizes: Sizes = Sizes(), which: Sequence[str] = SCENARIOS) -> SoakResult:
    """The chaos run (``ws_tables`` over WebSocket, ``mqtt_tables`` through mosquitto, all
    at once), then the scenarios named in ``which``, one after another."""
    unretrieved: Counter[str] = Counter()
    asyncio.get_running_loop().set_exception_handler(_counting_unretrieved(unretrieved))
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
    troubles = await scenarios(seed, workdir, sizes, which)
    return SoakResult(tables, ws_tables, mqtt_tables, len(got) - len(mismatched),
                      sum(len(s.violations) for s in summaries), seconds, trouble, attacks,
                      unfinished, mismatched, errors, troubles, unretrieved)


def _counting_unretrieved(into: Counter[str]) -> Callable[[asyncio.AbstractEventLoop,
                                                           dict[str, Any]], None]:
    """An event loop exception handler that counts the exceptions of futures and tasks
    nobody awaited (amqtt's and aiomqtt's, when a broker drops a client) instead of
    printing each; anything else goes to the default handler."""
    def handle(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        exc = context.get("exception")
        if exc is not None and "never retrieved" in str(context.get("message", "")):
            into[f"{type(exc).__name__}: {str(exc)[:60]}"] += 1
        else:
            loop.default_exception_handler(context)

    return handle


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
    if r.unretrieved:
        lines.append("exceptions of background tasks nobody awaited: " + ", ".join(
            f"{what} ({n})" for what, n in sorted(r.unretrieved.items())))
    rows = r.rows()
    width = max(len(row.what) for row in rows)
    lines += ["", f"{'trouble':<{width}}  pass  result",
              *(f"{row.what:<{width}}  {'yes' if row.ok else 'NO':<4}  {row.result}"
                for row in rows), "", "OK" if r.ok else "FAILED"]
    return "\n".join(lines)


def to_json(r: SoakResult) -> dict[str, Any]:
    return {"tables": r.tables, "ws_tables": r.ws_tables, "mqtt_tables": r.mqtt_tables,
            "records_identical": r.games_identical, "violations": r.violations,
            "seconds": round(r.seconds, 1), "trouble": vars(r.trouble),
            "attacks_tried": dict(r.attacks.tried), "attacks_refused": dict(r.attacks.refused),
            "attack_failures": r.attacks.failures, "mismatched": r.mismatched,
            "unfinished": r.unfinished, "referee_errors": dict(r.referee_errors),
            "unretrieved": dict(r.unretrieved),
            "troubles": [dataclasses.asdict(row) for row in r.rows()], "ok": r.ok}


def run_soak(seed: int, ws_tables: int, mqtt_tables: int, sizes: Sizes = Sizes(),
             which: Sequence[str] = SCENARIOS) -> SoakResult:
    with tempfile.TemporaryDirectory() as tmp:
        return asyncio.run(soak(seed, ws_tables, mqtt_tables, Path(tmp), sizes, which))


def run_scenarios(seed: int, sizes: Sizes = QUICK, which: Sequence[str] = SCENARIOS,
                  unretrieved: Counter[str] | None = None) -> list[Scenario]:
    """The scenarios alone, without the chaos run (the tests run them one at a time);
    ``unretrieved`` counts the exceptions of background tasks nobody awaited."""
    async def counted(workdir: Path) -> list[Scenario]:
        asyncio.get_running_loop().set_exception_handler(
            _counting_unretrieved(Counter() if unretrieved is None else unretrieved))
        return await scenarios(seed, workdir, sizes, which)

    with tempfile.TemporaryDirectory() as tmp:
        return asyncio.run(counted(Path(tmp)))


def main(args: argparse.Namespace) -> int:
    configure_logging("ERROR")
    # the refusals and drops the scenarios provoke are counted in their rows, not logged
    for name in ("mjbot.broker", "mjbot.mqtt", "mqtt"):
        logging.getLogger(name).setLevel(logging.ERROR)
    mqtt = (1 if args.quick else 6) if mosquitto_binary() is not None else 0
    if not mqtt:
        print("mosquitto is not installed: the MQTT tables are left out", file=sys.stderr)
    result = run_soak(args.seed, 3 if args.quick else 14, mqtt, QUICK if args.quick else Sizes())
    print(json.dumps(to_json(result)) if args.json else render(result))
    return 0 if result.ok else 1

