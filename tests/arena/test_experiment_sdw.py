"""The experiment's tables from hand-made games, the numbers worked by hand."""

from __future__ import annotations

import pytest

from arena.lab.experiments.sdw import match_errors, reshuffle_table, table1, win_rate
from arena.stats.clustered import GameOutcome
from arena.tables.games import GameSpec, PlayedGame, Rules
from game.draw_consistency import DrawConsistency
from game.stable_wall import Reshuffle, WallMode

TEAMS = ("simcat", "eps", "simcat", "eps")


def _game(wall: int, winner: int | None, steals: tuple[int, int, int, int] = (0, 0, 0, 0),
          draws: tuple[int, int, int, int] = (10, 10, 10, 10),
          reshuffles: tuple[Reshuffle, ...] = ()) -> PlayedGame:
    spec = GameSpec(Rules.TAIWAN_16, 1, wall, 0, TEAMS, TEAMS, WallMode.SDW)
    scores = (0.0,) * 4 if winner is None else tuple(
        3.0 if s == winner else (-3.0 if s == (winner + 1) % 4 else 0.0) for s in range(4))
    a, b, c, d = scores
    outcome = GameOutcome(wall, TEAMS, (a, b, c, d), winner,
                          payer=None if winner is None else (winner + 1) % 4)
    return PlayedGame(spec, outcome, steals, draws, DrawConsistency(9, 10),
                      reshuffles=reshuffles)


def test_win_rate_counts_the_simcat_team_over_games_somebody_won() -> None:
    games = [_game(0, 0), _game(0, 2), _game(1, 1), _game(1, None)]
    assert win_rate(games) == pytest.approx(2 / 3)
    assert win_rate([_game(0, None)]) is None


def test_table1_per_player_per_game() -> None:
    # 2 games: steals 1+0+2+1 and 0+0+0+1 -> 5 over 8 seat-games; draws 10 each
    games = [_game(0, 0, steals=(1, 0, 2, 1)), _game(1, 1, steals=(0, 0, 0, 1))]
    row = table1(games)
    assert row["n_steal"] == pytest.approx(5 / 8)
    assert row["n_total"] == pytest.approx(10 + 5 / 8)
    assert row["r_steal"] == pytest.approx(100 * 5 / 85)


def test_match_errors_cut_the_games_in_order() -> None:
    # matches of two games: (win, win) -> 1.0, (loss, loss) -> 0.0, (win, loss) -> 0.5;
    # truth 0.5: errors 0.5, 0.5, 0 -> mean 1/3; the leftover game makes no match
    games = [_game(0, 0), _game(0, 2), _game(1, 1), _game(1, 3), _game(2, 0), _game(2, 1),
             _game(3, 0)]
    n, err = match_errors(games, 2, 0.5)
    assert n == 3 and err == pytest.approx(100 / 3)


def test_reshuffle_table() -> None:
    r = Reshuffle(seat=0, tiles=30, available_draws=14)
    s = Reshuffle(seat=1, tiles=20, available_draws=4, supplementary=True)
    games = [_game(0, 0), _game(0, 1, reshuffles=(r,)), _game(1, 0, reshuffles=(s, r)),
             _game(1, None)]
    row = reshuffle_table(games)
    assert (row["rsf_0"], row["rsf_1"], row["rsf_2"], row["rsf_3+"]) == (50, 25, 25, 0)
    # first reshuffles: n_rad 14 and 4
    assert row["rad_11-15"] == 50 and row["rad_1-5"] == 50 and row["rad_mean"] == 9
    assert row["supplementary_first"] == 50


def test_bootstrap_error_resamples_whole_walls() -> None:
    from arena.lab.experiments.sdw import bootstrap_error

    # every wall: SIMCAT wins one game of two, so every resampled match has wr = 1/2
    games = [g for w in range(6) for g in (_game(w, 0), _game(w, 1))]
    assert bootstrap_error(games, 4, 0.5) == 0.0
    assert bootstrap_error(games, 4, 0.4) == pytest.approx(10.0)
    # walls of (win, win) and (loss, loss): a one-wall match is 1 or 0, error 1/2 always
    mixed = [g for w in range(6) for g in ((_game(w, 0), _game(w, 2)) if w % 2
                                             else (_game(w, 1), _game(w, 3)))]
    assert bootstrap_error(mixed, 2, 0.5) == pytest.approx(50.0)


def test_a_quick_run_says_it_is_a_smoke_run_and_a_mean_of_nothing_is_na() -> None:
    from arena.lab.experiments.sdw import headline, render

    assert headline({"games_per_cell": 16, "smoke": True}).startswith(
        "SMOKE RUN (--quick), not a reproduction")
    assert "fewer than the paper's 20,000" in headline({"games_per_cell": 400})
    assert "reproduced" not in headline({"games_per_cell": 20_000})
    assert reshuffle_table([_game(0, 1)])["rad_mean"] is None  # no game reshuffled
    row = {"epsilon": 1.0, "wall": "sdw", "rad_mean": None, "err_500": None,
           "err_500_matches": 0}
    text = render({"games_per_cell": 16, "smoke": True, "match_sizes": [2, 4], "cells": [row]})
    assert "nan" not in text
    assert "n/a (rad_mean): no game of the cell reshuffled its wall" in text
    assert "n/a (err): no match of that many games had a win" in text
