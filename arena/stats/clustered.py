"""Match statistics for duplicate play: per-player scores, rates and placements
with intervals clustered by wall, the paired difference of two programs, and
the variance reduction that duplicate seating buys.

Games played on the same wall share its luck, so they are not independent
samples: every interval here is computed on per-wall values (the wall is the
cluster, as in the duplicate evaluation of Tang, Chen & Wu, "An Efficient
Method for Assessing the Strength of Mahjong Programs", where each wall is
played in several seatings).  A player's value for a wall is the mean over
all its seats in all the wall's games; the estimate is the mean of those
per-wall values (the plain mean per game when every wall has the same
seatings), and its interval is Student's t on them, ``n_walls - 1`` degrees
of freedom: a cluster-robust interval with equal cluster weights.

The input is one :class:`GameOutcome` per game, whatever table produced it
(``outcome_of`` converts a :class:`game.events.GameResult`); a seat's part of it
(:meth:`GameOutcome.seat`: its score, whether it won, self-drew or dealt in, its fan) is
what every per-seat and per-player tally counts.

Placement points follow the 4/3/2/1 ranking of the IJCAI duplicate Mahjong
contests; ties share: seats with equal scores each get the mean of the points
of the places they occupy together (two tied for first: 3.5 each; three tied
behind a winner: 2 each), so a game always hands out 10 points.  (The tie
rule is ours, stated here; the contests' own documents were not at hand.)
``placement_points`` ranks one game's four scores;
``wall_placement_points`` ranks four distinct players by their total score
over each wall, as a contest ranks a duplicate session.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from game.events import GameResult, Penalized, Won
from game.turn_order import SEATS

CONFIDENCE = 0.95
PLACE_POINTS = (4.0, 3.0, 2.0, 1.0)


# ---------------------------------------------------------------- input
@dataclass(frozen=True)
class GameOutcome:
    """One game as the statistics see it.

    ``players[seat]`` is the name of the program in that seat and
    ``scores[seat]`` its score; ``winner`` the winning seat (``None`` for a
    draw game or a penalty), ``self_drawn`` whether it won on its own draw,
    ``payer`` the seat that alone paid for the win (the discarder, or the
    robbed konger: a deal-in), ``fan`` the fan (MCR) or tai (taiwan-16) of the
    win, ``penalized`` the seat penalised when the game ended that way.
    """

    wall: int
    players: tuple[str, str, str, str]
    scores: tuple[float, float, float, float]
    winner: int | None = None
    self_drawn: bool = False
    payer: int | None = None
    fan: int | None = None
    penalized: int | None = None

    def __post_init__(self) -> None:
        if len(self.players) != SEATS or len(self.scores) != SEATS:
            raise ValueError(f"wall {self.wall}: a game has four players and four scores")
        for name, seat in (("winner", self.winner), ("payer", self.payer),
                           ("penalized", self.penalized)):
            if seat is not None and not 0 <= seat < SEATS:
                raise ValueError(f"wall {self.wall}: {name} seat {seat} is outside 0-3")
        if self.winner is None and (self.self_drawn or self.payer is not None
                                    or self.fan is not None):
            raise ValueError(f"wall {self.wall}: self-draw, payer or fan given without a winner")
        if self.self_drawn and self.payer is not None:
            raise ValueError(f"wall {self.wall}: a self-drawn win has no single payer")
        if self.winner is not None and self.payer == self.winner:
            raise ValueError(f"wall {self.wall}: seat {self.winner} cannot pay its own win")

    def seats_of(self, player: str) -> tuple[int, ...]:
        return tuple(s for s in range(SEATS) if self.players[s] == player)

    def seat(self, seat: int) -> SeatResult:
        """What the game was for ``seat``."""
        won = self.winner == seat
        return SeatResult(self.players[seat], self.scores[seat], won, won and self.self_drawn,
                          self.payer == seat, self.fan if won else None,
                          self.penalized == seat)


@dataclass(frozen=True)
class SeatResult:
    """One seat's part of a game."""

    player: str
    score: float
    won: bool
    self_drawn: bool
    dealt_in: bool
    """It alone paid for the win (the discarder, or the robbed konger)."""
    fan: int | None
    """The fan (tai) of its win; None when it did not win."""
    penalized: bool


