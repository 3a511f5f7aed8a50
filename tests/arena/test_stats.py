"""Match statistics: hand-worked placements, paired differences and player figures
on a small two-team match, Student's t against closed forms, the clustered
interval's coverage on simulated walls, and the variance-reduction figures."""

from __future__ import annotations

import math

import numpy as np
import pytest

from arena.stats.clustered import (
    GameOutcome,
    SeatResult,
    clustered_mean_interval,
    game_differences,
    mean_interval,
    outcome_of,
    paired_difference,
    placement_points,
    player_stats,
    players_of,
    student_t_cdf,
    student_t_quantile,
    variance_reduction,
    wall_differences,
    wall_placement_points,
)
from game.events import FanItem, GameResult, Penalized, WallExhausted, Won

ABAB = ("A", "B", "A", "B")
BABA = ("B", "A", "B", "A")

# A two-team match: three walls, each played twice with the teams swapped.
MATCH = (
    GameOutcome(0, ABAB, (10, -5, 0, -5), winner=0, payer=1, fan=8),
    GameOutcome(0, BABA, (-3, 9, -3, -3), winner=1, self_drawn=True, fan=12),
    GameOutcome(1, ABAB, (-6, 2, 2, 2), winner=1, payer=0, fan=9),
    GameOutcome(1, BABA, (0, 0, 0, 0)),
    GameOutcome(2, ABAB, (4, -4, 0, 0), winner=0, payer=1, fan=10),
    GameOutcome(2, BABA, (1, -1, 1, -1), winner=0, self_drawn=True, fan=8),
)


# ---------------------------------------------------------------- Student's t
def test_student_t_against_closed_forms_and_tables() -> None:
    # df = 1 is Cauchy, df = 2 has a closed form
    for t in (-3.0, -0.5, 0.0, 0.7, 4.0):
        assert student_t_cdf(t, 1) == pytest.approx(0.5 + math.atan(t) / math.pi, abs=1e-12)
        assert student_t_cdf(t, 2) == pytest.approx(0.5 + t / (2 * math.sqrt(2 + t * t)),
                                                     abs=1e-12)
    assert student_t_quantile(0.975, 1) == pytest.approx(math.tan(0.475 * math.pi), rel=1e-9)
    assert student_t_quantile(0.975, 2) == pytest.approx(0.95 * math.sqrt(2 / 0.0975), rel=1e-9)
    # the usual table: 3.182, 2.571, 2.228, 2.042
    for df, value in ((3, 3.1824), (5, 2.5706), (10, 2.2281), (30, 2.0423)):
        assert student_t_quantile(0.975, df) == pytest.approx(value, abs=1e-4)
    assert student_t_quantile(0.025, 10) == pytest.approx(-2.2281, abs=1e-4)
    with pytest.raises(ValueError, match="outside"):
        student_t_quantile(1.0, 3)


# ---------------------------------------------------------------- placements
def test_placement_points_by_hand() -> None:
    assert placement_points((3, 1, 2, 0)) == (4, 2, 3, 1)
    assert placement_points((10, 0, -5, -5)) == (4, 3, 1.5, 1.5)
    assert placement_points((-8, 24, -8, -8)) == (2, 4, 2, 2)
    assert placement_points((5, 5, -5, -5)) == (3.5, 3.5, 1.5, 1.5)
    assert placement_points((0, 0, 0, 0)) == (2.5, 2.5, 2.5, 2.5)
    with pytest.raises(ValueError, match="four"):
        placement_points((1, 2, 3))


def test_wall_placement_ranks_four_players_by_their_wall_totals() -> None:
    games = [
        GameOutcome(0, ("A", "B", "C", "D"), (8, -8, 0, 0)),
        GameOutcome(0, ("B", "C", "D", "A"), (0, 0, 6, -6)),
        GameOutcome(1, ("A", "B", "C", "D"), (0, 0, 0, 0)),
    ]
    # wall 0 totals: A 2, B -8, C 0, D 6 -> D 4, A 3, C 2, B 1; wall 1: all tied, 2.5
    ranked = wall_placement_points(games)
    assert ranked["A"].estimate == pytest.approx(2.75)
    assert ranked["D"].estimate == pytest.approx(3.25)
    assert ranked["B"].estimate == pytest.approx(1.75)
    assert ranked["A"].samples == 2
    with pytest.raises(ValueError, match="2 distinct players"):
        wall_placement_points(MATCH)


