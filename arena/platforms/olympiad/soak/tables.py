"""Tables played under watch: the players that time every message, the gaps and the claim
samples a timing attack reads (:func:`threshold_attack`), and the runs compared with the
undisturbed games."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import math
import time
from collections.abc import Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from arena.platforms.olympiad.config import RefereeConfig
from arena.platforms.olympiad.match import (
    serving,
    transport_for,
)
from arena.platforms.olympiad.referee import Referee
from arena.platforms.olympiad.soak.corpus import (
    WORK_BUDGET,
    ChaosTransport,
    SafePlayer,
    Trouble,
)
from arena.platforms.olympiad.table_session import GameSummary
from arena.platforms.olympiad.walls import (
    WallSeed,
)
from bot.olympiad_client import AgentPlayer
from protocols.olympiad import (
    Act,
    AskMsg,
    DiscardMsg,
)
from protocols.olympiad_mqtt import MqttClient
from protocols.olympiad_session import SeatPlayer, SessionReport, play_seat
from protocols.olympiad_transport import (
    ClientTransport,
)
from protocols.olympiad_ws import WsClient


# ---------------------------------------------------------------- the runs
def soak_player(seat: int) -> SeatPlayer:
    return AgentPlayer(deterministic=True, work_budget=WORK_BUDGET) if seat == 0 else SafePlayer()


def game_records(directory: Path) -> dict[str, list[str]]:
    out = {}
    for path in sorted(directory.glob("*.jsonl")):
        lines = path.read_text().splitlines()
        header = json.loads(lines[0])
        header.pop("seats", None)
        out[path.name] = [json.dumps(header, sort_keys=True), *lines[1:]]
    return out


async def troubled_tables(referee: Referee, url: str, kind: str, seed: int, trouble: Trouble,
                           restart_at: dict[tuple[str, int], int]) -> list[SessionReport]:
    """Every seat of ``referee``'s tables through a chaos transport; a seat listed in
    ``restart_at`` is killed once it has sent that many acts and started again.  The
    report of each seat's last bot."""
    reports: list[SessionReport] = []

    def start(table: str, seat: int, index: int) -> tuple[asyncio.Task[SessionReport],
                                                         SessionReport, ClientTransport]:
        secret = referee.secrets.secret(table, seat)
        inner: ClientTransport = (WsClient(url) if kind == "ws"
                                  else MqttClient(url, table, seat, secret))
        rng = np.random.default_rng([seed, index, seat, len(reports)])
        transport = ChaosTransport(inner, rng, trouble)
        report = SessionReport()
        reports.append(report)
        task = asyncio.create_task(play_seat(transport, soak_player(seat), table=table, seat=seat,
                                             report=report, secret=secret, max_backoff=0.5))
        return task, report, transport

    async def seat_life(table: str, seat: int, index: int) -> SessionReport:
        task, report, transport = start(table, seat, index)
        limit = restart_at.get((table, seat))
        if limit is not None:
            while report.acts < limit and not task.done():
                await asyncio.sleep(0.01)
            if not task.done():
                task.cancel()  # the bot's process is gone: no state survives
                with contextlib.suppress(asyncio.CancelledError):
                    await task
                if kind == "mqtt":
                    await transport.close()
                trouble.restarts += 1
                task, report, transport = start(table, seat, index)
        return await task

    return list(await asyncio.gather(*(seat_life(t, s, k) for k, t in enumerate(referee.tables)
                                       for s in range(4))))


# ---------------------------------------------------------------- what the scenarios share
@dataclass
class Scenario:
    """One trouble beyond the chaos run: what it does, what came of it, whether it passed."""

    what: str
    result: str
    ok: bool
    figures: dict[str, Any] = field(default_factory=dict)


class WatchingPlayer(SafePlayer):
    """:class:`SafePlayer` that notes when each message arrived (``seen``: time.monotonic,
    message) and, with ``think``, sleeps that long before answering an ask that offers more
    than ``pass`` and is not its turn to discard (a claim it could make)."""

    def __init__(self, think: float = 0.0) -> None:
        super().__init__()
        self.think = think
        self.seen: list[tuple[float, Any]] = []

    async def on_message(self, msg: Any, text: str) -> Act | None:
        self.seen.append((time.monotonic(), msg))
        if self.think and isinstance(msg, AskMsg):
            kinds = {o.kind for o in msg.options}
            if kinds - {"pass"} and "discard" not in kinds:
                await asyncio.sleep(self.think)
        return await super().on_message(msg, text)

    def messages(self, kind: type) -> list[Any]:
        return [m for _, m in self.seen if isinstance(m, kind)]


Seen = Sequence[tuple[float, Any]]


def longest_gap(seen: Seen) -> float:
    """The longest time between two messages a seat got in a row (0 with fewer than two)."""
    return max((b[0] - a[0] for a, b in itertools.pairwise(seen)), default=0.0)


# ------------------------------------------------ 6. the timing attack (its classifier)
def gaps_after_discards(seen: Seen) -> list[tuple[float, bool | None]]:
    """Per discard a seat saw, in order: the gap to the next message that is not its own
    ask, and whether its own next message was an ask with a real choice (None: no ask)."""
    out: list[tuple[float, bool | None]] = []
    for i, (at, msg) in enumerate(seen):
        if not isinstance(msg, DiscardMsg):
            continue
        choice: bool | None = None
        gap = math.inf
        for later, nxt in seen[i + 1:]:
            if isinstance(nxt, AskMsg):
                if choice is None:
                    choice = any(o.kind != "pass" for o in nxt.options)
                continue
            gap = later - at
            break
        out.append((gap, choice))
    return out


