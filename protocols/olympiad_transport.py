"""Transports of the Olympiad protocol: WebSocket and MQTT, server and client side.

Server side, the referee implements :class:`Endpoint` (``on_text(link, text)``
and ``on_close(link)``); a :class:`Link` is where its answers to one player go:

- WebSocket: :func:`serve_ws` serves ``ws://HOST:PORT/``; one link per connection.
- MQTT: :class:`MqttServer` subscribes ``mjbot/v1/+/seat/+/up`` (QoS 1) and
  gives one link per (table, seat) that publishes on ``.../seat/N/down``; the
  referee's presence is retained on ``mjbot/v1/TABLE/referee`` (its last will
  says ``offline``).  It reconnects to the broker with backoff and
  re-subscribes; what it could not publish meanwhile, players get back by
  resuming.

Client side, :class:`ClientTransport` is one connection that can be opened
again after it drops: :class:`WsClient` and :class:`MqttClient` (which also
publishes the seat's retained presence ``online`` and leaves ``offline`` as
its last will).  ``recv`` raises :class:`ConnectionLost` when the connection
goes; the session loop reconnects with backoff and resumes.

:func:`embedded_broker` runs an amqtt broker inside the process, so a whole
MQTT match needs no external service.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import socket
import ssl
import time
from collections.abc import AsyncIterator, Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlparse

import aiomqtt
import websockets
from websockets.asyncio.server import ServerConnection

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


# ---------------------------------------------------------------- WebSocket, server
@dataclass(eq=False)
class WsLink:
    connection: ServerConnection
    bound: tuple[str, int] | None = None
    allowance: RateLimit | None = None
    """The connection's message budget (the referee credits it one message per ask)."""

    def credit(self, messages: float = 1.0) -> None:
        if self.allowance is not None:
            self.allowance.credit(messages)

    async def send(self, text: str) -> None:
        try:
            await self.connection.send(text)
        except websockets.ConnectionClosed as exc:
            raise ConnectionLost(str(exc)) from None

    async def close(self) -> None:
        await self.close_with(1008, "seat taken over")

    async def close_with(self, code: int, reason: str) -> None:
        with contextlib.suppress(Exception):
            await self.connection.close(code, reason)

    @property
    def address(self) -> str | None:
        """The peer's network address (joins are limited per address)."""
        addr = self.connection.remote_address
        return str(addr[0]) if addr else None

    def abort(self) -> None:
        """Drop the TCP connection at once: a flooding client's close frame would wait
        behind everything it sent, and reading it is what a flood costs."""
        self.connection.transport.abort()

    def describe(self) -> str:
        addr = self.connection.remote_address
        return f"ws {addr[0]}:{addr[1]}" if addr else "ws"


@contextlib.asynccontextmanager
async def serve_ws(endpoint: Endpoint, host: str, port: int,
                   tls: ssl.SSLContext | None = None,
                   limits: Limits = Limits()) -> AsyncIterator[int]:
    """Serve the endpoint at ``ws://host:port/`` (``wss://`` with ``tls``); yields the port
    (0 picks a free one).  Per connection (``limits``): frames of at most
    ``max_message_bytes``, a message rate (a flood closes the connection), a join
    deadline; whatever the endpoint raises on one message is logged and the loop goes on."""

    closing: set[asyncio.Task[None]] = set()

    async def handler(connection: ServerConnection) -> None:
        rate = RateLimit(limits.message_burst, limits.messages_per_second)
        link = WsLink(connection, allowance=rate)

        def unjoined() -> None:
            if not endpoint.holds_seat(link):
                log.info("closing %s: no join within %.0f s", link.describe(),
                         limits.join_deadline)
                task = asyncio.create_task(link.close_with(1008, "no join in time"))
                closing.add(task)
                task.add_done_callback(closing.discard)

        deadline = asyncio.get_running_loop().call_later(limits.join_deadline, unjoined)
        try:
            async for text in connection:
                if not rate.allow():
                    log.warning("dropping %s: more than %.0f messages a second",
                                link.describe(), limits.messages_per_second)
                    link.abort()
                    break
                await deliver(endpoint, link, text)
        except websockets.ConnectionClosed:
            pass
        finally:
            deadline.cancel()
            endpoint.on_close(link)

    # no permessage-deflate: messages are a few hundred bytes and zlib was the
    # referee's largest cost at 100 tables
    async with websockets.serve(handler, host, port, ping_interval=10, ping_timeout=10,
                                max_size=limits.max_message_bytes, compression=None,
                                ssl=tls) as server:
        sockets = list(server.sockets)
        yield sockets[0].getsockname()[1] if sockets else port


