"""The soak's inputs: hostile payloads, the join and client-id corpora (each entry with
the refusal it must get), raw MQTT packets, and the safe player every undisturbed seat is."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from arena.platforms.olympiad.config import JOIN_BURST
from protocols.olympiad import (
    MAX_NAME_CHARS,
    Act,
    AskMsg,
)
from protocols.olympiad_codec import safest_act
from protocols.olympiad_transport import (
    ClientTransport,
    ConnectionLost,
)

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
        elif isinstance(msg, AskMsg):
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
    """Texts that used to end a receive loop: deep arrays and objects, integers
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


def connect_packet(client_id: str | bytes, user: str | None, password: str | None,
                   will: tuple[str, bytes, bool] | None = None, keepalive: int = 60,
                   clean: bool = True) -> bytes:
    """An MQTT 3.1.1 CONNECT written by hand (a clean session unless ``clean`` is false;
    no user name or password where None), with a QoS 1 last will (topic, payload,
    retained) when given: what a hostile client sends (a ``bytes`` client id is sent as it
    is, well-formed UTF-8 or not)."""
    flags = (0x02 if clean else 0) | (0x80 if user is not None else 0) \
        | (0x40 if password is not None else 0)
    payload = _mqtt_str(client_id if isinstance(client_id, bytes) else client_id.encode())
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


CLIENT_ID_HELD = "seat0-client"
"""The client id seat 0 of table t1 holds while the client-id corpus is sent."""


def client_id_corpus(user: Callable[[int], tuple[str, str]], referee: tuple[str, str]
                     ) -> list[tuple[str, bytes, int]]:
    """CONNECTs the embedded broker must refuse while seat 0 of t1 is connected as
    :data:`CLIENT_ID_HELD`: (what, the packet, the CONNACK return code expected: 2 the
    identifier rejected (held by another user, or one MQTT 3.1.1 section 1.5.3 forbids, or
    over 256 bytes, or a wildcard), 5 not authorised).  ``user(seat)``: that seat's user and
    password; ``referee``: the referee's."""
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
        ("a client id with U+0000", connect_packet("id\x00nul", u1, p1), 2),
        ("a client id of ill-formed UTF-8", connect_packet(b"id\xff\xfe", u1, p1), 2),
        ("a client id of 257 bytes", connect_packet("x" * 257, u1, p1), 2),
        ("a client id with the wildcard #", connect_packet("id#", u1, p1), 2),
        ("a client id with the wildcard +", connect_packet("id+", u1, p1), 2),
    ]
