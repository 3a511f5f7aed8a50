"""Tai (台) of a winning taiwan-16 hand: 5 melds + a pair, named items.

The items and their values are the contract's (``protocols/olympiad.md``,
"Rules: taiwan-16"); names are snake case, ``FanItem.english_name`` a phrase.

=====================  =====  ==================================================
name                   tai    when
=====================  =====  ==================================================
dealer                 1      the winner is the dealer, or the dealer pays
self_draw              1      the winning tile was drawn by the winner
concealed_hand         1      no claimed meld (concealed kongs allowed); also on
                              a self-draw, where it adds to ``self_draw``
own_flower             1 each each flower of the winner's seat wind ``w``:
                              ``1f+w`` and ``5f+w`` (indices 34+w and 38+w)
dragon_pong            1 each each pong or kong of a dragon
seat_wind_pong         1      a pong or kong of the seat wind
prevalent_wind_pong    1      a pong or kong of the prevalent wind (both items
                              when the two winds are the same)
all_chows              2      all five melds are chows (the pair is free)
all_pongs              4      all five melds are pongs or kongs
half_flush             4      one suit and honours (at least one of each)
full_flush             8      one suit, no honours
small_three_dragons    4      two dragon pongs and a dragon pair
big_three_dragons      8      three dragon pongs
small_four_winds       8      three wind pongs and a wind pair
big_four_winds         16     four wind pongs
robbing_a_kong         1      the winning tile was added to another seat's pong
replacement_win        1      self-drawn on a replacement (after a kong or a flower)
last_tile              1      the win is on the last tile (the table decides; see
                              :mod:`game.taiwan`)
=====================  =====  ==================================================

Choices the contract leaves open, made here:

- "Pong" means any triplet: claimed pongs, kongs of every kind, and triplets
  that the decomposition finds among the concealed tiles.
- Exclusions: big or small three dragons replace the ``dragon_pong`` items;
  big or small four winds replace the ``seat_wind_pong`` and
  ``prevalent_wind_pong`` items; ``full_flush`` excludes ``half_flush`` (by
  definition, as does ``half_flush`` need an honour); ``all_chows`` and
  ``all_pongs`` cannot both hold.  Nothing else is excluded: e.g. big four
  winds with all pongs scores both.  A hand of honours only is neither flush.
- The concealed tiles may split into melds in several ways (``111222333m``
  is three pongs or three chows); the split with the highest total is scored,
  the first found among equals (the order is deterministic).
- There is no minimum: a hand with no item is a win worth 0 tai.
"""

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from game.events import FanItem
from game.melds import Chow, ConcealedKong, Kong, Meld, Pung
from game.tiles import (
    DRAGONS,
    FIRST_FLOWER,
    NUM_KINDS,
    NUM_SUITED,
    WINDS,
    TileError,
    is_flower,
    tile_name,
)

MELDS_IN_A_WIN = 5

_ITEMS: "dict[str, tuple[int, str]]" = {
    "dealer": (1, "Dealer"),
    "self_draw": (1, "Self-drawn"),
    "concealed_hand": (1, "Concealed hand"),
    "own_flower": (1, "Own-seat flower"),
    "dragon_pong": (1, "Dragon pong"),
    "seat_wind_pong": (1, "Seat wind pong"),
    "prevalent_wind_pong": (1, "Prevalent wind pong"),
    "all_chows": (2, "All chows"),
    "all_pongs": (4, "All pongs"),
    "half_flush": (4, "Half flush"),
    "full_flush": (8, "Full flush"),
    "small_three_dragons": (4, "Small three dragons"),
    "big_three_dragons": (8, "Big three dragons"),
    "small_four_winds": (8, "Small four winds"),
    "big_four_winds": (16, "Big four winds"),
    "robbing_a_kong": (1, "Robbing a kong"),
    "replacement_win": (1, "Win on a replacement tile"),
    "last_tile": (1, "Last tile"),
}
TAI_VALUES: "dict[str, int]" = {name: value for name, (value, _) in _ITEMS.items()}
"""Every item's value per count, in the order items are listed in a result."""


def _item(name: str, count: int = 1) -> "FanItem":
    value, english = _ITEMS[name]
    return FanItem(name=name, value=value, count=count, english_name=english)


def tai_total(items: "Sequence[FanItem]") -> int:
    return sum(item.total for item in items)


