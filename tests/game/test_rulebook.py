"""The rule book's answers that depend on the rule set's family alone."""

from dataclasses import replace

import pytest

from game.rulebook import declarable_win, minimum_fan, win_context
from game.rules import MAHJONG_0, MCR_BOTZONE, MCR_BOTZONE_FLOWERS, TAIWAN_16, Family, Ruleset
from game.tiles import parse_tiles

CHEAP = parse_tiles("123m456m234p678s5p")
"""Waits on 5p for four melds and a pair worth less than 8 fan."""


@pytest.mark.parametrize(("rules", "family"), [
    (MCR_BOTZONE, Family.MCR), (MCR_BOTZONE_FLOWERS, Family.MCR),
    (TAIWAN_16, Family.TAIWAN), (MAHJONG_0, Family.PLAIN)])
def test_each_rule_set_names_its_family(rules: Ruleset, family: Family) -> None:
    assert rules.family is family


def test_the_family_alone_decides_whether_a_win_needs_its_fan() -> None:
    context = win_context(seat=0, prevalent_wind=0, self_drawn=False, flowers=2)
    concealed, tile = CHEAP, parse_tiles("5p")[0]
    assert declarable_win(MCR_BOTZONE, concealed, (), tile, context) is None
    plain = replace(MCR_BOTZONE, family=Family.PLAIN)
    offer = declarable_win(plain, concealed, (), tile, context)
    assert offer is not None and offer.fan == 0
    assert (minimum_fan(MCR_BOTZONE, 2), minimum_fan(plain, 2)) == (10, 0)