def outcome_of(
    wall: int, players: Sequence[str], result: GameResult
) -> GameOutcome:
    """The :class:`GameOutcome` of a finished table's ``result``."""
    p0, p1, p2, p3 = players
    s0, s1, s2, s3 = (float(s) for s in result.scores)
    ending = result.ending
    if isinstance(ending, Won):
        return GameOutcome(wall, (p0, p1, p2, p3), (s0, s1, s2, s3), ending.seat,
                           ending.self_drawn, ending.payer, ending.fan_total)
    penalized = ending.seat if isinstance(ending, Penalized) else None
    return GameOutcome(wall, (p0, p1, p2, p3), (s0, s1, s2, s3), penalized=penalized)


# ---------------------------------------------------------------- intervals
@dataclass(frozen=True)
class Interval:
    """``estimate`` with its two-sided interval, from ``samples`` independent values
    (walls); infinite bounds when fewer than two."""

    estimate: float
    low: float
    high: float
    samples: int

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2

    def to_json(self) -> dict[str, float | None]:
        """The interval as JSON (an infinite bound is null)."""
        return {"estimate": self.estimate, "low": _finite(self.low),
                "high": _finite(self.high), "samples": self.samples}


def _finite(x: float) -> float | None:
    return x if math.isfinite(x) else None


def _betacf(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 1000):
        for numerator in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                          -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + numerator / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-15:
            break
    return h


def _regularized_beta(a: float, b: float, x: float) -> float:
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                     + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def student_t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t with ``df`` degrees of freedom."""
    if df <= 0:
        raise ValueError(f"degrees of freedom {df} must be positive")
    tail = 0.5 * _regularized_beta(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t > 0 else tail


@lru_cache(maxsize=4096)
def student_t_quantile(p: float, df: float) -> float:
    """The ``p`` quantile of Student's t with ``df`` degrees of freedom (bisection, at
    most 200 halvings; it stops once a halving would leave the interval as it is: from
    there every further one would too, so the answer is the same float)."""
    if not 0.0 < p < 1.0:
        raise ValueError(f"probability {p} is outside (0, 1)")
    if p < 0.5:
        return -student_t_quantile(1.0 - p, df)
    high = 1.0
    while student_t_cdf(high, df) < p:
        high *= 2.0
    low = 0.0
    for _ in range(200):
        mid = (low + high) / 2.0
        if student_t_cdf(mid, df) < p:
            if mid == low:
                break
            low = mid
        else:
            if mid == high:
                break
            high = mid
    return (low + high) / 2.0


def mean_interval(values: Sequence[float], confidence: float = CONFIDENCE) -> Interval:
    """Student's t interval for the mean of independent ``values``."""
    n = len(values)
    if n == 0:
        raise ValueError("no values: an interval needs at least one")
    mean = statistics.fmean(values)
    if n < 2:
        return Interval(mean, -math.inf, math.inf, n)
    half = student_t_quantile(0.5 + confidence / 2.0, n - 1) * statistics.stdev(values) / (
        math.sqrt(n)
    )
    return Interval(mean, mean - half, mean + half, n)


def cluster_means(values: Sequence[float], clusters: Sequence[int]) -> dict[int, float]:
    """The mean of ``values`` per cluster (wall), in order of first appearance."""
    if len(values) != len(clusters):
        raise ValueError(f"{len(values)} values but {len(clusters)} cluster labels")
    sums: dict[int, list[float]] = {}
    for value, cluster in zip(values, clusters, strict=True):
        sums.setdefault(cluster, []).append(value)
    return {c: statistics.fmean(v) for c, v in sums.items()}


def clustered_mean_interval(
    values: Sequence[float], clusters: Sequence[int], confidence: float = CONFIDENCE
) -> Interval:
    """The mean of the per-cluster means, with Student's t on them (``n_clusters - 1`` df)."""
    return mean_interval(list(cluster_means(values, clusters).values()), confidence)


