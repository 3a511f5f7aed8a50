"""Consistent draws: how far a game's draws followed its wall, as defined in
Tang, Chen & Wu, "An Efficient Method for Assessing the Strength of Mahjong
Programs" (section 4.2, Table 4).

The paper's definition: if nobody stole, seat ``p`` (relative to the dealer)
would draw ``w[64 + 4k + p]`` in its ``k``-th round; a draw is *consistent*
when the tile it actually drew in its ``k``-th round is that tile, and the
consistent rate of a game is its consistent draws over all its draws.  Here
a seat's rounds are its turns at taking a tile from outside its hand: each
normal draw, and, on a single or stable draw wall, each claimed discard (chow,
pung or kong on a discard), which takes the place of that round's draw.
Supplementary tiles (flower and kong replacements) are not rounds.

The functions take per-seat sequences, so any wall layout can be measured:

- ``single_wall_references`` gives the paper's ``w[64 + 4k + p]`` for a
  single wall (taiwan-16, whichever wall mode was played on it), and
  ``draw_rounds(history, claims_take_rounds=True)`` the rounds of a game;
- the Botzone duplicate format gives every seat its own wall, from whose back
  it draws (kong replacements included) and a claim skips nothing:
  ``per_seat_wall_references`` and ``draw_rounds(history,
  claims_take_rounds=False)``.  Its draws are consistent by construction.

A round with no such tile in the reference (a seat that had more rounds than
the wall planned for it) counts as an inconsistent draw.

``agreeing_draws`` compares two plays of the same wall with each other: of
the rounds in which both drew, those in which the same seat drew the same
tile in its ``k``-th round (rounds only one play reached, or in which either
claimed, are left out).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from game.events import Chowed, Drew, Event, Konged, Melded, Punged
from game.rules import MCR_BOTZONE, PER_SEAT_WALL
from game.turn_order import SEATS, check_seat

PER_SEAT_DEAL = MCR_BOTZONE.hand_size


@dataclass(frozen=True)
class DrawConsistency:
    """``consistent`` of ``draws`` followed the wall; add two to pool games."""

    consistent: int
    draws: int

    @property
    def rate(self) -> float:
        """Consistent draws over all draws (1.0 for a game without draws)."""
        return self.consistent / self.draws if self.draws else 1.0

    def __add__(self, other: DrawConsistency) -> DrawConsistency:
        return DrawConsistency(self.consistent + other.consistent, self.draws + other.draws)


def single_wall_references(
    wall: Sequence[int], dealer: int, hand_size: int = 16
) -> tuple[tuple[int, ...], ...]:
    """By absolute seat: ``w[4 * hand_size + 4k + p]`` for every ``k`` the wall holds,
    ``p = (seat - dealer) mod 4``."""
    check_seat(dealer, "dealer")
    start = SEATS * hand_size
    return tuple(
        tuple(int(t) for t in wall[start + (seat - dealer) % SEATS :: SEATS])
        for seat in range(SEATS)
    )


def per_seat_wall_references(walltiles: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """Botzone duplicate walls: seat ``i`` draws ``walltiles[34i + 20]`` down to ``[34i]``."""
    if len(walltiles) != MCR_BOTZONE.total_tiles:
        raise ValueError(f"{len(walltiles)} wall tiles; the per-seat walls hold "
                         f"{MCR_BOTZONE.total_tiles}")
    return tuple(
        tuple(
            int(walltiles[PER_SEAT_WALL * seat + i])
            for i in range(PER_SEAT_WALL - PER_SEAT_DEAL - 1, -1, -1)
        )
        for seat in range(SEATS)
    )


def draw_rounds(
    history: Iterable[Event], *, claims_take_rounds: bool
) -> tuple[tuple[int | None, ...], ...]:
    """Each seat's rounds in order: the tile of a normal draw, or ``None`` for a
    claimed discard when ``claims_take_rounds``.  Supplementary draws are left out."""
    rounds: list[list[int | None]] = [[] for _ in range(SEATS)]
    for event in history:
        if isinstance(event, Drew):
            if event.tile is None:
                raise ValueError(f"a hidden draw of seat {event.seat}: measure the full history")
            if not event.replacement:
                rounds[event.seat].append(event.tile)
        elif claims_take_rounds and isinstance(event, Melded | Konged | Punged | Chowed):
            rounds[event.seat].append(None)
    return tuple(map(tuple, rounds))


def consistent_draws(
    references: Sequence[Sequence[int]], rounds: Sequence[Sequence[int | None]]
) -> DrawConsistency:
    """Draws whose tile is the reference's tile for that seat and round, of all draws."""
    if len(references) != SEATS or len(rounds) != SEATS:
        raise ValueError("references and rounds are given for the four seats")
    consistent = draws = 0
    for reference, seat_rounds in zip(references, rounds, strict=True):
        for k, tile in enumerate(seat_rounds):
            if tile is None:
                continue
            draws += 1
            consistent += k < len(reference) and reference[k] == tile
    return DrawConsistency(consistent, draws)


def agreeing_draws(
    first: Sequence[Sequence[int | None]], second: Sequence[Sequence[int | None]]
) -> DrawConsistency:
    """Two plays of one wall compared with each other rather than with the wall:
    of the rounds in which both plays drew (the same seat, its ``k``-th round),
    those in which they drew the same tile."""
    if len(first) != SEATS or len(second) != SEATS:
        raise ValueError("rounds are given for the four seats")
    agree = draws = 0
    for a, b in zip(first, second, strict=True):
        for ta, tb in zip(a, b, strict=False):
            if ta is not None and tb is not None:
                draws += 1
                agree += ta == tb
    return DrawConsistency(agree, draws)


__all__ = [
    "DrawConsistency",
    "agreeing_draws",
    "consistent_draws",
    "draw_rounds",
    "per_seat_wall_references",
    "single_wall_references",
]