# ---------------------------------------------------------------- two programs
def test_paired_difference_by_hand() -> None:
    # wall 0: A (10 + 0 + 9 - 3) / 4 = 4, B (-5 - 5 - 3 - 3) / 4 = -4 -> 8
    # wall 1: A (-6 + 2 + 0 + 0) / 4 = -1, B 1 -> -2;  wall 2: 0.5 - (-0.5) = 1
    assert wall_differences(MATCH, "A", "B") == {0: 8.0, 1: -2.0, 2: 1.0}
    diff = paired_difference(MATCH, "A", "B")
    # mean 7/3, sample variance 79/3, t(0.975, 2) = 4.302653
    assert diff.estimate == pytest.approx(7 / 3)
    assert diff.half_width == pytest.approx(4.302653 * math.sqrt(79 / 3) / math.sqrt(3),
                                            rel=1e-6)
    assert diff.samples == 3
    assert paired_difference(MATCH, "B", "A").estimate == pytest.approx(-7 / 3)
    assert game_differences(MATCH, "A", "B") == [10, 6, -4, 0, 4, -2]
    with pytest.raises(ValueError, match="two players"):
        wall_differences(MATCH, "A", "A")
    with pytest.raises(ValueError, match="never played"):
        paired_difference(MATCH, "A", "C")


def test_variance_reduction_by_hand() -> None:
    z2 = 1.959964**2
    found = variance_reduction(MATCH, "A", "B")
    assert found.games_per_wall == 2
    assert found.wall_variance == pytest.approx(79 / 3)
    # per game: 10, 6, -4, 0, 4, -2; mean 7/3; sum of squares about it 418/3
    assert found.game_variance == pytest.approx(418 / 15)
    assert found.duplicate_games == pytest.approx(2 * 79 / 3 * z2, rel=1e-5)
    assert found.independent_games == pytest.approx(418 / 15 * z2, rel=1e-5)
    assert found.ratio == pytest.approx((418 / 15) / (2 * 79 / 3), rel=1e-9)
    assert variance_reduction(MATCH, "A", "B", half_width=2).duplicate_games == pytest.approx(
        found.duplicate_games / 4
    )


def _simulated_match(rng: np.random.Generator, walls: int, wall_sd: float) -> list[GameOutcome]:
    """Two-team games: a wall's luck favours seats 0 and 2; A is 1 point better per seat."""
    games = []
    for wall in range(walls):
        luck = rng.normal(0, wall_sd)
        for players in (ABAB, BABA):
            noise = rng.normal(0, 6)
            edge = 1.0 if players is ABAB else -1.0
            s0 = luck + edge + noise
            games.append(GameOutcome(wall, players, (s0, -s0, s0, -s0)))
    return games


def test_duplicate_seating_cancels_the_wall_s_luck() -> None:
    found = variance_reduction(_simulated_match(np.random.default_rng(4), 400, 20.0), "A", "B")
    # per game the difference carries the luck (sd 2 * 20) and the noise (sd 2 * 6);
    # over a wall's two seatings the luck cancels, leaving the noise (sd 2 * 6 / sqrt 2)
    assert found.game_variance == pytest.approx(4 * (400 + 36), rel=0.15)
    assert found.wall_variance == pytest.approx(4 * 36 / 2, rel=0.15)
    assert found.ratio == pytest.approx((4 * 436) / (2 * 72), rel=0.2)


# ---------------------------------------------------------------- per player
def test_player_stats_by_hand() -> None:
    a = player_stats(MATCH, "A")
    assert (a.seat_games, a.walls, a.wins) == (12, 3, 3)
    # per-wall score means 4, -1, 0.5
    assert a.score.estimate == pytest.approx(3.5 / 3)
    assert a.score.half_width == pytest.approx(
        student_t_quantile(0.975, 2) * float(np.std([4, -1, 0.5], ddof=1)) / math.sqrt(3)
    )
    assert a.win_rate.estimate == pytest.approx(0.25)  # walls: 2/4, 0/4, 1/4
    assert a.self_draw_rate.estimate == pytest.approx(1 / 12)
    assert a.deal_in_rate.estimate == pytest.approx(1 / 12)
    assert a.mean_fan == pytest.approx(10)  # 8, 12, 10
    # placements per wall: (4+3+4+2)/4, (1+3+2.5+2.5)/4, (4+2.5+1.5+1.5)/4
    assert a.placement.estimate == pytest.approx((3.25 + 2.25 + 2.375) / 3)
    b = player_stats(MATCH, "B")
    assert a.placement.estimate + b.placement.estimate == pytest.approx(5)
    assert b.mean_fan == pytest.approx((9 + 8) / 2)
    assert b.deal_in_rate.estimate == pytest.approx(2 / 12)
    assert players_of(MATCH) == ("A", "B")
    with pytest.raises(ValueError, match="'C' played no game"):
        player_stats(MATCH, "C")


