"""``mjbot play olympiad``: one seat of an Olympiad-style table.

:func:`play_seat` is the session loop: connect, ``join`` (with ``resume_from``
= the last seq seen), read the referee's messages, hand each to a
:class:`SeatPlayer` and send its ``act`` for every ``ask``.  When the
connection drops it reconnects with exponential backoff and resumes: messages
already seen (``seq``) are dropped, an ``ask`` already answered gets the same
``act`` again (the referee ignores repeats), so nothing is lost and nothing
is done twice.  A ``join`` that gets no ``welcome`` is sent again (over MQTT
the referee may not be subscribed yet).  Every ``join`` carries the seat's secret
(``token``, never logged) and this run's random ``session``; a fatal error for this
session (``forbidden``: a wrong secret; ``replaced``: another run took the seat over)
ends the loop, with the reason in :attr:`SessionReport.fatal`.

The player is :class:`AgentPlayer`: the same strategy behind the same
:class:`bot.session.SeatSession` as on Botzone: it decides in a worker thread under a
deadline and falls back to the safest option (pass, or discard the drawn tile) when it
fails, is late or has lost its state; every answer is also checked against the ask's
options before it is sent.  (``mjbot wrap`` plays any program through :func:`play_seat`:
the arena's :class:`arena.olympiad_program.ProgramPlayer`.)
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.agent import Decision, Strategy
from bot.logging import get_logger
from bot.platform import PlatformSeat
from bot.session import SeatSession
from game.events import Event
from game.rules import TAIWAN_16
from protocols.olympiad import (
    Act,
    Ask,
    Deal,
    Draw,
    End,
    ErrorMsg,
    Join,
    MessageError,
    Welcome,
    parse_referee_message,
)
from protocols.olympiad_codec import EventDecoder, act_allowed, act_for, safest_act
from protocols.olympiad_log import ResumeCursor
from protocols.olympiad_transport import ClientTransport, ConnectionLost
from strategy.policy import Method

log = get_logger("mjbot.olympiad")

SECRET_ENV = "MJBOT_SEAT_SECRET"
"""The environment variable ``mjbot play olympiad`` and ``mjbot wrap`` read the seat's
secret from (a command-line option is visible to every user of the machine)."""


class SeatPlayer(Protocol):
    async def on_message(self, msg: Any, text: str) -> Act | None:
        """Apply one referee message; for an ``ask``, return the ``act``."""
        ...

    async def close(self) -> None: ...


# ---------------------------------------------------------------- our agent
@dataclass(frozen=True)
class ClientDecision:
    """What the client answered one ask with, and how it decided (kept for tests and logs)."""

    ask: str
    """The ask's wire id."""
    act: Act
    method: str
    """How the answer was reached: the decision's method, or why the client fell back."""
    decision: Decision | None = None
    """The agent's decision (None when the client answered without one)."""


class AgentPlayer(PlatformSeat[Any, Act]):
    """The Olympiad dialect: our agent on one seat, through the same
    :class:`SeatSession` as on Botzone.

    ``deterministic``: a work budget per decision instead of a clock, so a
    match replays exactly (the tests' resumed-client runs rely on it).
    """

    def __init__(self, think_fraction: float = 0.5, max_think_ms: int | None = None,
                 deterministic: bool = False, work_budget: int = 20_000,
                 strategy: Strategy | None = None) -> None:
        super().__init__(SeatSession(TAIWAN_16, strategy,
                                     work_budget=work_budget if deterministic else None))
        self.think_fraction = think_fraction
        self.max_think_ms = max_think_ms
        """A cap on thinking per ask, whatever the ask's deadline."""
        self.decoder = EventDecoder()
        self.decisions: list[ClientDecision] = []
        self.seat = 0
        self._drawn: str | None = None

    def decode(self, wire: Any) -> list[Event]:
        return self.decoder.decode(wire)

    def encode(self, decision: Decision) -> Act:
        return act_for(decision.action, "", self.session.view.tile_in_play)

    async def on_message(self, msg: Any, text: str) -> Act | None:
        if isinstance(msg, Welcome):
            self.seat = self.decoder.seat = msg.seat
            return None
        if isinstance(msg, Ask):
            return await self._answer(msg)
        if isinstance(msg, Deal):
            self.session.new_game()
        if isinstance(msg, Draw):
            self._drawn = msg.tile if msg.seat == self.seat else None
        was_lost = bool(self.session.lost)
        self.take(msg)
        if self.session.lost and not was_lost:
            log.warning("state_lost", seat=self.seat, error=self.session.lost)
        return None

    async def _answer(self, ask: Ask) -> Act:
        session = self.session
        if session.lost:
            act = safest_act(ask, self._drawn)
            self._note(ask, act, f"fallback: state lost ({session.lost})")
            return act
        seconds = self._think_seconds(ask.deadline_ms)
        decision = await session.answer(seconds)
        act = self.encode(decision).model_copy(update={"id": ask.id})
        if not act_allowed(act, ask.options):
            act = safest_act(ask, self._drawn)
            decision = Decision(decision.action, Method.FALLBACK,
                                note=f"strategy answered {decision.action!r}, "
                                     "not among the options")
        self._note(ask, act, decision.describe_method(), decision)
        return act

    def _think_seconds(self, deadline_ms: int) -> float:
        ms = deadline_ms * self.think_fraction
        if self.max_think_ms is not None:
            ms = min(ms, self.max_think_ms)
        return max(0.005, ms / 1000.0)

    def _note(self, ask: Ask, act: Act, method: str, decision: Decision | None = None) -> None:
        self.decisions.append(ClientDecision(ask.id, act, method, decision))

    async def close(self) -> None:
        self.session.close()


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
                if isinstance(msg, Ask):
                    repeat = cursor.repeat_for(msg.id)
                    if repeat is not None:
                        await transport.send(repeat)
                        continue
                    cursor.ask_seen(msg.seq)
                elif not cursor.is_new(msg.seq):
                    continue  # seen before this reconnect, or a QoS 1 duplicate
                act = await player.on_message(msg, text)
                if isinstance(msg, Ask) and act is not None:
                    body = act.model_copy(update={"id": msg.id}).to_json()
                    cursor.sent(msg.id, body)
                    report.acts += 1
                    handed = time.monotonic()
                    await transport.send(body)
                    report.held[msg.id] = (arrived, handed)
                if isinstance(msg, End):
                    report.games += 1
                    report.scores.append(list(msg.scores))
                    if not msg.more:
                        await transport.close()
                        return report
        except ConnectionLost as exc:
            log.info("reconnecting", seat=seat, table=table, error=str(exc), backoff=backoff)
            with contextlib.suppress(Exception):
                await transport.close()


__all__ = ["SECRET_ENV", "AgentPlayer", "SessionReport", "play_seat"]
