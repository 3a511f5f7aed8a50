"""One seat's view of a game, rebuilt from the events that seat is shown.

Like libriichi's player state, the seen-tile counts are the knowledge base
(:class:`strategy.knowledge.KnowledgeBase`); the view also keeps the seat's
melds, the walls' sizes, the tile in play and what the last event asks of
the seat, and it lists the legal answers.  It never sees wire text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum

import numpy as np

from game import events as ev
from game.melds import Chow, ConcealedKong, Kong, Meld, Pung
from game.rules import Ruleset, WallLayout
from game.table_base import chow_middles, chow_tiles
from game.tiles import NUM_KINDS, is_flower
from strategy.knowledge import KnowledgeBase

__all__ = ["Ask", "AskKind", "SeatView", "safest_action"]

PER_SEAT_DRAWS = 34 - 13
"""Tiles a seat can draw from its own wall in Botzone's duplicate format."""


class AskKind(Enum):
    """What the last event asks of a seat."""

    NOTHING = "nothing"
    DRAW = "draw"
    """The seat drew: discard, declare a kong or win."""
    DISCARD = "discard"
    """Another seat discarded (or discarded after its claim): claim it, win on it or pass."""
    ROB = "rob"
    """Another seat added a kong: rob it or pass."""


@dataclass(frozen=True)
class Ask:
    """What a seat is asked, with every answer the platform accepts (a win only as a
    shape: the fan is checked by whoever declares it)."""

    kind: AskKind
    legal: tuple[ev.Action, ...]
    drawn: int | None = None
    """The tile the seat just drew (for ``DRAW``)."""

    def allows(self, action: ev.Action) -> bool:
        return action in self.legal

    def safest(self) -> ev.Action:
        """The one safest-answer rule: :func:`safest_action` on this ask."""
        return safest_action(self.legal, self.drawn)


def safest_action(legal: Sequence[ev.Action], drawn: int | None = None) -> ev.Action:
    """The safest of the legal answers, for a strategy that failed, was late or lost its
    state: pass if allowed; else discard the drawn tile; else the last discard offered;
    else the first legal answer (pass when nothing is offered)."""
    if ev.Pass() in legal:
        return ev.Pass()
    if drawn is not None and ev.Discard(drawn) in legal:
        return ev.Discard(drawn)
    discards = [a for a in legal if isinstance(a, ev.Discard)]
    if discards:
        return discards[-1]
    return legal[0] if legal else ev.Pass()


