"""The learned discard order: its features on hands in tile notation, and the conditional
logit's fit checked against independent oracles (finite differences of the likelihood,
plain gradient ascent, weights recovered from choices drawn with known weights)."""

from __future__ import annotations

import numpy as np
import pytest

from game.tiles import parse_counts, parse_tiles
from strategy.discard_rank import (
    FEATURES,
    RANK1,
    DiscardFacts,
    DiscardRanker,
    ObservedChoice,
    agreement,
    features,
    fit,
    log_likelihood,
)


def tile(name: str) -> int:
    return parse_tiles(name)[0]


def column(name: str) -> int:
    return FEATURES.index(name)


FULL = np.full(34, 4, dtype=np.int8)


def test_the_features_of_each_close_discard() -> None:
    hand = parse_counts("1m1m3m4m9p9p9p7s1z5z6z2s3s4s")
    unseen = FULL - hand
    facts = [DiscardFacts(tile("1m"), -0.5, 4, 10, 0.01),
             DiscardFacts(tile("7s"), 0.0, 3, 20, 0.02),
             DiscardFacts(tile("1z"), -1.0, 3, 5, 0.0),
             DiscardFacts(tile("5z"), -0.25, 3, 0, 0.0),
             DiscardFacts(tile("9p"), -1.25, 4, 20, 0.03)]
    steps = [tile("7s"), tile("5z"), tile("1z")]
    x = features(hand, unseen, facts, steps, seat_wind=0, prevalent_wind=2, drawn=tile("7s"))
    row = {f.tile: x[k] for k, f in enumerate(facts)}
    m1, s7, east, red, p9 = (row[tile(n)] for n in ("1m", "7s", "1z", "5z", "9p"))
    assert m1[column("value")] == -0.5 and s7[column("value")] == 0.0
    assert m1[column("distance")] == 1 and s7[column("distance")] == 0
    assert m1[column("useful")] == 0.5 and s7[column("useful")] == 1.0
    # in the step order 7s, 5z, 1z; a kind not in it ranks last
    assert s7[column("step_rank")] == 0.0 and red[column("step_rank")] == pytest.approx(1 / 3)
    assert m1[column("step_rank")] == 1.0
    assert m1[column("pair")] == 1 and m1[column("triple")] == 0
    assert p9[column("triple")] == 1 and p9[column("pair")] == 0
    # 1m: 3m is two ranks away; 7s: nothing within two (2s-4s are farther)
    assert m1[column("near")] == 0 and m1[column("gapped")] == 1
    assert s7[column("isolated")] == 1 and m1[column("isolated")] == 0
    assert p9[column("terminal")] == 1 and m1[column("terminal")] == 1
    assert s7[column("terminal")] == 0
    # east is the seat wind: it scores; red dragon scores; both honours
    assert east[column("honour")] == 1 and east[column("valued")] == 1
    assert red[column("valued")] == 1 and m1[column("honour")] == 0
    assert m1[column("left")] == 2 and east[column("left")] == 3
    assert s7[column("danger")] == 0.02
    # the other characters: 1m 3m 4m (3 of 13); the other honours: 5z 6z
    assert m1[column("suit_share")] == pytest.approx(3 / 13)
    assert east[column("suit_share")] == pytest.approx(2 / 13)
    assert s7[column("drawn")] == 1 and m1[column("drawn")] == 0


def test_an_unscored_wind_is_not_valued() -> None:
    hand = parse_counts("123m456m789m11p2z3z")
    facts = [DiscardFacts(tile("2z"), 0.0, 2, 1, 0.0), DiscardFacts(tile("3z"), 0.0, 2, 1, 0.0)]
    x = features(hand, FULL - hand, facts, [], seat_wind=0, prevalent_wind=2, drawn=None)
    assert x[0][column("valued")] == 0  # south: neither the seat (east) nor west
    assert x[1][column("valued")] == 1  # west: the prevalent wind
    assert x[0][column("useful")] == 1.0 and x[0][column("step_rank")] == 1.0


def test_a_discard_the_hand_does_not_hold_is_refused() -> None:
    hand = parse_counts("123m456m789m11p2z3z")
    with pytest.raises(ValueError, match="holds no"):
        features(hand, FULL - hand, [DiscardFacts(tile("9s"), 0.0, 2, 1, 0.0)], [], 0, 0,
                 None)
    with pytest.raises(ValueError, match="no close"):
        features(hand, FULL - hand, [], [], 0, 0, None)


def test_the_ranker_orders_by_score_and_keeps_ties_in_order() -> None:
    weights = [0.0] * len(FEATURES)
    weights[column("useful")] = 1.0
    ranker = DiscardRanker(tuple(weights))
    x = np.zeros((3, len(FEATURES)))
    x[:, column("useful")] = (0.5, 1.0, 0.5)
    assert ranker.order([7, 8, 9], x) == [8, 7, 9]
    with pytest.raises(ValueError, match="weights"):
        DiscardRanker((1.0, 2.0))
    assert len(RANK1.weights) == len(FEATURES) and "held out" in RANK1.source


def synthetic(seed: int, n: int, truth: np.ndarray) -> list[ObservedChoice]:
    """Choices drawn from the conditional logit with weights ``truth``."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        x = rng.normal(size=(int(rng.integers(2, 9)), truth.shape[0]))
        p = np.exp(x @ truth - (x @ truth).max())
        out.append(ObservedChoice(x, int(rng.choice(len(p), p=p / p.sum()))))
    return out


def test_the_gradient_and_hessian_match_finite_differences() -> None:
    truth = np.array([1.0, -2.0, 0.5])
    data = synthetic(1, 60, truth)
    w = np.array([0.3, -0.1, 0.2])
    _, grad, hess = log_likelihood(w, data, 0.3)
    h = 1e-6
    for k in range(3):
        e = np.zeros(3)
        e[k] = h
        up, g_up, _ = log_likelihood(w + e, data, 0.3)
        down, g_down, _ = log_likelihood(w - e, data, 0.3)
        assert grad[k] == pytest.approx((up - down) / (2 * h), rel=1e-5, abs=1e-6)
        assert hess[:, k] == pytest.approx((g_up - g_down) / (2 * h), rel=1e-4, abs=1e-5)


def test_newton_finds_the_optimum_plain_gradient_ascent_finds() -> None:
    data = synthetic(2, 150, np.array([0.8, -1.2, 0.0, 2.0]))
    newton = fit(data, l2=0.5)
    w = np.zeros(4)
    for _ in range(4000):
        w += 0.002 * log_likelihood(w, data, 0.5)[1]
    assert newton == pytest.approx(w, abs=1e-3)
    assert np.abs(log_likelihood(newton, data, 0.5)[1]).max() < 1e-6


def test_known_weights_are_recovered_from_their_choices() -> None:
    truth = np.array([1.5, -1.0, 0.0, 2.5, -0.5])
    data = synthetic(3, 4000, truth)
    w = fit(data, l2=0.01)
    assert w == pytest.approx(truth, abs=0.15)
    # the fitted weights predict the choices as well as the truth does
    assert agreement(w, data) >= agreement(truth, data) - 40
