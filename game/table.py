"""The Botzone Chinese Standard Mahjong judge as a pure state machine.

Rule set ``mcr-botzone``, duplicate format: 136 tiles without flowers; seat
``i`` owns ``walltiles[34i .. 34i+33]`` and takes from the back of it (deal:
indices ``34i+33`` down to ``34i+21``; draws, kong replacements included:
``34i+20`` down to ``34i``).  It follows the official judge as it runs on
Botzone (the per-seat-wall rewrite of ``judge/main.cpp``), including its
order of checks, which decides whom a wrong action is blamed on.

Driving a game::

    table = BotzoneTable(walltiles, prevalent_wind)
    while not table.finished:
        requests = table.requests              # one Event per seat, as that seat sees it
        table.respond([answer(seat, requests[seat]) for seat in range(4)])
    table.result                               # GameResult: ending and scores

or ``play_game(walltiles, prevalent_wind, responder)`` with a callable
``(seat, request) -> Response`` or an iterable of four-response stages.
``table.view(seat)`` is what a seat knows; ``table.legal_actions(seat)`` what
the judge would accept from it now (the rule book's list, :mod:`game.rulebook`,
which is also what the table accepts: an answer outside it is penalised, its
detail saying why); ``table.history`` every event in full.

Each stage takes the four seats' responses at once:

=================  =========================  ======================================
stage              requests                   expected responses
=================  =========================  ======================================
SEATING            ``SeatAssigned``           all ``Pass``
DEALING            ``Dealt``                  all ``Pass``; then seat 0 draws
DRAWN              ``Drew``                   drawer: ``Discard``, ``DeclareWin``,
                                              ``DeclareConcealedKong``,
                                              ``DeclareAddedKong``; others ``Pass``
DISCARDED          ``Discarded``, ``Punged``,  others: ``Pass``, ``DeclareWin``,
                   ``Chowed``                 ``ClaimKong``, ``ClaimAndDiscard``
                                              of a ``ClaimPung`` or (next seat
                                              only) a ``ClaimChow``;
                                              discarder ``Pass``
KONG_DECLARED      ``Konged``,                all ``Pass``; then the konger draws
                   ``ConcealedKonged``
KONG_ADDED         ``KongAdded``              others ``Pass`` or ``DeclareWin``
                                              (robbing the kong); konger ``Pass``
=================  =========================  ======================================

The judge's order of checks (it decides who is blamed for a wrong action):

1. any platform fault, first in seat order;
2. after a draw: the other seats must pass (seat order), then the drawer acts;
3. after a discard (the claim priority of :mod:`game.turn_order`): the first
   ``HU`` in turn order after the discarder wins (or is penalised for a false
   win), whatever the others answered; then the first pung or kong claim in
   turn order is carried out (and penalised if it fails; an unreadable claim
   fails); then a chow by the next seat; only if nobody claimed must all four
   have passed (seat order);
4. after an added kong: turn order from the konger; the first ``HU`` by
   another seat robs the kong, the first answer that is neither ``HU`` nor
   ``Pass`` is penalised.

Wall rules: a seat whose next seat's wall is empty may not declare a kong,
nor claim one on a discard after which the discarder's next seat's wall is
empty; nor may a seat declare any kong with its own wall empty.  After a
discard that nobody claims, the game is a draw if the next seat's wall is
empty.  (The judge does not forbid a pung or chow then; the wiki does.)

This file is over 600 lines because of this docstring: the stage table and the judge's
order of checks are the specification the code below follows, kept beside it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import Enum

import numpy as np

from game import events as ev
from game.melds import Chow, ConcealedKong, Kong, Meld, Pung, chow_tiles, is_chow_middle
from game.rulebook import (
    WinOffer,
    declarable_win,
    kong_forbidden,
    legal_after_draw,
    legal_on_added_kong,
    legal_on_discard,
    mcr_scores,
    win_context,
)
from game.rules import MCR_BOTZONE, PER_SEAT_WALL, Ruleset
from game.table_base import SeatTiles, Table, TableError
from game.table_base import WallError as WallError  # what check_walltiles raises
from game.tiles import NUM_KINDS, Notation, tile_name
from game.turn_order import SEATS, Claim, check_seat, first_claim, next_seat, seats_after
from game.walls import check_wall, shuffled_wall

HAND_SIZE = MCR_BOTZONE.hand_size

WRONG_ACTION = "WA"
WRONG_WIN = "WH"
PENALTY, PENALTY_BONUS = -30, 10
"""A penalised seat's score, and every other seat's."""




class BotzoneStage(Enum):
    SEATING = "seating"
    DEALING = "dealing"
    DRAWN = "drawn"
    DISCARDED = "discarded"
    KONG_DECLARED = "kong declared"
    KONG_ADDED = "kong added"
    FINISHED = "finished"


# ---------------------------------------------------------------- walls
def check_walltiles(walltiles: Sequence[int]) -> tuple[int, ...]:
    """The 136 tiles as a tuple (:func:`game.walls.check_wall` of mcr-botzone); the error
    says which tile count is wrong."""
    return check_wall(MCR_BOTZONE, walltiles, "walltiles", Notation.BOTZONE)


def random_walltiles(rng: np.random.Generator) -> tuple[int, ...]:
    """A shuffled duplicate wall (the judge shuffles when ``walltiles`` is empty)."""
    return shuffled_wall(MCR_BOTZONE, rng)


# ---------------------------------------------------------------- views
@dataclass(frozen=True)
class PublicSeat:
    """What every seat knows about ``seat``."""

    seat: int
    exposed_melds: tuple[Meld, ...]
    concealed_kongs: int
    river: tuple[int, ...]
    """Its discards that nobody claimed, oldest first."""
    wall_remaining: int
    concealed_tiles: int
    """Tiles in its hand, a just-drawn tile included."""


@dataclass(frozen=True)
class SeatView:
    """What ``seat`` knows: its own tiles and everything public."""

    seat: int
    prevalent_wind: int
    stage: BotzoneStage
    hand: tuple[int, ...]
    """Concealed tiles, sorted, without the tile just drawn."""
    drawn: int | None
    melds: tuple[Meld, ...]
    table: tuple[PublicSeat, ...]
    current_seat: int
    """The seat that drew, discarded or declared last."""
    tile_in_play: int | None
    """The discard or added-kong tile others may claim (or this seat's own draw)."""
    request: ev.Event | None


# ---------------------------------------------------------------- state
@dataclass(kw_only=True)
class _SeatState(SeatTiles):
    wall: list[int]
    """This seat's own wall (Botzone's duplicate format), drawn from the back."""
    dealt: tuple[int, ...]


def _name(tile: int) -> str:
    return tile_name(tile, Notation.BOTZONE)


def _describe(response: ev.Response) -> str:
    if isinstance(response, ev.InvalidAction):
        return f"{response.text!r} ({response.reason})"
    return type(response).__name__


def _attempts(response: ev.Response, kind: ev.ActionKind) -> bool:
    """Is ``response`` shaped like a ``kind`` action (read or not)?"""
    if isinstance(response, ev.InvalidAction):
        return response.attempted is kind
    return not isinstance(response, ev.PlatformFault) and response.kind is kind


def _makes(response: ev.Response, claim: Claim) -> bool:
    """Does ``response`` make ``claim`` on a discard?  An unreadable pung, kong or chow is a
    claim that fails; only a ``DeclareWin`` claims a win."""
    if claim is Claim.WIN:
        return isinstance(response, ev.DeclareWin)
    if claim is Claim.PUNG_OR_KONG:
        return _attempts(response, ev.ActionKind.KONG) or _attempts(response, ev.ActionKind.PUNG)
    return _attempts(response, ev.ActionKind.CHOW)


class BotzoneTable(Table[BotzoneStage]):
    """One game under the Botzone judge's rules; see the module docstring."""

    ruleset: Ruleset = MCR_BOTZONE

    def __init__(self, walltiles: Sequence[int], prevalent_wind: int) -> None:
        if not 0 <= prevalent_wind < 4:
            raise ValueError(f"prevalent wind {prevalent_wind} is outside 0-3")
        self.walltiles = check_walltiles(walltiles)
        self._prevalent_wind = prevalent_wind
        self._seats: list[_SeatState] = []
        for i in range(SEATS):
            wall = list(self.walltiles[i * PER_SEAT_WALL : (i + 1) * PER_SEAT_WALL])
            dealt = tuple(wall.pop() for _ in range(HAND_SIZE))
            seat = _SeatState(wall=wall, dealt=dealt)
            for t in dealt:
                seat.hand[t] += 1
            self._seats.append(seat)
        self._stage = BotzoneStage.SEATING
        self._actor = 0
        self._tile: int | None = None
        self._wall_last = False
        self._about_kong = False
        self._next_draw_replaces_kong = False
        self._shown = [0] * NUM_KINDS
        self._history: list[ev.Event] = []
        self._result: ev.GameResult | None = None

    # ------------------------------------------------------------ queries
    @property
    def requests(self) -> tuple[ev.Event, ev.Event, ev.Event, ev.Event]:
        """The pending request of each seat, as that seat sees it."""
        if self._result is not None:
            raise TableError("the game is over; there is no request")
        r0, r1, r2, r3 = (self._request_for(s) for s in range(SEATS))
        return (r0, r1, r2, r3)

    def view(self, seat: int) -> SeatView:
        """What ``seat`` knows now."""
        check_seat(seat)
        own = self._seats[seat]
        drawn = self._tile if self._stage is BotzoneStage.DRAWN and seat == self._actor else None
        public_tile = (self._tile if self._stage in (BotzoneStage.DISCARDED,
                                                     BotzoneStage.KONG_ADDED) else None)
        return SeatView(
            seat=seat,
            prevalent_wind=self.prevalent_wind,
            stage=self._stage,
            hand=own.concealed(),
            drawn=drawn,
            melds=tuple(own.melds),
            table=tuple(self._public(s) for s in range(SEATS)),
            current_seat=self._actor,
            tile_in_play=drawn if drawn is not None else public_tile,
            request=None if self._result is not None else self._request_for(seat),
        )

    def legal_actions(self, seat: int) -> tuple[ev.Action, ...]:
        """Every action the judge would accept from ``seat`` now (wins checked by fan)."""
        check_seat(seat)
        return self._legal(seat, asks_win=True)

    # ------------------------------------------------------------ driving
    def respond(self, responses: Sequence[ev.Response]) -> None:
        """Apply the four seats' responses to the pending requests."""
        if self._result is not None:
            raise TableError("the game is over; no more responses are taken")
        if len(responses) != SEATS:
            raise TableError(f"expected 4 responses, one per seat; got {len(responses)}")
        for seat, response in enumerate(responses):
            if isinstance(response, ev.PlatformFault):
                self._penalize(seat, response.verdict, "platform verdict")
                return
        if self._stage in (BotzoneStage.SEATING, BotzoneStage.DEALING, BotzoneStage.KONG_DECLARED):
            self._after_acknowledgement(responses)
        elif self._stage is BotzoneStage.DRAWN:
            self._after_draw(responses)
        elif self._stage is BotzoneStage.DISCARDED:
            self._after_discard(responses)
        else:
            self._after_added_kong(responses)

    # ------------------------------------------------------------ stages
    def _after_acknowledgement(self, responses: Sequence[ev.Response]) -> None:
        for seat in range(SEATS):
            if not self._accepts(seat, responses[seat]):
                detail = f"must PASS, answered {_describe(responses[seat])}"
                self._penalize(seat, WRONG_ACTION, detail)
                return
        if self._stage is BotzoneStage.SEATING:
            self._stage = BotzoneStage.DEALING
            self._history.extend(ev.Dealt(s, self._seats[s].dealt) for s in range(SEATS))
        else:
            self._draw(self._actor)

    def _after_draw(self, responses: Sequence[ev.Response]) -> None:
        drawer = self._actor
        for seat in range(SEATS):
            if seat != drawer and not self._accepts(seat, responses[seat]):
                answered = _describe(responses[seat])
                detail = f"must PASS while seat {drawer} plays, answered {answered}"
                self._penalize(seat, WRONG_ACTION, detail)
                return
        response = responses[drawer]
        if not self._accepts(drawer, response):
            self._refuse_after_draw(drawer, response)
        elif isinstance(response, ev.DeclareWin):
            self._declare_win(drawer, self_drawn=True, robbing=False)
        else:
            assert self._tile is not None
            self._seats[drawer].hand[self._tile] += 1
            if isinstance(response, ev.Discard):
                self._seats[drawer].hand[response.tile] -= 1
                self._discard(drawer, ev.Discarded(drawer, response.tile))
            elif isinstance(response, ev.DeclareConcealedKong):
                self._concealed_kong(drawer, response.tile)
            else:
                assert isinstance(response, ev.DeclareAddedKong)
                self._added_kong(drawer, response.tile)

    def _after_discard(self, responses: Sequence[ev.Response]) -> None:
        discarder = self._actor
        taken = first_claim(discarder, lambda seat, claim: _makes(responses[seat], claim))
        if taken is None:
            for seat in range(SEATS):
                if not self._accepts(seat, responses[seat]):
                    detail = f"made no valid claim and did not PASS: {_describe(responses[seat])}"
                    self._penalize(seat, WRONG_ACTION, detail)
                    return
            if self._wall_last:
                self._finish(ev.GameResult(ev.WallExhausted(), (0, 0, 0, 0)))
            else:
                self._draw(next_seat(discarder))
            return
        seat, claim = taken
        response = responses[seat]
        if not self._accepts(seat, response):
            self._refuse_claim(seat, response)
        elif claim is Claim.WIN:
            self._declare_win(seat, self_drawn=False, robbing=False)
        elif isinstance(response, ev.ClaimKong):
            self._claim_kong(seat)
        else:
            assert isinstance(response, ev.ClaimAndDiscard)
            if isinstance(response.claim, ev.ClaimChow):
                self._claim_chow(seat, response.claim.middle, response.discard)
            else:
                self._claim_pung(seat, response.discard)

    def _after_added_kong(self, responses: Sequence[ev.Response]) -> None:
        konger = self._actor
        for seat in (konger, *seats_after(konger)):
            response = responses[seat]
            if isinstance(response, ev.DeclareWin) and seat != konger:
                if self._accepts(seat, response):
                    self._declare_win(seat, self_drawn=False, robbing=True)
                else:
                    self._false_win(seat)
                return
            if not self._accepts(seat, response):
                detail = f"may only PASS or rob the kong, answered {_describe(response)}"
                self._penalize(seat, WRONG_ACTION, detail)
                return
        self._draw(konger)

    # ------------------------------------------------------------ moves
    def _draw(self, seat: int) -> None:
        tile = self._seats[seat].wall.pop()
        self._actor = seat
        self._tile = tile
        self._wall_last = not self._seats[next_seat(seat)].wall
        self._about_kong = self._next_draw_replaces_kong
        self._next_draw_replaces_kong = False
        self._stage = BotzoneStage.DRAWN
        self._history.append(ev.Drew(seat, tile))

    def _discard(self, seat: int, event: ev.Discarded | ev.Punged | ev.Chowed) -> None:
        tile = event.tile if isinstance(event, ev.Discarded) else event.discard
        self._shown[tile] += 1
        self._seats[seat].river.append(tile)
        self._actor = seat
        self._tile = tile
        self._wall_last = not self._seats[next_seat(seat)].wall
        self._stage = BotzoneStage.DISCARDED
        self._history.append(event)

    def _kong_forbidden(self, seat: int) -> str | None:
        return kong_forbidden(len(self._seats[seat].wall),
                              len(self._seats[next_seat(self._actor)].wall))

    def _start_kong(self, seat: int, event: ev.Konged | ev.ConcealedKonged | ev.KongAdded) -> None:
        self._actor = seat
        self._next_draw_replaces_kong = True
        self._about_kong = False
        self._stage = (BotzoneStage.KONG_ADDED if isinstance(event, ev.KongAdded)
                       else BotzoneStage.KONG_DECLARED)
        self._history.append(event)

    def _concealed_kong(self, seat: int, tile: int) -> None:
        self._seats[seat].hand[tile] -= 4
        self._seats[seat].melds.append(ConcealedKong(tile))
        self._shown[tile] = 4
        self._start_kong(seat, ev.ConcealedKonged(seat, tile))

    def _added_kong(self, seat: int, tile: int) -> None:
        state = self._seats[seat]
        pung_at = next(i for i, m in enumerate(state.melds)
                       if isinstance(m, Pung) and m.tile == tile)
        pung = state.melds[pung_at]
        assert isinstance(pung, Pung)
        state.hand[tile] -= 1
        state.melds[pung_at] = pung.with_fourth_tile()
        self._shown[tile] = 4
        self._tile = tile
        self._start_kong(seat, ev.KongAdded(seat, tile))

    def _take_discard(self) -> tuple[int, int]:
        """The claimed discard leaves its discarder's river: ``(tile, discarder)``."""
        assert self._tile is not None
        discarder = self._actor
        taken = self._seats[discarder].river.pop()
        assert taken == self._tile
        return taken, discarder

    def _claim_kong(self, seat: int) -> None:
        tile, discarder = self._take_discard()
        self._seats[seat].hand[tile] -= 3
        self._seats[seat].melds.append(Kong(tile, discarder))
        self._shown[tile] = 4
        self._start_kong(seat, ev.Konged(seat, tile))

    def _claim_pung(self, seat: int, discard: int) -> None:
        tile, discarder = self._take_discard()
        hand = self._seats[seat].hand
        hand[tile] -= 2
        hand[discard] -= 1
        self._seats[seat].melds.append(Pung(tile, discarder))
        self._shown[tile] += 2
        self._discard(seat, ev.Punged(seat, tile, discard))

    def _claim_chow(self, seat: int, middle: int, discard: int) -> None:
        tile, discarder = self._take_discard()
        hand = self._seats[seat].hand
        for t in chow_tiles(middle):
            if t != tile:
                hand[t] -= 1
        hand[discard] -= 1
        self._seats[seat].melds.append(Chow(middle, tile, discarder))
        self._shown[tile] -= 1
        for t in chow_tiles(middle):
            self._shown[t] += 1
        self._discard(seat, ev.Chowed(seat, middle, tile, discard))

    # ------------------------------------------------------------ winning
    def _win(self, seat: int, *, self_drawn: bool, robbing: bool) -> WinOffer | None:
        """The win if ``seat`` declared one now (the rule book's); None for a false win."""
        assert self._tile is not None
        tile = self._tile
        context = win_context(seat=seat, prevalent_wind=self.prevalent_wind,
                              self_drawn=self_drawn, robbing=robbing,
                              visible_copies=self._shown[tile], after_kong=self._about_kong,
                              wall_last=self._wall_last)
        return declarable_win(self.ruleset, self._seats[seat].concealed(),
                              self._seats[seat].melds, tile, context)

    def _declare_win(self, seat: int, *, self_drawn: bool, robbing: bool) -> None:
        win = self._win(seat, self_drawn=self_drawn, robbing=robbing)
        assert self._tile is not None and win is not None
        payer = None if self_drawn else self._actor
        won = ev.Won(seat, self._tile, self_drawn, robbing, payer, win.fans)
        self._finish(ev.GameResult(won, mcr_scores(seat, win.fan, payer)))

    # ------------------------------------------------------------ legal actions
    def _legal(self, seat: int, *, asks_win: bool) -> tuple[ev.Action, ...]:
        """The rule book's legal answers of ``seat`` now.  Without ``asks_win`` a win is left
        out unasked: counting its fan is the costly part, and no other answer's legality
        depends on it."""
        stage = self._stage
        if stage is BotzoneStage.FINISHED:
            return ()
        if stage in (BotzoneStage.SEATING, BotzoneStage.DEALING, BotzoneStage.KONG_DECLARED):
            return (ev.Pass(),)
        if (seat == self._actor) is (stage is not BotzoneStage.DRAWN):
            return (ev.Pass(),)
        kong_allowed = self._kong_forbidden(seat) is None
        if stage is BotzoneStage.DRAWN:
            win = asks_win and self._win(seat, self_drawn=True, robbing=False) is not None
            return legal_after_draw(self._counts(seat), self._seats[seat].melds,
                                    kong_allowed=kong_allowed, win=win)
        robbing = stage is BotzoneStage.KONG_ADDED
        win = asks_win and self._win(seat, self_drawn=False, robbing=robbing) is not None
        if robbing:
            return legal_on_added_kong(win)
        assert self._tile is not None
        return legal_on_discard(self._seats[seat].hand, self._tile,
                                from_left=seat == next_seat(self._actor),
                                kong_allowed=kong_allowed, win=win, names_discard=True)

    def _accepts(self, seat: int, response: ev.Response) -> bool:
        """Is ``response`` among ``seat``'s legal answers now?"""
        return response in self._legal(seat, asks_win=isinstance(response, ev.DeclareWin))

    # ------------------------------------------------------------ refusals, in the judge's words
    def _refuse_after_draw(self, seat: int, response: ev.Response) -> None:
        """Penalise the drawer's answer that is not legal, saying why."""
        if isinstance(response, ev.DeclareWin):
            self._false_win(seat)
            return
        if isinstance(response, ev.Discard):
            detail = f"PLAY {self._holding(seat, response.tile)}"
        elif isinstance(response, ev.DeclareConcealedKong):
            detail = f"GANG {_name(response.tile)}: {self._why_no_kong(seat, response.tile, 4)}"
        elif isinstance(response, ev.DeclareAddedKong):
            tile = response.tile
            has_pung = any(isinstance(m, Pung) and m.tile == tile for m in self._seats[seat].melds)
            detail = f"BUGANG {_name(tile)}: {self._why_no_kong(seat, tile, 1, has_pung)}"
        else:
            detail = f"after its draw must PLAY, GANG, BUGANG or HU; answered {_describe(response)}"
        self._penalize(seat, WRONG_ACTION, detail)

    def _refuse_claim(self, seat: int, response: ev.Response) -> None:
        """Penalise the claim carried out on a discard that is not legal, saying why."""
        assert self._tile is not None
        tile = self._tile
        if isinstance(response, ev.DeclareWin):
            self._false_win(seat)
            return
        if _attempts(response, ev.ActionKind.KONG):
            why = (f"GANG on {_name(tile)}: {self._why_no_kong(seat, tile, 3)}"
                   if isinstance(response, ev.ClaimKong) else f"GANG: {_describe(response)}")
        elif not isinstance(response, ev.ClaimAndDiscard):
            word = "PENG" if _attempts(response, ev.ActionKind.PUNG) else "CHI"
            why = f"{word}: {_describe(response)}"
        elif isinstance(response.claim, ev.ClaimPung):
            why = f"PENG on {_name(tile)}: " + (
                self._holding(seat, tile, needed=2) if not self._seats[seat].holds(tile, 2)
                else f"cannot discard {_name(response.discard)} after the pung")
        else:
            why = f"CHI {_name(response.claim.middle)}: " + self._why_no_chow(
                seat, response.claim.middle, response.discard)
        self._penalize(seat, WRONG_ACTION, why)

    def _why_no_chow(self, seat: int, middle: int, discard: int) -> str:
        assert self._tile is not None
        tile = self._tile
        if not is_chow_middle(middle):
            return f"{_name(middle)} cannot be the middle of a chow"
        if tile not in chow_tiles(middle):
            return f"the chow around {_name(middle)} does not use the discard {_name(tile)}"
        missing = [t for t in chow_tiles(middle) if t != tile and not self._seats[seat].holds(t)]
        if missing:
            return self._holding(seat, missing[0])
        return f"cannot discard {_name(discard)} after the chow"

    def _why_no_kong(self, seat: int, tile: int, needed: int, has_pung: bool = True) -> str:
        """Why ``seat`` may not kong ``tile`` now: no kong may be declared, it holds fewer
        than ``needed`` of it, or (an added kong) it has no pung of it."""
        why = self._kong_forbidden(seat)
        if why is None and self._counts(seat)[tile] < needed:
            why = self._holding(seat, tile, needed=needed)
        if why is None and not has_pung:
            why = "no pung of it to add to"
        return why if why is not None else "not legal now"

    def _false_win(self, seat: int) -> None:
        assert self._tile is not None
        minimum = self.ruleset.min_fan
        detail = f"HU on {_name(self._tile)} is not a winning hand of {minimum} fan"
        self._penalize(seat, WRONG_WIN, detail)

    # ------------------------------------------------------------ helpers
    def _counts(self, seat: int) -> list[int]:
        """``seat``'s concealed tiles as counts, a tile it just drew included."""
        counts = list(self._seats[seat].hand)
        if self._stage is BotzoneStage.DRAWN and seat == self._actor:
            assert self._tile is not None
            counts[self._tile] += 1
        return counts

    def _holding(self, seat: int, tile: int, needed: int = 1) -> str:
        held = self._counts(seat)[tile] if 0 <= tile < NUM_KINDS else 0
        return f"seat {seat} holds {held} of {_name(tile)}, needs {needed}"

    def _penalize(self, seat: int, reason: str, detail: str) -> None:
        s0, s1, s2, s3 = (PENALTY if s == seat else PENALTY_BONUS for s in range(SEATS))
        self._finish(ev.GameResult(ev.Penalized(seat, reason, detail), (s0, s1, s2, s3)))

    def _finish(self, result: ev.GameResult) -> None:
        self._result = result
        self._stage = BotzoneStage.FINISHED

    def _request_for(self, seat: int) -> ev.Event:
        if self._stage is BotzoneStage.SEATING:
            return ev.SeatAssigned(seat, self.prevalent_wind)
        if self._stage is BotzoneStage.DEALING:
            return ev.Dealt(seat, self._seats[seat].dealt)
        return ev.as_seen_by(self._history[-1], seat)

    def _public(self, seat: int) -> PublicSeat:
        state = self._seats[seat]
        drawn = 1 if self._stage is BotzoneStage.DRAWN and seat == self._actor else 0
        return PublicSeat(
            seat=seat,
            exposed_melds=tuple(m for m in state.melds if not m.is_concealed),
            concealed_kongs=sum(1 for m in state.melds if m.is_concealed),
            river=tuple(state.river),
            wall_remaining=len(state.wall),
            concealed_tiles=sum(state.hand) + drawn,
        )


# ---------------------------------------------------------------- driving a whole game
SeatResponder = Callable[[int, ev.Event], ev.Response]
"""``(seat, request) -> response``: one seat's answer to its request."""


def play_game(
    walltiles: Sequence[int],
    prevalent_wind: int,
    responder: SeatResponder | Iterable[Sequence[ev.Response]],
) -> BotzoneTable:
    """Play a game to its end; returns the finished table (``result``, ``history``).

    ``responder`` is either a callable asked once per seat and stage, or an
    iterable of stages, each the four seats' responses.
    """
    table = BotzoneTable(walltiles, prevalent_wind)
    if callable(responder):
        answer = responder
        while not table.finished:
            requests = table.requests
            table.respond([answer(seat, requests[seat]) for seat in range(SEATS)])
        return table
    stages = iter(responder)
    while not table.finished:
        try:
            responses = next(stages)
        except StopIteration:
            raise TableError(
                f"the responses ran out at stage {table.stage.value} "
                f"after {len(table.history)} events"
            ) from None
        table.respond(responses)
    return table
