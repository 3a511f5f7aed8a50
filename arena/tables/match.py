"""An arena match: walls played in duplicate seatings, statistics clustered by wall,
the paired difference A - B and, optionally, a sequential test that stops the match.

Walls are numbered 0, 1, 2, ...; every wall is played in every seating of the
format (:mod:`arena.stats.seating`) and its games are one paired sample
(:func:`arena.stats.clustered.wall_differences`).  A match of ``games`` plays
``ceil(games / seatings)`` walls; with ``sprt`` it plays walls until the test
(:class:`arena.stats.sprt.PairedSprt`) accepts a hypothesis or ``max_games`` is
reached.  Walls are consumed in order, so the test stops at the same wall
wherever the games ran.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from arena.players.lineup import PlayerKind, parse_player
from arena.stats.clustered import (
    GameOutcome,
    Interval,
    PlayerStats,
    VarianceReduction,
    mean_interval,
    player_stats,
    players_of,
    variance_reduction,
    wall_differences,
)
from arena.stats.report import (
    INTERVALS,
    PLACE_POINTS,
    PLAYER_HEADER,
    player_line,
    with_interval,
)
from arena.stats.seating import Seating, SeatingFormat, lineup_for, seated, seatings
from arena.stats.sprt import MIN_WALLS, PairedSprt, SprtState
from arena.stats.sprt_bias import StoppedEstimate, bias_adjusted
from arena.tables.games import GameSpec, PlayedGame, Rules, SeatFailure
from arena.tables.runner import Runner
from game.draw_consistency import DrawConsistency
from game.stable_wall import WallMode


@dataclass(frozen=True)
class SprtBounds:
    """H0: mean A - B = ``mu0``, H1: = ``mu1`` (points per game), Wald's error rates."""

    mu0: float
    mu1: float
    alpha: float = 0.05
    beta: float = 0.05
    min_walls: int = MIN_WALLS
    """Walls before the test may decide (:data:`arena.stats.sprt.MIN_WALLS`)."""


@dataclass(frozen=True)
class MatchConfig:
    programs: tuple[str, ...]
    """Two player arguments (lineup A B A B) or four."""
    rules: Rules = Rules.MCR_BOTZONE
    wall_mode: WallMode = WallMode.SINGLE
    seating: SeatingFormat = SeatingFormat.ROTATE
    games: int = 8
    sprt: SprtBounds | None = None
    max_games: int = 100_000
    """With a sequential test: stop undecided after this many games."""
    seed: int = 1
    records: Path | None = None

    def __post_init__(self) -> None:
        for p in self.programs:
            spec = parse_player(p)
            if spec.botzone_program and self.rules is not Rules.MCR_BOTZONE:
                raise ValueError(f"{p!r}: a Botzone program plays mcr-botzone only")
            if spec.kind is PlayerKind.OLYMPIAD and self.rules is not Rules.TAIWAN_16:
                raise ValueError(f"{p!r}: an Olympiad program plays taiwan-16 only")
        if self.wall_mode is WallMode.SDW and self.rules is not Rules.TAIWAN_16:
            raise ValueError("the stable draw wall is a taiwan-16 wall mode (mcr-botzone's "
                             "per-seat walls keep draws stable already)")
        if self.games < 1 or self.max_games < 1:
            raise ValueError("games and max_games must be at least 1")
        lineup_for(self.seating, self.labels)
        if self.sprt is not None and self.b is None:
            raise ValueError("a sequential test compares two programs; all four seats play "
                             f"{self.a!r}")

    @property
    def labels(self) -> tuple[str, ...]:
        """The programs' names in the statistics: their arguments; two equal programs
        (self-play) are told apart as ``X`` and ``X#2``.  Among four, the same argument
        is the same program (its seats are pooled)."""
        if len(self.programs) == 2 and self.programs[0] == self.programs[1]:
            return (self.programs[0], f"{self.programs[1]}#2")
        return tuple(self.programs)

    @property
    def a(self) -> str:
        return self.labels[0]

    @property
    def b(self) -> str | None:
        """The program A is compared with (None when all four seats play one program, as
        a speed reference does: there is no difference to measure)."""
        return next((label for label in self.labels if label != self.a), None)

    def seatings(self) -> tuple[Seating, ...]:
        """The format's seatings that put different programs in the seats: with two
        programs (lineup A B A B) a rotation by two or a swap of the two copies of one
        program repeats a game already played, so it is left out (``rotate`` and
        ``teams`` then both play 2 games per wall, ``all24`` plays 6)."""
        lineup = lineup_for(self.seating, self.labels)
        seen: set[tuple[str, ...]] = set()
        out = []
        for seating in seatings(self.seating):
            key = seated(lineup, seating)
            if key not in seen:
                seen.add(key)
                out.append(seating)
        return tuple(out)

    @property
    def games_per_wall(self) -> int:
        return len(self.seatings())

    def walls_planned(self) -> int:
        limit = self.max_games if self.sprt is not None else self.games
        return max(1, math.ceil(limit / self.games_per_wall))

    def wall_specs(self, wall: int) -> list[GameSpec]:
        labels = lineup_for(self.seating, self.labels)
        by_label = dict(zip(self.labels, self.programs, strict=True))
        programs = tuple(by_label[label] for label in labels)
        return [GameSpec(self.rules, self.seed, wall, k, seated(programs, seating),
                         seated(labels, seating), self.wall_mode,
                         record=self.records is not None)
                for k, seating in enumerate(self.seatings())]


