"""The embedded amqtt broker's guards: who may connect, which topics each user may use,
and what amqtt itself does not check (:class:`GuardedBroker`).

amqtt loads the plugins by name from the configuration
:func:`arena.olympiad_access.amqtt_plugins` builds; they apply the same rules as the
mosquitto configuration (:func:`arena.olympiad_access.acl_rules`).
"""

from __future__ import annotations

import asyncio
import hmac
import logging
from dataclasses import dataclass, field
from typing import Any

from amqtt.adapters import ReaderAdapter, StreamReaderAdapter, StreamWriterAdapter
from amqtt.broker import Broker
from amqtt.contexts import Action
from amqtt.errors import AMQTTError
from amqtt.plugins.base import BaseAuthPlugin, BaseTopicPlugin
from amqtt.session import Session

from arena.olympiad_access import password_digest, topic_covered
from protocols.olympiad import MAX_MESSAGE_BYTES
from protocols.olympiad_transport import REFEREE_USER, RateLimit


class SeatAuthPlugin(BaseAuthPlugin):
    """amqtt: a client connects only with a known user and its password."""

    @dataclass
    class Config:
        users: dict[str, str] = field(default_factory=dict)
        """user -> SHA-256 of the password (hex)."""

    async def authenticate(self, *, session: Session) -> bool | None:
        known: dict[str, str] = self._get_config_option("users", {})
        digest = known.get(session.username or "")
        if digest is None or session.password is None:
            return False
        return hmac.compare_digest(password_digest(session.password), digest)


class SeatTopicPlugin(BaseTopicPlugin):
    """amqtt: publish, subscribe and receive only on the topics :func:`acl_rules` allows."""

    @dataclass
    class Config:
        read: dict[str, list[str]] = field(default_factory=dict)
        write: dict[str, list[str]] = field(default_factory=dict)

    _rates: dict[str, RateLimit] | None = None

    async def topic_filtering(self, *, session: Session | None = None, topic: str | None = None,
                              action: Action | None = None) -> bool | None:
        if session is None or topic is None or not session.username:
            return False
        key = "write" if action == Action.PUBLISH else "read"
        allowed: list[str] = self._get_config_option(key, {}).get(session.username, [])
        if not any(topic_covered(topic, a) for a in allowed):
            return False
        if action == Action.PUBLISH and session.username != REFEREE_USER:
            return self._within_rate(session.client_id or session.username)
        return True

    def _within_rate(self, client: str) -> bool:
        """A seat's client publishes at most :data:`SEAT_PUBLISHES_PER_SECOND` (a flood is
        dropped here, before it costs the referee anything)."""
        if self._rates is None:
            self._rates = {}
        rate = self._rates.get(client)
        if rate is None:
            if len(self._rates) > 10_000:  # forget old clients; the bucket refills anyway
                self._rates.clear()
            rate = self._rates[client] = RateLimit(SEAT_PUBLISH_BURST, SEAT_PUBLISHES_PER_SECOND)
        return rate.allow()


# ---------------------------------------------------------------- the broker itself
MAX_PACKET_BYTES = MAX_MESSAGE_BYTES + 1024
"""The largest MQTT packet the embedded broker reads (a message, its topic and headers);
a client that sends a larger one is disconnected before the packet is read."""
SEAT_PUBLISH_BURST = 200.0
SEAT_PUBLISHES_PER_SECOND = 100.0
"""What a seat's user may publish; beyond it the broker drops its messages (the referee's
user is not limited)."""

log = logging.getLogger("mjbot.broker")


class PacketTooLarge(AMQTTError):
    """A client announced a packet larger than the broker reads."""


class _BoundedReader(ReaderAdapter):
    """A stream reader that refuses (and closes the connection on) any read over a limit."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 limit: int) -> None:
        self._inner = StreamReaderAdapter(reader)
        self._writer = writer
        self._limit = limit

    async def read(self, n: int = -1) -> bytes:
        if n < 0 or n > self._limit:
            peer = self._writer.get_extra_info("peername")
            log.warning("closing %s: a packet of %s bytes, more than %d", peer,
                        "unknown" if n < 0 else n, self._limit)
            self._writer.close()
            raise PacketTooLarge(f"packet of {n} bytes refused")
        return await self._inner.read(n)

    def feed_eof(self) -> None:
        self._inner.feed_eof()


class GuardedBroker(Broker):
    """amqtt's broker with what it misses next to mosquitto configured by the referee:

    - a CONNECT whose last will names a topic the user may not publish on (or a wildcard)
      is refused, as a will is a publish the user leaves behind (amqtt sends wills, and
      retains them, without asking the topic plugins);
    - retained messages go only to a client subscribed to them that may read them (amqtt
      hands a new client every retained message matching *anyone's* subscription);
    - packets are at most :data:`MAX_PACKET_BYTES` (amqtt reads any size into memory).
    """

    max_packet_bytes = MAX_PACKET_BYTES

    async def stream_connected(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                               listener_name: str) -> None:
        await self._client_connected(listener_name,
                                     _BoundedReader(reader, writer, self.max_packet_bytes),
                                     StreamWriterAdapter(writer))

    async def _authenticate(self, session: Session, listener: Any) -> bool:
        if not await super()._authenticate(session, listener):
            return False
        if not session.will_flag:
            return True
        topic = session.will_topic or ""
        allowed = ("+" not in topic and "#" not in topic and bool(topic)
                   and len(session.will_message or b"") <= MAX_MESSAGE_BYTES
                   and await self._topic_filtering(session, topic, Action.PUBLISH))
        if not allowed:
            log.warning("refused a CONNECT of user %r: its last will on %r is not its to "
                        "publish", session.username, topic[:120])
        return allowed

    async def _publish_retained_messages_for_subscription(self, subscription: tuple[str, int],
                                                          session: Session) -> None:
        topic_filter, qos = subscription
        subscribed = any(s.client_id == session.client_id
                         for s, _ in self._subscriptions.get(topic_filter, []))
        handler = self._get_handler(session)
        if not subscribed or handler is None:
            return
        sends = []
        for topic, retained in list(self._retained_messages.items()):
            if (self._matches(topic, topic_filter)
                    and await self._topic_filtering(session, topic, Action.RECEIVE)):
                sends.append(asyncio.ensure_future(handler.mqtt_publish(
                    retained.topic, retained.data, min(qos, retained.qos or qos), retain=True)))
        if sends:
            await asyncio.wait(sends)
