"""Transports of the Olympiad protocol: WebSocket and MQTT, server and client side.

Server side, the referee implements :class:`Endpoint` (``on_text(link, text)``
and ``on_close(link)``); a :class:`Link` is where its answers to one player go:

- WebSocket (:mod:`protocols.olympiad_ws`): :func:`serve_ws` serves ``ws://HOST:PORT/``;
  one link per connection.
- MQTT (:mod:`protocols.olympiad_mqtt`): :class:`MqttServer` subscribes
  ``mjbot/v1/+/seat/+/up`` (QoS 1) and gives one link per (table, seat) that publishes
  on ``.../seat/N/down``; the referee's presence is retained on
  ``mjbot/v1/TABLE/referee`` (its last will says ``offline``).  It reconnects to the
  broker with backoff and re-subscribes; what it could not publish meanwhile, players
  get back by resuming.

Client side, :class:`ClientTransport` is one connection that can be opened
again after it drops: :class:`WsClient` and :class:`MqttClient` (which also
publishes the seat's retained presence ``online`` and leaves ``offline`` as
its last will).  ``recv`` raises :class:`ConnectionLost` when the connection
goes; the session loop reconnects with backoff and resumes.

:func:`protocols.olympiad_mqtt.embedded_broker` runs an amqtt broker inside the process,
so a whole MQTT match needs no external service; :func:`protocols.olympiad_connect.client_transport`
opens the connection a command line names.
"""

from __future__ import annotations

import logging
import socket
import ssl
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol
from urllib.parse import urlparse

from protocols.olympiad import MAX_MESSAGE_BYTES

TOPIC_ROOT = "mjbot/v1"
NO_DELAY = ((socket.IPPROTO_TCP, socket.TCP_NODELAY, 1),)
"""QoS 1 waits for each PUBACK: without TCP_NODELAY, Nagle + delayed ACK cost ~40 ms each."""


REFEREE_USER = "mjbot-referee"
"""The referee's broker user (its password: the referee's secret)."""


def seat_user(table: str, seat: int) -> str:
    """Seat ``seat`` of ``table``'s broker user (its password: the seat's secret)."""
    return f"{table}-seat{seat}"


def client_tls(ca: Path | None) -> ssl.SSLContext:
    """A client's TLS context: the organiser's CA (or the system's), host names checked."""
    return ssl.create_default_context(cafile=str(ca) if ca is not None else None)


def pinned_tls(cert: Path) -> ssl.SSLContext:
    """A client's TLS context that trusts exactly ``cert`` (the first certificate of the
    file, self-signed or not) and no host name: how the referee reaches the embedded broker
    it serves itself, whatever name the organiser's certificate carries."""
    context = ssl.create_default_context(cafile=str(cert))
    context.check_hostname = False
    context.verify_flags |= ssl.VERIFY_X509_PARTIAL_CHAIN
    return context


def server_tls(cert: Path, key: Path) -> ssl.SSLContext:
    """The referee's TLS context from the organiser's certificate chain and key."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(str(cert), str(key))
    return context


def seat_topic(table: str, seat: int, direction: str) -> str:
    return f"{TOPIC_ROOT}/{table}/seat/{seat}/{direction}"


def presence_topic(table: str, seat: int) -> str:
    return f"{TOPIC_ROOT}/{table}/presence/{seat}"


def referee_topic(table: str) -> str:
    return f"{TOPIC_ROOT}/{table}/referee"


def up_topic_seat(topic: str, tables: Iterable[str]) -> tuple[str, int] | None:
    """(table, seat) of ``mjbot/v1/TABLE/seat/N/up`` for one of ``tables`` and a seat 0-3
    written in ASCII; None for any other topic (``²`` is no seat number)."""
    parts = topic.split("/")
    if (len(parts) != 6 or f"{parts[0]}/{parts[1]}" != TOPIC_ROOT or parts[3] != "seat"
            or parts[5] != "up" or parts[4] not in ("0", "1", "2", "3") or parts[2] not in tables):
        return None
    return parts[2], int(parts[4])


@dataclass
class RateLimit:
    """A token bucket: ``burst`` messages at once, then ``per_second``."""

    burst: float
    per_second: float
    clock: Callable[[], float] = time.monotonic
    tokens: float = field(init=False)
    stamp: float = field(init=False)

    def __post_init__(self) -> None:
        self.tokens, self.stamp = self.burst, self.clock()

    def allow(self) -> bool:
        """Take one token if there is one."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.per_second)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def credit(self, messages: float = 1.0) -> None:
        """Allow ``messages`` more (up to the burst): what the referee's asks entitle a seat
        to answer, whatever the pace."""
        self.tokens = min(self.burst, self.tokens + messages)


@dataclass(frozen=True)
class Limits:
    """What one player's connection may cost the referee (both transports)."""

    message_burst: float = 200.0
    messages_per_second: float = 100.0
    """Messages a connection may send: ``messages_per_second`` and, on top, one per ask the
    referee sends it (:meth:`RateLimit.credit`: a seat answers each ask once, so honest
    seats never run out however fast they play, and a flood gets only the time allowance);
    beyond it a WebSocket is closed, MQTT messages dropped."""
    join_deadline: float = 10.0
    """Seconds a WebSocket connection may stay open without holding a seat."""
    max_message_bytes: int = MAX_MESSAGE_BYTES
    """The largest WebSocket frame read (a larger one closes the connection)."""


DEFAULT_LIMITS = Limits()
"""The limits a server holds its connections to unless told otherwise."""


class ConnectionLost(ConnectionError):
    """The transport's connection went away (the session loop reconnects)."""


class Link(Protocol):
    """Where the referee's messages to one player go."""

    @property
    def bound(self) -> tuple[str, int] | None:
        """(table, seat) a transport fixes for the link (MQTT topics); None for WebSocket."""
        ...

    async def send(self, text: str) -> None: ...

    async def close(self) -> None:
        """End this player's connection (WebSocket); nothing for a topic pair (MQTT)."""
        ...

    def describe(self) -> str: ...


class Endpoint(Protocol):
    async def on_text(self, link: Link, text: str | bytes) -> None: ...

    def on_close(self, link: Link) -> None: ...

    def holds_seat(self, link: Link) -> bool:
        """Whether ``link`` has joined a seat (a WebSocket that has not by the join
        deadline is closed)."""
        ...


log = logging.getLogger("mjbot.transport")


async def deliver(endpoint: Endpoint, link: Link, text: str | bytes) -> None:
    """Hand one message to the endpoint; whatever it raises is logged, never passed on:
    no message ends a receive loop."""
    try:
        await endpoint.on_text(link, text)
    except Exception:  # a bug of the endpoint must not stop the other players' messages
        log.exception("message handling failed (%s, %d bytes); the connection stays",
                      link.describe(), len(text))


# ---------------------------------------------------------------- addresses
def host_port(text: str, default_port: int) -> tuple[str, int]:
    """``HOST:PORT``, ``ws://HOST:PORT/`` or ``mqtt://HOST:PORT`` -> (host, port)."""
    if "://" not in text:
        text = "tcp://" + text
    parsed = urlparse(text)
    if not parsed.hostname:
        raise ValueError(f"no host in address {text!r}")
    return parsed.hostname, parsed.port or default_port


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class ClientTransport(Protocol):
    async def connect(self) -> None: ...

    async def send(self, text: str) -> None: ...

    async def recv(self) -> str: ...

    async def close(self) -> None: ...

    def describe(self) -> str: ...