@dataclass(frozen=True)
class SeatIncident:
    """A seat's failure or penalty in one game of the match, with its reason."""

    wall: int
    seating: int
    seat: int
    player: str
    reason: str

    @classmethod
    def of(cls, spec: GameSpec, failure: SeatFailure) -> SeatIncident:
        return cls(spec.wall, spec.seating, failure.seat, failure.player, failure.reason)

    def to_json(self) -> dict[str, Any]:
        return {"wall": self.wall, "seating": self.seating, "seat": self.seat,
                "player": self.player, "reason": self.reason}


@dataclass
class MatchProgress:
    """The match so far: games, the running difference and the test's state."""

    config: MatchConfig
    games: list[GameOutcome] = field(default_factory=list)
    played: list[PlayedGame] = field(default_factory=list)
    differences: list[float] = field(default_factory=list)
    """The per-wall difference A - B, wall by wall."""
    running: list[Interval] = field(default_factory=list)
    """The mean difference and its interval after each wall (from the second)."""
    sprt: PairedSprt | None = None
    consistency: DrawConsistency = field(default_factory=lambda: DrawConsistency(0, 0))
    replaced: int = 0
    failures: list[SeatIncident] = field(default_factory=list)
    """In-process seats' exceptions, each replaced by the seat's fallback answer."""
    penalties: list[SeatIncident] = field(default_factory=list)
    """Games that ended in a penalty, with its reason."""

    def add_wall(self, games: list[PlayedGame]) -> None:
        outcomes = [g.outcome for g in games]
        self.games += outcomes
        self.played += [_without_record(g) for g in games]
        for g in games:
            self.consistency = self.consistency + g.consistency
            self.replaced += sum(g.replaced)
            self.failures += [SeatIncident.of(g.spec, f) for f in g.failures]
            seat = g.outcome.penalized
            if seat is not None:
                self.penalties.append(SeatIncident.of(
                    g.spec, SeatFailure(seat, g.spec.labels[seat], g.penalty)))
        b = self.config.b
        diff = wall_differences(outcomes, self.config.a, b) if b is not None else {}
        if diff:
            d = next(iter(diff.values()))
            self.differences.append(d)
            if len(self.differences) >= 2:
                self.running.append(mean_interval(self.differences))
            if self.sprt is not None and self.sprt.state is SprtState.CONTINUE:
                self.sprt.add(d)

    @property
    def decided(self) -> bool:
        return self.sprt is not None and self.sprt.state is not SprtState.CONTINUE

    def describe(self) -> str:
        """One line for the progress bar."""
        parts = []
        if self.running:
            r = self.running[-1]
            parts.append(f"A-B {r.estimate:+.2f} ±{r.half_width:.2f} (95 %)")
        elif self.differences:
            parts.append(f"A-B {self.differences[-1]:+.2f}")
        if self.sprt is not None:
            parts.append(f"llr {self.sprt.llr:+.2f} [{self.sprt.lower:.2f},"
                         f"{self.sprt.upper:.2f}] {self.sprt.state.value}")
        return " | ".join(parts)


