"""Declared melds: chow, pung, kong (claimed or added) and concealed kong.

Seats are absolute (0-3).  A meld knows which seat provided its claimed tile;
its PyMahjongGB pack entry ``(type, tile, offer)`` is computed for the owner:

- ``("CHI", middle, k)``: ``k`` = 1, 2 or 3, the position of the claimed tile
  in the chow (low, middle, high);
- ``("PENG" | "GANG", tile, (provider - owner) % 4)``: 0 for a concealed kong,
  1 when the next seat provided the tile, 2 the opposite seat, 3 the previous
  seat.  This is the Botzone judge's numbering; the fan calculator only tells
  0 (concealed) from the rest, so every non-zero value scores the same.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Tuple, Union

from game.rules import Ruleset
from game.tiles import NUM_KINDS, NUM_SUITED, Notation, TileError, format_tiles, tile_name
from game.turn_order import SEATS
from game.turn_order import check_seat as _check_seat

PackEntry = Tuple[str, str, int]
"""One entry of PyMahjongGB's ``pack`` argument: ``("PENG"|"GANG"|"CHI", tile, offer)``."""

def _check_tile(tile: int, what: str) -> None:
    if not 0 <= tile < NUM_KINDS:
        raise TileError(f"{what}: tile index {tile} cannot be part of a meld")


def _offer_from(provider: int, owner: int) -> int:
    _check_seat(owner, "meld owner")
    return (provider - owner) % SEATS


# ---------------------------------------------------------------- the chow rule
def chow_tiles(middle: int) -> "tuple[int, int, int]":
    """The three tiles of the chow around ``middle``, lowest first."""
    return (middle - 1, middle, middle + 1)


def is_chow_middle(tile: int) -> bool:
    """Can a chow have ``tile`` as its middle (a suited 2-8)?"""
    return 0 <= tile < NUM_SUITED and tile % 9 not in (0, 8)


def chow_middles(tile: int) -> "tuple[int, ...]":
    """The middles of the chows that can contain ``tile`` (none for an honour)."""
    if not 0 <= tile < NUM_SUITED:
        return ()
    return tuple(m for m in (tile - 1, tile, tile + 1)
                 if m // 9 == tile // 9 and is_chow_middle(m))


@dataclass(frozen=True)
class Chow:
    """Three consecutive suited tiles, one of them (``claimed``) taken from ``provider``."""

    middle: int
    claimed: int
    provider: int

    def __post_init__(self) -> None:
        _check_tile(self.middle, "chow")
        if not is_chow_middle(self.middle):
            raise TileError(
                f"chow around {tile_name(self.middle, Notation.BOTZONE)}: the middle tile "
                "must be a suited 2-8"
            )
        if self.claimed not in chow_tiles(self.middle):
            raise TileError(
                f"chow around {tile_name(self.middle, Notation.BOTZONE)} cannot contain "
                f"the claimed {tile_name(self.claimed, Notation.BOTZONE)}"
            )
        _check_seat(self.provider, "chow provider")

    @property
    def tiles(self) -> "tuple[int, int, int]":
        return chow_tiles(self.middle)

    @property
    def is_concealed(self) -> bool:
        return False

    def pack_entry(self, owner: int) -> "PackEntry":
        _check_seat(owner, "meld owner")
        return ("CHI", tile_name(self.middle, Notation.BOTZONE), self.claimed - self.middle + 2)


@dataclass(frozen=True)
class Pung:
    """Three of a tile, one taken from ``provider``'s discard."""

    tile: int
    provider: int

    def __post_init__(self) -> None:
        _check_tile(self.tile, "pung")
        _check_seat(self.provider, "pung provider")

    @property
    def tiles(self) -> "tuple[int, int, int]":
        return (self.tile, self.tile, self.tile)

    @property
    def is_concealed(self) -> bool:
        return False

    def with_fourth_tile(self) -> "Kong":
        """The kong made by adding the fourth tile to this pung."""
        return Kong(self.tile, self.provider, added=True)

    def pack_entry(self, owner: int) -> "PackEntry":
        return ("PENG", tile_name(self.tile, Notation.BOTZONE), _offer_from(self.provider, owner))


@dataclass(frozen=True)
class Kong:
    """Four of a tile, exposed: claimed on ``provider``'s discard, or ``added`` to a pung."""

    tile: int
    provider: int
    added: bool = False

    def __post_init__(self) -> None:
        _check_tile(self.tile, "kong")
        _check_seat(self.provider, "kong provider")

    @property
    def tiles(self) -> "tuple[int, int, int, int]":
        return (self.tile,) * 4

    @property
    def is_concealed(self) -> bool:
        return False

    def pack_entry(self, owner: int) -> "PackEntry":
        return ("GANG", tile_name(self.tile, Notation.BOTZONE), _offer_from(self.provider, owner))


@dataclass(frozen=True)
class ConcealedKong:
    """Four of a tile, all from the owner's own hand."""

    tile: int

    def __post_init__(self) -> None:
        _check_tile(self.tile, "concealed kong")

    @property
    def tiles(self) -> "tuple[int, int, int, int]":
        return (self.tile,) * 4

    @property
    def is_concealed(self) -> bool:
        return True

    def pack_entry(self, owner: int) -> "PackEntry":
        _check_seat(owner, "meld owner")
        return ("GANG", tile_name(self.tile, Notation.BOTZONE), 0)


Meld = Union[Chow, Pung, Kong, ConcealedKong]


def pack_entries(melds: "Sequence[Meld]", owner: int) -> "tuple[PackEntry, ...]":
    """The ``pack`` argument of PyMahjongGB's fan calculator for ``owner``'s melds."""
    return tuple(m.pack_entry(owner) for m in melds)


class MeldShape(Enum):
    CHOW = "chow"
    PUNG = "pung"
    KONG = "kong"


def meld_shape(tiles: "Sequence[int]", rules: "Ruleset") -> "MeldShape":
    """What a group of declared tiles is under ``rules``: three consecutive suited tiles of
    one suit (a chow), three of a tile (a pung) or four (a kong).  Anything else, or a
    tile the rule set does not play, is a :class:`TileError` naming the group."""
    group = sorted(tiles)
    name = format_tiles(group) if all(0 <= x < 42 for x in group) else str(list(tiles))
    for x in group:
        rules.check_tile(x, f"meld {name}")
    if len(group) not in (3, 4):
        raise TileError(f"meld {name}: {len(group)} tiles; a meld is three (a chow or a pung) "
                        "or four (a kong)")
    if len(set(group)) == 1:
        return MeldShape.PUNG if len(group) == 3 else MeldShape.KONG
    if len(group) == 3 and group[1] == group[0] + 1 and group[2] == group[0] + 2:
        if group[2] >= NUM_SUITED:
            raise TileError(f"meld {name}: honours cannot form a chow")
        if group[0] // 9 == group[2] // 9:
            return MeldShape.CHOW
    raise TileError(f"meld {name}: neither a chow (three consecutive tiles of one suit), "
                    "a pung (three of a tile) nor a kong (four of a tile)")
