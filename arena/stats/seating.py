"""Duplicate seatings: how one wall is played several times with the programs
moved around the table, so that the luck of the wall is shared and the wall's
games are one paired sample (:func:`arena.stats.clustered.wall_differences`).

- ``ROTATE``: the four rotations of the lineup (each program in each seat once);
- ``TEAMS``: the two-team format of Tang, Chen & Wu, "An Efficient Method for
  Assessing the Strength of Mahjong Programs" (section 4): two copies of each
  program on opposite seats (lineup ``A B A B``), each wall played twice, the
  players moving one seat to the right after the first game;
- ``ALL24``: every permutation of the lineup over the four seats, as in the
  IJCAI duplicate Mahjong contests.

A seating is a tuple ``seating[seat] = lineup index``, so the same lineup
entry is the same program wherever it sits.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from itertools import permutations

from game.turn_order import SEATS

Seating = tuple[int, int, int, int]


class SeatingFormat(Enum):
    ROTATE = "rotate"
    TEAMS = "teams"
    ALL24 = "all24"


def seatings(fmt: SeatingFormat) -> tuple[Seating, ...]:
    """The seatings of one wall, in the order they are played."""
    if fmt is SeatingFormat.ROTATE:
        return tuple(_rotation(r) for r in range(SEATS))
    if fmt is SeatingFormat.TEAMS:
        return (_rotation(0), _rotation(1))
    p: list[Seating] = [(a, b, c, d) for a, b, c, d in permutations(range(SEATS))]
    return tuple(p)


def _rotation(shift: int) -> Seating:
    """Lineup entry ``i`` sits in seat ``(i + shift) % 4``."""
    a, b, c, d = ((seat - shift) % SEATS for seat in range(SEATS))
    return (a, b, c, d)


def lineup_for(fmt: SeatingFormat, programs: Sequence[str]) -> tuple[str, str, str, str]:
    """The four lineup entries for ``programs``: two programs make ``A B A B`` (the
    teams format needs exactly that), four are taken as they are."""
    names = list(programs)
    if len(names) == 2:
        names = [names[0], names[1], names[0], names[1]]
    if len(names) != SEATS:
        raise ValueError(f"{len(programs)} players: give two (A B A B) or four")
    if fmt is SeatingFormat.TEAMS and not (names[0] == names[2] and names[1] == names[3]):
        raise ValueError("the teams seating puts two copies of each program on opposite "
                         "seats: give two players (or a lineup A B A B)")
    a, b, c, d = names
    return (a, b, c, d)


def seated(lineup: Sequence[str], seating: Seating) -> tuple[str, str, str, str]:
    """The program in each seat."""
    a, b, c, d = (lineup[i] for i in seating)
    return (a, b, c, d)


__all__ = ["Seating", "SeatingFormat", "lineup_for", "seated", "seatings"]