def _without_record(game: PlayedGame) -> PlayedGame:
    if game.record is None:
        return game
    from dataclasses import replace

    return replace(game, record=None)


def run_match(config: MatchConfig, runner: Runner,
              on_wall: Callable[[MatchProgress], None] | None = None) -> MatchProgress:
    """Play the match on ``runner``; ``on_wall`` is called after every wall."""
    progress = MatchProgress(config)
    if config.sprt is not None:
        b = config.sprt
        progress.sprt = PairedSprt(b.mu0, b.mu1, b.alpha, b.beta, b.min_walls)

    def batches() -> Iterator[list[GameSpec]]:
        for wall in range(config.walls_planned()):
            yield config.wall_specs(wall)

    results = runner.run(batches())
    try:
        for games in results:
            if config.records is not None:
                write_records(config.records, games)
            progress.add_wall(games)
            if on_wall is not None:
                on_wall(progress)
            if progress.decided:
                break
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()
    return progress


def record_path(directory: Path, game: GameSpec) -> Path:
    return directory / f"game-{game.seed}-w{game.wall:05d}-s{game.seating:02d}.jsonl"


def write_records(directory: Path, games: list[PlayedGame]) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    for g in games:
        if g.record is not None:
            record_path(directory, g.spec).write_text("\n".join(g.record) + "\n")


# ---------------------------------------------------------------- summary
@dataclass(frozen=True)
class MatchSummary:
    config: MatchConfig
    games: int
    walls: int
    players: tuple[PlayerStats, ...]
    difference: Interval | None
    sprt_state: SprtState | None
    sprt_llr: float | None
    variance: VarianceReduction | None
    consistency: DrawConsistency
    replaced: int
    seconds: float
    where: str
    failures: tuple[SeatIncident, ...] = ()
    """In-process seats' exceptions (each replaced by the seat's fallback answer)."""
    penalties: tuple[SeatIncident, ...] = ()
    """Games that ended in a penalty, with its reason."""
    sprt_adjusted: StoppedEstimate | None = None
    """A - B adjusted for where the SPRT stopped the match (:mod:`arena.stats.sprt_bias`;
    None without an SPRT or with fewer than two walls)."""

    def to_json(self) -> dict[str, Any]:
        cfg = self.config
        return {
            "rules": cfg.rules.value, "wall_mode": cfg.wall_mode.value,
            "seating": cfg.seating.value, "seed": cfg.seed, "programs": list(cfg.programs),
            "a": cfg.a, "b": cfg.b, "games": self.games, "walls": self.walls,
            "seconds": self.seconds, "games_per_second": self.games / self.seconds
            if self.seconds > 0 else None, "where": self.where,
            "players": [p.to_json() for p in self.players],
            "difference": None if self.difference is None else self.difference.to_json(),
            "sprt": None if cfg.sprt is None else {
                "mu0": cfg.sprt.mu0, "mu1": cfg.sprt.mu1, "alpha": cfg.sprt.alpha,
                "beta": cfg.sprt.beta, "state": self.sprt_state.value if self.sprt_state else None,
                "llr": self.sprt_llr,
                "adjusted": None if self.sprt_adjusted is None
                else self.sprt_adjusted.adjusted},
            "variance_reduction": None if self.variance is None else {
                "games_per_wall": self.variance.games_per_wall,
                "duplicate_games": self.variance.duplicate_games,
                "independent_games": self.variance.independent_games,
                "ratio": _finite(_ratio(self.variance)),
                "half_width": self.variance.half_width},
            "consistent_draws": {"consistent": self.consistency.consistent,
                                 "draws": self.consistency.draws,
                                 "rate": self.consistency.rate},
            "replaced_answers": self.replaced,
            "seat_failures": [f.to_json() for f in self.failures],
            "penalties": [p.to_json() for p in self.penalties],
        }


