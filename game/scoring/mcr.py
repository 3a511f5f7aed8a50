"""MCR (Chinese Official) fan of a winning hand, by PyMahjongGB, the Botzone judge's own
calculator.  The only module that imports PyMahjongGB.

A win's circumstances travel in one frozen :class:`WinContext` (as the ``mahjong``
library's ``HandConfig`` does), built once by whoever knows them: the judge
(:mod:`game.table`) from the whole table, the agent from what its seat can see.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from MahjongGB import MahjongFanCalculator

from game.events import FanItem
from game.melds import Meld, pack_entries
from game.tiles import NUM_INDICES, Notation, tile_name

_BOTZONE_NAMES = tuple(tile_name(t, Notation.BOTZONE) for t in range(NUM_INDICES))


@dataclass(frozen=True)
class WinContext:
    """Everything about a win that is not its tiles."""

    seat: int
    """The winner's seat, which is also its seat wind (0 = east)."""
    prevalent_wind: int
    self_drawn: bool = False
    fourth_tile: bool = False
    """The winning tile's other three copies are all visible (discards, exposed melds)."""
    about_kong: bool = False
    """A kong's replacement draw, or robbing an added kong."""
    wall_last: bool = False
    """The last tile of the wall (drawn, or the discard after it)."""
    flower_count: int = 0


_PROBE_HAND = ("W1", "W1", "W1", "W9", "W9", "W9", "B1", "B1", "B1", "B9", "B9", "T5", "T5")
"""A sure win (four concealed pungs on B9): a TypeError on it can only be the signature's."""


def _takes_verbose() -> bool:
    """Does this MahjongGB take ``verbose`` (added in March 2021)?  Botzone's copy is of
    unknown age, so the upload asks the binding itself, once."""
    try:
        MahjongFanCalculator(pack=(), hand=_PROBE_HAND, winTile="B9", flowerCount=0,
                             isSelfDrawn=False, is4thTile=False, isAboutKong=False,
                             isWallLast=False, seatWind=0, prevalentWind=0, verbose=True)
    except TypeError:
        return False
    return True


TAKES_VERBOSE = _takes_verbose()
"""With ``verbose`` each fan comes as (value, count, name, English name); without it, as
(value times count, name), which :func:`mcr_fans` keeps as one item of that total."""


def mcr_fans(hand: "Sequence[int]", melds: "Sequence[Meld]", win_tile: int,
             context: "WinContext") -> "tuple[FanItem, ...] | None":
    """The fans of a winning hand, or ``None`` if it is not a win.

    ``hand`` is the concealed tiles without ``win_tile``; ``melds`` the declared melds.
    The totals are the same with either MahjongGB signature (:data:`TAKES_VERBOSE`).
    """
    arguments = dict(
        pack=pack_entries(melds, context.seat),
        hand=tuple(_BOTZONE_NAMES[t] for t in hand),
        winTile=_BOTZONE_NAMES[win_tile],
        flowerCount=context.flower_count,
        isSelfDrawn=context.self_drawn,
        is4thTile=context.fourth_tile,
        isAboutKong=context.about_kong,
        isWallLast=context.wall_last,
        seatWind=context.seat,
        prevalentWind=context.prevalent_wind,
    )
    try:
        if TAKES_VERBOSE:
            raw = MahjongFanCalculator(verbose=True, **arguments)
        else:
            raw = MahjongFanCalculator(**arguments)
    except TypeError:
        return None
    if TAKES_VERBOSE:
        return tuple(_fan_item(*item) for item in raw)
    return tuple(_fan_item(total, 1, name, "") for total, name in raw)


@lru_cache(maxsize=4096)
def _fan_item(value: int, count: int, name: str, english: str) -> "FanItem":
    """One :class:`FanItem` per distinct item (a frozen value, shared by the wins)."""
    return FanItem(name=name, value=value, count=count, english_name=english)


def fan_total(fans: "Sequence[FanItem] | None") -> "int | None":
    """The sum of the fans (None for no win)."""
    return None if fans is None else sum(f.total for f in fans)
