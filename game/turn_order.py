"""The four seats, their turn order, and whose claim on a discard is carried out.

Seats are absolute, 0-3, and play in that order: the seat after a discarder
(:func:`next_seat`) draws next unless someone claims the discard.  When seats claim
it, every rule set here ranks the claims the same way (:func:`claim_order`): a win,
then a pung or kong (one rank: only one seat can hold two of a discard), then a
chow, which only the next seat may make; among claims of one rank the first seat
in turn order after the discarder.  The tables (:mod:`game.table`,
:mod:`game.taiwan`) and the sampler's rollouts (:mod:`strategy.sampling`) all
settle a discard with :func:`first_claim`.
"""

from collections.abc import Callable
from enum import Enum

SEATS = 4
"""Seats at a table."""


def check_seat(seat: int, what: str = "") -> None:
    """:class:`ValueError` unless ``seat`` is 0-3; ``what`` names it in the message."""
    if not 0 <= seat < SEATS:
        prefix = f"{what}: " if what else ""
        raise ValueError(f"{prefix}seat {seat} is outside 0-3")


def next_seat(seat: int) -> int:
    """The seat after ``seat`` in turn order: it draws after ``seat``'s discard nobody
    claims, and only it may chow that discard."""
    return (seat + 1) % SEATS


_AFTER = tuple(tuple((s + k) % SEATS for k in (1, 2, 3)) for s in range(SEATS))


def seats_after(seat: int) -> "tuple[int, ...]":
    """The other three seats in turn order after ``seat``."""
    return _AFTER[seat]


class Claim(Enum):
    """What a seat may claim another seat's discard for, the highest rank first."""

    WIN = "win"
    PUNG_OR_KONG = "pung or kong"
    CHOW = "chow"


_ORDER = tuple(
    tuple((s, Claim.WIN) for s in _AFTER[d])
    + tuple((s, Claim.PUNG_OR_KONG) for s in _AFTER[d])
    + ((next_seat(d), Claim.CHOW),)
    for d in range(SEATS)
)


def claim_order(discarder: int) -> "tuple[tuple[int, Claim], ...]":
    """Every ``(seat, claim)`` that may be made on ``discarder``'s discard, in priority
    order: a win by each other seat in turn order after the discarder, then a pung or
    kong by each, then a chow by the next seat."""
    return _ORDER[discarder]


def first_claim(discarder: int, claims: "Callable[[int, Claim], bool]"
                ) -> "tuple[int, Claim] | None":
    """The claim carried out on ``discarder``'s discard: the first ``(seat, claim)`` of
    :func:`claim_order` that ``claims(seat, claim)`` says the seat makes (asked in that
    order, and no further once one is made); None when nobody claims."""
    for seat, claim in _ORDER[discarder]:
        if claims(seat, claim):
            return seat, claim
    return None
