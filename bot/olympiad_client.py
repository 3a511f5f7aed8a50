"""``mjbot play olympiad``: one seat of an Olympiad-style table.

:func:`protocols.olympiad_session.play_seat` is the session loop (join, resume,
reconnect); the player it hands the referee's messages to is :class:`AgentPlayer`: the
same strategy behind the same :class:`bot.session.SeatSession` as on Botzone.  It decides
in a worker thread under a deadline and falls back to the safest option (pass, or discard
the drawn tile) when it fails, is late or has lost its state; every answer is also
checked against the ask's options before it is sent.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.agent import Decision, Strategy
from bot.logging import get_logger
from bot.platform import PlatformSeat
from bot.session import SeatSession
from game.events import Event
from game.rules import TAIWAN_16
from protocols.olympiad import (
    Act,
    AskMsg,
    Deal,
    Draw,
    Welcome,
)
from protocols.olympiad_codec import EventDecoder, act_allowed, act_for, safest_act
from strategy.policy import Method

log = get_logger("mjbot.olympiad")

SECRET_ENV = "MJBOT_SEAT_SECRET"
"""The environment variable ``mjbot play olympiad`` and ``mjbot wrap`` read the seat's
secret from (a command-line option is visible to every user of the machine)."""


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
        if isinstance(msg, AskMsg):
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

    async def _answer(self, ask: AskMsg) -> Act:
        session = self.session
        if all(o.kind == "pass" for o in ask.options):
            # asked after a discard it cannot claim (the referee asks every seat, so the
            # timing tells nothing): nothing to decide, nothing for the session to take
            act = Act(id=ask.id, kind="pass")
            self._note(ask, act, "only pass offered")
            return act
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

    def _note(self, ask: AskMsg, act: Act, method: str, decision: Decision | None = None) -> None:
        self.decisions.append(ClientDecision(ask.id, act, method, decision))

    async def close(self) -> None:
        self.session.close()


__all__ = ["SECRET_ENV", "AgentPlayer"]
