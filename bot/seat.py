"""One seat's view of a game, rebuilt from the events that seat is shown.

Like libriichi's player state, the seen-tile counts are the knowledge base
(:class:`strategy.knowledge.KnowledgeBase`); the view also keeps the seat's
melds, the walls' sizes, the tile in play and what the last event asks of
the seat, and it lists the legal answers.  It never sees wire text.
"""

from dataclasses import dataclass, field
from enum import Enum

import numpy as np

from game import events as ev
from game.melds import Chow, ConcealedKong, Kong, Meld, Pung, chow_tiles
from game.rulebook import (
    WinOffer,
    declarable_win,
    kong_forbidden,
    legal_after_claim,
    legal_after_draw,
    legal_on_added_kong,
    legal_on_discard,
    safest_action,
    win_context,
)
from game.rules import MCR_BOTZONE, PER_SEAT_WALL, Ruleset, WallLayout
from game.tiles import NUM_KINDS, is_flower
from game.turn_order import SEATS, next_seat
from strategy.candidates import best_shape_deficiency
from strategy.jit import HAVE_NUMBA
from strategy.knowledge import KnowledgeBase

__all__ = ["Ask", "AskKind", "PlayerState", "safest_action"]

PER_SEAT_DRAWS = PER_SEAT_WALL - MCR_BOTZONE.hand_size
"""Tiles a seat can draw from its own wall in Botzone's duplicate format."""
_KINDS = np.arange(NUM_KINDS)
_NONE_UNSEEN = np.zeros(NUM_KINDS, dtype=np.int8)
"""The cheap bound of a win asks whether the tiles themselves are complete: nothing unseen."""


class AskKind(Enum):
    """What the last event asks of a seat."""

    NOTHING = "nothing"
    DRAW = "draw"
    """The seat drew: discard, declare a kong or win."""
    DISCARD = "discard"
    """Another seat discarded (or discarded after its claim): claim it, win on it or pass."""
    ROB = "rob"
    """Another seat added a kong: rob it or pass."""
    CALLED = "called"
    """This seat's chow or pung was taken and its discard is asked for (the Olympiad flow
    shows the claim and the discard after it as two events; Botzone's claims name their
    discard, so this is never asked there)."""


@dataclass(frozen=True)
class Ask:
    """What a seat is asked, with every answer the platform accepts, from the rule book
    (:mod:`game.rulebook`): a win is offered only when it is one, at the rule set's
    minimum fan with the seat's flowers, so a session can refuse a false win."""

    kind: "AskKind"
    legal: "tuple[ev.Action, ...]"
    drawn: "int | None" = None
    """The tile the seat just drew (for ``DRAW``)."""
    win: "WinOffer | None" = None
    """The win offered (its fan), when ``legal`` holds :class:`DeclareWin`."""

    def allows(self, action: "ev.Action") -> bool:
        return action in self.legal

    def safest(self) -> "ev.Action":
        """The one safest-answer rule: :func:`safest_action` on this ask."""
        return safest_action(self.legal, self.drawn)


_NOTHING_ASKED = Ask(AskKind.NOTHING, (ev.Pass(),))
"""The ask of an event that asks nothing (what :meth:`PlayerState._legal` gives it)."""


