"""One seat of a table, as the referee holds it: who is connected, its message log and
its open ask (:class:`SeatChannel`), and ask ids nobody can guess (:func:`ask_wire_id`)."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from arena.platforms.olympiad.config import (
    REPLAY_BATCH,
    Violation,
)
from bot.logging import get_logger
from game.events import (
    Action,
)
from protocols.olympiad_log import SeatLog, stamped
from protocols.olympiad_transport import ConnectionLost, Link

log = get_logger("mjbot.referee.olympiad")


def ask_wire_id(key: bytes, name: str) -> str:
    """The id an ask carries on the wire: 128 bits of HMAC-SHA256(key, name), URL-safe."""
    digest = hmac.new(key, name.encode(), hashlib.sha256).digest()[:16]
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


@dataclass
class OpenAsk:
    id: str
    seq: int
    legal: tuple[Action, ...]
    fields: dict[str, Any]
    sent_at: float
    """When the transport took the ask: its deadline runs from here."""
    future: asyncio.Future[Action | Violation]
    answered_at: float | None = None
    handed_at: float = 0.0
    """When the ask was handed to the transport (MQTT's QoS 1 publish returns only after
    the broker's PUBACK): the round trip is measured from here."""
    name: str = ""
    """The ask's deterministic name (``TABLE-GAME-STEP-SEAT``), the one records keep."""


@dataclass
class SeatChannel:
    """One seat of one table: its connection, message log (:class:`SeatLog`) and open ask."""

    table: str
    seat: int
    name: str = ""
    link: Link | None = None
    log: SeatLog = field(init=False)
    open_ask: OpenAsk | None = None
    answered: set[str] = field(default_factory=set)
    closed: set[str] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    joined: bool = False
    session: str | None = None
    """The ``session`` of the join that holds the seat."""
    fixed_name: str | None = None
    """The name of the seat's first join (NFKC-normalised): a re-join may not change it."""
    retired: set[str] = field(default_factory=set)
    """Sessions taken over: a join of theirs still on its way (a killed bot's last
    words) must not take the seat back from the bot that replaced them."""

    def __post_init__(self) -> None:
        self.log = SeatLog(self.table)

    @property
    def seq(self) -> int:
        return self.log.seq

    async def emit(self, fields: dict[str, Any], ask_id: str | None = None) -> int:
        async with self.lock:
            seq, text = self.log.append(fields, ask_id)
            if ask_id is not None:
                self._credit()
            await self._send(text)
            return seq

    def _credit(self) -> None:
        """An ask entitles the seat's connection to one more message (its answer): the
        transports' rate limits then fit a seat however fast the table plays."""
        credit = getattr(self.link, "credit", None)
        if callable(credit):
            credit()

    async def _send(self, text: str) -> None:
        link = self.link
        if link is None:
            return
        try:
            await link.send(text)
        except ConnectionLost:
            if self.link is link:
                self.link = None

    async def attach(self, link: Link, welcome: dict[str, Any], after: int,
                     remaining_ms: Callable[[OpenAsk], int]) -> None:
        """Make ``link`` the seat's connection and send it the ``welcome``, then every
        message after ``after`` (closed asks left out) and the open ask, all under the
        seat's lock: no new message overtakes the replay (a player drops seqs it has
        seen, so one that did would hide the replayed ones before it)."""
        async with self.lock:
            self.link = link
            await self._send(self.log.unlogged(welcome))
            ask = self.open_ask
            if ask is not None:
                self._credit()
            ask_text = "" if ask is None else stamped(
                {**ask.fields, "deadline_ms": remaining_ms(ask)}, table=self.table, seq=ask.seq)
            texts = self.log.resume(after, None if ask is None else ask.id, ask_text)
            for n, text in enumerate(texts, 1):
                await self._send(text)
                if n % REPLAY_BATCH == 0:  # a long replay never holds the other tables
                    await asyncio.sleep(0)
