"""A value learned from play (arena/lab/fits/value_fit.py): the chosen action's outlook in
tile notation, the chain's fit on rows drawn from a known chain, the points by hand, and
the rows of one seeded self-play game."""

from __future__ import annotations

import numpy as np
import pytest

from arena.lab.fits.value_fit import (
    COLUMNS,
    _chosen,
    fit_chain,
    game_rows,
    p_chain,
    p_handset,
    points,
)
from arena.players.lineup import parse_player, planner_v1, strategy_of
from bot.agent import Decision
from bot.planner import Planner
from game import events as ev
from game.rules import MCR_BOTZONE
from game.tiles import parse_tiles
from strategy.deficiency.kernel import UNREACHABLE
from strategy.policy import Method
from strategy.value import Outlook, ValuedCandidate, WinChain


def tile(text: str) -> int:
    return parse_tiles(text)[0]


def test_the_row_reads_the_outlook_of_the_discard_taken() -> None:
    kept = Outlook(3, 20, 0.4, 0.01, 15.0)
    other = Outlook(4, 20, 0.2, 0.0, 8.0)
    reasons = (ValuedCandidate(ev.ActionKind.DISCARD, tile("9p"), 4, outlook=other),
               ValuedCandidate(ev.ActionKind.DISCARD, tile("5m"), 3, outlook=kept))
    c = _chosen(Decision(ev.Discard(tile("5m")), Method.DP, reasons))
    assert c is not None and c.outlook is kept
    assert _chosen(Decision(ev.DeclareWin(), Method.WIN, reasons)) is None


def rows_from(chain: WinChain, n: int, seed: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    rows = {c: np.zeros(n) for c in COLUMNS}
    rows["distance"] = rng.integers(1, 6, n).astype(float)
    rows["turns"] = rng.integers(0, 35, n).astype(float)
    rows["won"] = (rng.random(n) < p_chain(rows, chain)).astype(float)
    return rows


def test_the_fit_recovers_the_rates_of_a_known_chain() -> None:
    true = WinChain(0.1, (0.3, 0.2, 0.15, 0.12, 0.1, 0.1), 0.02)
    rows = rows_from(true, 20_000, 11)
    fitted = fit_chain(rows, rounds=4)
    assert fitted.ready_rate == pytest.approx(true.ready_rate, abs=0.03)
    assert fitted.step_rates[0] == pytest.approx(true.step_rates[0], abs=0.06)
    y = rows["won"]

    def loss(p: np.ndarray) -> float:
        q = np.clip(p, 1e-4, 1 - 1e-4)
        return float(-(y * np.log(q) + (1 - y) * np.log(1 - q)).mean())

    assert loss(p_chain(rows, fitted)) <= loss(p_chain(rows, true)) + 1e-4
    assert loss(p_chain(rows, fitted)) < loss(p_handset(rows))


def test_the_points_by_hand() -> None:
    rows = {c: np.zeros(4) for c in COLUMNS}
    rows["game"] = np.array([0.0, 0.0, 0.0, 1.0])
    rows["seat"] = np.array([0.0, 0.0, 1.0, 0.0])
    rows["distance"] = np.array([2.0, 1.0, 3.0, 2.0])
    rows["won"] = np.array([1.0, 1.0, 0.0, 0.0])
    rows["points"] = np.array([33.0, 33.0, -8.0, 0.0])
    p = points(rows)
    assert p["seat_games"] == 3 and p["win_points"] == 33.0
    assert p["game_points"] == pytest.approx((33 - 8 + 0) / 3)
    assert p["by_distance"]["2"] == {"n": 2, "win": 0.5, "points": 16.5}


def test_one_seeded_game_gives_rows_with_its_outcome() -> None:
    rows = game_rows(4242, 0, ["planner-v1"] * 4)
    n = len(rows["won"])
    assert n > 20
    for s in range(4):
        m = rows["seat"] == s
        # one outcome per seat and game
        assert len(set(rows["won"][m])) <= 1 and len(set(rows["points"][m])) <= 1
    assert rows["won"].max() <= 1 and (rows["distance"] >= 0).all()
    # after a discard the useful copies are counted (where the distance is finite)
    counted = (rows["kind"] == 0) & (rows["distance"] < UNREACHABLE)
    assert counted.any() and (rows["useful"][counted] >= 0).all()


def test_the_learned_knob_sets_the_weight_and_planner_v1_keeps_the_hand_set_chain() -> None:
    s = strategy_of(parse_player("planner:learned=1"), MCR_BOTZONE)
    assert isinstance(s, Planner) and s.model.win_fit == 1.0
    v1 = planner_v1(MCR_BOTZONE)
    assert isinstance(v1, Planner) and v1.model.win_fit == 0.0