def test_a_seat_s_part_of_a_game_by_hand() -> None:
    """Each seat of a won game on a discard, a self-drawn win and a penalty."""
    dealt = MATCH[0]
    assert [dealt.seat(s) for s in range(4)] == [
        SeatResult("A", 10, True, False, False, 8, False),
        SeatResult("B", -5, False, False, True, None, False),
        SeatResult("A", 0, False, False, False, None, False),
        SeatResult("B", -5, False, False, False, None, False)]
    drawn = MATCH[1].seat(1)
    assert (drawn.won, drawn.self_drawn, drawn.fan) == (True, True, 12)
    assert not any(MATCH[1].seat(s).dealt_in for s in range(4))
    penalty = GameOutcome(0, ABAB, (-30, 10, 10, 10), penalized=0)
    assert penalty.seat(0).penalized and not penalty.seat(1).penalized
    assert not any(penalty.seat(s).won for s in range(4))


def test_game_outcome_checks_and_conversion() -> None:
    with pytest.raises(ValueError, match="without a winner"):
        GameOutcome(0, ABAB, (0, 0, 0, 0), self_drawn=True)
    with pytest.raises(ValueError, match="cannot pay its own"):
        GameOutcome(0, ABAB, (3, -3, 0, 0), winner=0, payer=0)
    with pytest.raises(ValueError, match="payer seat 4"):
        GameOutcome(0, ABAB, (3, -3, 0, 0), winner=0, payer=4)
    won = Won(2, 5, False, False, 3, (FanItem("x", 3), FanItem("y", 2, 2)))
    assert outcome_of(7, ABAB, GameResult(won, (0, 0, 8, -8))) == GameOutcome(
        7, ABAB, (0, 0, 8, -8), winner=2, payer=3, fan=7
    )
    drawn = outcome_of(1, BABA, GameResult(WallExhausted(), (0, 0, 0, 0)))
    assert drawn.winner is None and drawn.penalized is None
    penalty = outcome_of(1, BABA, GameResult(Penalized(3, "forfeit"), (30, 30, 30, -90)))
    assert penalty.penalized == 3 and penalty.scores[3] == -90


# ---------------------------------------------------------------- coverage
def test_clustered_interval_covers_at_its_level_where_a_naive_one_does_not() -> None:
    """Walls shift every game on them (sd 10), games add noise (sd 20): 20 walls of 8."""
    rng = np.random.default_rng(2026)
    true_mean, reps, walls, per_wall = 1.5, 2000, 20, 8
    clusters = [w for w in range(walls) for _ in range(per_wall)]
    clustered = naive = 0
    for _ in range(reps):
        values = (true_mean + np.repeat(rng.normal(0, 10, walls), per_wall)
                  + rng.normal(0, 20, walls * per_wall)).tolist()
        c = clustered_mean_interval(values, clusters)
        n = mean_interval(values)
        clustered += c.low <= true_mean <= c.high
        naive += n.low <= true_mean <= n.high
    # true sd of the mean: sqrt(100/20 + 400/160) = 2.74; naive: sqrt(500/160) = 1.77
    assert 0.93 <= clustered / reps <= 0.97
    assert naive / reps < 0.85


def test_intervals_need_values() -> None:
    with pytest.raises(ValueError, match="no values"):
        mean_interval([])
    one = mean_interval([3.0])
    assert one.estimate == 3 and math.isinf(one.half_width)
    with pytest.raises(ValueError, match="3 values but 2"):
        clustered_mean_interval([1, 2, 3], [0, 1])