# ---------------------------------------------------------------- MQTT, server
@dataclass(eq=False)
class MqttLink:
    server: MqttServer
    table: str
    seat: int

    @property
    def bound(self) -> tuple[str, int] | None:
        return (self.table, self.seat)

    async def send(self, text: str) -> None:
        await self.server.publish(seat_topic(self.table, self.seat, "down"), text)

    def credit(self, messages: float = 1.0) -> None:
        self.server.rate((self.table, self.seat)).credit(messages)

    async def close(self) -> None:
        return None  # the topics stay; the broker's ACL says who may use them

    def describe(self) -> str:
        return f"mqtt {self.table}/seat/{self.seat}"


class MqttServer:
    """The referee's MQTT side; run :meth:`run` as a task."""

    def __init__(self, endpoint: Endpoint, url: str, tables: list[str], *,
                 password: str | None = None, ca: Path | None = None,
                 limits: Limits = Limits(), tls_context: ssl.SSLContext | None = None) -> None:
        self.endpoint = endpoint
        self.limits = limits
        self._rates: dict[tuple[str, int], RateLimit] = {}
        self.dropped = 0
        """Messages dropped unread: on no seat's ``up`` topic, or over a seat's rate."""
        self.host, self.port = host_port(url, 8883 if url.startswith("mqtts:") else 1883)
        self.tables = tables
        self._password = password
        self._tls = (tls_context or client_tls(ca)) if url.startswith("mqtts:") else None
        self._client: aiomqtt.Client | None = None
        self._links: dict[tuple[str, int], MqttLink] = {}
        self._inboxes: dict[tuple[str, int] | None, asyncio.Queue[tuple[str, object]]] = {}
        self._workers: set[asyncio.Task[None]] = set()
        self.connected = asyncio.Event()
        self.log = logging.getLogger("mjbot.mqtt")

    def link(self, table: str, seat: int) -> MqttLink:
        key = (table, seat)
        if key not in self._links:
            self._links[key] = MqttLink(self, table, seat)
        return self._links[key]

    async def publish(self, topic: str, text: str, retain: bool = False) -> None:
        client = self._client
        if client is None:
            raise ConnectionLost("the referee is not connected to the broker")
        try:
            await client.publish(topic, text, qos=1, retain=retain)
        except aiomqtt.MqttError as exc:
            raise ConnectionLost(str(exc)) from None

    async def run(self) -> None:
        try:
            await self._run()
        finally:
            for worker in self._workers:
                worker.cancel()

    async def _run(self) -> None:
        delay = 0.05
        while True:
            will = aiomqtt.Will(referee_topic(self.tables[0]) if self.tables else
                                f"{TOPIC_ROOT}/referee", "offline", qos=1, retain=True)
            try:
                async with aiomqtt.Client(self.host, self.port, will=will, keepalive=10,
                                          identifier=f"mjbot-referee-{secrets.token_hex(4)}",
                                          username=REFEREE_USER if self._password else None,
                                          password=self._password, tls_context=self._tls,
                                          max_queued_outgoing_messages=100_000,
                                          max_inflight_messages=1000,
                                          socket_options=NO_DELAY) as client:
                    client.pending_calls_threshold = 100_000  # many tables publish at once
                    for table in self.tables:  # per table: the ACL grants the referee its tables
                        await client.subscribe(f"{TOPIC_ROOT}/{table}/seat/+/up", qos=1)
                    self._client = client
                    for table in self.tables:
                        await client.publish(referee_topic(table), "online", qos=1, retain=True)
                    self.connected.set()
                    delay = 0.05
                    async for message in client.messages:
                        self._route(str(message.topic), message.payload)
            except aiomqtt.MqttError as exc:
                self.log.info("broker connection lost: %s; reconnecting", exc)
            except Exception:  # never ends the loop: reconnect as after a lost broker
                self.log.exception("MQTT receive loop failed; reconnecting")
            finally:
                self._client = None
                self.connected.clear()
            await asyncio.sleep(delay)
            delay = min(delay * 2, 2.0)

    def _route(self, topic: str, payload: object) -> None:
        """Queue one message for its seat's worker, which hands it on (:meth:`_receive`):
        a seat whose message takes long (the replay of a join waits for each PUBACK)
        delays only its own next messages, never another seat's or table's.  A seat with
        more than its burst of messages waiting has the excess dropped."""
        key = up_topic_seat(topic, self.tables)
        inbox = self._inboxes.get(key)
        if inbox is None:
            inbox = self._inboxes[key] = asyncio.Queue(maxsize=int(self.limits.message_burst))
            worker = asyncio.create_task(self._work(inbox))
            self._workers.add(worker)
            worker.add_done_callback(self._workers.discard)
        try:
            inbox.put_nowait((topic, payload))
        except asyncio.QueueFull:
            self.dropped += 1
            if self.dropped % 1000 == 1:
                self.log.warning("dropping messages on %r: %d wait to be read", topic[:120],
                                 inbox.qsize())

    async def _work(self, inbox: asyncio.Queue[tuple[str, object]]) -> None:
        while True:
            topic, payload = await inbox.get()
            await self._receive(topic, payload)

    def rate(self, seat: tuple[str, int]) -> RateLimit:
        """A seat's message budget (its ``up`` topic's)."""
        rate = self._rates.get(seat)
        if rate is None:
            rate = self._rates[seat] = RateLimit(self.limits.message_burst,
                                                 self.limits.messages_per_second)
        return rate

    async def _receive(self, topic: str, payload: object) -> None:
        """One message from the broker: to the seat whose ``up`` topic it came on, unless
        the topic is no seat's or the seat is over its rate (a flood)."""
        where = up_topic_seat(topic, self.tables)
        if where is None:
            self.dropped += 1
            if self.dropped % 1000 == 1:
                self.log.warning("dropped a message on %r: not a seat's up topic", topic[:120])
            return
        if not self.rate(where).allow():
            self.dropped += 1
            if self.dropped % 1000 == 1:
                self.log.warning("dropping messages of %s/seat/%d: over %.0f a second",
                                 where[0], where[1], self.limits.messages_per_second)
            return
        text = payload if isinstance(payload, str | bytes) else str(payload)
        await deliver(self.endpoint, self.link(*where), text)

    async def close(self) -> None:
        client = self._client
        if client is not None:
            for table in self.tables:
                with contextlib.suppress(aiomqtt.MqttError):
                    await client.publish(referee_topic(table), "offline", qos=1, retain=True)