def claim_samples(seen: Mapping[int, Seen]) -> list[tuple[float, bool]]:
    """What the attacker at seat 0 learns per discard: (the gap it saw, whether a seat other
    than the discarder could claim the tile), from every seat's ``seen``."""
    discarders = [m.seat for _, m in seen[0] if isinstance(m, DiscardMsg)]
    gaps = gaps_after_discards(seen[0])
    others = {s: gaps_after_discards(seen[s]) for s in (1, 2, 3)}
    out = []
    for k, (gap, _) in enumerate(gaps):
        claimable = any(others[s][k][1] for s in (1, 2, 3) if s != discarders[k])
        if math.isfinite(gap):
            out.append((gap, bool(claimable)))
    return out


def binomial_tail(successes: int, n: int, p: float) -> float:
    """P(X >= successes) for X ~ Binomial(n, p)."""
    return sum(math.comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(successes, n + 1))


def threshold_attack(samples: Sequence[tuple[float, bool]]) -> tuple[int, int, float, float]:
    """The classifier that once read 112 of 112 discards: "someone could claim" when the gap
    is above a threshold, the threshold fitted on the first half of the samples (the best it
    can do) and scored on the second.  (Right, scored, the commoner answer's rate there, the
    one-sided binomial p-value of doing that well by always guessing the commoner answer.)"""
    half = len(samples) // 2
    train, test = samples[:half], samples[half:]
    if not test:
        return 0, 0, 1.0, 1.0

    def right(threshold: float, rows: Sequence[tuple[float, bool]]) -> int:
        return sum((gap > threshold) == label for gap, label in rows)

    candidates = [-math.inf, *sorted({g for g, _ in train})]
    best = max(candidates, key=lambda t: right(t, train))
    hits = right(best, test)
    positive = sum(label for _, label in test) / len(test)
    base = max(positive, 1 - positive)
    return hits, len(test), base, binomial_tail(hits, len(test), base)


# ------------------------------------------------ tables the scenarios play
@dataclass
class TableRun:
    """One run of a scenario's tables: its referee, summaries, seats and records."""

    referee: Referee
    summaries: list[GameSummary]
    players: dict[tuple[str, int], SeatPlayer]
    reports: dict[tuple[str, int], SessionReport]
    records: dict[str, list[str]]
    seconds: float

    def watching(self, table: str, seat: int) -> WatchingPlayer:
        """The seat's player, a :class:`WatchingPlayer` (the default)."""
        player = self.players[(table, seat)]
        if not isinstance(player, WatchingPlayer):
            raise TypeError(f"{table} seat {seat} was played by {type(player).__name__}")
        return player

    def seen(self, table: str) -> dict[int, list[tuple[float, Any]]]:
        """What each seat of ``table`` got, and when."""
        return {s: self.watching(table, s).seen for s in range(4)}

    def gap(self, table: str) -> float:
        """The longest gap between two messages any seat of ``table`` got."""
        return max(longest_gap(seen) for seen in self.seen(table).values())

    def violations(self, but: tuple[str, int] | None = None) -> list[str]:
        """Every ask that timed out or got an illegal answer, except at seat ``but``."""
        return [f"{s.table} seat {v.seat} game {s.game}: {v.kind.value}" for s in self.summaries
                for v in s.violations if (s.table, v.seat) != but]

    def drops(self) -> int:
        return sum(r.reconnects for r in self.reports.values())


Wrap = Callable[[str, int, ClientTransport], ClientTransport]
During = Callable[[Referee, str, asyncio.Event], Coroutine[Any, Any, None]]


async def play_tables(config: RefereeConfig, via: str, *,
                      players: Callable[[str, int], SeatPlayer] | None = None,
                      wrap: Wrap | None = None, during: During | None = None,
                      walls: WallSeed | None = None) -> TableRun:
    """Play ``config``'s tables over ``via`` (``ws``; ``embedded``: MQTT through the embedded
    broker), every seat by ``players`` (default :class:`WatchingPlayer`), its transport
    through ``wrap`` when given; ``during(referee, url, over)`` runs beside the games until
    they are ``over``; ``walls``: every table's (a revealed seed, to play its games again)."""
    referee = Referee(config)
    if walls is not None:
        for session in referee.tables.values():
            session.walls = walls
    make = players or (lambda table, seat: WatchingPlayer())
    seated = {(t, s): make(t, s) for t in referee.tables for s in range(4)}
    reports = {key: SessionReport() for key in seated}
    kind = "ws" if via == "ws" else "mqtt"
    started = time.perf_counter()
    async with serving(referee, kind) as url:
        seats = []
        for (table, seat), player in seated.items():
            secret = referee.secrets.secret(table, seat)
            transport = transport_for(kind, url, table, seat, secret)
            if wrap is not None:
                transport = wrap(table, seat, transport)
            seats.append(play_seat(transport, player, table=table, seat=seat, name=f"p{seat}",
                                   report=reports[(table, seat)], secret=secret,
                                   max_backoff=0.5))
        over = asyncio.Event()
        beside = asyncio.create_task(during(referee, url, over)) if during else None
        game = asyncio.create_task(referee.run())
        try:
            await asyncio.gather(*seats)
            summaries = await game
        finally:
            over.set()
            if beside is not None:
                await beside
    assert config.records is not None
    return TableRun(referee, summaries, seated, reports, game_records(config.records),
                    time.perf_counter() - started)


def fresh(workdir: Path, name: str) -> Path:
    path = workdir / name
    path.mkdir(parents=True)
    return path