@dataclass
class PlayerState:
    rules: "Ruleset"
    seat: int = 0
    prevalent_wind: int = 0
    kb: "KnowledgeBase" = field(default_factory=KnowledgeBase)
    melds: "list[Meld]" = field(default_factory=list)
    wall_left: "list[int]" = field(default_factory=lambda: [PER_SEAT_DRAWS] * SEATS)
    """Per-seat walls (Botzone duplicate); for one shared wall all four entries move."""
    last_event: "ev.Event | None" = None
    drawn: "int | None" = None
    """The tile this seat just drew (while it must answer the draw)."""
    after_kong: bool = False
    """This seat's current draw is a kong replacement."""
    tile_in_play: "int | None" = None
    provider: "int | None" = None
    dealt: bool = False
    events: int = 0
    own_answer: "ev.Action | None" = None
    """This seat's last answer: Botzone's ``3 p GANG`` does not name the tile of the
    seat's own concealed kong, so the view fills it in from here."""
    _ask: "Ask | None" = field(default=None, repr=False)
    """What the last event asks, computed once per event (:attr:`ask`)."""
    discards: "list[list[int]]" = field(default_factory=lambda: [[], [], [], []])
    """Every seat's discards, oldest first (those claimed by others included)."""
    shown_melds: "list[list[Meld]]" = field(default_factory=lambda: [[], [], [], []])
    """Every seat's declared melds as the table shows them (another seat's concealed kong
    of an unknown tile is left out)."""
    passed: "list[list[int]]" = field(default_factory=lambda: [[], [], [], []])
    """Per seat: the tiles the others discarded since its hand last changed."""
    hidden_kongs: "list[int]" = field(default_factory=lambda: [0, 0, 0, 0])
    """Per seat: its concealed kongs whose tile this seat was not shown."""
    dealer: "int | None" = None
    """The seat that made the first normal draw of the game (taiwan-16's dealer; the seat
    winds are counted from it)."""
    own_flowers: "list[int]" = field(default_factory=list)
    """The flower tiles this seat has set aside (taiwan-16 scores its own-seat flowers)."""
    tiles_left: int = 0
    """One shared wall (taiwan-16): every tile still in it, the dead wall included (a
    kong's replacement comes from there)."""
    _offers: "dict[tuple[int, bool, bool], WinOffer | None]" = field(
        default_factory=dict, repr=False)
    """The wins :meth:`win_offer` found since the last event."""

    # ------------------------------------------------------------------ events
    def observe(self, event: "ev.Event") -> None:
        """Apply one event; a contradiction raises (KnowledgeError) and changes nothing."""
        # each update of the knowledge base is whole or nothing: only an event that makes
        # two (a claim, then the claimer's discard) works on a copy
        kb = self.kb.copy() if isinstance(event, (ev.Punged, ev.Chowed)) else self.kb
        melds = list(self.melds)
        me = self.seat
        was_kong = isinstance(self.last_event, (ev.Konged, ev.ConcealedKonged, ev.KongAdded))
        discarder = self.provider if self.provider is not None else 0  # of a claimed tile
        # the two events of every turn first
        if isinstance(event, ev.Drew):
            if event.seat == me and event.tile is not None and not is_flower(event.tile):
                kb.draw(event.tile)
        elif isinstance(event, ev.Discarded):
            (kb.discard if event.seat == me else kb.seen_discard)(event.tile)
        elif isinstance(event, ev.SeatAssigned):
            self.seat, self.prevalent_wind = event.seat, event.prevalent_wind
        elif isinstance(event, ev.Dealt):
            if event.seat == me:
                kb.deal(event.tiles)
            for s, n in enumerate(event.flower_counts):
                kb.flowers[s] = n
        elif isinstance(event, ev.FlowerReplaced):
            kb.flower(event.seat, event.flower)
        elif isinstance(event, ev.Punged):
            self._claimed(kb, melds, event.seat, [event.tile] * 2,
                          Pung(event.tile, discarder))
            (kb.discard if event.seat == me else kb.seen_discard)(event.discard)
        elif isinstance(event, ev.Chowed):
            chow = list(chow_tiles(event.middle))
            chow.remove(event.claimed)
            self._claimed(kb, melds, event.seat, chow,
                          Chow(event.middle, event.claimed, discarder))
            (kb.discard if event.seat == me else kb.seen_discard)(event.discard)
        elif isinstance(event, ev.Melded):
            self._claimed(kb, melds, event.seat, event.from_hand, self._meld_of(event))
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
        # commit: nothing above changed the view, so a contradiction left it as it was
        if isinstance(event, ev.Drew):
            self._wall_draw(event.seat)
            if self.dealer is None and not event.replacement:
                self.dealer = event.seat
        self.kb, self.melds = kb, melds
        self._offers = {}
        if isinstance(event, ev.FlowerReplaced) and event.seat == me:
            self.own_flowers.append(event.flower)
        if isinstance(event, ev.Dealt):
            start = sum(event.flower_counts[:me])
            self.own_flowers = list(event.flowers[start:start + event.flower_counts[me]])
            self.dealt = True
            if self.rules.wall_layout is WallLayout.SINGLE:
                # what the deal leaves in the wall; normal draws stop at the dead wall
                self.tiles_left = self.rules.wall_after_deal(len(event.flowers))
                self.wall_left = [max(0, self.tiles_left - self.rules.dead_wall)] * SEATS
        self.last_event = event
        self.events += 1
        self._ask = None
        self._track_play(event, was_kong)
        self._track_signs(event, discarder)

    def answered(self, action: "ev.Action") -> None:
        """Remember what this seat answered (the next request may leave out its tile)."""
        self.own_answer = action

    def _claimed(self, kb: "KnowledgeBase", melds: "list[Meld]", seat: int, from_hand: "list[int]",
                 meld: "Meld") -> None:
        if seat == self.seat:
            kb.own_meld(from_hand)
            melds.append(meld)
        else:
            kb.seen_meld(from_hand)

    @staticmethod
    def _meld_of(event: "ev.Melded") -> "Meld":
        if event.kind is ev.ActionKind.PUNG:
            return Pung(event.claimed, event.from_seat)
        return Chow(event.tiles[1], event.claimed, event.from_seat)

    def _wall_draw(self, seat: int) -> None:
        if self.rules.wall_layout is WallLayout.PER_SEAT:
            self.wall_left[seat] -= 1
        else:
            # replacements after the last normal draw come from the dead wall
            self.tiles_left = max(0, self.tiles_left - 1)
            self.wall_left = [max(0, n - 1) for n in self.wall_left]

    def _track_play(self, event: "ev.Event", was_kong: bool) -> None:
        if isinstance(event, ev.Drew) and event.seat == self.seat:
            self.drawn = event.tile
            self.after_kong = was_kong
        elif not isinstance(event, ev.FlowerReplaced):
            self.drawn = None
        if isinstance(event, ev.Discarded):
            self.tile_in_play, self.provider = event.tile, event.seat
        elif isinstance(event, (ev.Punged, ev.Chowed)):
            self.tile_in_play, self.provider = event.discard, event.seat
        elif isinstance(event, ev.KongAdded):
            self.tile_in_play, self.provider = event.tile, event.seat
        elif not isinstance(event, ev.Drew):
            self.tile_in_play = None

    def _track_signs(self, event: "ev.Event", discarder: int) -> None:
        """What every seat shows: its discards, its melds, the tiles it let pass."""
        seat = getattr(event, "seat", None)
        # the two events of every turn first: a draw shows nothing, a discard one tile
        if isinstance(event, ev.Drew):
            if seat is not None and 0 <= seat < SEATS:
                self.passed[seat] = []
            return
        if isinstance(event, ev.Discarded):
            if seat is not None and 0 <= seat < SEATS:
                self._thrown(seat, event.tile)
            return
        meld: "Meld | None" = None
        if isinstance(event, ev.Punged):
            meld = Pung(event.tile, discarder)
        elif isinstance(event, ev.Chowed):
            meld = Chow(event.middle, event.claimed, discarder)
        elif isinstance(event, ev.Konged):
            meld = Kong(event.tile, discarder)
        elif isinstance(event, ev.Melded):
            meld = self._meld_of(event)
        elif isinstance(event, ev.ConcealedKonged) and event.tile is not None:
            meld = ConcealedKong(event.tile)
        elif isinstance(event, ev.ConcealedKonged) and event.seat != self.seat:
            self.hidden_kongs[event.seat] += 1
        elif isinstance(event, ev.KongAdded):
            assert seat is not None
            self.shown_melds[seat] = [Kong(m.tile, m.provider, added=True)
                                      if isinstance(m, Pung) and m.tile == event.tile else m
                                      for m in self.shown_melds[seat]]
        if seat is None or not 0 <= seat < SEATS:
            return
        if meld is not None:
            self.shown_melds[seat].append(meld)
        if isinstance(event, (ev.Punged, ev.Chowed, ev.Melded, ev.Konged, ev.ConcealedKonged,
                              ev.KongAdded)):
            self.passed[seat] = []
        if isinstance(event, (ev.Punged, ev.Chowed)):
            self._thrown(seat, event.discard)

    def _thrown(self, seat: int, tile: int) -> None:
        """``seat`` discarded ``tile``: its hand changed, the others let the tile pass."""
        self.discards[seat].append(tile)
        self.passed[seat] = []
        for other in range(SEATS):
            if other != seat:
                self.passed[other].append(tile)

    # ------------------------------------------------------------------ views
    @property
    def hand(self) -> "np.ndarray":
        return self.kb.hand

    @property
    def unseen(self) -> "np.ndarray":
        return self.kb.unseen

    @property
    def melds_needed(self) -> int:
        return self.rules.melds_needed - len(self.melds)

    def pungs(self) -> "list[int]":
        return [m.tile for m in self.melds if isinstance(m, Pung)]

    def next_seat(self, seat: int) -> int:
        """The seat after ``seat`` in turn order (:func:`game.turn_order.next_seat`)."""
        return next_seat(seat)

    @property
    def ask(self) -> "Ask":
        """What the last event asks of this seat and its legal answers (once per event)."""
        if self._ask is None:
            kind = self._ask_kind()
            if kind is AskKind.NOTHING:  # most events, for most seats
                self._ask = _NOTHING_ASKED
                return _NOTHING_ASKED
            win = self._offered_win(kind)
            self._ask = Ask(kind, self._legal(kind, win is not None),
                            self.drawn if kind is AskKind.DRAW else None, win)
        return self._ask

    def _offered_win(self, kind: "AskKind") -> "WinOffer | None":
        if kind is AskKind.DRAW and self.drawn is not None:
            return self.win_offer(self.drawn, self_drawn=True)
        if kind in (AskKind.DISCARD, AskKind.ROB) and self.tile_in_play is not None:
            return self.win_offer(self.tile_in_play, self_drawn=False,
                                  robbing=kind is AskKind.ROB)
        return None

    def win_offer(self, tile: int, *, self_drawn: bool, robbing: bool = False
                  ) -> "WinOffer | None":
        """The win the rule book allows this seat on ``tile`` (drawn: already in the hand;
        else the tile in play), with the circumstances as the seat can know them; None if
        declaring it would be a false win.  Kept until the next event."""
        key = (tile, self_drawn, robbing)
        if key not in self._offers and not self._complete_shape(tile, self_drawn):
            self._offers[key] = None
        if key not in self._offers:
            concealed = self.concealed_tiles()
            if self_drawn:
                concealed.remove(tile)
            payer = self.seat if self_drawn else self.provider
            assert payer is not None, "a win on a discard has a discarder"
            context = win_context(
                seat=self.seat, prevalent_wind=self.prevalent_wind, self_drawn=self_drawn,
                robbing=robbing, visible_copies=int(self.kb.known[tile]),
                after_kong=self.after_kong, wall_last=self.wall_left[self.next_seat(payer)] <= 0,
                flowers=int(self.kb.flowers[self.seat]))
            self._offers[key] = declarable_win(self.rules, concealed, self.melds, tile, context)
        return self._offers[key]

    def _complete_shape(self, tile: int, self_drawn: bool) -> bool:
        """A cheap bound before the rule book's win check: whether the concealed tiles (with
        ``tile`` when it is in play) make a complete shape the rules allow, their least
        deficiency over the shapes 0 (:func:`strategy.candidates.best_shape_deficiency` with
        nothing unseen: the regular shape, and where the rules have them the special shapes
        of ``strategy.deficiency.shapes``).  Every win is such a shape, so a hand that is
        none wins on nothing; :func:`game.rulebook.declarable_win` decides the others.
        Compiled only (in plain Python the bound costs about what it saves); True when the
        counts cannot be valued (the rule book then says why)."""
        if not HAVE_NUMBA:
            return True
        counts = self.hand
        if not self_drawn:
            counts = counts.copy()
            counts[tile] += 1
        melds = self.melds_needed
        least = best_shape_deficiency(counts, _NONE_UNSEEN, melds, self.rules.special_shapes,
                                      melds == self.rules.melds_needed)
        return bool(least <= 0)

    def _ask_kind(self) -> "AskKind":
        e = self.last_event
        if isinstance(e, ev.Drew) and e.seat == self.seat and e.tile is not None:
            # a flower is replaced, not played
            return AskKind.NOTHING if is_flower(e.tile) else AskKind.DRAW
        if isinstance(e, (ev.Discarded, ev.Punged, ev.Chowed)) and e.seat != self.seat:
            return AskKind.DISCARD
        if isinstance(e, ev.KongAdded) and e.seat != self.seat:
            return AskKind.ROB
        if isinstance(e, ev.Melded) and e.seat == self.seat:
            return AskKind.CALLED
        return AskKind.NOTHING

    def _legal(self, kind: "AskKind", win: bool) -> "tuple[ev.Action, ...]":
        """The rule book's legal answers, with what this seat knows of the walls."""
        hand = self.hand.tolist()  # the rule book reads it tile by tile: Python ints
        if kind is AskKind.DRAW:
            return legal_after_draw(hand, self.melds, kong_allowed=self._kong_allowed(self.seat),
                                    win=win)
        if kind is AskKind.DISCARD:
            assert self.tile_in_play is not None and self.provider is not None
            # Botzone's judge takes a pung or chow of the last discard
            kong = self._kong_allowed(self.provider)
            return legal_on_discard(hand, self.tile_in_play,
                                    from_left=self.next_seat(self.provider) == self.seat,
                                    kong_allowed=kong, win=win,
                                    names_discard=self.rules.discard_with_claim)
        if kind is AskKind.ROB:
            return legal_on_added_kong(win)
        if kind is AskKind.CALLED:
            return legal_after_claim(hand)
        return (ev.Pass(),)

    def _kong_allowed(self, actor: int) -> bool:
        """The rule book's kong rule with the walls as this seat knows them (``actor``: the
        last drawer or discarder)."""
        if self.rules.wall_layout is WallLayout.PER_SEAT:
            own, after = self.wall_left[self.seat], self.wall_left[self.next_seat(actor)]
        else:
            own = after = self.tiles_left
        return kong_forbidden(own, after) is None

    def concealed_tiles(self, extra: "int | None" = None) -> "list[int]":
        tiles: "list[int]" = np.repeat(_KINDS, self.hand).tolist()
        if extra is not None:
            tiles.append(extra)
        return tiles
