"""The Botzone judge mock's matches: walls, games one after another with fresh
processes, totals per seat, records and the printed report."""

from __future__ import annotations

import asyncio
import contextlib
import json
import shlex
import signal
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from arena.platforms.botzone_judge.sandbox import ProgramSeat
from arena.platforms.botzone_judge.turns import (
    DEFAULT_MEMORY_LIMIT,
    DEFAULT_TIME_LIMIT,
    KEPT_RUNNING_SHARE,
    OK,
    SEATS,
    GameReport,
    JudgeSeat,
    ending_fields,
    referee_game,
)
from arena.records.files import write_record
from arena.records.lines import HeaderLayout, RecordHeader
from arena.stats.clustered import outcome_of
from game.events import WallExhausted, Won
from game.rules import MCR_BOTZONE
from game.table import check_walltiles, random_walltiles
from game.table_base import WallError
from game.tiles import Notation, TileError, parse_tile
from protocols.botzone_envelope import Interaction, interaction_for


# ---------------------------------------------------------------- walls
class WallsFileError(ValueError):
    """A ``--walls`` file line that is not a 136-tile duplicate wall; names file and line."""


def seeded_walltiles(seed: int, game: int) -> tuple[int, ...]:
    """Game ``game``'s wall from ``seed`` (the same walls as ``mjbot selfplay``'s)."""
    return random_walltiles(np.random.default_rng([seed, game]))


def _tile_of(item: object, where: str) -> int:
    if isinstance(item, bool):
        raise WallsFileError(f"{where}: {item!r} is not a tile")
    if isinstance(item, int):
        return item
    try:
        return parse_tile(str(item), Notation.BOTZONE)
    except TileError:
        raise WallsFileError(f"{where}: {item!r} is not a Botzone tile name") from None


