"""The embedded amqtt broker's guards: who may connect, which topics each user may use,
and what amqtt itself does not check (:class:`GuardedBroker`): packet sizes, wills,
retained messages, one connection per seat, deadlines, and an accept loop that backs off.

amqtt loads the plugins by name from the configuration
:func:`arena.platforms.olympiad.access.amqtt_plugins` builds; they apply the same rules as the
mosquitto configuration (:func:`arena.platforms.olympiad.access.acl_rules`).
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import socket
import ssl
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from amqtt.adapters import ReaderAdapter, StreamReaderAdapter, StreamWriterAdapter, WriterAdapter
from amqtt.broker import Broker
from amqtt.contexts import Action, ListenerType
from amqtt.errors import AMQTTError, MQTTError, NoDataError
from amqtt.mqtt.connack import (
    IDENTIFIER_REJECTED,
    NOT_AUTHORIZED,
    SERVER_UNAVAILABLE,
    ConnackPacket,
)
from amqtt.mqtt.protocol.broker_handler import BrokerProtocolHandler
from amqtt.mqtt.publish import PublishPacket
from amqtt.plugins.base import BaseAuthPlugin, BaseTopicPlugin
from amqtt.session import Session
from amqtt.utils import gen_client_id

from arena.platforms.olympiad.access import password_digest, topic_covered
from protocols.olympiad import MAX_MESSAGE_BYTES
from protocols.olympiad_transport import REFEREE_USER, TOPIC_ROOT, RateLimit, seat_user


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
    """amqtt: publish, subscribe and receive only on the topics :func:`acl_rules` allows
    (what a seat may publish per second is :class:`GuardedBroker`'s to limit, so that a
    will is checked against the ACL alone and never spends a publish)."""

    @dataclass
    class Config:
        read: dict[str, list[str]] = field(default_factory=dict)
        write: dict[str, list[str]] = field(default_factory=dict)

    async def topic_filtering(self, *, session: Session | None = None, topic: str | None = None,
                              action: Action | None = None) -> bool | None:
        if session is None or topic is None or not session.username:
            return False
        key = "write" if action == Action.PUBLISH else "read"
        allowed: list[str] = self._get_config_option(key, {}).get(session.username, [])
        return any(topic_covered(topic, a) for a in allowed)


# ---------------------------------------------------------------- the broker itself
MAX_PACKET_BYTES = MAX_MESSAGE_BYTES + 1024
"""The largest MQTT packet the embedded broker reads (a message, its topic and headers);
a client that sends a larger one is disconnected before the packet is read."""
SEAT_PUBLISH_BURST = 200.0
SEAT_PUBLISHES_PER_SECOND = 100.0
"""What a seat's user may publish, over all its connections, besides one message for each
the referee's user publishes on the seat's ``down`` topic (so that an instant bot answers
at any pace); the connection that publishes beyond it is closed, unread (the referee's
user is not limited)."""
SEAT_CONNECT_BURST = 10.0
SEAT_CONNECTS_PER_SECOND = 1.0
"""The CONNECTs a seat's user may make (with the right password); beyond them a CONNECT is
refused (CONNACK 3, server unavailable) before any session is touched (the referee's user
is not limited)."""
MAX_CLIENT_ID_BYTES = 256
"""The longest client id accepted (MQTT 3.1.1 asks a server to take at least 23 bytes)."""
CONNECT_DEADLINE = 10.0
"""Seconds a new connection has to complete its CONNECT (and TLS handshake)."""
IDLE_KEEPALIVES = 1.5
"""A client that sends nothing for this many of its keepalive periods is disconnected
(MQTT 3.1.1, 3.1.2.10; a keepalive of 0 asks for no such limit)."""
ACCEPT_BACKOFF = (0.01, 1.0)
"""The accept loop's wait after a failed accept (out of file descriptors, say): doubling
from the first to the second, back to the first after a success."""

log = logging.getLogger("mjbot.broker")


class PacketTooLarge(AMQTTError):
    """A client announced a packet larger than the broker reads."""


class ConnectRefused(Exception):
    """A connection without a CONNECT, or with one the broker refuses (counted and logged
    by :class:`GuardedBroker`, not once per connection by amqtt)."""


def client_id_refusal(raw: bytes | None, decoded: str) -> str | None:
    """Why a client id is refused, or None: ill-formed UTF-8 or U+0000 (MQTT 3.1.1, 1.5.3),
    over :data:`MAX_CLIENT_ID_BYTES`, or a topic wildcard (``#``, ``+``).  ``raw``: the id's
    bytes as sent (amqtt hands on an ill-formed one as the ``repr`` of its bytes), None when
    they are not known."""
    if raw is not None:
        try:
            decoded = raw.decode("utf-8")
        except UnicodeDecodeError:
            return "its client id is not well-formed UTF-8"
    if "\0" in decoded:
        return "its client id contains U+0000"
    if len(decoded.encode("utf-8", "surrogatepass")) > MAX_CLIENT_ID_BYTES:
        return f"its client id is longer than {MAX_CLIENT_ID_BYTES} bytes"
    if "#" in decoded or "+" in decoded:
        return "its client id contains a topic wildcard (# or +)"
    return None


def down_topic_user(topic: str) -> str | None:
    """The seat user whose ``mjbot/v1/TABLE/seat/N/down`` topic this is (N 0-3 in ASCII),
    or None."""
    parts = topic.split("/")
    if (len(parts) != 6 or f"{parts[0]}/{parts[1]}" != TOPIC_ROOT or parts[3] != "seat"
            or parts[5] != "down" or parts[4] not in ("0", "1", "2", "3")):
        return None
    return seat_user(parts[2], int(parts[4]))


def connect_client_id(packet: bytes) -> bytes | None:
    """The client id's bytes in an MQTT 3.1.1 CONNECT as read off the wire (fixed header,
    remaining length, protocol name ``MQTT``, level, flags, keepalive, then the id), or None
    if ``packet`` is too short to hold it."""
    at = 1
    while at < len(packet) and packet[at] & 0x80:
        at += 1
    at += 1 + 2 + 4 + 1 + 1 + 2  # the remaining length's last byte, "MQTT", level, flags, keepalive
    if at + 2 > len(packet):
        return None
    size = int.from_bytes(packet[at:at + 2], "big")
    raw = packet[at + 2:at + 2 + size]
    return raw if len(raw) == size else None


class _BoundedReader(ReaderAdapter):
    """A stream reader that refuses (and closes the connection on) any read over a limit,
    and closes a connection that sends nothing in time: its CONNECT within
    ``connect_deadline`` of opening, then something within :attr:`idle_limit` seconds (set
    from the client's keepalive once the CONNECT is read; None: no limit).  It keeps the
    bytes read until then (:attr:`head`: the CONNECT as sent), and once :meth:`cut`, reads
    nothing more: amqtt sees the connection end."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 limit: int, connect_deadline: float) -> None:
        self._inner = StreamReaderAdapter(reader)
        self._writer = writer
        self._limit = limit
        self._due: float | None = time.monotonic() + connect_deadline
        self.idle_limit: float | None = None
        self.timed_out = False
        self.head: bytearray | None = bytearray()
        self.is_cut = False

    def connected(self, keepalive: float) -> None:
        """The CONNECT was read: from now on, at most ``IDLE_KEEPALIVES * keepalive``
        seconds of silence."""
        self.idle_limit = IDLE_KEEPALIVES * keepalive if keepalive > 0 else None
        self._due = None if self.idle_limit is None else time.monotonic() + self.idle_limit
        self.head = None

    def cut(self) -> None:
        """Close the connection and read nothing more of what it sent (what is buffered
        is dropped unparsed)."""
        self.is_cut = True
        self._writer.close()

    async def read(self, n: int = -1) -> bytes:
        data = await self._read(n)
        if self.head is not None:
            self.head += data
        return data

    async def _read(self, n: int) -> bytes:
        if self.is_cut:
            raise ConnectionResetError("connection closed by the broker")
        if n < 0 or n > self._limit:
            peer = self._writer.get_extra_info("peername")
            log.warning("closing %s: a packet of %s bytes, more than %d", peer,
                        "unknown" if n < 0 else n, self._limit)
            self._writer.close()
            raise PacketTooLarge(f"packet of {n} bytes refused")
        if self._due is None:
            return await self._inner.read(n)
        try:
            async with asyncio.timeout_at(asyncio.get_running_loop().time()
                                          + max(0.0, self._due - time.monotonic())):
                data = await self._inner.read(n)
        except TimeoutError:
            self.timed_out = True
            self._writer.close()
            raise ConnectionResetError("nothing received in time; connection closed") from None
        if self.idle_limit is not None:
            self._due = time.monotonic() + self.idle_limit
        return data

    def feed_eof(self) -> None:
        self._inner.feed_eof()


class _SeatHandler(BrokerProtocolHandler):
    """amqtt's protocol handler, which takes a PUBLISH in (and acknowledges it) only while
    :attr:`rate` allows: the first one beyond it closes the connection, unread
    (:meth:`_BoundedReader.cut`), and :attr:`on_cut` is told once."""

    rate: RateLimit | None = None
    on_cut: Callable[[Session], None] | None = None

    async def handle_publish(self, publish_packet: PublishPacket) -> None:
        if self.rate is None or self.rate.allow():
            await super().handle_publish(publish_packet)
            return
        reader = self.reader
        if isinstance(reader, _BoundedReader) and not reader.is_cut:
            reader.cut()
            if self.on_cut is not None and self.session is not None:
                self.on_cut(self.session)


class _Subscriptions(dict[str, list[tuple[Session, int]]]):
    """amqtt's table of subscriptions (filter -> [(session, qos)]), whose iterations are
    snapshots: amqtt 0.12.1 walks it across awaits (``Broker._run_broadcast`` over
    ``items()``, the retained messages of a new connection over its keys), and a subscription
    or a departure meanwhile raised "dictionary changed size during iteration" and lost the
    broadcast."""

    def __iter__(self) -> Iterator[str]:
        return iter(list(super().__iter__()))

    def items(self) -> list[tuple[str, list[tuple[Session, int]]]]:  # type: ignore[override]
        return [(k, list(v)) for k, v in super().items()]


class GuardedBroker(Broker):
    """amqtt's broker with what it misses next to mosquitto configured by the referee:

    - a CONNECT whose last will names a topic the user may not publish on (or a wildcard)
      is refused, as a will is a publish the user leaves behind (amqtt sends wills, and
      retains them, without asking the topic plugins);
    - retained messages go only to a client subscribed to them that may read them (amqtt
      hands a new client every retained message matching *anyone's* subscription);
    - packets are at most :data:`MAX_PACKET_BYTES` (amqtt reads any size into memory);
    - a CONNECT is checked (user, password, will) before amqtt touches any session, and a
      client id belongs to the user that holds it: another user's CONNECT with it is
      refused (CONNACK 2) instead of taking the session over, and a refused CONNECT no
      longer deletes the session of the id it names;
    - a seat's user has one connection and one client id at a time: a new CONNECT of the
      user ends its other connection and drops its other sessions (the referee's user
      is left alone);
    - a seat's user makes at most :data:`SEAT_CONNECT_BURST` CONNECTs at once and
      :data:`SEAT_CONNECTS_PER_SECOND` after them: beyond, a CONNECT is refused (CONNACK 3)
      before it ends any connection or session;
    - a seat's user publishes at most :data:`SEAT_PUBLISH_BURST` messages at once and
      :data:`SEAT_PUBLISHES_PER_SECOND` after them, over all its connections, plus one for
      each message the referee's user publishes on the seat's ``down`` topic: the
      connection that publishes beyond is closed, and what it sent meanwhile is not read
      (many client ids cost the seat, not the broker's event loop);
    - a client id that MQTT 3.1.1 forbids (ill-formed UTF-8, U+0000) or that is absurd
      (over :data:`MAX_CLIENT_ID_BYTES`, a ``#`` or ``+``) is refused (CONNACK 2);
    - a broadcast walks a snapshot of the subscriptions (:class:`_Subscriptions`);
    - a connection must complete its CONNECT within :attr:`connect_deadline`, and is
      closed after :data:`IDLE_KEEPALIVES` keepalives of silence; every connection's
      socket is closed when its session ends, however it ended (amqtt left a client that
      half-closed before its CONNECT in CLOSE-WAIT);
    - the TCP listener's accept loop waits, doubling (:data:`ACCEPT_BACKOFF`), after a
      failed accept (out of file descriptors) and counts it in :attr:`accept_errors`,
      logging only the first, second, fourth ... failure.
    """

    max_packet_bytes = MAX_PACKET_BYTES
    connect_deadline = CONNECT_DEADLINE
    accept_errors = 0
    """Failed accepts so far (an instance attribute once one failed)."""
    refused_connects = 0
    """CONNECTs refused here (no CONNECT in time, wrong credentials, another's client id,
    over the seat's CONNECT rate)."""
    cut_connections = 0
    """Connections closed for publishing beyond their seat's rate."""
    connect_rate = (SEAT_CONNECT_BURST, SEAT_CONNECTS_PER_SECOND)
    publish_rate = (SEAT_PUBLISH_BURST, SEAT_PUBLISHES_PER_SECOND)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._subscriptions: dict[str, list[tuple[Session, int]]] = _Subscriptions(
            self._subscriptions)
        self._connects: dict[str, RateLimit] = {}
        self._publishes: dict[str, RateLimit] = {}

    async def stream_connected(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                               listener_name: str) -> None:
        try:
            await self._client_connected(
                listener_name,
                _BoundedReader(reader, writer, self.max_packet_bytes, self.connect_deadline),
                StreamWriterAdapter(writer))
        except ConnectRefused:
            self._servers[listener_name].release_connection()
        finally:  # however the session ended, its socket goes (no CLOSE-WAIT)
            writer.close()

    # ------------------------------------------------------------ CONNECT
    async def _initialize_client_session(self, reader: ReaderAdapter, writer: WriterAdapter,
                                         remote_address: str, remote_port: int
                                         ) -> tuple[BrokerProtocolHandler, Session]:
        """amqtt's, with the CONNECT checked first (client id, credentials, the seat's
        CONNECT rate, will, the client id's owner), this user's other connections ended,
        its publish rate and the idle limit set."""
        try:
            handler, session = await _SeatHandler.init_from_connect(
                reader, writer, self.plugins_manager)
        except (NoDataError, AMQTTError, MQTTError, ConnectionError) as exc:
            self._refused(f"no CONNECT from {remote_address}:{remote_port}: {exc}")
            raise ConnectRefused(str(exc)) from None
        raw_id = None
        if isinstance(reader, _BoundedReader) and reader.head is not None:
            raw_id = connect_client_id(bytes(reader.head))
        refusal = await self._connect_refusal(session, raw_id)
        if refusal is not None:
            code, why = refusal
            self._refused(f"refused a CONNECT of user {session.username!r} from "
                          f"{remote_address}:{remote_port}: {why}")
            await ConnackPacket.build(0, code).to_stream(writer)
            raise ConnectRefused(why)
        await self._one_connection_per_seat(session)
        if isinstance(handler, _SeatHandler) and session.username != REFEREE_USER:
            handler.rate = self._rate(self._publishes, session.username or "",
                                      self.publish_rate)
            handler.on_cut = self._cut
        if session.clean_session:
            if session.client_id:
                await self._delete_session(session.client_id)
            else:
                session.client_id = gen_client_id()
            session.parent = 0
        elif session.client_id in self._sessions:
            existing, _ = self._sessions[session.client_id]
            for name in ("will_flag", "will_message", "will_topic", "will_qos", "keep_alive",
                         "username", "password"):
                setattr(existing, name, getattr(session, name))
            session = existing
            session.parent = 1
        else:
            session.parent = 0
        if isinstance(reader, _BoundedReader):
            reader.connected(session.keep_alive)
        return handler, session

    async def _broadcast_message(self, session: Session | None, topic: str | None,
                                 data: bytes | bytearray | None,
                                 force_qos: int | None = None) -> None:
        """amqtt's; a message of the referee's user on a seat's ``down`` topic also lets
        the seat publish one more (an answer to it)."""
        if session is not None and session.username == REFEREE_USER and topic:
            user = down_topic_user(topic)
            rate = self._publishes.get(user) if user is not None else None
            if rate is not None:
                rate.credit()
        await super()._broadcast_message(session, topic, data, force_qos)

    def _refused(self, what: str) -> None:
        """Count a refused CONNECT; log the first, second, fourth ... of them."""
        self.refused_connects += 1
        if self.refused_connects & (self.refused_connects - 1) == 0:
            log.warning("%s (%d refused so far)", what, self.refused_connects)

    def _cut(self, session: Session) -> None:
        """Count a connection closed over its seat's publish rate; log the first, second,
        fourth ... of them."""
        self.cut_connections += 1
        if self.cut_connections & (self.cut_connections - 1) == 0:
            log.warning("closed the connection of user %r (client id %r): it published more "
                        "than %.0f at once or %.0f a second (%d closed so far)",
                        session.username, (session.client_id or "")[:64], *self.publish_rate,
                        self.cut_connections)

    @staticmethod
    def _rate(rates: dict[str, RateLimit], user: str, limit: tuple[float, float]) -> RateLimit:
        """``user``'s bucket in ``rates`` (burst, per second), made on first use."""
        rate = rates.get(user)
        if rate is None:
            rate = rates[user] = RateLimit(*limit)
        return rate

    async def _connect_refusal(self, session: Session, raw_id: bytes | None
                               ) -> tuple[int, str] | None:
        """Why a CONNECT is refused (CONNACK code, reason), or None.  Only a CONNECT with
        the right password counts towards its user's CONNECT rate, so that nobody else can
        spend a seat's."""
        why = client_id_refusal(raw_id, session.client_id or "")
        if why is not None:
            return IDENTIFIER_REJECTED, why
        if not await self._authenticate(session, None):  # type: ignore[arg-type]
            return NOT_AUTHORIZED, "not authorised (user or password)"
        user = session.username or ""
        if user != REFEREE_USER and not self._rate(self._connects, user,
                                                   self.connect_rate).allow():
            burst, per_second = self.connect_rate
            return SERVER_UNAVAILABLE, (f"more than {burst:.0f} CONNECTs at once or "
                                        f"{per_second:.0f} a second")
        why = await self._will_refusal(session)
        if why is not None:
            return NOT_AUTHORIZED, why
        held = self._sessions.get(session.client_id or "")
        if held is not None and held[0].username != session.username:
            return IDENTIFIER_REJECTED, "its client id belongs to another user"
        return None

    async def _one_connection_per_seat(self, session: Session) -> None:
        """A seat's user keeps one client id: its other sessions are ended and dropped."""
        if session.username == REFEREE_USER:
            return
        others = [(cid, held) for cid, held in list(self._sessions.items())
                  if cid != session.client_id and held[0].username == session.username]
        for client_id, (old, handler) in others:
            log.info("user %r connected again as %r: ending its connection as %r",
                     session.username, session.client_id, client_id)
            if old.transitions.is_connected():
                await handler.handle_connection_closed()
                await self._stop_handler(handler)
            await self._delete_session(client_id)

    # ------------------------------------------------------------ accepting
    async def _create_server_instance(self, listener_name: str, listener_type: ListenerType,
                                      address: str | None, port: int,
                                      ssl_context: ssl.SSLContext | None) -> Any:
        if listener_type != ListenerType.TCP:
            return await super()._create_server_instance(listener_name, listener_type,
                                                         address, port, ssl_context)
        sock = socket.create_server((address or "", port), reuse_port=False, backlog=1024)
        sock.setblocking(False)
        return _Listener(self, sock, ssl_context, listener_name)

    async def _will_refusal(self, session: Session) -> str | None:
        """Why a CONNECT's last will is refused, or None: a will is a publish the user
        leaves behind, so its topic must be one the ACL lets the user publish on (the
        publish rate is not spent: the will is sent, if ever, after the connection)."""
        if not session.will_flag:
            return None
        topic = session.will_topic or ""
        if not topic or "+" in topic or "#" in topic:
            return f"its last will's topic {topic[:120]!r} is empty or a wildcard"
        if len(session.will_message or b"") > MAX_MESSAGE_BYTES:
            return f"its last will is longer than {MAX_MESSAGE_BYTES} bytes"
        if not await self._topic_filtering(session, topic, Action.PUBLISH):
            return f"its last will's topic {topic[:120]!r} is not one it may publish on"
        return None

    def _accept_failed(self, exc: OSError) -> None:
        self.accept_errors += 1
        if self.accept_errors & (self.accept_errors - 1) == 0:
            log.warning("cannot accept a connection: %s (%d failures so far; waiting before "
                        "the next try)", exc, self.accept_errors)

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


class _Listener:
    """A TCP listener's socket and its accept loop (what ``asyncio.start_server`` would
    run), which backs off after a failed accept; ``close``/``wait_closed`` as a server's."""

    def __init__(self, broker: GuardedBroker, sock: socket.socket,
                 tls: ssl.SSLContext | None, listener_name: str) -> None:
        self.broker, self.sock, self.tls, self.listener_name = broker, sock, tls, listener_name
        self.sockets = [sock]
        self._connections: set[asyncio.Task[None]] = set()
        self._task = asyncio.create_task(self._accept_loop())

    async def _accept_loop(self) -> None:
        loop = asyncio.get_running_loop()
        delay = ACCEPT_BACKOFF[0]
        while True:
            try:
                conn, _ = await loop.sock_accept(self.sock)
            except OSError as exc:  # EMFILE, ENFILE, ENOBUFS, ENOMEM, ECONNABORTED ...
                self.broker._accept_failed(exc)
                await asyncio.sleep(delay)
                delay = min(2 * delay, ACCEPT_BACKOFF[1])
                continue
            delay = ACCEPT_BACKOFF[0]
            task = asyncio.create_task(self._serve(conn))
            self._connections.add(task)
            task.add_done_callback(self._connections.discard)

    async def _serve(self, conn: socket.socket) -> None:
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader(limit=2 ** 16)
        protocol = asyncio.StreamReaderProtocol(reader)
        try:
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            transport, _ = await loop.connect_accepted_socket(
                lambda: protocol, conn, ssl=self.tls,
                ssl_handshake_timeout=self.broker.connect_deadline if self.tls else None)
        except (OSError, ssl.SSLError, TimeoutError):
            conn.close()
            return
        writer = asyncio.StreamWriter(transport, protocol, reader, loop)
        await self.broker.stream_connected(reader, writer, self.listener_name)

    def close(self) -> None:
        self._task.cancel()
        for task in self._connections:
            task.cancel()
        self.sock.close()

    async def wait_closed(self) -> None:
        await asyncio.gather(self._task, *self._connections, return_exceptions=True)