# ---------------------------------------------------------------- shapes
@dataclass(frozen=True)
class Decomposition:
    """Concealed tiles split into melds and a pair.

    ``pongs`` are triplet tiles, ``chows`` the lowest tile of each chow.
    """

    pair: int
    pongs: "tuple[int, ...]"
    chows: "tuple[int, ...]"


def _can_start_chow(tile: int) -> bool:
    return tile < NUM_SUITED and tile % 9 <= 6


def _all_melds(counts: "list[int]") -> bool:
    """Can ``counts`` be split into melds only?  Greedy from the lowest tile.

    Taking a triplet whenever the lowest tile has three or more is safe: the
    only alternative, three chows from it, holds the same tiles as three triplets.
    """
    c = list(counts)
    for t in range(NUM_KINDS):
        n = c[t]
        if n >= 3:
            n -= 3
        if n:
            if not _can_start_chow(t) or c[t + 1] < n or c[t + 2] < n:
                return False
            c[t + 1] -= n
            c[t + 2] -= n
    return True


def is_complete(counts: "Sequence[int]", melds_needed: int) -> bool:
    """Do the concealed ``counts`` (34 entries) make ``melds_needed`` melds and a pair?"""
    if sum(counts) != 3 * melds_needed + 2:
        return False
    c = list(counts)
    for pair in range(NUM_KINDS):
        if c[pair] >= 2:
            c[pair] -= 2
            ok = _all_melds(c)
            c[pair] += 2
            if ok:
                return True
    return False


def _meld_splits(c: "list[int]", start: int) -> "Iterator[tuple[tuple[int, ...], tuple[int, ...]]]":
    """Every split of ``c`` (modified and restored) into ``(pongs, chows)``."""
    t = start
    while t < NUM_KINDS and c[t] == 0:
        t += 1
    if t == NUM_KINDS:
        yield (), ()
        return
    if c[t] >= 3:
        c[t] -= 3
        for pongs, chows in _meld_splits(c, t):
            yield (t, *pongs), chows
        c[t] += 3
    if _can_start_chow(t) and c[t + 1] and c[t + 2]:
        for u in (t, t + 1, t + 2):
            c[u] -= 1
        for pongs, chows in _meld_splits(c, t):
            yield pongs, (t, *chows)
        for u in (t, t + 1, t + 2):
            c[u] += 1


def decompositions(counts: "Sequence[int]", melds_needed: int) -> "tuple[Decomposition, ...]":
    """Every split of the concealed ``counts`` into ``melds_needed`` melds and a pair."""
    if len(counts) != NUM_KINDS:
        raise TileError(f"a count vector has {NUM_KINDS} entries, not {len(counts)}")
    if sum(counts) != 3 * melds_needed + 2:
        return ()
    c = list(counts)
    out = []
    for pair in range(NUM_KINDS):
        if c[pair] < 2:
            continue
        c[pair] -= 2
        out += [Decomposition(pair, p, ch) for p, ch in _meld_splits(c, 0)]
        c[pair] += 2
    return tuple(out)


# ---------------------------------------------------------------- tai
def own_flowers(seat_wind: int) -> "tuple[int, int]":
    """The two flowers of seat wind ``seat_wind`` (0 = East): ``1f+w`` and ``5f+w``."""
    return FIRST_FLOWER + seat_wind, FIRST_FLOWER + 4 + seat_wind


def _check_context(
    seat_wind: int, prevalent_wind: int, flowers: "Sequence[int]", self_drawn: bool,
    robbing_kong: bool, replacement_win: bool,
) -> None:
    for what, wind in (("seat wind", seat_wind), ("prevalent wind", prevalent_wind)):
        if not 0 <= wind < 4:
            raise ValueError(f"{what} {wind} is outside 0-3 (E S W N)")
    for f in flowers:
        if not is_flower(f):
            raise TileError(f"flowers: tile index {f} is not a flower (34-41)")
    if len(set(flowers)) != len(flowers):
        raise TileError(f"flowers {sorted(flowers)} hold a flower twice")
    if robbing_kong and self_drawn:
        raise ValueError("a win cannot both rob a kong and be self-drawn")
    if replacement_win and not self_drawn:
        raise ValueError("a win on a replacement tile is self-drawn")


