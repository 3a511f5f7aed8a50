"""The search's win check under mcr-botzone: a completed hand counts as a win only at the
minimum fan (PyMahjongGB's total, through the rule book), kept per context."""

from __future__ import annotations

import numpy as np

from game.rules import MCR_BOTZONE, TAIWAN_16
from game.tiles import parse_counts
from strategy.win_check import FanTotals


def counts(text: str) -> np.ndarray:
    return np.asarray(parse_counts(text), dtype=np.int8)


def test_a_completed_hand_is_a_win_only_at_8_fan() -> None:
    fan = FanTotals()
    check = fan.check(MCR_BOTZONE, (), seat=0, prevalent_wind=0, flowers=0)
    assert check is not None
    assert check(counts("123456789m123p11p"))  # pure straight and more: 22 fan
    assert not check(counts("234m567m345p678s99s"))  # all chows, concealed: under 8
    assert len(fan.totals) == 2
    # the same seat and melds keep the totals; another seat starts afresh
    assert fan.check(MCR_BOTZONE, (), seat=0, prevalent_wind=0, flowers=0) is not None
    assert len(fan.totals) == 2
    fan.check(MCR_BOTZONE, (), seat=1, prevalent_wind=0, flowers=0)
    assert fan.totals == {}


def test_rules_without_a_minimum_have_no_check() -> None:
    assert FanTotals().check(TAIWAN_16, (), seat=0, prevalent_wind=0, flowers=0) is None