# ---------------------------------------------------------------- clients
class ClientTransport(Protocol):
    async def connect(self) -> None: ...

    async def send(self, text: str) -> None: ...

    async def recv(self) -> str: ...

    async def close(self) -> None: ...

    def describe(self) -> str: ...


class WsClient:
    def __init__(self, url: str, ca: Path | None = None) -> None:
        self.url = url
        self._tls = client_tls(ca) if url.startswith("wss:") else None
        self._conn: Any = None

    async def connect(self) -> None:
        try:
            self._conn = await websockets.connect(self.url, ping_interval=10, ping_timeout=10,
                                                  open_timeout=5, compression=None,
                                                  ssl=self._tls)
        except (OSError, websockets.InvalidHandshake, TimeoutError, ssl.SSLError) as exc:
            raise ConnectionLost(f"cannot connect to {self.url}: {exc}") from None

    async def send(self, text: str) -> None:
        if self._conn is None:
            raise ConnectionLost("not connected")
        try:
            await self._conn.send(text)
        except websockets.ConnectionClosed as exc:
            raise ConnectionLost(str(exc)) from None

    async def recv(self) -> str:
        if self._conn is None:
            raise ConnectionLost("not connected")
        try:
            data = await self._conn.recv()
        except websockets.ConnectionClosed as exc:
            raise ConnectionLost(str(exc)) from None
        # a binary frame that is not UTF-8 still reaches the parser, which reports it
        return data if isinstance(data, str) else data.decode(errors="replace")

    async def close(self) -> None:
        if self._conn is not None:
            await self._conn.close()
            self._conn = None

    def describe(self) -> str:
        return self.url