def _ratio(v: VarianceReduction) -> float:
    """Independent over duplicate games (infinite when the walls' differences never vary,
    as between two copies of one deterministic program)."""
    if v.duplicate_games == 0:
        return math.inf if v.independent_games > 0 else 1.0
    return v.ratio


def _finite(x: float) -> float | None:
    return x if math.isfinite(x) else None


def summarize(progress: MatchProgress, seconds: float, where: str) -> MatchSummary:
    games = progress.games
    names = players_of(games)
    stats = tuple(player_stats(games, n) for n in names)
    difference = mean_interval(progress.differences) if progress.differences else None
    variance = None
    b = progress.config.b
    if len(progress.differences) >= 2 and b is not None:
        try:
            variance = variance_reduction(games, progress.config.a, b)
        except (ValueError, ZeroDivisionError):
            variance = None
    sprt = progress.sprt
    adjusted = None
    if sprt is not None and len(progress.differences) >= 2:
        adjusted = bias_adjusted(np.array(progress.differences), sprt,
                                 progress.config.walls_planned())
    return MatchSummary(progress.config, len(games), len({g.wall for g in games}), stats,
                        difference, sprt.state if sprt else None, sprt.llr if sprt else None,
                        variance, progress.consistency, progress.replaced, seconds, where,
                        tuple(progress.failures), tuple(progress.penalties), adjusted)


def _count(n: int, noun: str) -> str:
    """``1 wall``, ``2 walls``."""
    return f"{n:,} {noun}" if n == 1 else f"{n:,} {noun}s"


def _variance_line(v: VarianceReduction) -> str:
    """The games a ±h interval on A - B needs with duplicate seatings and on independent
    walls, and how many times fewer duplicate seatings need (none when the walls'
    differences never varied: then no number of games is a ratio)."""
    head = f"games for a ±{v.half_width:g} interval on A - B: "
    independent = f"{v.independent_games:,.0f} on independent walls"
    if not math.isfinite(_ratio(v)):
        return (head + f"none with duplicate seatings (the walls' differences never varied) "
                f"vs {independent}")
    return (head + f"{v.duplicate_games:,.0f} with duplicate seatings vs {independent} "
            f"({_ratio(v):.1f}x fewer)")


def render(summary: MatchSummary) -> str:
    cfg = summary.config
    rate = f"{summary.games / summary.seconds:.1f} games/s" if summary.seconds > 0 else ""
    walls = "per-seat walls" if cfg.rules is Rules.MCR_BOTZONE else f"{cfg.wall_mode.value} wall"
    lines = [f"{cfg.rules.value}, {walls}, {cfg.seating.value} seating: "
             f"{_count(summary.games, 'game')} on {_count(summary.walls, 'wall')}, "
             f"seed {cfg.seed} "
             f"({summary.where}, {summary.seconds:.1f} s, {rate})",
             INTERVALS, PLACE_POINTS, PLAYER_HEADER]
    if any(parse_player(p).kind is PlayerKind.MJBOT_ZIP for p in cfg.programs):
        from arena.tools.package import botzone_python, python_version

        python = botzone_python()
        lines.insert(1, f"mjbot-zip: the Botzone upload run by {python_version(python)} "
                     f"({python})")
    lines += [player_line(p) for p in summary.players]
    if summary.difference is not None:
        d = summary.difference
        lines.append(f"A - B = {cfg.a} - {cfg.b}: {with_interval(d)} points/game "
                     f"({_count(d.samples, 'wall')})")
    if cfg.sprt is not None:
        b = cfg.sprt
        lines.append(f"SPRT H0: {b.mu0:+g}  H1: {b.mu1:+g} points/game, alpha {b.alpha}, "
                     f"beta {b.beta}: {summary.sprt_state.value if summary.sprt_state else '-'}"
                     f" (llr {summary.sprt_llr:+.2f})")
        if summary.sprt_adjusted is not None:
            lines.append(f"A - B adjusted for where the test stopped (a mean at an SPRT's "
                         f"stop leans toward the bound it crossed; Whitehead 1986): "
                         f"{summary.sprt_adjusted.adjusted:+.2f} points/game")
    if summary.variance is not None:
        lines.append(_variance_line(summary.variance))
    c = summary.consistency
    lines.append(f"consistent draws: {c.consistent}/{c.draws} ({c.rate * 100:.2f} %)")
    if summary.replaced:
        lines.append(f"answers the table refused (replaced by its default): {summary.replaced}")
    if summary.failures:
        lines.append(f"seat failures (each answered by the seat's fallback): "
                     f"{len(summary.failures)}")
        lines += _incidents(summary.failures)
    if summary.penalties:
        lines.append(f"games ended by a penalty: {len(summary.penalties)}")
        lines += _incidents(summary.penalties)
    return "\n".join(lines)


