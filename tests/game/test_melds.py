"""Melds and their PyMahjongGB pack entries (the judge's offer numbering)."""

from __future__ import annotations

import pytest
from MahjongGB import MahjongFanCalculator

from game.melds import Chow, ConcealedKong, Kong, Meld, Pung, pack_entries
from game.tiles import Notation, TileError, parse_tile


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