@dataclass
class SeatView:
    rules: Ruleset
    seat: int = 0
    prevalent_wind: int = 0
    kb: KnowledgeBase = field(default_factory=KnowledgeBase)
    melds: list[Meld] = field(default_factory=list)
    wall_left: list[int] = field(default_factory=lambda: [PER_SEAT_DRAWS] * 4)
    """Per-seat walls (Botzone duplicate); for one shared wall all four entries move."""
    last_event: ev.Event | None = None
    drawn: int | None = None
    """The tile this seat just drew (while it must answer the draw)."""
    after_kong: bool = False
    """This seat's current draw is a kong replacement."""
    tile_in_play: int | None = None
    provider: int | None = None
    dealt: bool = False
    events: int = 0
    own_answer: ev.Action | None = None
    """This seat's last answer: Botzone's ``3 p GANG`` does not name the tile of the
    seat's own concealed kong, so the view fills it in from here."""
    _ask: Ask | None = field(default=None, repr=False)
    """What the last event asks, computed once per event (:attr:`ask`)."""
    discards: list[list[int]] = field(default_factory=lambda: [[], [], [], []])
    """Every seat's discards, oldest first (those claimed by others included)."""
    shown_melds: list[list[Meld]] = field(default_factory=lambda: [[], [], [], []])
    """Every seat's declared melds as the table shows them (another seat's concealed kong
    of an unknown tile is left out)."""
    passed: list[list[int]] = field(default_factory=lambda: [[], [], [], []])
    """Per seat: the tiles the others discarded since its hand last changed."""
    hidden_kongs: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    """Per seat: its concealed kongs whose tile this seat was not shown."""
    dealer: int | None = None
    """The seat that made the first normal draw of the game (taiwan-16's dealer; the seat
    winds are counted from it)."""
    own_flowers: list[int] = field(default_factory=list)
    """The flower tiles this seat has set aside (taiwan-16 scores its own-seat flowers)."""

    # ------------------------------------------------------------------ events
    def observe(self, event: ev.Event) -> None:
        """Apply one event; a contradiction raises (KnowledgeError) and changes nothing."""
        kb = self.kb.copy()
        melds = list(self.melds)
        me = self.seat
        was_kong = isinstance(self.last_event, ev.Konged | ev.ConcealedKonged | ev.KongAdded)
        discarder = self.provider if self.provider is not None else 0  # of a claimed tile
        if isinstance(event, ev.SeatAssigned):
            self.seat, self.prevalent_wind = event.seat, event.prevalent_wind
        elif isinstance(event, ev.Dealt):
            if event.seat == me:
                kb.deal(event.tiles)
            for s, n in enumerate(event.flower_counts):
                kb.flowers[s] = n
            start = sum(event.flower_counts[:me])
            self.own_flowers = list(event.flowers[start:start + event.flower_counts[me]])
            self.dealt = True
            if self.rules.wall_layout is WallLayout.SINGLE:
                # normal draws left: what the deal leaves in the wall, less the dead wall
                left = self.rules.wall_after_deal(len(event.flowers)) - self.rules.dead_wall
                self.wall_left = [max(0, left)] * 4
        elif isinstance(event, ev.Drew):
            self._wall_draw(event.seat)
            if self.dealer is None and not event.replacement:
                self.dealer = event.seat
            if event.seat == me and event.tile is not None and not is_flower(event.tile):
                kb.draw(event.tile)
        elif isinstance(event, ev.FlowerReplaced):
            kb.flower(event.seat, event.flower)
            if event.seat == me:
                self.own_flowers.append(event.flower)
        elif isinstance(event, ev.Discarded):
            (kb.discard if event.seat == me else kb.seen_discard)(event.tile)
        elif isinstance(event, ev.Punged):
            self._claimed(kb, melds, event.seat, [event.tile] * 2,
                          Pung(event.tile, discarder))
            (kb.discard if event.seat == me else kb.seen_discard)(event.discard)
        elif isinstance(event, ev.Chowed):
            chow = [event.middle - 1, event.middle, event.middle + 1]
            chow.remove(event.claimed)
            self._claimed(kb, melds, event.seat, chow,
                          Chow(event.middle, event.claimed, discarder))
            (kb.discard if event.seat == me else kb.seen_discard)(event.discard)
        elif isinstance(event, ev.Konged):
            self._claimed(kb, melds, event.seat, [event.tile] * 3,
                          Kong(event.tile, discarder))
        elif isinstance(event, ev.ConcealedKonged):
            tile = event.tile
            if event.seat == me and tile is None and isinstance(self.own_answer,
                                                                  ev.DeclareConcealedKong):
                tile = self.own_answer.tile
            if event.seat == me and tile is not None:
                kb.own_concealed_kong(tile)
                melds.append(ConcealedKong(tile))
            else:
                kb.seen_concealed_kong(event.tile)
        elif isinstance(event, ev.KongAdded):
            if event.seat == me:
                kb.own_added_kong(event.tile)
                melds = [Kong(m.tile, m.provider, added=True)
                         if isinstance(m, Pung) and m.tile == event.tile else m for m in melds]
            else:
                kb.seen_added_kong(event.tile)
        # commit
        self.kb, self.melds = kb, melds
        self.last_event = event
        self.events += 1
        self._ask = None
        self._track_play(event, was_kong)
        self._track_signs(event, discarder)

    def answered(self, action: ev.Action) -> None:
        """Remember what this seat answered (the next request may leave out its tile)."""
        self.own_answer = action

    def _claimed(self, kb: KnowledgeBase, melds: list[Meld], seat: int, from_hand: list[int],
                 meld: Meld) -> None:
        if seat == self.seat:
            kb.own_meld(from_hand)
            melds.append(meld)
        else:
            kb.seen_meld(from_hand)

    def _wall_draw(self, seat: int) -> None:
        if self.rules.wall_layout is WallLayout.PER_SEAT:
            self.wall_left[seat] -= 1
        else:
            # replacements after the last normal draw come from the dead wall
            self.wall_left = [max(0, n - 1) for n in self.wall_left]

    def _track_play(self, event: ev.Event, was_kong: bool) -> None:
        if isinstance(event, ev.Drew) and event.seat == self.seat:
            self.drawn = event.tile
            self.after_kong = was_kong
        elif not isinstance(event, ev.FlowerReplaced):
            self.drawn = None
        if isinstance(event, ev.Discarded):
            self.tile_in_play, self.provider = event.tile, event.seat
        elif isinstance(event, ev.Punged | ev.Chowed):
            self.tile_in_play, self.provider = event.discard, event.seat
        elif isinstance(event, ev.KongAdded):
            self.tile_in_play, self.provider = event.tile, event.seat
        elif not isinstance(event, ev.Drew):
            self.tile_in_play = None

    def _track_signs(self, event: ev.Event, discarder: int) -> None:
        """What every seat shows: its discards, its melds, the tiles it let pass."""
        seat = getattr(event, "seat", None)
        meld: Meld | None = None
        if isinstance(event, ev.Punged):
            meld = Pung(event.tile, discarder)
        elif isinstance(event, ev.Chowed):
            meld = Chow(event.middle, event.claimed, discarder)
        elif isinstance(event, ev.Konged):
            meld = Kong(event.tile, discarder)
        elif isinstance(event, ev.ConcealedKonged) and event.tile is not None:
            meld = ConcealedKong(event.tile)
        elif isinstance(event, ev.ConcealedKonged) and event.seat != self.seat:
            self.hidden_kongs[event.seat] += 1
        elif isinstance(event, ev.KongAdded):
            assert seat is not None
            self.shown_melds[seat] = [Kong(m.tile, m.provider, added=True)
                                      if isinstance(m, Pung) and m.tile == event.tile else m
                                      for m in self.shown_melds[seat]]
        if seat is None or not 0 <= seat < 4:
            return
        if meld is not None:
            self.shown_melds[seat].append(meld)
        if isinstance(event, ev.Drew | ev.Punged | ev.Chowed | ev.Konged
                      | ev.ConcealedKonged | ev.KongAdded):
            self.passed[seat] = []
        thrown = event.tile if isinstance(event, ev.Discarded) else (
            event.discard if isinstance(event, ev.Punged | ev.Chowed) else None)
        if thrown is not None:
            self.discards[seat].append(thrown)
            self.passed[seat] = []
            for other in range(4):
                if other != seat:
                    self.passed[other].append(thrown)

    # ------------------------------------------------------------------ views
    @property
    def hand(self) -> np.ndarray:
        return self.kb.hand

    @property
    def unseen(self) -> np.ndarray:
        return self.kb.unseen

    @property
    def melds_needed(self) -> int:
        return self.rules.melds_needed - len(self.melds)

    def pungs(self) -> list[int]:
        return [m.tile for m in self.melds if isinstance(m, Pung)]

    def next_seat(self, seat: int) -> int:
        return (seat + 1) % 4

    @property
    def ask(self) -> Ask:
        """What the last event asks of this seat and its legal answers (once per event)."""
        if self._ask is None:
            kind = self._ask_kind()
            self._ask = Ask(kind, tuple(self._legal(kind)),
                            self.drawn if kind is AskKind.DRAW else None)
        return self._ask

    def _ask_kind(self) -> AskKind:
        e = self.last_event
        if isinstance(e, ev.Drew) and e.seat == self.seat and e.tile is not None:
            # a flower is replaced, not played
            return AskKind.NOTHING if is_flower(e.tile) else AskKind.DRAW
        if isinstance(e, ev.Discarded | ev.Punged | ev.Chowed) and e.seat != self.seat:
            return AskKind.DISCARD
        if isinstance(e, ev.KongAdded) and e.seat != self.seat:
            return AskKind.ROB
        return AskKind.NOTHING

    def _legal(self, kind: AskKind) -> list[ev.Action]:
        hand = self.hand
        if kind is AskKind.DRAW:
            out: list[ev.Action] = [ev.Discard(int(t)) for t in np.nonzero(hand)[0]]
            own, following = self.wall_left[self.seat], self.wall_left[self.next_seat(self.seat)]
            walls_ok = own > 0 and following > 0
            if walls_ok and self.melds_needed >= 1:
                out += [ev.DeclareConcealedKong(int(t)) for t in np.nonzero(hand >= 4)[0]]
                out += [ev.DeclareAddedKong(t) for t in self.pungs() if hand[t] >= 1]
            out.append(ev.DeclareWin())
            return out
        if kind is AskKind.DISCARD:
            assert self.tile_in_play is not None and self.provider is not None
            t = self.tile_in_play
            out = [ev.Pass(), ev.DeclareWin()]
            if self.wall_left[self.next_seat(self.provider)] <= 0 or self.melds_needed < 1:
                return out
            if hand[t] >= 2:
                out += [ev.ClaimPung(int(d)) for d in self._discards_after(remove=[t, t])]
            if hand[t] >= 3 and self.wall_left[self.seat] > 0:  # a kong needs a replacement
                out.append(ev.ClaimKong())
            if self.next_seat(self.provider) == self.seat:
                for middle in chow_middles(t):
                    need = [x for x in chow_tiles(middle) if x != t]
                    if all(hand[x] >= 1 for x in need):
                        out += [ev.ClaimChow(middle, int(d)) for d in self._discards_after(need)]
            return out
        if kind is AskKind.ROB:
            return [ev.Pass(), ev.DeclareWin()]
        return [ev.Pass()]

    def _discards_after(self, remove: list[int]) -> list[int]:
        h = self.hand.copy()
        for x in remove:
            h[x] -= 1
        return [int(t) for t in np.nonzero(h > 0)[0]]

    def concealed_tiles(self, extra: int | None = None) -> list[int]:
        tiles = [t for t in range(NUM_KINDS) for _ in range(int(self.hand[t]))]
        if extra is not None:
            tiles.append(extra)
        return tiles