def read_walls(path: Path) -> list[tuple[int, ...]]:
    """One wall per line: 136 Botzone tile names (``W1 .. J3``) separated by spaces, or a
    JSON list of names or tile indices.  Blank lines and ``#`` comments are skipped."""
    walls: list[tuple[int, ...]] = []
    for n, line in enumerate(path.read_text().splitlines(), 1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        where = f"{path}:{n}"
        if text.startswith("["):
            try:
                items = json.loads(text)
            except json.JSONDecodeError as exc:
                raise WallsFileError(f"{where}: not a JSON list ({exc})") from None
            if not isinstance(items, list):
                raise WallsFileError(f"{where}: not a JSON list")
        else:
            items = text.split()
        tiles = [_tile_of(item, where) for item in items]
        try:
            walls.append(check_walltiles(tiles))
        except WallError as exc:
            raise WallsFileError(f"{where}: {exc}") from None
    if not walls:
        raise WallsFileError(f"{path}: no walls in the file")
    return walls


# ---------------------------------------------------------------- a match
@dataclass(frozen=True)
class JudgeMatchConfig:
    commands: tuple[str, str, str, str]
    games: int = 1
    seed: int = 1
    walls: tuple[tuple[int, ...], ...] | None = None
    """Explicit walls, one per game (else from ``seed``)."""
    time_limit: float = DEFAULT_TIME_LIMIT
    """Seconds for a turn that starts a program (doubled on a game's first turn)."""
    kept_running_limit: float | None = None
    """Seconds for a turn that resumes a kept-running program (None: 4/6 of ``time_limit``,
    Botzone's 4 s at 6 s)."""
    memory_limit: int = DEFAULT_MEMORY_LIMIT
    interaction: Interaction = Interaction.SIMPLE
    records: Path | None = None
    cwd: Path | None = None

    def walltiles(self, game: int) -> tuple[int, ...]:
        if self.walls is not None:
            return self.walls[game]
        return seeded_walltiles(self.seed, game)


ChannelFactory = Callable[[int, str], JudgeSeat]
"""``(seat, command) -> channel`` for one game."""


@dataclass
class SeatTotals:
    seat: int
    command: str
    games: int = 0
    score: int = 0
    wins: int = 0
    self_draws: int = 0
    deal_ins: int = 0
    penalties: dict[str, int] = field(default_factory=dict)
    penalty_details: list[str] = field(default_factory=list)
    max_seconds: float = 0.0

    def add(self, game: GameReport, commands: Sequence[str]) -> None:
        s = self.seat
        result = outcome_of(game.game, commands, game.result).seat(s)
        self.games += 1
        self.score += game.result.scores[s]
        self.wins += result.won
        self.self_draws += result.self_drawn
        self.deal_ins += result.dealt_in
        report = game.seats[s]
        if report.verdict != OK:
            self.penalties[report.verdict] = self.penalties.get(report.verdict, 0) + 1
            self.penalty_details.append(f"game {game.game}: {report.verdict} {report.detail}")
        self.max_seconds = max(self.max_seconds, report.max_seconds)

    def to_json(self) -> dict[str, object]:
        return {"seat": self.seat, "command": self.command, "games": self.games,
                "score": self.score, "mean_score": self.score / self.games if self.games else 0.0,
                "wins": self.wins, "self_draws": self.self_draws, "deal_ins": self.deal_ins,
                "penalties": dict(self.penalties), "penalty_details": list(self.penalty_details),
                "max_seconds": round(self.max_seconds, 4)}


@dataclass(frozen=True)
class MatchReport:
    config: JudgeMatchConfig
    games: tuple[GameReport, ...]
    totals: tuple[SeatTotals, ...]

    def to_json(self) -> dict[str, object]:
        c = self.config
        return {
            "games": len(self.games), "seed": c.seed if c.walls is None else None,
            "interaction": c.interaction.value, "time_limit": c.time_limit,
            "seats": [t.to_json() for t in self.totals],
            "results": [{"game": g.game, "prevalent_wind": g.prevalent_wind,
                         "ending": type(g.result.ending).__name__,
                         "scores": list(g.result.scores), **ending_fields(g.result)}
                        for g in self.games],
        }


def program_channels(config: JudgeMatchConfig) -> ChannelFactory:
    style = interaction_for(config.interaction)

    def make(seat: int, command: str) -> JudgeSeat:
        return ProgramSeat(shlex.split(command), style, memory_limit=config.memory_limit,
                           cwd=config.cwd)

    return make


async def run_match(config: JudgeMatchConfig, channels: ChannelFactory | None = None
                    ) -> MatchReport:
    """Play ``config.games`` games, each with fresh channels; write records when asked."""
    if config.walls is not None and len(config.walls) < config.games:
        raise ValueError(f"{config.games} games asked but only {len(config.walls)} walls given")
    factory = channels or program_channels(config)
    globaldata = [""] * SEATS
    games: list[GameReport] = []
    totals = tuple(SeatTotals(s, config.commands[s]) for s in range(SEATS))
    for g in range(config.games):
        walls = config.walltiles(g)
        prevalent = g % 4
        seats = [factory(s, config.commands[s]) for s in range(SEATS)]
        report = await referee_game(seats, walls, prevalent, time_limit=config.time_limit,
                                    kept_running_limit=config.kept_running_limit,
                                    globaldata=globaldata, commands=config.commands, game=g)
        games.append(report)
        for t in totals:
            t.add(report, config.commands)
        if config.records is not None:
            write_game_record(config, report)
    return MatchReport(config, tuple(games), totals)


def write_game_record(config: JudgeMatchConfig, report: GameReport) -> Path:
    name = f"game-{config.seed}-{report.game:05d}.jsonl" if config.walls is None \
        else f"game-walls-{report.game:05d}.jsonl"
    assert config.records is not None
    path = config.records / name
    header = RecordHeader(
        HeaderLayout.BOTZONE_JUDGE, rules=MCR_BOTZONE,
        seed=config.seed if config.walls is None else None,
        game=report.game, walltiles=report.walltiles, prevalent_wind=report.prevalent_wind,
        interaction=config.interaction, time_limit=config.time_limit,
        memory_limit=config.memory_limit, judge_seats=report.seats,
        verdicts=tuple(s.verdict for s in report.seats))
    write_record(path, header, report.history, report.answers, report.result)
    return path


class MatchInterrupted(Exception):
    """The match was stopped by a signal; every program it started has been killed."""

    def __init__(self, signal_number: int) -> None:
        super().__init__(f"stopped by {signal.Signals(signal_number).name}")
        self.signal_number = signal_number


def play_match(config: JudgeMatchConfig, channels: ChannelFactory | None = None) -> MatchReport:
    """:func:`run_match` on its own event loop.  SIGTERM (and Ctrl-C) cancel it: the programs
    are killed, then :class:`MatchInterrupted` (or ``KeyboardInterrupt``) is raised."""
    terminated: list[int] = []

    async def main() -> MatchReport:
        task = asyncio.current_task()
        loop = asyncio.get_running_loop()
        installed = False

        def stop() -> None:
            terminated.append(signal.SIGTERM)
            if task is not None:
                task.cancel()

        if sys.platform != "win32":
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(signal.SIGTERM, stop)
                installed = True
        try:
            return await run_match(config, channels)
        finally:
            if installed:
                loop.remove_signal_handler(signal.SIGTERM)

    try:
        return asyncio.run(main())
    except asyncio.CancelledError:
        if terminated:
            raise MatchInterrupted(terminated[0]) from None
        raise


# ---------------------------------------------------------------- output
def describe_ending(game: GameReport) -> str:
    ending = game.result.ending
    if isinstance(ending, Won):
        how = "self-drawn" if ending.self_drawn else f"on seat {ending.payer}'s tile"
        return f"seat {ending.seat} won {how}, {ending.fan_total} fan"
    if isinstance(ending, WallExhausted):
        return "wall exhausted"
    return f"seat {ending.seat} penalised {ending.reason}: {game.seats[ending.seat].detail}"


def _kept_running_limit(config: JudgeMatchConfig) -> float:
    if config.kept_running_limit is not None:
        return config.kept_running_limit
    return config.time_limit * KEPT_RUNNING_SHARE


def render(report: MatchReport) -> str:
    c = report.config
    source = f"seed {c.seed}" if c.walls is None else "walls from file"
    lines = [f"{len(report.games)} games ({source}), {c.interaction.value} interaction, "
             f"{c.time_limit:g} s per turn (first turn {2 * c.time_limit:g} s, a kept-running "
             f"turn {_kept_running_limit(c):g} s)"]
    for g in report.games:
        scores = " ".join(f"{x:+d}" for x in g.result.scores)
        lines.append(f"  game {g.game} (wind {g.prevalent_wind}): {scores}  "
                     f"{describe_ending(g)}")
    lines.append(f"{'seat':<4} {'score':>6} {'mean':>7} {'wins':>4} {'self':>4} "
                 f"{'dealt-in':>8} {'max s':>6}  {'penalties':<12} command")
    for t in report.totals:
        penalties = ", ".join(f"{k}x{v}" for k, v in sorted(t.penalties.items())) or "-"
        mean = t.score / t.games if t.games else 0.0
        lines.append(f"{t.seat:<4} {t.score:>+6d} {mean:>+7.2f} {t.wins:>4} {t.self_draws:>4} "
                     f"{t.deal_ins:>8} {t.max_seconds:>6.2f}  {penalties:<12} {t.command}")
        lines += [f"       {d}" for d in t.penalty_details]
    return "\n".join(lines)
