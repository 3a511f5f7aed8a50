"""The Olympiad protocol over WebSocket: the server (:func:`serve_ws`, one :class:`WsLink` per
connection) and the client (:class:`WsClient`)."""

from __future__ import annotations

import asyncio
import contextlib
import ssl
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import websockets
from websockets.asyncio.server import ServerConnection

from protocols.olympiad_transport import (
    DEFAULT_LIMITS,
    ConnectionLost,
    Endpoint,
    Limits,
    RateLimit,
    client_tls,
    deliver,
    log,
)


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
                   limits: Limits = DEFAULT_LIMITS) -> AsyncIterator[int]:
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
