"""The client's session loop of an Olympiad-style table (``protocols/olympiad.md``).

:func:`play_seat` connects, sends ``join`` (with ``resume_from`` = the last seq seen),
reads the referee's messages, hands each to a :class:`SeatPlayer` and sends its ``act``
for every ``ask``.  When the connection drops it reconnects with exponential backoff and
resumes: messages already seen (``seq``) are dropped, an ``ask`` already answered gets the
same ``act`` again (the referee ignores repeats), so nothing is lost and nothing is done
twice.  A ``join`` that gets no ``welcome`` is sent again (over MQTT the referee may not be
subscribed yet).  Every ``join`` carries the seat's secret (``token``, never logged) and
this run's random ``session``; a fatal error for this session (``forbidden``: a wrong
secret; ``replaced``: another run took the seat over) ends the loop, with the reason in
:attr:`SessionReport.fatal`.

The players: the bot's :class:`bot.olympiad_client.AgentPlayer` (``mjbot play olympiad``)
and the arena's :class:`arena.platforms.olympiad.program.ProgramPlayer` (``mjbot wrap``: any program
on a seat).
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from dataclasses import dataclass, field
from typing import Any, Protocol

import structlog

from protocols.olympiad import (
    Act,
    AskMsg,
    End,
    ErrorMsg,
    Join,
    MessageError,
    Welcome,
    parse_referee_message,
)
from protocols.olympiad_log import ResumeCursor
from protocols.olympiad_transport import ClientTransport, ConnectionLost

log = structlog.get_logger("mjbot.olympiad")
"""Resolved at its first use: the commands configure structlog (onto stderr) before."""


class SeatPlayer(Protocol):
    async def on_message(self, msg: Any, text: str) -> Act | None:
        """Apply one referee message; for an ``ask``, return the ``act``."""
        ...

    async def close(self) -> None: ...


# ---------------------------------------------------------------- the session loop
@dataclass
class SessionReport:
    games: int = 0
    reconnects: int = 0
    acts: int = 0
    errors: list[str] = field(default_factory=list)
    scores: list[list[int]] = field(default_factory=list)
    cursor: ResumeCursor = field(default_factory=ResumeCursor)
    """The last seq seen and the act sent for each ask (the resume rules of
    :mod:`protocols.olympiad_log`)."""
    held: dict[str, tuple[float, float]] = field(default_factory=dict)
    """Per ask id: (the ask's text arrived, its act handed to the transport) on
    ``time.monotonic``, the referee's clock.  This seat's own time is the difference; MQTT's
    QoS 1 send returns only after the broker's PUBACK, which is the transport's time."""
    fatal: str = ""
    """Why the referee ended this seat's play (``forbidden``, ``replaced``), if it did."""
    commitment: str | None = None
    """The table's wall commitment, from the first ``welcome``."""
    walls_opened: bool | None = None
    """Whether the seed the last ``end`` revealed opens that commitment (None: none came)."""


async def play_seat(transport: ClientTransport, player: SeatPlayer, *, table: str, seat: int,
                    name: str = "mjbot", max_backoff: float = 2.0, join_timeout: float = 1.0,
                    report: SessionReport | None = None, secret: str | None = None,
                    session: str | None = None) -> SessionReport:
    """Play one seat until the table's last game ends (``end`` with ``more`` false), or
    a fatal error for this session.  ``secret``: the seat's secret; ``session``: this
    run's name (random when not given)."""
    report = report or SessionReport()
    session = session or secrets.token_urlsafe(12)
    cursor = report.cursor
    backoff = 0.05
    first = True
    while True:
        if not first:
            report.reconnects += 1
            await asyncio.sleep(backoff)
            backoff = min(backoff * 2, max_backoff)
        first = False
        try:
            await transport.connect()
            join = Join(name=name, table=table, seat=seat, resume_from=cursor.resume_from,
                        token=secret, session=session).to_json()
            await transport.send(join)
            welcomed = False
            while True:
                if welcomed:
                    text = await transport.recv()
                    arrived = time.monotonic()
                else:
                    try:
                        text = await asyncio.wait_for(transport.recv(), join_timeout)
                    except TimeoutError:
                        await transport.send(join)
                        continue
                    arrived = time.monotonic()
                try:
                    msg = parse_referee_message(text)
                except MessageError as exc:
                    report.errors.append(f"unreadable message: {exc}")
                    log.warning("unreadable", error=str(exc), text=text[:200])
                    continue
                if isinstance(msg, Welcome):
                    welcomed, backoff = True, 0.05
                    if report.commitment is None:
                        report.commitment = msg.commitment
                    await player.on_message(msg, text)
                    continue
                if not welcomed and not isinstance(msg, ErrorMsg):
                    # sent before our join was read (over MQTT the seat's topic carries the
                    # game on): the replay after the welcome brings it again, in order
                    continue
                if isinstance(msg, ErrorMsg):
                    if msg.session != session and (msg.session is not None or msg.fatal):
                        continue  # about another client's join on this seat's MQTT topics
                    report.errors.append(f"{msg.code}: {msg.message}")
                    log.warning("referee_error", code=msg.code, message=msg.message,
                                fatal=msg.fatal)
                    if msg.fatal:
                        report.fatal = f"{msg.code}: {msg.message}"
                        with contextlib.suppress(Exception):
                            await transport.close()
                        return report
                    continue
                if isinstance(msg, AskMsg):
                    repeat = cursor.repeat_for(msg.id)
                    if repeat is not None:
                        await transport.send(repeat)
                        continue
                    cursor.ask_seen(msg.seq)
                elif not cursor.is_new(msg.seq):
                    continue  # seen before this reconnect, or a QoS 1 duplicate
                act = await player.on_message(msg, text)
                if isinstance(msg, AskMsg) and act is not None:
                    body = act.model_copy(update={"id": msg.id}).to_json()
                    cursor.sent(msg.id, body)
                    report.acts += 1
                    handed = time.monotonic()
                    await transport.send(body)
                    report.held[msg.id] = (arrived, handed)
                if isinstance(msg, End):
                    report.games += 1
                    report.scores.append(list(msg.scores))
                    if msg.walls is not None:
                        report.walls_opened = msg.walls.opens(report.commitment)
                        if not report.walls_opened:
                            log.warning("walls_not_as_committed", table=table,
                                        committed=report.commitment,
                                        revealed=msg.walls.commitment)
                    if not msg.more:
                        await transport.close()
                        return report
        except ConnectionLost as exc:
            log.info("reconnecting", seat=seat, table=table, error=str(exc), backoff=backoff)
            with contextlib.suppress(Exception):
                await transport.close()


__all__ = ["SeatPlayer", "SessionReport", "play_seat"]
