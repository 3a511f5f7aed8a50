"""One seat on a platform, whatever its wire: the base both dialects share.

Modelled on python-chess's ``Protocol`` with ``UciProtocol``/``XBoardProtocol``: a
:class:`PlatformSeat` turns wire input into ``game.events`` for its
:class:`bot.session.SeatSession` (the one decide / deadline / fallback / legality
path, and the one safest-answer rule, :func:`bot.seat.safest_action`) and turns the
session's decisions into wire output.  The dialects are :class:`bot.botzone.BotzoneSeat`
(Botzone's request lines and responses) and :class:`bot.olympiad_client.AgentPlayer`
(the Olympiad's JSON messages).

Input that cannot be decoded or applied marks the seat's view lost, once, with a
short reason (the offending text is clipped): the seat keeps answering, safely,
until the next game.
"""

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Generic, TypeVar

from bot.agent import Decision
from bot.session import SeatSession
from game.events import Event

WireIn = TypeVar("WireIn")
WireOut = TypeVar("WireOut")

DECODE_ERRORS: "tuple[type[Exception], ...]" = (ValueError,)
"""What a dialect's decoder raises for bad input (every protocol error is a ValueError)."""


class PlatformSeat(ABC, Generic[WireIn, WireOut]):
    """A seat on one platform: decode, apply, answer, encode."""

    def __init__(self, session: "SeatSession") -> None:
        self.session = session

    @abstractmethod
    def decode(self, wire: "WireIn") -> "Sequence[Event]":
        """The events one piece of wire input carries (raises a ValueError naming what
        was wrong)."""

    @abstractmethod
    def encode(self, decision: "Decision") -> "WireOut":
        """The wire form of a decision."""

    def take(self, wire: "WireIn") -> bool:
        """Decode and apply one piece of input; False (and the view lost, once) when it
        cannot be decoded or applied."""
        try:
            events = self.decode(wire)
        except DECODE_ERRORS as exc:
            self.session.lose(f"unreadable input: {exc}")
            return False
        lost_before = self.session.lost
        self.session.observe(events)
        return self.session.lost == lost_before
