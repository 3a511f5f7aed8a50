"""The taiwan-16 table as a pure state machine, for an asynchronous referee.

Rule set ``taiwan-16`` (``protocols/olympiad.md``, "Rules: taiwan-16"), in
the Olympiad flow: a claim and the discard after it are asked separately, and
only the seats that have a real choice are asked.

Driving a game::

    table = TaiwanTable(shuffled_wall(TAIWAN_16, rng), prevalent_wind, dealer)
    while not table.finished:
        table.respond({seat: decide(seat, table.legal_actions(seat))
                       for seat in table.asked_seats})
    table.result                                # GameResult: ending and scores

An answer outside ``legal_actions`` raises :class:`IllegalAction` and changes
nothing; the referee then applies its policy itself: ``default_action(seat)``
or ``forfeit(seat, reason)``.  The table never reads a clock.

Rules implemented
-----------------
- The wall: 144 tiles (34 kinds x 4 and the 8 flowers ``1f``-``8f``), one
  sequence; normal draws from the front, flower and kong replacements from the
  back.
- The deal: four rounds of four tiles from the front to each seat, the dealer
  first, then turn order (16 each).  Then the flowers: the dealer, then each
  seat in turn order, sets aside every flower it holds and draws as many
  replacements from the back; such passes repeat until no seat holds a flower.
  These flowers are in the ``Dealt`` events (``flower_counts``, ``flowers``
  in seat order), not in ``FlowerReplaced`` events; ``Dealt.tiles`` are the
  final 16 in the order received (dealt tiles without the flowers, then the
  replacements).  ``history`` holds the four ``Dealt`` events in seat order.
- The wall mode (``wall_mode``): ``WallMode.SINGLE``, the one wall above, or
  ``WallMode.SDW``, the stable draw wall of Tang, Chen & Wu, "An Efficient
  Method for Assessing the Strength of Mahjong Programs"
  (:mod:`game.stable_wall`): the same 144 tiles cut into a front and a rear
  sub-wall per seat.  The deal is the same; a seat's normal draws come from
  its front sub-wall, its flower and kong replacements from its rear one; a
  seat that claims a discard (chow, pung, kong) gives up its next front tile
  to the relinquished pile; an empty sub-wall reshuffles what is left
  (seeded by ``reshuffle_seed``, by default the wall itself).  The counts of
  the rules below (the dead wall of 16, the replacement needing a tile) are
  over every tile left in the sub-walls and the pile, so a game lasts as long
  as on the single wall.
- The dealer draws first.  A normal draw is possible only while the wall
  holds more than 16 tiles (the dead wall); when the next draw is not
  possible the game ends as a draw (``WallExhausted``, scores 0).
- A drawn flower is shown at once: ``Drew(seat, flower)``,
  ``FlowerReplaced(seat, flower)``, ``Drew(seat, tile, replacement=True)``,
  repeated while the replacement is a flower.  Nobody is asked.
- A kong of any kind needs at least one tile in the wall for its replacement.
  If a replacement is due and the wall is empty (only possible when a flower
  comes as the very last tile), the game ends as a draw.
- After a draw (stage DRAWN) the drawer may discard any tile it holds,
  declare a concealed kong of any tile it holds four of, add any tile it holds
  to one of its pungs, or win if its tiles make 5 melds and a pair.
- After a discard (DISCARDED) the other seats may pass, win, pung (two of the
  tile), kong (three of it), and the next seat may chow.  Only seats with an
  option besides pass are asked; if none, the next seat draws at once.
  Priority: win > pung = kong > chow; one winner only, the first in turn
  order after the discarder.  (Only one seat can ever hold two of a discard,
  so pung and kong never compete.)  No restriction on passing a winning
  discard and winning later, nor on what is discarded after a call.
- After a chow or pung (CALLED) the caller must discard; no win, no kong.
- An added kong (KONG_ADDED) can be robbed: the seats that can win on its
  tile are asked (pass or win; the first winner in turn order after the
  konger); if none can, or all pass, the konger draws its replacement.  A
  robbed kong goes back to a pung and its tile to the winner.  Concealed and
  claimed kongs cannot be robbed.
- A win is 5 melds and a pair; there is no minimum tai.  Every payer pays
  1 + total tai (:mod:`game.scoring.tai`): the discarder alone on a discard win, the
  konger on a robbed kong, all three on a self-draw; the winner receives the sum.
- Forfeit (the referee's policy): that seat pays 30 to each other seat
  (scores -90 / +30 / +30 / +30), ``Penalized(seat, "forfeit", reason)``.

Tai context: the seat wind is ``(seat - dealer) % 4``; the dealer item
counts when the winner or the payer is the dealer (on a self-draw only the
winner); ``replacement_win`` when self-drawn on a replacement tile (after a
kong or a flower); ``last_tile`` when no normal draw can follow the winning
tile: self-drawn while the wall holds at most 16 tiles (the last normal draw
leaves exactly 16; a replacement after it counts too), or on a discard made
while the wall holds at most 16.  A robbed kong is never ``last_tile``.

The API
-------
- ``asked_seats``: the seats whose answers ``respond`` needs now, ascending.
- ``legal_actions(seat)``: every action ``seat`` may answer now (empty when
  not asked); in DRAWN ``Discard`` per tile kind held, then the kongs, then
  ``DeclareWin``; in DISCARDED ``Pass``, ``DeclareWin``, ``ClaimPung``,
  ``ClaimKong``, ``ClaimChow`` by middle tile; in CALLED ``Discard`` per kind;
  in KONG_ADDED ``Pass``, ``DeclareWin``.
- ``default_action(seat)``: ``Pass`` when a pass is legal; after a draw,
  discarding the drawn tile; after a call, discarding the highest tile index
  held (the last tile of ``hand(seat)``).
- ``hand(seat)``: every concealed tile, sorted, the just-drawn tile
  included (``drawn_tile(seat)`` says which it is).

This file is over 600 lines because of this docstring: the rules and the API above are
the specification the code below follows, kept beside it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum

from game import events as ev
from game.melds import Chow, ConcealedKong, Kong, Meld, Pung, chow_middles, chow_tiles
from game.rulebook import (
    declarable_win,
    kong_forbidden,
    legal_after_claim,
    legal_after_draw,
    legal_on_added_kong,
    legal_on_discard,
    safest_action,
    win_context,
)
from game.rules import TAIWAN_16
from game.scoring.tai import tai_items, tai_total
from game.stable_wall import StableDrawWall, WallMode
from game.table_base import SeatTiles, Table, TableError, WallError
from game.tiles import NUM_FLOWERS, NUM_KINDS, is_flower, tile_name
from game.turn_order import SEATS, Claim, check_seat, first_claim, next_seat, seats_after
from game.walls import check_wall

HAND_SIZE = TAIWAN_16.hand_size
DEAD_WALL = TAIWAN_16.dead_wall
FORFEIT = 30
"""A forfeiting seat pays this to each other seat."""
FORFEIT_REASON = "forfeit"


class IllegalAction(ValueError):
    """``seat`` answered ``action``, which is not legal now: ``reason`` says why."""

    def __init__(self, seat: int, action: object, reason: str) -> None:
        self.seat = seat
        self.action = action
        self.reason = reason
        super().__init__(f"seat {seat}: {_describe(action)} is not legal: {reason}")


class TaiwanStage(Enum):
    DRAWN = "drawn"
    DISCARDED = "discarded"
    CALLED = "called"
    KONG_ADDED = "kong added"
    FINISHED = "finished"


_ALLOWED: dict[TaiwanStage, tuple[type, ...]] = {
    TaiwanStage.DRAWN: (ev.Discard, ev.DeclareWin, ev.DeclareConcealedKong, ev.DeclareAddedKong),
    TaiwanStage.DISCARDED: (ev.Pass, ev.DeclareWin, ev.ClaimPung, ev.ClaimKong, ev.ClaimChow),
    TaiwanStage.CALLED: (ev.Discard,),
    TaiwanStage.KONG_ADDED: (ev.Pass, ev.DeclareWin),
    TaiwanStage.FINISHED: (),
}


_CLAIMS: dict[Claim, type | tuple[type, ...]] = {
    Claim.WIN: ev.DeclareWin,
    Claim.PUNG_OR_KONG: (ev.ClaimPung, ev.ClaimKong),
    Claim.CHOW: ev.ClaimChow,
}
"""The answers that make each claim on a discard (the Olympiad flow: a claim alone)."""


def _describe(action: object) -> str:
    if isinstance(action, ev.Discard | ev.DeclareConcealedKong | ev.DeclareAddedKong):
        return f"{type(action).__name__}({_name(action.tile)})"
    if isinstance(action, ev.ClaimChow):
        return f"ClaimChow({_name(action.middle)})"
    return type(action).__name__ if hasattr(action, "kind") else repr(action)


def _name(tile: int) -> str:
    return tile_name(tile) if 0 <= tile < NUM_KINDS + NUM_FLOWERS else str(tile)


@dataclass(kw_only=True)
class _SeatState(SeatTiles):
    flowers: list[int] = field(default_factory=list)


class TaiwanTable(Table[TaiwanStage]):
    """One taiwan-16 game; see the module docstring."""

    ruleset = TAIWAN_16

    def __init__(
        self,
        wall: Sequence[int],
        prevalent_wind: int = 0,
        dealer: int = 0,
        wall_mode: WallMode = WallMode.SINGLE,
        reshuffle_seed: int | None = None,
    ) -> None:
        if not 0 <= prevalent_wind < 4:
            raise ValueError(f"prevalent wind {prevalent_wind} is outside 0-3 (E S W N)")
        check_seat(dealer)
        self._wall = check_wall(TAIWAN_16, wall)
        self._front = 0
        self._back = len(self._wall)
        self._wall_mode = wall_mode
        self._sdw: StableDrawWall | None = None
        if wall_mode is WallMode.SDW:
            self._sdw = StableDrawWall(
                self._wall, dealer, hand_size=HAND_SIZE, dead_wall=DEAD_WALL, seed=reshuffle_seed
            )
        self._prevalent_wind = prevalent_wind
        self._dealer = dealer
        self._seats = [_SeatState() for _ in range(SEATS)]
        self._history: list[ev.Event] = []
        self._result: ev.GameResult | None = None
        self._stage = TaiwanStage.DRAWN
        self._actor = dealer
        self._tile: int | None = None
        """The discard or added-kong tile in play, or the tile just drawn."""
        self._drawn: int | None = None
        self._replacement = False
        self._options: dict[int, tuple[ev.Action, ...]] = {}
        self._deal()
        self._draw(dealer)

    # ------------------------------------------------------------ queries
    @property
    def dealer(self) -> int:
        return self._dealer

    def seat_wind(self, seat: int) -> int:
        """0 = East for the dealer, then turn order."""
        check_seat(seat)
        return (seat - self._dealer) % SEATS

    @property
    def current_seat(self) -> int:
        """The seat that drew, discarded, called or declared a kong last."""
        return self._actor

    @property
    def tile_in_play(self) -> int | None:
        """The discard or added-kong tile others may claim now, or the tile just drawn."""
        return None if self._result is not None else self._tile

    def drawn_tile(self, seat: int) -> int | None:
        """The tile ``seat`` just drew, while it is to answer that draw."""
        check_seat(seat)
        return self._drawn if self._stage is TaiwanStage.DRAWN and seat == self._actor else None

    @property
    def wall_mode(self) -> WallMode:
        return self._wall_mode

    @property
    def stable_wall(self) -> StableDrawWall | None:
        """The stable draw wall in play (``WallMode.SDW``), else ``None``."""
        return self._sdw

    @property
    def wall_remaining(self) -> int:
        if self._sdw is not None:
            return self._sdw.remaining
        return self._back - self._front

    @property
    def wall_tiles(self) -> tuple[int, ...]:
        """The tiles still in the wall, the next normal draw first, the next replacement last
        (under the SDW: the front sub-walls, the rear ones, the relinquished pile)."""
        if self._sdw is not None:
            return self._sdw.tiles
        return self._wall[self._front : self._back]

    def hand(self, seat: int) -> tuple[int, ...]:
        """Every concealed tile of ``seat``, sorted, a just-drawn tile included."""
        check_seat(seat)
        return self._seats[seat].concealed()

    def melds(self, seat: int) -> tuple[Meld, ...]:
        check_seat(seat)
        return tuple(self._seats[seat].melds)

    def flowers(self, seat: int) -> tuple[int, ...]:
        """The flowers ``seat`` has set aside, in the order shown."""
        check_seat(seat)
        return tuple(self._seats[seat].flowers)

    def river(self, seat: int) -> tuple[int, ...]:
        """The discards of ``seat`` that nobody claimed, oldest first (the last may be in play)."""
        check_seat(seat)
        return tuple(self._seats[seat].river)

    @property
    def asked_seats(self) -> tuple[int, ...]:
        """The seats whose answers are needed now (empty once the game is over)."""
        return tuple(sorted(self._options))

    def legal_actions(self, seat: int) -> tuple[ev.Action, ...]:
        """Every action ``seat`` may answer now; empty when it is not asked."""
        check_seat(seat)
        return self._options.get(seat, ())

    def default_action(self, seat: int) -> ev.Action:
        """The referee's default for ``seat``: pass, or discard the drawn (else the last) tile."""
        options = self.legal_actions(seat)
        if not options:
            raise TableError(f"seat {seat} is not asked now; it has no default action")
        return safest_action(options, self._drawn if self._stage is TaiwanStage.DRAWN else None)

    # ------------------------------------------------------------ driving
    def respond(self, answers: Mapping[int, ev.Action]) -> None:
        """Apply the answers of exactly the asked seats, then play on until someone is asked.

        Raises :class:`IllegalAction` (the first illegal answer in seat order)
        or :class:`TableError` and changes nothing.
        """
        if self._result is not None:
            raise TableError("the game is over; no more answers are taken")
        asked = self.asked_seats
        if sorted(answers) != list(asked):
            raise TableError(f"answers came for seats {sorted(answers)}; asked are {list(asked)}")
        for seat in asked:
            action = answers[seat]
            if action not in self._options[seat]:
                raise IllegalAction(seat, action, self._why_illegal(seat, action))
        if self._stage is TaiwanStage.DRAWN:
            self._after_draw(answers[self._actor])
        elif self._stage is TaiwanStage.DISCARDED:
            self._after_discard(answers)
        elif self._stage is TaiwanStage.CALLED:
            action = answers[self._actor]
            assert isinstance(action, ev.Discard)
            self._seats[self._actor].hand[action.tile] -= 1
            self._discard(self._actor, action.tile)
        else:
            self._after_added_kong(answers)

    def forfeit(self, seat: int, reason: str) -> None:
        """End the game: ``seat`` pays 30 to each other seat."""
        check_seat(seat)
        if self._result is not None:
            raise TableError("the game is over; nobody can forfeit it")
        s0, s1, s2, s3 = (-(SEATS - 1) * FORFEIT if s == seat else FORFEIT for s in range(SEATS))
        self._finish(ev.GameResult(ev.Penalized(seat, FORFEIT_REASON, reason), (s0, s1, s2, s3)))

    # ------------------------------------------------------------ the wall
    def _take_front(self, seat: int) -> int:
        if self._sdw is not None:
            return self._sdw.draw(seat)
        tile = self._wall[self._front]
        self._front += 1
        return tile

    def _take_back(self, seat: int) -> int:
        if self._sdw is not None:
            return self._sdw.draw_supplement(seat)
        self._back -= 1
        return self._wall[self._back]

    def _relinquish(self, seat: int) -> None:
        """``seat`` claimed a discard: under the SDW its next front tile goes to the pile."""
        if self._sdw is not None:
            self._sdw.relinquish(seat)

    def _deal(self) -> None:
        order = (self._dealer, *seats_after(self._dealer))
        received: list[list[int]] = [[] for _ in range(SEATS)]
        for _ in range(HAND_SIZE // 4):
            for seat in order:
                received[seat] += [self._take_front(seat) for _ in range(4)]
        while any(is_flower(t) for tiles in received for t in tiles):
            for seat in order:
                shown = [t for t in received[seat] if is_flower(t)]
                self._seats[seat].flowers += shown
                kept = [t for t in received[seat] if not is_flower(t)]
                received[seat] = kept + [self._take_back(seat) for _ in shown]
        c0, c1, c2, c3 = (len(s.flowers) for s in self._seats)
        all_flowers = tuple(f for s in self._seats for f in s.flowers)
        for seat in range(SEATS):
            for t in received[seat]:
                self._seats[seat].hand[t] += 1
            self._history.append(
                ev.Dealt(seat, tuple(received[seat]), (c0, c1, c2, c3), all_flowers))

    def _draw(self, seat: int) -> None:
        """A normal draw from the front, or the end of the game when none is possible."""
        if self.wall_remaining <= DEAD_WALL:
            self._finish(ev.GameResult(ev.WallExhausted(), (0, 0, 0, 0)))
            return
        tile = self._take_front(seat)
        self._history.append(ev.Drew(seat, tile))
        self._receive(seat, tile, replacement=False)

    def _replace(self, seat: int) -> None:
        """A replacement from the back after a kong."""
        if self.wall_remaining == 0:
            self._finish(ev.GameResult(ev.WallExhausted(), (0, 0, 0, 0)))
            return
        tile = self._take_back(seat)
        self._history.append(ev.Drew(seat, tile, replacement=True))
        self._receive(seat, tile, replacement=True)

    def _receive(self, seat: int, tile: int, *, replacement: bool) -> None:
        state = self._seats[seat]
        while is_flower(tile):
            state.flowers.append(tile)
            self._history.append(ev.FlowerReplaced(seat, tile))
            if self.wall_remaining == 0:
                self._finish(ev.GameResult(ev.WallExhausted(), (0, 0, 0, 0)))
                return
            tile = self._take_back(seat)
            replacement = True
            self._history.append(ev.Drew(seat, tile, replacement=True))
        state.hand[tile] += 1
        self._stage = TaiwanStage.DRAWN
        self._actor = seat
        self._tile = tile
        self._drawn = tile
        self._replacement = replacement
        self._options = {seat: self._options_after_draw(seat)}

    # ------------------------------------------------------------ stages
    def _after_draw(self, action: ev.Action) -> None:
        seat = self._actor
        state = self._seats[seat]
        if isinstance(action, ev.DeclareWin):
            assert self._drawn is not None
            self._win(seat, self._drawn, payer=None, robbing=False)
        elif isinstance(action, ev.Discard):
            state.hand[action.tile] -= 1
            self._discard(seat, action.tile)
        elif isinstance(action, ev.DeclareConcealedKong):
            state.hand[action.tile] -= 4
            state.melds.append(ConcealedKong(action.tile))
            self._history.append(ev.ConcealedKonged(seat, action.tile))
            self._replace(seat)
        else:
            assert isinstance(action, ev.DeclareAddedKong)
            tile = action.tile
            at = next(
                i for i, m in enumerate(state.melds) if isinstance(m, Pung) and m.tile == tile
            )
            pung = state.melds[at]
            assert isinstance(pung, Pung)
            state.hand[tile] -= 1
            state.melds[at] = pung.with_fourth_tile()
            self._history.append(ev.KongAdded(seat, tile))
            self._stage = TaiwanStage.KONG_ADDED
            self._tile = tile
            self._drawn = None
            self._options = {
                s: legal_on_added_kong(True)
                for s in range(SEATS)
                if s != seat and self._wins_with(s, tile)
            }
            if not self._options:
                self._replace(seat)

    def _discard(self, seat: int, tile: int) -> None:
        self._seats[seat].river.append(tile)
        self._history.append(ev.Discarded(seat, tile))
        self._stage = TaiwanStage.DISCARDED
        self._actor = seat
        self._tile = tile
        self._drawn = None
        options = {s: self._claims(s, tile, seat) for s in range(SEATS) if s != seat}
        self._options = {s: o for s, o in options.items() if len(o) > 1}
        if not self._options:
            self._draw(next_seat(seat))

    def _after_discard(self, answers: Mapping[int, ev.Action]) -> None:
        discarder = self._actor
        tile = self._tile
        assert tile is not None
        taken = first_claim(discarder,
                            lambda seat, claim: isinstance(answers.get(seat), _CLAIMS[claim]))
        if taken is None:
            self._draw(next_seat(discarder))
            return
        seat = taken[0]
        action = answers[seat]
        if isinstance(action, ev.DeclareWin):
            self._win(seat, tile, payer=discarder, robbing=False)
            return
        self._take_discard()
        self._relinquish(seat)
        if isinstance(action, ev.ClaimKong):
            self._seats[seat].hand[tile] -= 3
            self._seats[seat].melds.append(Kong(tile, discarder))
            self._history.append(ev.Konged(seat, tile))
            self._actor = seat
            self._replace(seat)
        elif isinstance(action, ev.ClaimPung):
            self._seats[seat].hand[tile] -= 2
            self._seats[seat].melds.append(Pung(tile, discarder))
            self._called(ev.Melded(seat, ev.ActionKind.PUNG, (tile, tile, tile), tile, discarder))
        else:
            assert isinstance(action, ev.ClaimChow)
            tiles = chow_tiles(action.middle)
            for t in tiles:
                if t != tile:
                    self._seats[seat].hand[t] -= 1
            self._seats[seat].melds.append(Chow(action.middle, tile, discarder))
            self._called(ev.Melded(seat, ev.ActionKind.CHOW, tiles, tile, discarder))

    def _take_discard(self) -> None:
        taken = self._seats[self._actor].river.pop()
        assert taken == self._tile

    def _called(self, event: ev.Melded) -> None:
        self._history.append(event)
        self._stage = TaiwanStage.CALLED
        self._actor = event.seat
        self._tile = None
        self._drawn = None
        hand = self._seats[event.seat].hand
        self._options = {event.seat: legal_after_claim(hand)}

    def _after_added_kong(self, answers: Mapping[int, ev.Action]) -> None:
        konger = self._actor
        tile = self._tile
        assert tile is not None
        for seat in seats_after(konger):
            if isinstance(answers.get(seat), ev.DeclareWin):
                melds = self._seats[konger].melds
                at = next(
                    i
                    for i, m in enumerate(melds)
                    if isinstance(m, Kong) and m.added and m.tile == tile
                )
                kong = melds[at]
                assert isinstance(kong, Kong)
                melds[at] = Pung(tile, kong.provider)
                self._win(seat, tile, payer=konger, robbing=True)
                return
        self._replace(konger)

    # ------------------------------------------------------------ winning
    def _wins_with(self, seat: int, tile: int, drawn: bool = False) -> bool:
        """Whether the rule book lets ``seat`` win on ``tile`` (``drawn``: already in its
        hand); the tai are scored when it does (:meth:`_win`)."""
        state = self._seats[seat]
        concealed = list(state.concealed())
        if drawn:
            concealed.remove(tile)
        context = win_context(seat=seat, prevalent_wind=self._prevalent_wind,
                              self_drawn=drawn, flowers=len(state.flowers))
        return declarable_win(TAIWAN_16, concealed, state.melds, tile, context) is not None

    def _win(self, seat: int, tile: int, *, payer: int | None, robbing: bool) -> None:
        """``seat`` wins on ``tile``: drawn (``payer`` None), discarded, or robbed from a kong."""
        state = self._seats[seat]
        self_drawn = payer is None
        if not self_drawn and not robbing:
            self._take_discard()
        if not self_drawn:
            state.hand[tile] += 1
        items = tai_items(
            state.concealed(),
            state.melds,
            winning_tile=tile,
            self_drawn=self_drawn,
            seat_wind=self.seat_wind(seat),
            prevalent_wind=self._prevalent_wind,
            dealer_involved=self._dealer in (seat, payer),
            flowers=state.flowers,
            robbing_kong=robbing,
            replacement_win=self_drawn and self._replacement,
            last_tile=not robbing and self.wall_remaining <= DEAD_WALL,
        )
        assert items is not None, "a legal win is 5 melds and a pair"
        pay = 1 + tai_total(items)
        payers = [s for s in range(SEATS) if s != seat] if payer is None else [payer]
        scores = [0] * SEATS
        for s in payers:
            scores[s] = -pay
        scores[seat] = pay * len(payers)
        s0, s1, s2, s3 = scores
        won = ev.Won(seat, tile, self_drawn, robbing, payer, items)
        self._finish(ev.GameResult(won, (s0, s1, s2, s3)))

    def _finish(self, result: ev.GameResult) -> None:
        self._result = result
        self._stage = TaiwanStage.FINISHED
        self._options = {}
        self._drawn = None

    # ------------------------------------------------------------ legal actions
    def _options_after_draw(self, seat: int) -> tuple[ev.Action, ...]:
        state = self._seats[seat]
        assert self._drawn is not None
        return legal_after_draw(state.hand, state.melds, kong_allowed=self._kong_allowed(),
                                win=self._wins_with(seat, self._drawn, drawn=True))

    def _claims(self, seat: int, tile: int, discarder: int) -> tuple[ev.Action, ...]:
        return legal_on_discard(self._seats[seat].hand, tile,
                                from_left=seat == next_seat(discarder),
                                kong_allowed=self._kong_allowed(),
                                win=self._wins_with(seat, tile), names_discard=False)

    def _kong_allowed(self) -> bool:
        """The rule book's kong rule on the one wall (the replacement from its back)."""
        return kong_forbidden(self.wall_remaining, self.wall_remaining) is None

    def _why_illegal(self, seat: int, action: object) -> str:
        """Why ``action`` is not among ``seat``'s legal actions, in words."""
        stage = self._stage
        allowed = _ALLOWED[stage]
        if not isinstance(action, allowed):
            names = ", ".join(kind.__name__ for kind in allowed)
            return f"in stage {stage.value!r} the answer is one of {names}"
        state = self._seats[seat]
        tile = self._tile
        no_wall = "the wall is empty: no replacement tile for a kong"
        if isinstance(action, ev.Discard):
            return f"seat {seat} holds no {_name(action.tile)}"
        if isinstance(action, ev.DeclareWin):
            return "the tiles do not make 5 melds and a pair"
        if isinstance(action, ev.DeclareConcealedKong):
            if not state.holds(action.tile, 4):
                held = state.held(action.tile)
                return f"seat {seat} holds {held} of {_name(action.tile)}, needs 4"
            return no_wall
        if isinstance(action, ev.DeclareAddedKong):
            if not any(isinstance(m, Pung) and m.tile == action.tile for m in state.melds):
                return f"seat {seat} has no pung of {_name(action.tile)} to add to"
            if not state.holds(action.tile):
                return f"seat {seat} holds no {_name(action.tile)}"
            return no_wall
        assert tile is not None
        if isinstance(action, ev.ClaimPung):
            return f"seat {seat} holds {state.held(tile)} of {_name(tile)}, a pung needs 2"
        if isinstance(action, ev.ClaimKong):
            if not state.holds(tile, 3):
                return f"seat {seat} holds {state.held(tile)} of {_name(tile)}, a kong needs 3"
            return no_wall
        if isinstance(action, ev.ClaimChow):
            chower = next_seat(self._actor)
            if seat != chower:
                return f"only seat {chower}, the next after the discarder, may chow"
            if action.middle not in chow_middles(tile):
                return f"no chow around {_name(action.middle)} contains the discard {_name(tile)}"
            missing = [t for t in chow_tiles(action.middle) if t != tile and not state.holds(t)]
            return f"seat {seat} holds no {_name(missing[0])}" if missing else "not legal now"
        return "not legal now"  # pragma: no cover - Pass is always legal where allowed


__all__ = [
    "DEAD_WALL",
    "FORFEIT",
    "IllegalAction",
    "TableError",
    "TaiwanStage",
    "TaiwanTable",
    "WallError",
]