# ---------------------------------------------------------------- placements
def placement_points(scores: Sequence[float]) -> tuple[float, ...]:
    """4/3/2/1 by score, highest first; tied seats share the mean of their places' points."""
    if len(scores) != SEATS:
        raise ValueError(f"{len(scores)} scores; placements rank four")
    points = []
    for s in scores:
        above = sum(other > s for other in scores)
        tied = sum(other == s for other in scores)
        points.append(statistics.fmean(PLACE_POINTS[above : above + tied]))
    return tuple(points)


def wall_placement_points(
    games: Iterable[GameOutcome], confidence: float = CONFIDENCE
) -> dict[str, Interval]:
    """Per player, 4/3/2/1 per wall by the total score over the wall's games (four
    distinct players per wall), averaged over walls with its interval."""
    totals: dict[int, dict[str, float]] = {}
    for game in games:
        wall = totals.setdefault(game.wall, {})
        for name, score in zip(game.players, game.scores, strict=True):
            wall[name] = wall.get(name, 0.0) + score
    per_player: dict[str, list[float]] = {}
    for wall_index, by_player in totals.items():
        if len(by_player) != SEATS:
            raise ValueError(
                f"wall {wall_index} has {len(by_player)} distinct players; "
                "a wall ranking needs four"
            )
        names = list(by_player)
        for name, points in zip(
            names, placement_points([by_player[n] for n in names]), strict=True
        ):
            per_player.setdefault(name, []).append(points)
    return {name: mean_interval(points, confidence) for name, points in per_player.items()}


# ---------------------------------------------------------------- per player
@dataclass(frozen=True)
class PlayerStats:
    """One player's figures; every rate and mean is per seat-game, clustered by wall."""

    player: str
    seat_games: int
    walls: int
    score: Interval
    placement: Interval
    win_rate: Interval
    self_draw_rate: Interval
    deal_in_rate: Interval
    wins: int
    mean_fan: float | None
    """Mean fan (tai) per win; ``None`` without wins."""

    def to_json(self) -> dict[str, object]:
        return {"player": self.player, "seat_games": self.seat_games, "walls": self.walls,
                "score": self.score.to_json(), "placement": self.placement.to_json(),
                "win_rate": self.win_rate.to_json(),
                "self_draw_rate": self.self_draw_rate.to_json(),
                "deal_in_rate": self.deal_in_rate.to_json(), "wins": self.wins,
                "mean_fan": self.mean_fan}


def player_stats(
    games: Iterable[GameOutcome], player: str, confidence: float = CONFIDENCE
) -> PlayerStats:
    """``player``'s figures over every seat it held in ``games``."""
    walls: list[int] = []
    score: list[float] = []
    placement: list[float] = []
    won: list[float] = []
    self_drawn: list[float] = []
    dealt_in: list[float] = []
    fans: list[int] = []
    for game in games:
        points = placement_points(game.scores)
        for seat in game.seats_of(player):
            result = game.seat(seat)
            walls.append(game.wall)
            score.append(result.score)
            placement.append(points[seat])
            won.append(float(result.won))
            self_drawn.append(float(result.self_drawn))
            dealt_in.append(float(result.dealt_in))
            if result.fan is not None:
                fans.append(result.fan)
    if not walls:
        raise ValueError(f"{player!r} played no game")

    def clustered(values: list[float]) -> Interval:
        return clustered_mean_interval(values, walls, confidence)

    return PlayerStats(
        player=player,
        seat_games=len(walls),
        walls=len(set(walls)),
        score=clustered(score),
        placement=clustered(placement),
        win_rate=clustered(won),
        self_draw_rate=clustered(self_drawn),
        deal_in_rate=clustered(dealt_in),
        wins=int(sum(won)),
        mean_fan=statistics.fmean(fans) if fans else None,
    )


def players_of(games: Iterable[GameOutcome]) -> tuple[str, ...]:
    """Every player name, in order of first appearance."""
    return tuple(dict.fromkeys(name for game in games for name in game.players))


