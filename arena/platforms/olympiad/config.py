"""The Olympiad referee's settings (:class:`RefereeConfig`), the limits it holds every
connection and seat to, and what a refused answer is (:class:`Violation`)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from arena.records.decisions import Fault
from game.stable_wall import WallMode

POLICIES = ("default", "forfeit")
TOURNAMENT_ROUND_FLOOR_MS = 200
"""``mjbot referee olympiad``'s claim-window floor: above what an honest bot thinks over a
claim and the network's jitter, at about 12 s a game (60 windows)."""
CLOSE_REASON_BYTES = 120
"""A WebSocket close reason's length (the protocol allows 123 bytes)."""
ERROR_BURST = 20
ERRORS_PER_SECOND = 1.0
"""Errors a connection may cause: beyond them it gets no more error messages, and a
WebSocket connection is closed (a seat's MQTT topics cannot be)."""
ERRORS_KEPT = 1000
"""The latest errors kept in :attr:`Referee.errors` (all of them are counted)."""
JOIN_BURST = 4
JOINS_PER_SECOND = 0.5
"""Joins one seat may make with its secret: a player joins once, and again after each lost
connection; beyond them a join gets a non-fatal ``too_many_joins`` and no replay."""
ADDRESS_JOIN_BURST = 100
ADDRESS_JOINS_PER_SECOND = 20.0
"""Joins, with a right secret or not, from one network address (WebSocket)."""
REPLAY_BATCH = 32
"""Messages a replay sends before it lets the event loop serve the other tables."""


@dataclass(frozen=True)
class RefereeConfig:
    tables: int = 1
    games: int = 1
    seed: int | None = None
    """The walls' seed, for reproducible tests (predictable walls); None: a secret per table."""
    decision_ms: int = 1000
    policy: str = "default"
    records: Path | None = None
    table_prefix: str = "t"
    wall_mode: WallMode = WallMode.SINGLE
    """The single wall, or the stable draw wall of Tang, Chen & Wu (``--wall sdw``)."""
    round_floor_ms: int = 0
    """The shortest a claim window lasts, from the ``discard`` (or added kong) to the next
    message: every seat but the discarder is asked, and the round ends no sooner than
    this, so its length does not tell who could claim or how long anyone thought (as long
    as every seat answers within it).  0: no floor (local self-play, tests)."""
    join_deadline: float | None = 120.0
    """Seconds a table waits for its four seats (None: for ever).  Then it plays: a seat
    that has never joined is answered at once by the policy (the safe action, or forfeit)
    until it joins."""

    def __post_init__(self) -> None:
        if self.policy not in POLICIES:
            raise ValueError(f"policy {self.policy!r}: expected one of {', '.join(POLICIES)}")
        if self.tables < 1 or self.games < 1 or self.decision_ms < 1:
            raise ValueError("tables, games and decision_ms must be at least 1")
        if self.seed is not None and self.seed < 0:
            raise ValueError(f"seed {self.seed}: a seed is 0 or more")
        if self.round_floor_ms < 0:
            raise ValueError(f"round floor {self.round_floor_ms} ms: must be 0 or more")
        if self.join_deadline is not None and not self.join_deadline > 0:
            raise ValueError(f"join deadline {self.join_deadline}: must be more than 0 s")

    def table_ids(self) -> list[str]:
        return [f"{self.table_prefix}{k + 1}" for k in range(self.tables)]


@dataclass(frozen=True)
class Violation:
    """An ask that ended without a legal answer: ``timeout`` or ``illegal``."""

    kind: Fault
    detail: str
