"""What every table state machine shares: its errors, a seat's tiles, the history and
result, and the legal-action interface.

:class:`game.table.BotzoneTable` (the Botzone judge, mcr-botzone) and
:class:`game.taiwan.TaiwanTable` (taiwan-16) are its two tables; both accept an answer
by the rule book's legal list (:mod:`game.rulebook`), which a player's seat view
(:mod:`bot.seat`) lists from the same functions, so a rule is written once.
"""

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from enum import Enum
from typing import Generic, TypeVar

from game.events import Action, Event, GameResult, history_seen_by
from game.melds import Meld
from game.tiles import NUM_KINDS


class WallError(ValueError):
    """A wall that is not the rule set's tiles; the message names the tile or position."""


class TableError(RuntimeError):
    """The table was driven wrongly (answers after the end, for seats not asked, ...)."""


# ---------------------------------------------------------------- a seat's tiles
@dataclass
class SeatTiles:
    """One seat's concealed counts, declared melds and unclaimed discards (every field has a
    default, so the tables' keyword-only subclasses add theirs after them)."""

    hand: "list[int]" = field(default_factory=lambda: [0] * NUM_KINDS)
    melds: "list[Meld]" = field(default_factory=list)
    river: "list[int]" = field(default_factory=list)

    def holds(self, tile: int, n: int = 1) -> bool:
        return 0 <= tile < NUM_KINDS and self.hand[tile] >= n

    def held(self, tile: int) -> int:
        return self.hand[tile] if 0 <= tile < NUM_KINDS else 0

    def concealed(self) -> "tuple[int, ...]":
        return tuple(t for t in range(NUM_KINDS) for _ in range(self.hand[t]))


# ---------------------------------------------------------------- the table
StageT = TypeVar("StageT", bound=Enum)


class Table(ABC, Generic[StageT]):
    """A game's state machine: its history, its result and what each seat may do now."""

    _history: "list[Event]"
    _result: "GameResult | None"
    _stage: "StageT"
    _prevalent_wind: int

    @property
    def stage(self) -> "StageT":
        return self._stage

    @property
    def prevalent_wind(self) -> int:
        return self._prevalent_wind

    @abstractmethod
    def legal_actions(self, seat: int) -> "tuple[Action, ...]":
        """Every action ``seat`` may answer now (empty when it is not asked)."""

    @property
    def finished(self) -> bool:
        return self._result is not None

    @property
    def result(self) -> "GameResult | None":
        return self._result

    @property
    def history(self) -> "tuple[Event, ...]":
        """Every event so far with every tile shown (deals included)."""
        return tuple(self._history)

    def events_seen_by(self, seat: int) -> "tuple[Event, ...]":
        """The history as ``seat`` saw it: its own deal, others' draws hidden."""
        return history_seen_by(self._history, seat, self.prevalent_wind)
