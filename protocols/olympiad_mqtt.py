"""The Olympiad protocol over MQTT: the referee's side (:class:`MqttServer`, one
:class:`MqttLink` per seat), the client (:class:`MqttClient`) and a broker inside the
process (:func:`embedded_broker`), so a whole MQTT match needs no external service."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import ssl
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiomqtt

from protocols.olympiad_transport import (
    DEFAULT_LIMITS,
    NO_DELAY,
    REFEREE_USER,
    TOPIC_ROOT,
    ConnectionLost,
    Endpoint,
    Limits,
    RateLimit,
    client_tls,
    deliver,
    free_port,
    host_port,
    presence_topic,
    referee_topic,
    seat_topic,
    seat_user,
    up_topic_seat,
)


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
                 limits: Limits = DEFAULT_LIMITS,
                 tls_context: ssl.SSLContext | None = None) -> None:
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