class MqttClient:
    """One seat over MQTT: subscribes its down topic, publishes on its up topic; with a
    ``secret``, logs in to the broker as the seat's user (:func:`seat_user`)."""

    def __init__(self, url: str, table: str, seat: int, secret: str | None = None,
                 ca: Path | None = None) -> None:
        self.url = url
        self.host, self.port = host_port(url, 8883 if url.startswith("mqtts:") else 1883)
        self.table, self.seat = table, seat
        self._secret = secret
        self._tls = client_tls(ca) if url.startswith("mqtts:") else None
        self._stack: contextlib.AsyncExitStack | None = None
        self._client: aiomqtt.Client | None = None
        self._messages: AsyncIterator[aiomqtt.Message] | None = None

    async def connect(self) -> None:
        await self.close()
        presence = presence_topic(self.table, self.seat)
        client = aiomqtt.Client(
            self.host, self.port, keepalive=5, socket_options=NO_DELAY,
            identifier=f"mjbot-{self.table}-{self.seat}-{secrets.token_hex(4)}",
            username=seat_user(self.table, self.seat) if self._secret else None,
            password=self._secret, tls_context=self._tls,
            will=aiomqtt.Will(presence, "offline", qos=1, retain=True))
        stack = contextlib.AsyncExitStack()
        try:
            await stack.enter_async_context(client)
            await client.subscribe(seat_topic(self.table, self.seat, "down"), qos=1)
            # a refused subscription (the broker's ACL) comes back as 0x80 in the SUBACK
            await client.publish(presence, "online", qos=1, retain=True)
        except aiomqtt.MqttError as exc:
            with contextlib.suppress(Exception):
                await stack.aclose()
            raise ConnectionLost(f"cannot connect to {self.url}: {exc}") from None
        self._stack, self._client = stack, client
        self._messages = client.messages.__aiter__()

    async def send(self, text: str) -> None:
        if self._client is None:
            raise ConnectionLost("not connected")
        try:
            await self._client.publish(seat_topic(self.table, self.seat, "up"), text, qos=1)
        except aiomqtt.MqttError as exc:
            raise ConnectionLost(str(exc)) from None

    async def recv(self) -> str:
        if self._messages is None:
            raise ConnectionLost("not connected")
        try:
            message = await self._messages.__anext__()
        except (aiomqtt.MqttError, StopAsyncIteration) as exc:
            raise ConnectionLost(f"broker connection lost: {exc}") from None
        payload = message.payload
        if isinstance(payload, bytes | bytearray):
            return payload.decode(errors="replace")  # not UTF-8: the parser reports it
        return str(payload)

    async def close(self) -> None:
        stack, self._stack, self._client, self._messages = self._stack, None, None, None
        if stack is not None:
            with contextlib.suppress(Exception):
                await stack.aclose()

    def describe(self) -> str:
        return f"{self.url} {self.table}/seat/{self.seat}"


def client_transport(ws: str | None, mqtt: str | None, table: str, seat: int,
                     secret: str | None = None, ca: Path | None = None) -> ClientTransport:
    if (ws is None) == (mqtt is None):
        raise ValueError("give exactly one of --ws URL and --mqtt URL")
    if ws is not None:
        return WsClient(ws, ca)
    assert mqtt is not None
    return MqttClient(mqtt, table, seat, secret, ca)


# ---------------------------------------------------------------- embedded broker
@contextlib.asynccontextmanager
async def embedded_broker(host: str = "127.0.0.1", port: int = 0, *,
                          plugins: dict[str, Any] | None = None,
                          tls: tuple[Path, Path] | None = None,
                          broker_class: Any = None) -> AsyncIterator[str]:
    """An amqtt broker in this process for the duration; yields its ``mqtt://`` URL
    (``mqtts://`` with ``tls`` = (certificate, key)).  ``plugins``: its authentication and
    topic plugins (``arena.platforms.olympiad.access.amqtt_plugins``); anonymous clients and every
    topic are allowed without.  ``broker_class``: amqtt's ``Broker`` or a subclass (the
    referee's is ``arena.platforms.olympiad.broker_guards.GuardedBroker``)."""
    from amqtt.broker import Broker

    port = port or free_port()
    listener: dict[str, Any] = {"type": "tcp", "bind": f"{host}:{port}"}
    if tls is not None:
        listener.update(ssl=True, certfile=str(tls[0]), keyfile=str(tls[1]))
    config = {
        "listeners": {"default": listener},
        "plugins": plugins if plugins is not None else
        {"amqtt.plugins.authentication.AnonymousAuthPlugin": {"allow_anonymous": True}},
    }
    for name in ("amqtt", "transitions"):
        logging.getLogger(name).setLevel(logging.WARNING)
    broker = (broker_class or Broker)(config)
    await broker.start()
    try:
        yield f"{'mqtts' if tls else 'mqtt'}://{host}:{port}"
    finally:
        await broker.shutdown()


