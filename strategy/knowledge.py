"""The knowledge base of one seat: how many copies of each tile are still unseen.

The knowledge base ω of "Let's Play Mahjong!" (Li & Yan, eq. 9) starts at
4 - (own hand) and loses a copy for every tile the seat sees.  Here it is
kept as two count vectors, ``hand`` (own concealed tiles) and ``known``
(every other copy this seat has seen: discards, exposed melds, its own
concealed kongs), with ``unseen = 4 - hand - known``.  Another seat's
concealed kong stays unseen: its tiles are not shown.  Flowers are not among
the 34 kinds; they are only counted per seat.

Invariant after every update: hand + known + unseen = 4 per tile and nothing
is negative.  An update that would break it raises :class:`KnowledgeError`
naming the tile and the event, and leaves the knowledge base unchanged.
"""

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from game.tiles import NUM_KINDS, Counts, TileError, is_flower, tile_name

_FOUR = np.full(NUM_KINDS, 4, dtype=np.int8)


class KnowledgeError(TileError):
    """An event that contradicts what the seat already knows."""


@dataclass
class KnowledgeBase:
    """Own concealed tiles and every other copy seen, from one seat's point of view."""

    hand: "Counts" = field(default_factory=lambda: np.zeros(NUM_KINDS, dtype=np.int8))
    known: "Counts" = field(default_factory=lambda: np.zeros(NUM_KINDS, dtype=np.int8))
    flowers: "list[int]" = field(default_factory=lambda: [0, 0, 0, 0])

    # ------------------------------------------------------------ views
    @property
    def unseen(self) -> "Counts":
        unseen = np.subtract(_FOUR, self.hand, dtype=np.int8)
        unseen -= self.known
        return unseen

    def unseen_total(self) -> int:
        return int(self.unseen.sum())

    def copy(self) -> "KnowledgeBase":
        return KnowledgeBase(self.hand.copy(), self.known.copy(), list(self.flowers))

    # ------------------------------------------------------------ the one mutation
    def _apply(
        self,
        event: "Callable[[], str]",
        hand_delta: "Sequence[tuple[int, int]]" = (),
        known_delta: "Sequence[tuple[int, int]]" = (),
    ) -> None:
        """Apply the deltas to new count vectors, or raise naming ``event()`` (written only
        then: a message per event costs more than the update)."""
        if len(hand_delta) + len(known_delta) == 1:  # one tile drawn or seen: no sums
            self._apply_one(event, *(hand_delta or known_delta)[0], bool(hand_delta))
            return
        dh: "dict[int, int]" = {}
        dk: "dict[int, int]" = {}
        for t, d in hand_delta:
            _check_kind(t, event)
            dh[t] = dh.get(t, 0) + d
        for t, d in known_delta:
            _check_kind(t, event)
            dk[t] = dk.get(t, 0) + d
        hand, known = self.hand.copy(), self.known.copy()
        for t in dh.keys() | dk.keys():
            h = int(hand[t]) + dh.get(t, 0)
            k = int(known[t]) + dk.get(t, 0)
            if h < 0:
                raise KnowledgeError(f"{event()}: the hand holds no {tile_name(t)} to give up")
            if h + k > 4:
                raise KnowledgeError(f"{event()}: a fifth {tile_name(t)} (hand {h}, seen {k})")
            hand[t] = h
            known[t] = k
        self.hand, self.known = hand, known

    def _apply_one(self, event: "Callable[[], str]", t: int, d: int, to_hand: bool) -> None:
        """:meth:`_apply` of one delta (``d`` copies of ``t`` to the hand or to the seen
        ones), with the same checks."""
        _check_kind(t, event)
        h, k = int(self.hand[t]), int(self.known[t])
        if to_hand:
            h += d
        else:
            k += d
        if h < 0:
            raise KnowledgeError(f"{event()}: the hand holds no {tile_name(t)} to give up")
        if h + k > 4:
            raise KnowledgeError(f"{event()}: a fifth {tile_name(t)} (hand {h}, seen {k})")
        if to_hand:
            self.hand = self.hand.copy()
            self.hand[t] = h
        else:
            self.known = self.known.copy()
            self.known[t] = k

    # ------------------------------------------------------------ own tiles
    def deal(self, tiles: "Iterable[int]") -> None:
        tiles = list(tiles)
        self._apply(lambda: f"deal {_names(tiles)}",
                    [(t, 1) for t in tiles if not is_flower(t)])

    def draw(self, tile: int) -> None:
        self._apply(lambda: f"draw {tile_name(tile)}", [(tile, 1)])

    def discard(self, tile: int) -> None:
        """Own discard: the tile leaves the hand and is seen by everyone."""
        self._apply(lambda: f"discard {tile_name(tile)}", [(tile, -1)], [(tile, 1)])

    def own_meld(self, from_hand: "Sequence[int]") -> None:
        """Own chow/pung/kong on a discard (the claimed tile was seen when discarded)."""
        self._apply(
            lambda: f"own meld from {_names(from_hand)}",
            [(t, -1) for t in from_hand],
            [(t, 1) for t in from_hand],
        )

    def own_concealed_kong(self, tile: int) -> None:
        self._apply(lambda: f"own concealed kong {tile_name(tile)}", [(tile, -4)], [(tile, 4)])

    def own_added_kong(self, tile: int) -> None:
        self._apply(lambda: f"own added kong {tile_name(tile)}", [(tile, -1)], [(tile, 1)])

    # ------------------------------------------------------------ other seats
    def seen_discard(self, tile: int) -> None:
        self._apply(lambda: f"discard {tile_name(tile)} by another seat",
                    known_delta=[(tile, 1)])

    def seen_meld(self, from_hand: "Sequence[int]") -> None:
        """Another seat's chow/pung/exposed kong: the tiles it showed from its hand."""
        self._apply(
            lambda: f"meld {_names(from_hand)} by another seat",
            known_delta=[(t, 1) for t in from_hand],
        )

    def seen_added_kong(self, tile: int) -> None:
        self._apply(lambda: f"added kong {tile_name(tile)} by another seat",
                    known_delta=[(tile, 1)])

    def seen_concealed_kong(self, tile: "int | None" = None) -> None:
        """Another seat's concealed kong; its tiles are seen only if the protocol shows them."""
        if tile is not None:
            self._apply(
                lambda: f"concealed kong {tile_name(tile)} by another seat",
                known_delta=[(tile, 4)],
            )

    def flower(self, seat: int, tile: int) -> None:
        if not is_flower(tile):
            raise KnowledgeError(f"flower event with {tile_name(tile)}, which is not a flower")
        self.flowers[seat] += 1

    def check(self) -> None:
        """Re-check the invariant (used by tests after every event)."""
        u = self.unseen
        for t in range(NUM_KINDS):
            if self.hand[t] < 0 or self.known[t] < 0 or u[t] < 0:
                raise KnowledgeError(
                    f"{tile_name(t)}: hand {self.hand[t]}, seen {self.known[t]}, unseen {u[t]}"
                )
            if int(self.hand[t]) + int(self.known[t]) + int(u[t]) != 4:
                raise KnowledgeError(f"{tile_name(t)} does not add up to four")


def _check_kind(tile: int, event: "Callable[[], str]") -> None:
    if not 0 <= tile < NUM_KINDS:
        raise KnowledgeError(f"{event()}: tile index {tile} is not one of the 34 kinds")


def _names(tiles: "Iterable[int]") -> str:
    return " ".join(tile_name(t) for t in tiles)