# ---------------------------------------------------------------- two programs
def _difference(game_seats: Iterable[GameOutcome], a: str, b: str) -> float | None:
    a_scores = [g.scores[s] for g in game_seats for s in g.seats_of(a)]
    b_scores = [g.scores[s] for g in game_seats for s in g.seats_of(b)]
    if not a_scores or not b_scores:
        return None
    return statistics.fmean(a_scores) - statistics.fmean(b_scores)


def wall_differences(games: Iterable[GameOutcome], a: str, b: str) -> dict[int, float]:
    """Per wall: the mean score per game of ``a``'s seats minus that of ``b``'s seats
    (walls where both played), in order of first appearance."""
    if a == b:
        raise ValueError(f"a difference needs two players; both are {a!r}")
    by_wall: dict[int, list[GameOutcome]] = {}
    for game in games:
        by_wall.setdefault(game.wall, []).append(game)
    found = {w: _difference(gs, a, b) for w, gs in by_wall.items()}
    return {w: d for w, d in found.items() if d is not None}


def game_differences(games: Iterable[GameOutcome], a: str, b: str) -> list[float]:
    """Per game: ``a``'s mean seat score minus ``b``'s (games where both played)."""
    found = (_difference([g], a, b) for g in games)
    return [d for d in found if d is not None]


def paired_difference(
    games: Iterable[GameOutcome], a: str, b: str, confidence: float = CONFIDENCE
) -> Interval:
    """The mean over walls of the per-wall difference ``a - b``, with its t interval."""
    differences = list(wall_differences(games, a, b).values())
    if not differences:
        raise ValueError(f"{a!r} and {b!r} never played the same wall")
    return mean_interval(differences, confidence)


@dataclass(frozen=True)
class VarianceReduction:
    """Games needed for a ``half_width`` interval on the difference ``a - b``.

    ``duplicate``: walls played in all the match's seatings, the per-wall
    difference as the sample: ``games_per_wall * (z * sd_wall / h)^2`` games.
    ``independent``: every game on its own wall, the per-game difference as
    the sample: ``(z * sd_game / h)^2`` games.  ``z`` is the normal quantile
    (these are planning figures for large matches).
    """

    games_per_wall: float
    wall_variance: float
    game_variance: float
    half_width: float
    duplicate_games: float
    independent_games: float

    @property
    def ratio(self) -> float:
        """How many times fewer games duplicate seating needs."""
        return self.independent_games / self.duplicate_games


def variance_reduction(
    games: Sequence[GameOutcome],
    a: str,
    b: str,
    half_width: float = 1.0,
    confidence: float = CONFIDENCE,
) -> VarianceReduction:
    """Measured on a duplicate match's ``games``: see :class:`VarianceReduction`."""
    if half_width <= 0:
        raise ValueError(f"half width {half_width} must be positive")
    per_wall = wall_differences(games, a, b)
    per_game = game_differences(games, a, b)
    if len(per_wall) < 2:
        raise ValueError("the variance over walls needs at least two walls")
    z = statistics.NormalDist().inv_cdf(0.5 + confidence / 2.0)
    games_per_wall = len(per_game) / len(per_wall)
    wall_variance = statistics.variance(per_wall.values())
    game_variance = statistics.variance(per_game)
    return VarianceReduction(
        games_per_wall=games_per_wall,
        wall_variance=wall_variance,
        game_variance=game_variance,
        half_width=half_width,
        duplicate_games=games_per_wall * wall_variance * (z / half_width) ** 2,
        independent_games=game_variance * (z / half_width) ** 2,
    )


__all__ = [
    "CONFIDENCE",
    "GameOutcome",
    "Interval",
    "PlayerStats",
    "SeatResult",
    "VarianceReduction",
    "cluster_means",
    "clustered_mean_interval",
    "game_differences",
    "mean_interval",
    "outcome_of",
    "paired_difference",
    "placement_points",
    "player_stats",
    "players_of",
    "student_t_cdf",
    "student_t_quantile",
    "variance_reduction",
    "wall_differences",
    "wall_placement_points",
]
