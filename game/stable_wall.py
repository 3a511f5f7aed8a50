"""The stable draw wall (SDW) of Tang, Chen & Wu, "An Efficient Method for
Assessing the Strength of Mahjong Programs" (ICAART 2025), for a single-wall
rule set such as taiwan-16.

The original wall is cut into a front and a rear sub-wall per seat, so that a
seat draws the same tiles in the same order whatever the others claim; with
the same wall played in several seatings this takes most of the luck of the
draw out of a comparison of programs.

Positions ``p`` below are relative to the dealer (``p = 0`` is the dealer,
then turn order); the class works with absolute seats and converts.

Construction (the paper's Algorithm 1, eq. 1-3), for an original wall
``w_0 .. w_{N-1}`` (N = 136 in the paper, 144 here with the flowers), hands of
16 and a dead wall of 16:

- ``fsw[p][4n + k] = w[16n + 4p + k]`` for ``0 <= n, k <= 3``: the deal, as a
  single wall deals it (four rounds of four, the dealer first);
- ``fsw[p][16 + k] = w[64 + 4k + p]`` for ``0 <= k < (N - 80) / 4``: the
  draws a seat would make from a single wall if nobody claimed (14 in the
  paper, 16 with flowers);
- ``rsw[p][k] = w[N - 1 - (4k + p)]`` for ``0 <= k <= 3``: the dead wall,
  dealt from the back one tile at a time, the dealer first: the
  supplementary tiles (kong replacements and, here, flower replacements).

The paper plays without flowers (its footnote 1); with them, a seat's flower
replacements (at the deal and after a drawn flower) come from its own rear
sub-wall like its kong replacements, so a seat holding more than four
flowers and kongs between them reshuffles.

Drawing (Algorithm 3): a normal draw takes the first tile of the seat's front
sub-wall, a supplementary draw the first tile of its rear sub-wall.  When a
seat claims a discard (chow, pung, or a kong on a discard) it gives up a draw:
the first tile of its front sub-wall goes to the relinquished-tile pile, so
its next draw is the tile it would have drawn had it not claimed.  (Algorithm
3 does not say what happens when that front sub-wall is already empty; here
nothing is relinquished then: the seat's next normal draw reshuffles anyway.)

Reshuffle (Algorithm 2, eq. 4-5): when a seat must draw from an empty front
(or rear) sub-wall, every tile left in the eight sub-walls and the pile is
collected (fronts in seat order from the dealer, then rears, then the pile),
shuffled into ``w'_0 .. w'_{n_r - 1}`` and dealt again from the seat to draw
(``q = (p - p_turn) mod 4``): ``fsw[p][k] = w'[4k + q]`` for
``4k + q < n_r - 16`` and ``rsw[p][k] = w'[n_r - 1 - (4k + q)]`` for the last
16 (all of them when fewer than 16 are left).  Two slips of the published
text are corrected here: eq. 5 and Algorithm 2 index ``w'[n_r - (4k + q)]``,
one past the end for ``k = q = 0``, and Algorithm 2's loop deals the rear
sub-walls by absolute ``p`` where eq. 5 uses ``q``; we follow eq. 5.  The
shuffle draws from a ``numpy`` generator seeded with ``(seed, i)`` for the
``i``-th reshuffle of the game (``seed`` defaults to the original wall's
tiles), so the same wall reshuffles alike in every game played on it.

The end of the game is the paper's (and the single wall's): ``remaining``
counts every tile still in the sub-walls and the pile; a normal draw is
possible only while more than the dead wall (16) remain, a supplementary draw
while any remains.  Relinquishing moves a tile without using it, so a game
has as many draws under the SDW as on the single wall, and ``remaining - 16``
is the paper's number of available draws (``n_rad`` at a reshuffle).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

import numpy as np

from game.turn_order import SEATS, check_seat, seats_after

REAR_PER_SEAT = 4
"""Tiles in each rear sub-wall: the dead wall of 16, four per seat."""


class WallMode(Enum):
    """How a single-wall table hands out its tiles."""

    SINGLE = "single"
    """One wall: draws from the front, supplementary tiles from the back."""
    SDW = "sdw"
    """The stable draw wall: a front and a rear sub-wall per seat."""


class SubwallError(RuntimeError):
    """A draw that the wall cannot serve (nothing left for it)."""


@dataclass(frozen=True)
class Subwalls:
    """Front and rear sub-walls by absolute seat, the next tile first."""

    fronts: tuple[tuple[int, ...], ...]
    rears: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class Reshuffle:
    """One reshuffle: who was to draw, the tiles collected (``n_r``), the normal
    draws then still available (``n_rad = n_r - 16``, at least 0), and whether
    an empty rear sub-wall (a supplementary draw) caused it."""

    seat: int
    tiles: int
    available_draws: int
    supplementary: bool = False


def construct_subwalls(
    wall: Sequence[int], dealer: int, hand_size: int = 16, dead_wall: int = 16
) -> Subwalls:
    """Algorithm 1 (eq. 1-3): the sub-walls of an original ``wall``, by absolute seat."""
    check_seat(dealer, "dealer")
    if hand_size % 4 or dead_wall != SEATS * REAR_PER_SEAT:
        raise ValueError(f"hands of {hand_size} and a dead wall of {dead_wall} do not split")
    tiles = tuple(int(t) for t in wall)
    dealt = SEATS * hand_size
    drawable = len(tiles) - dealt - dead_wall
    if drawable < 0 or drawable % SEATS:
        raise ValueError(f"a wall of {len(tiles)} tiles does not split into four sub-walls")
    fronts: list[list[int]] = [[] for _ in range(SEATS)]
    rears: list[list[int]] = [[] for _ in range(SEATS)]
    for p in range(SEATS):
        seat = (dealer + p) % SEATS
        for n in range(hand_size // 4):
            fronts[seat] += tiles[16 * n + 4 * p : 16 * n + 4 * p + 4]
        fronts[seat] += [tiles[dealt + 4 * k + p] for k in range(drawable // SEATS)]
        rears[seat] = [tiles[len(tiles) - 1 - (4 * k + p)] for k in range(REAR_PER_SEAT)]
    return Subwalls(tuple(map(tuple, fronts)), tuple(map(tuple, rears)))


def redistribute(arrangement: Sequence[int], turn: int, dead_wall: int = 16) -> Subwalls:
    """Eq. 4-5: deal a shuffled ``arrangement`` into sub-walls from seat ``turn``.

    The last ``dead_wall`` tiles (or all, when fewer) go to the rear
    sub-walls, ``turn`` first and from the end; the others to the fronts,
    ``turn`` first and from the start.
    """
    tiles = tuple(int(t) for t in arrangement)
    n = len(tiles)
    rear_count = min(dead_wall, n)
    fronts: list[list[int]] = [[] for _ in range(SEATS)]
    rears: list[list[int]] = [[] for _ in range(SEATS)]
    for i in range(n - rear_count):
        fronts[(turn + i) % SEATS].append(tiles[i])
    for i in range(rear_count):
        rears[(turn + i) % SEATS].append(tiles[n - 1 - i])
    return Subwalls(tuple(map(tuple, fronts)), tuple(map(tuple, rears)))


class StableDrawWall:
    """The SDW in play: draws (Algorithm 3), relinquished draws and reshuffles (Algorithm 2).

    ``wall`` is the original wall (the table checks its tiles), ``dealer`` the
    absolute seat of the dealer; ``seed`` seeds the reshuffles (default: the
    wall's own tiles, so a wall always reshuffles the same way).
    """

    def __init__(
        self,
        wall: Sequence[int],
        dealer: int,
        *,
        hand_size: int = 16,
        dead_wall: int = 16,
        seed: int | None = None,
    ) -> None:
        subwalls = construct_subwalls(wall, dealer, hand_size, dead_wall)
        self._fronts = [list(f) for f in subwalls.fronts]
        self._rears = [list(r) for r in subwalls.rears]
        self._pile: list[int] = []
        self._dealer = dealer
        self._dead_wall = dead_wall
        if seed is not None and seed < 0:
            raise ValueError(f"reshuffle seed {seed} is negative")
        self._entropy = (seed,) if seed is not None else tuple(int(t) for t in wall)
        self._reshuffles: list[Reshuffle] = []

    # ------------------------------------------------------------ queries
    @property
    def remaining(self) -> int:
        """Tiles in the sub-walls and the pile (the hands not yet dealt included)."""
        return sum(map(len, self._fronts)) + sum(map(len, self._rears)) + len(self._pile)

    @property
    def available_draws(self) -> int:
        """Normal draws still possible: ``remaining`` less the dead wall, at least 0."""
        return max(0, self.remaining - self._dead_wall)

    def front(self, seat: int) -> tuple[int, ...]:
        return tuple(self._fronts[seat])

    def rear(self, seat: int) -> tuple[int, ...]:
        return tuple(self._rears[seat])

    @property
    def pile(self) -> tuple[int, ...]:
        """The relinquished tiles, oldest first."""
        return tuple(self._pile)

    @property
    def tiles(self) -> tuple[int, ...]:
        """Every tile left: the fronts from the dealer on, then the rears, then the pile
        (the order Algorithm 2 collects them in)."""
        order = [self._dealer, *seats_after(self._dealer)]
        return (
            *(t for s in order for t in self._fronts[s]),
            *(t for s in order for t in self._rears[s]),
            *self._pile,
        )

    @property
    def reshuffles(self) -> tuple[Reshuffle, ...]:
        return tuple(self._reshuffles)

    # ------------------------------------------------------------ Algorithm 3
    def draw(self, seat: int) -> int:
        """A normal draw: the first tile of ``seat``'s front sub-wall (reshuffling when empty).

        Raises :class:`SubwallError` when no tile beyond the dead wall is left.
        """
        if not self._fronts[seat]:
            if self.remaining <= self._dead_wall:
                raise SubwallError(
                    f"no normal draw for seat {seat}: {self.remaining} tiles left, "
                    f"the dead wall is {self._dead_wall}"
                )
            self._reshuffle(seat, supplementary=False)
        return self._fronts[seat].pop(0)

    def draw_supplement(self, seat: int) -> int:
        """A supplementary draw (kong or flower replacement) from ``seat``'s rear sub-wall."""
        if not self._rears[seat]:
            if self.remaining == 0:
                raise SubwallError(f"no supplementary tile for seat {seat}: the wall is empty")
            self._reshuffle(seat, supplementary=True)
        return self._rears[seat].pop(0)

    def relinquish(self, seat: int) -> int | None:
        """``seat`` claimed a discard: its next front tile goes to the pile (returned);
        ``None`` when its front sub-wall is empty."""
        if not self._fronts[seat]:
            return None
        tile = self._fronts[seat].pop(0)
        self._pile.append(tile)
        return tile

    # ------------------------------------------------------------ Algorithm 2
    def _reshuffle(self, seat: int, *, supplementary: bool) -> None:
        collected = np.array(self.tiles, dtype=np.int64)
        rng = np.random.default_rng([*self._entropy, len(self._reshuffles)])
        arrangement = rng.permutation(collected)
        subwalls = redistribute(arrangement.tolist(), seat, self._dead_wall)
        self._fronts = [list(f) for f in subwalls.fronts]
        self._rears = [list(r) for r in subwalls.rears]
        self._pile = []
        n = len(collected)
        self._reshuffles.append(Reshuffle(seat, n, max(0, n - self._dead_wall), supplementary))


__all__ = [
    "Reshuffle",
    "StableDrawWall",
    "SubwallError",
    "Subwalls",
    "WallMode",
    "construct_subwalls",
    "redistribute",
]
