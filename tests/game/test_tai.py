"""Tai of taiwan-16 wins: hands in compact notation, items counted by hand from the contract.

The contract (``protocols/olympiad.md``): dealer 1, self-draw 1, concealed
hand 1, own-seat flower 1 each, dragon pong 1 each, seat-wind pong 1,
prevalent-wind pong 1, all chows 2, all pongs 4, half flush 4, full flush 8,
small three dragons 4, big three dragons 8, small four winds 8, big four
winds 16, robbing a kong 1, replacement win 1, last tile 1.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from game.events import FanItem
from game.melds import Chow, ConcealedKong, Kong, Meld, Pung
from game.scoring.tai import (
    TAI_VALUES,
    decompositions,
    is_complete,
    own_flowers,
    tai_items,
    tai_total,
)
from game.tiles import Notation, TileError, counts_of, parse_tile, parse_tiles
from strategy.deficiency import deficiency


def tiles(text: str) -> list[int]:
    return parse_tiles(text, Notation.COMPACT)


def t(name: str) -> int:
    return parse_tile(name, Notation.COMPACT)


def items(
    concealed: str,
    melds: Sequence[Meld] = (),
    *,
    win: str | None = None,
    self_drawn: bool = False,
    seat_wind: int = 1,
    prevalent_wind: int = 0,
    dealer_involved: bool = False,
    flowers: str = "",
    robbing_kong: bool = False,
    replacement_win: bool = False,
    last_tile: bool = False,
) -> dict[str, int] | None:
    """``{name: count}`` of the tai of a win (South seat, East round, on a discard by default)."""
    hand = tiles(concealed)
    found = tai_items(
        hand,
        melds,
        winning_tile=t(win) if win else hand[-1],
        self_drawn=self_drawn,
        seat_wind=seat_wind,
        prevalent_wind=prevalent_wind,
        dealer_involved=dealer_involved,
        flowers=tiles(flowers) if flowers else (),
        robbing_kong=robbing_kong,
        replacement_win=replacement_win,
        last_tile=last_tile,
    )
    if found is None:
        return None
    for item in found:
        assert item.value == TAI_VALUES[item.name], item
    assert len({item.name for item in found}) == len(found), "an item twice"
    return {item.name: item.count for item in found}


def total(named: dict[str, int] | None) -> int:
    assert named is not None
    return sum(TAI_VALUES[name] * count for name, count in named.items())


# A plain hand: a claimed pong of 2s breaks concealed, all chows and the flushes.
PLAIN = "123m456m789p55p"
PLAIN_MELDS = (Pung(t("2s"), 0), Chow(t("7s"), t("6s"), 0))


def test_a_plain_win_has_no_tai() -> None:
    assert items(PLAIN, PLAIN_MELDS) == {}


def test_dealer_self_draw_concealed_all_chows() -> None:
    named = items("123m456m789p234s678s55p", self_drawn=True, seat_wind=0, dealer_involved=True)
    assert named == {"dealer": 1, "self_draw": 1, "concealed_hand": 1, "all_chows": 1}
    assert total(named) == 5


def test_dealer_involved_when_the_dealer_pays() -> None:
    assert items(PLAIN, PLAIN_MELDS, dealer_involved=True) == {"dealer": 1}


def test_own_seat_flowers_only() -> None:
    # West (2) owns 3f and 7f; 1f belongs to East.
    assert own_flowers(2) == (t("3f"), t("7f"))
    assert items(PLAIN, PLAIN_MELDS, seat_wind=2, flowers="137f") == {"own_flower": 2}
    assert items(PLAIN, PLAIN_MELDS, seat_wind=1, flowers="137f") == {}


def test_dragon_pongs_one_each_hidden_triplets_count() -> None:
    named = items("777z666z123m456p789s99s")
    assert named == {"concealed_hand": 1, "dragon_pong": 2}


def test_small_three_dragons_replaces_the_dragon_pongs() -> None:
    named = items("777z666z55z123m456m789m")
    assert named == {"concealed_hand": 1, "small_three_dragons": 1, "half_flush": 1}
    assert total(named) == 9


def test_big_three_dragons_replaces_the_dragon_pongs() -> None:
    named = items("777z666z555z123m99p", [Chow(t("5s"), t("5s"), 0)], win="9p")
    assert named == {"big_three_dragons": 1}


def test_seat_and_prevalent_wind_pongs() -> None:
    # South seat (2z), East round (1z); a pong of 3z scores nothing.
    named = items("111z222z333z123m99m", [Chow(t("5p"), t("4p"), 0)], win="3z")
    assert named == {"seat_wind_pong": 1, "prevalent_wind_pong": 1}


def test_double_wind_scores_both_items() -> None:
    named = items("111z123m456m789p234s99s", seat_wind=0, prevalent_wind=0, dealer_involved=True)
    assert named == {
        "dealer": 1, "concealed_hand": 1, "seat_wind_pong": 1, "prevalent_wind_pong": 1
    }


def test_small_four_winds_replaces_the_wind_pongs() -> None:
    named = items("111z222z333z44z123m456m")
    assert named == {"concealed_hand": 1, "half_flush": 1, "small_four_winds": 1}
    assert total(named) == 13


def test_big_four_winds_with_all_pongs() -> None:
    named = items("111z222z333z444z55m", [Pung(t("9p"), 3)], win="5m")
    assert named == {"all_pongs": 1, "big_four_winds": 1}
    assert total(named) == 20


def test_all_pongs_hidden_triplets_and_a_claimed_kong() -> None:
    named = items("111m222p333s444m55p", [Kong(t("9s"), 2)], win="4m")
    assert named == {"all_pongs": 1}


def test_concealed_kongs_keep_the_hand_concealed() -> None:
    named = items("123m456m789m11p", [ConcealedKong(t("7z")), ConcealedKong(t("2p"))])
    assert named == {"concealed_hand": 1, "dragon_pong": 1}
    added = items("123m456m789m11p", [ConcealedKong(t("7z")), Kong(t("2p"), 1, added=True)])
    assert added == {"dragon_pong": 1}


def test_half_flush() -> None:
    named = items("123p345p456p789p111z55p", seat_wind=2, prevalent_wind=1)
    assert named == {"concealed_hand": 1, "half_flush": 1}


def test_full_flush_excludes_half_flush() -> None:
    named = items("111s234s567s789s99s", [Chow(t("3s"), t("2s"), 0)], win="9s")
    assert named == {"full_flush": 1}


def test_honours_only_is_no_flush() -> None:
    named = items("111z222z555z666z77z", [Pung(t("4z"), 0)], win="7z", seat_wind=2,
                  prevalent_wind=2)
    # 5z, 6z pongs and a 7z pair: small three dragons; 1z 2z 4z pongs and no wind pair.
    assert named == {"small_three_dragons": 1, "all_pongs": 1}


def test_the_best_split_is_scored() -> None:
    # 111222333m: three pongs (all pongs, 4) or three chows.
    pongs = items("111222333m444p55s", [Pung(t("9s"), 1)], win="5s")
    assert pongs == {"all_pongs": 1}
    # The same tiles with a chow meld: three chows make all chows (2).
    chows = items("111222333m456p55s", [Chow(t("8s"), t("7s"), 1)], win="5s")
    assert chows == {"all_chows": 1}
    assert len(decompositions(counts_of(tiles("111222333m456p55s")), 4)) == 2


def test_robbing_a_kong() -> None:
    assert items(PLAIN, PLAIN_MELDS, robbing_kong=True) == {"robbing_a_kong": 1}


def test_replacement_win_and_last_tile() -> None:
    named = items(PLAIN, PLAIN_MELDS, self_drawn=True, replacement_win=True, last_tile=True)
    assert named == {"self_draw": 1, "replacement_win": 1, "last_tile": 1}
    assert items(PLAIN, PLAIN_MELDS, last_tile=True) == {"last_tile": 1}


def test_items_come_in_the_contract_order() -> None:
    found = tai_items(
        tiles("777z666z55z123m456m789m"), (), winning_tile=t("9m"), self_drawn=True,
        seat_wind=0, prevalent_wind=0, dealer_involved=True, flowers=tiles("15f"),
        last_tile=True,
    )
    assert found is not None
    assert [f.name for f in found] == [
        "dealer", "self_draw", "concealed_hand", "own_flower", "half_flush",
        "small_three_dragons", "last_tile",
    ]
    assert found[3] == FanItem("own_flower", 1, 2, "Own-seat flower")
    assert tai_total(found) == 1 + 1 + 1 + 2 + 4 + 4 + 1


def test_not_a_win_is_none() -> None:
    assert items("123m456m789p234s678s56p") is None
    assert items("123m456m789p234s678s5p") is None, "16 tiles"
    assert items("123m456m789p55p", [Pung(t("2s"), 0)]) is None, "14 + 3 tiles"
    assert items("1234567m11223344z") is None


def test_bad_input_is_refused_with_the_tile_named() -> None:
    with pytest.raises(TileError, match="winning tile"):
        items(PLAIN, PLAIN_MELDS, win="9s")
    with pytest.raises(TileError, match="6 of 2s"):
        items("222s345m456m789p55p", [Pung(t("2s"), 0)])
    with pytest.raises(TileError, match="not a flower"):
        items(PLAIN, PLAIN_MELDS, flowers="1z")
    with pytest.raises(ValueError, match="rob"):
        items(PLAIN, PLAIN_MELDS, self_drawn=True, robbing_kong=True)
    with pytest.raises(ValueError, match="replacement"):
        items(PLAIN, PLAIN_MELDS, replacement_win=True)
    with pytest.raises(TileError, match="cannot be in a concealed hand"):
        tai_items([*tiles(PLAIN), 40], PLAIN_MELDS, winning_tile=0, self_drawn=False,
                  seat_wind=0, prevalent_wind=0, dealer_involved=False)


# ---------------------------------------------------------------- cross-check
def _random_melds(rng: np.random.Generator, left: list[int], n: int) -> list[list[int]] | None:
    out = []
    for _ in range(n):
        for _attempt in range(50):
            if rng.random() < 0.5:
                low = int(rng.integers(27))
                if low % 9 > 6:
                    continue
                meld = [low, low + 1, low + 2]
            else:
                meld = [int(rng.integers(34))] * 3
            if all(left[x] >= meld.count(x) for x in set(meld)):
                for x in meld:
                    left[x] -= 1
                out.append(meld)
                break
        else:
            return None
    return out


def _random_case(rng: np.random.Generator) -> tuple[list[int], list[Meld]]:
    """Declared melds and concealed tiles: complete, one tile off, or random."""
    while True:
        left = [4] * 34
        declared = int(rng.integers(0, 4))
        raw = _random_melds(rng, left, declared)
        if raw is None:
            continue
        melds: list[Meld] = [
            Chow(m[1], m[int(rng.integers(3))], 0) if m[0] != m[1] else Pung(m[0], 0) for m in raw
        ]
        need = 3 * (5 - declared) + 2
        kind = rng.random()
        if kind < 0.6:
            body = _random_melds(rng, left, 5 - declared)
            pairs = [x for x in range(34) if left[x] >= 2]
            if body is None or not pairs:
                continue
            pair = int(rng.choice(pairs))
            concealed = [x for m in body for x in m] + [pair, pair]
            if kind < 0.3:  # one tile off
                i = int(rng.integers(len(concealed)))
                for x in (concealed[i],):
                    left[x] += 1
                choices = [x for x in range(34) if left[x] > 0]
                concealed[i] = int(rng.choice(choices))
        else:
            pool = [x for x in range(34) for _ in range(left[x])]
            concealed = [int(x) for x in rng.choice(pool, size=need, replace=False)]
        return concealed, melds


def test_tai_items_is_none_exactly_when_the_deficiency_is_not_zero() -> None:
    rng = np.random.default_rng(2024)
    wins = 0
    for _ in range(2000):
        concealed, melds = _random_case(rng)
        counts = counts_of(concealed)
        needed = 5 - len(melds)
        found = tai_items(
            concealed, melds, winning_tile=concealed[0], self_drawn=False, seat_wind=0,
            prevalent_wind=0, dealer_involved=False,
        )
        complete = deficiency(counts, needed) == 0
        assert (found is not None) == complete, (concealed, melds)
        assert is_complete(counts, needed) == complete
        wins += complete
    assert 500 < wins < 1800, wins