def tai_items(
    concealed: "Sequence[int]",
    melds: "Sequence[Meld]",
    *,
    winning_tile: int,
    self_drawn: bool,
    seat_wind: int,
    prevalent_wind: int,
    dealer_involved: bool,
    flowers: "Sequence[int]" = (),
    robbing_kong: bool = False,
    replacement_win: bool = False,
    last_tile: bool = False,
) -> "tuple[FanItem, ...] | None":
    """The tai of a win, or ``None`` when the tiles are not 5 melds and a pair.

    ``concealed`` holds the concealed tile indices, ``winning_tile`` among
    them; ``melds`` the declared melds.  ``seat_wind`` is the winner's seat
    relative to the dealer (0 = East), ``flowers`` the flowers it holds.
    Raises :class:`~game.tiles.TileError` for tiles that cannot be there
    (a flower in the hand, five of a tile) and ``ValueError`` for a
    contradictory context (robbing a kong by self-draw, ...).
    """
    counts = [0] * NUM_KINDS
    for t in concealed:
        if not 0 <= t < NUM_KINDS:
            raise TileError(f"tile index {t} cannot be in a concealed hand")
        counts[t] += 1
    if not 0 <= winning_tile < NUM_KINDS or counts[winning_tile] == 0:
        raise TileError(f"the winning tile {winning_tile} is not among the concealed tiles")
    all_counts = list(counts)
    for m in melds:
        for t in m.tiles:
            all_counts[t] += 1
    for t, n in enumerate(all_counts):
        if n > 4:
            raise TileError(f"the hand and its melds hold {n} of {tile_name(t)}")
    _check_context(seat_wind, prevalent_wind, flowers, self_drawn, robbing_kong, replacement_win)
    if len(melds) > MELDS_IN_A_WIN:
        return None
    splits = decompositions(counts, MELDS_IN_A_WIN - len(melds))
    if not splits:
        return None

    declared_pongs = tuple(m.tile for m in melds if isinstance(m, (Pung, Kong, ConcealedKong)))
    declared_chows = tuple(m.middle - 1 for m in melds if isinstance(m, Chow))
    suits = {t // 9 for t in range(NUM_SUITED) if all_counts[t]}
    honours = any(all_counts[NUM_SUITED:])
    fixed: "list[FanItem]" = []
    if dealer_involved:
        fixed.append(_item("dealer"))
    if self_drawn:
        fixed.append(_item("self_draw"))
    if all(m.is_concealed for m in melds):
        fixed.append(_item("concealed_hand"))
    mine = sum(1 for f in flowers if f in own_flowers(seat_wind))
    if mine:
        fixed.append(_item("own_flower", mine))
    tail: "list[FanItem]" = []
    if len(suits) == 1:
        tail.append(_item("half_flush" if honours else "full_flush"))
    if robbing_kong:
        tail.append(_item("robbing_a_kong"))
    if replacement_win:
        tail.append(_item("replacement_win"))
    if last_tile:
        tail.append(_item("last_tile"))

    best: "tuple[FanItem, ...] | None" = None
    for split in splits:
        pongs = declared_pongs + split.pongs
        chows = declared_chows + split.chows
        items = (
            *fixed,
            *_shape_items(pongs, chows, split.pair, seat_wind, prevalent_wind),
            *tail,
        )
        if best is None or tai_total(items) > tai_total(best):
            best = _ordered(items)
    return best


def _shape_items(
    pongs: "tuple[int, ...]", chows: "tuple[int, ...]", pair: int, seat_wind: int,
    prevalent_wind: int,
) -> "list[FanItem]":
    items: "list[FanItem]" = []
    dragon_pongs = sum(1 for t in pongs if t in DRAGONS)
    if dragon_pongs == 3:
        items.append(_item("big_three_dragons"))
    elif dragon_pongs == 2 and pair in DRAGONS:
        items.append(_item("small_three_dragons"))
    elif dragon_pongs:
        items.append(_item("dragon_pong", dragon_pongs))
    wind_pongs = sum(1 for t in pongs if t in WINDS)
    if wind_pongs == 4:
        items.append(_item("big_four_winds"))
    elif wind_pongs == 3 and pair in WINDS:
        items.append(_item("small_four_winds"))
    else:
        if WINDS[seat_wind] in pongs:
            items.append(_item("seat_wind_pong"))
        if WINDS[prevalent_wind] in pongs:
            items.append(_item("prevalent_wind_pong"))
    if len(chows) == MELDS_IN_A_WIN:
        items.append(_item("all_chows"))
    if len(pongs) == MELDS_IN_A_WIN:
        items.append(_item("all_pongs"))
    return items


_ORDER = {name: k for k, name in enumerate(_ITEMS)}


def _ordered(items: "Sequence[FanItem]") -> "tuple[FanItem, ...]":
    return tuple(sorted(items, key=lambda item: _ORDER[item.name]))