def _incidents(incidents: tuple[SeatIncident, ...], shown: int = 5) -> list[str]:
    """One line per player and reason, with its count and first game."""
    groups: dict[tuple[str, str], list[SeatIncident]] = {}
    for i in incidents:
        groups.setdefault((i.player, i.reason), []).append(i)
    lines = []
    for (player, reason), found in list(groups.items())[:shown]:
        first = found[0]
        lines.append(f"  {len(found):>4} x {player}: {reason} (first: wall {first.wall}, "
                     f"seating {first.seating}, seat {first.seat})")
    if len(groups) > shown:
        lines.append(f"  ... and {len(groups) - shown} more reasons (--json lists them all)")
    return lines


# ---------------------------------------------------------------- plot
def plot(progress: MatchProgress, path: Path) -> Path:
    """The running difference A - B with its interval, and the SPRT's llr against its
    bounds (PNG, matplotlib's Agg backend)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    cfg = progress.config
    rows = 2 if progress.sprt is not None else 1
    fig, axes = plt.subplots(rows, 1, figsize=(8, 3.2 * rows), squeeze=False)
    ax = axes[0][0]
    walls = list(range(2, len(progress.running) + 2))
    est = [r.estimate for r in progress.running]
    ax.plot(walls, est, color="C0", label=f"A - B ({cfg.a} - {cfg.b})")
    ax.fill_between(walls, [r.low for r in progress.running],
                    [r.high for r in progress.running], color="C0", alpha=0.2,
                    label="95 % interval")
    ax.axhline(0.0, color="grey", linewidth=0.8)
    ax.set_xlabel("walls")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # a count of walls
    ax.set_ylabel("points per game")
    ax.legend(loc="best", fontsize="small")
    kind = "per-seat walls" if cfg.rules is Rules.MCR_BOTZONE else f"{cfg.wall_mode.value} wall"
    ax.set_title(f"{cfg.rules.value}, {kind}, {cfg.seating.value} seating")
    if progress.sprt is not None:
        s = progress.sprt
        ax2 = axes[1][0]
        ax2.plot(range(1, len(s.trace) + 1), s.trace, color="C1", label="log-likelihood ratio")
        ax2.axhline(s.upper, color="C2", linestyle="--", label=f"accept H1 ({s.mu1:+g})")
        ax2.axhline(s.lower, color="C3", linestyle="--", label=f"accept H0 ({s.mu0:+g})")
        ax2.set_xlabel("walls")
        ax2.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax2.set_ylabel("llr")
        ax2.legend(loc="best", fontsize="small")
        ax2.set_title(f"SPRT: {s.state.value}")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def write_summary(summary: MatchSummary, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(summary.to_json(), indent=1) + "\n")


__all__ = ["MatchConfig", "MatchProgress", "MatchSummary", "SprtBounds", "plot", "render",
           "run_match", "summarize", "write_records", "write_summary"]
