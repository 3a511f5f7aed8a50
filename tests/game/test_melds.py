"""Melds and their PyMahjongGB pack entries (the judge's offer numbering)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from MahjongGB import MahjongFanCalculator

from game.melds import (
    Chow,
    ConcealedKong,
    Kong,
    Meld,
    MeldShape,
    Pung,
    meld_shape,
    pack_entries,
)
from game.rules import MAHJONG_0, MCR_BOTZONE, TAIWAN_16, Ruleset
from game.tiles import Notation, TileError, parse_tile, parse_tiles


def t(name: str) -> int:
    return parse_tile(name, Notation.BOTZONE)


def test_chow_offer_is_the_position_of_the_claimed_tile() -> None:
    assert Chow(t("W5"), t("W4"), 3).pack_entry(0) == ("CHI", "W5", 1)
    assert Chow(t("W5"), t("W5"), 3).pack_entry(0) == ("CHI", "W5", 2)
    assert Chow(t("W5"), t("W6"), 3).pack_entry(0) == ("CHI", "W5", 3)
    assert Chow(t("B2"), t("B1"), 0).tiles == (t("B1"), t("B2"), t("B3"))


def test_pung_and_kong_offer_is_the_provider_relative_to_the_owner() -> None:
    assert Pung(t("J1"), 3).pack_entry(0) == ("PENG", "J1", 3)
    assert Pung(t("J1"), 1).pack_entry(0) == ("PENG", "J1", 1)
    assert Pung(t("J1"), 0).pack_entry(2) == ("PENG", "J1", 2)
    assert Kong(t("T9"), 2).pack_entry(3) == ("GANG", "T9", 3)
    assert ConcealedKong(t("F4")).pack_entry(1) == ("GANG", "F4", 0)


def test_adding_to_a_pung_keeps_its_provider() -> None:
    kong = Pung(t("B7"), 2).with_fourth_tile()
    assert kong == Kong(t("B7"), 2, added=True)
    assert kong.pack_entry(1) == ("GANG", "B7", 1)
    assert not kong.is_concealed and ConcealedKong(t("B7")).is_concealed


@pytest.mark.parametrize(
    ("middle", "claimed", "message"),
    [
        ("W1", "W1", "middle tile"),
        ("T9", "T8", "middle tile"),
        ("F2", "F2", "middle tile"),
        ("W5", "W7", "cannot contain"),
    ],
)
def test_impossible_chows_are_refused(middle: str, claimed: str, message: str) -> None:
    with pytest.raises(TileError, match=message):
        Chow(t(middle), t(claimed), 0)


def test_seats_are_checked() -> None:
    with pytest.raises(ValueError, match="seat 4"):
        Pung(t("W1"), 4)
    with pytest.raises(ValueError, match="seat -1"):
        Pung(t("W1"), 0).pack_entry(-1)


def test_pack_entries_feed_the_fan_calculator() -> None:
    melds: list[Meld] = [Chow(t("W5"), t("W4"), 3), Pung(t("J1"), 2), ConcealedKong(t("F1"))]
    fans = MahjongFanCalculator(
        pack=pack_entries(melds, 0),
        hand=("B1", "B2", "B3", "T5"),
        winTile="T5",
        flowerCount=0,
        isSelfDrawn=False,
        is4thTile=False,
        isAboutKong=False,
        isWallLast=False,
        seatWind=0,
        prevalentWind=0,
    )
    names = {name for _, name in fans}
    assert "箭刻" in names  # the red dragon pung
    assert "圈风刻" in names and "门风刻" in names  # the concealed kong of East


# ------------------------------------------------------- declared melds under a rule set
@pytest.mark.parametrize(("tiles", "rules", "shape"), [
    ("123m", MCR_BOTZONE, MeldShape.CHOW), ("789s", MAHJONG_0, MeldShape.CHOW),
    ("555p", MAHJONG_0, MeldShape.PUNG), ("777z", MCR_BOTZONE, MeldShape.PUNG),
    ("1111z", TAIWAN_16, MeldShape.KONG), ("W9 W9 W9 W9", MAHJONG_0, MeldShape.KONG),
])
def test_a_meld_is_a_chow_pung_or_kong(tiles: str, rules: Ruleset, shape: MeldShape) -> None:
    assert meld_shape(parse_tiles(tiles), rules) is shape


@pytest.mark.parametrize(("tiles", "rules", "says"), [
    ("12m", MCR_BOTZONE, "meld 12m: 2 tiles"),
    ("1m", MCR_BOTZONE, "meld 1m: 1 tiles"),
    ("11111m", MCR_BOTZONE, "meld 11111m: 5 tiles"),
    ("135m", MCR_BOTZONE, "meld 135m: neither a chow"),
    ("1112m", MCR_BOTZONE, "meld 1112m: neither"),
    ("89m1p", MCR_BOTZONE, "meld 89m1p: neither"),
    ("123z", MCR_BOTZONE, "meld 123z: honours cannot form a chow"),
    ("567z", TAIWAN_16, "meld 567z: honours cannot form a chow"),
    ("111z", MAHJONG_0, "meld 111z: 1z is an honour; mahjong-0 plays with suits only"),
])
def test_an_impossible_meld_is_refused_naming_it(tiles: str, rules: Ruleset, says: str) -> None:
    with pytest.raises(TileError, match=re.escape(says)):
        meld_shape(parse_tiles(tiles), rules)


def test_a_flower_is_no_tile_of_a_meld_or_a_hand() -> None:
    with pytest.raises(TileError, match="meld 111f: 1f is not a tile a hand holds"):
        meld_shape([34, 34, 34], TAIWAN_16)
    with pytest.raises(TileError, match="--claim: tile index 99 is not a tile a hand holds"):
        MCR_BOTZONE.check_tile(99, "--claim")
    MAHJONG_0.check_tile(26, "hand")  # 9s is played everywhere
    with pytest.raises(TileError, match="hand: 1z is an honour"):
        MAHJONG_0.check_tile(27, "hand")


def test_declared_melds_fit_the_rule_set() -> None:
    assert MCR_BOTZONE.melds_left(0) == 4 and TAIWAN_16.melds_left(5) == 0
    with pytest.raises(ValueError, match="--melds: 5 declared melds; a mcr-botzone hand holds 0-4"):
        MCR_BOTZONE.melds_left(5, "--melds")
    with pytest.raises(ValueError, match="-1 declared melds"):
        TAIWAN_16.melds_left(-1)


def every_meld(rules: Ruleset) -> dict[tuple[int, ...], MeldShape]:
    """Every chow, pung and kong of the rule set's tiles, listed (sorted tiles -> shape)."""
    melds: dict[tuple[int, ...], MeldShape] = {}
    for t in range(rules.tile_kinds):
        melds[(t, t, t)] = MeldShape.PUNG
        melds[(t, t, t, t)] = MeldShape.KONG
        if t < 27 and t % 9 <= 6:  # ranks 1-7 start a run of three in their suit
            melds[(t, t + 1, t + 2)] = MeldShape.CHOW
    return melds


ANY_MELD = [list(m) for m in every_meld(MCR_BOTZONE)]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.integers(-2, 43), max_size=5)
       | st.lists(st.integers(0, 33), min_size=3, max_size=4)
       | st.sampled_from(ANY_MELD).flatmap(st.permutations)
       # every run of three indices: across suits and among honours too
       | st.integers(0, 31).map(lambda t: [t + 2, t, t + 1]),
       st.sampled_from([MCR_BOTZONE, TAIWAN_16, MAHJONG_0]))
def test_meld_shape_agrees_with_the_list_of_every_meld(tiles: list[int], rules: Ruleset) -> None:
    expected = every_meld(rules).get(tuple(sorted(tiles)))
    if expected is None:
        with pytest.raises(TileError, match=r"^meld "):
            meld_shape(tiles, rules)
    else:
        assert meld_shape(tiles, rules) is expected
