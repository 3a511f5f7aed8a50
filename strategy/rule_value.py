"""The planner's value under each rule set: one interface, one implementation per rule set.

The player's planner (``bot.planner.Planner``) compares every action by the value of the
hand it leaves (:mod:`strategy.value`: the chance of a win times its points, less the cost
of dealing in).  What differs between rule sets is how far that hand is from a win and what the win
is worth, when a kong is worth taking and which wins are weighed rather than declared.
Each rule set answers those through :class:`RuleValue`:

- :class:`FanValue` (mcr-botzone): the fan-aware distance (:mod:`strategy.fan`: the least
  changes to a hand of 8 fan), a kong taken when that distance holds, a win on a discard
  weighed against keeping the waiting hand (:func:`strategy.value.mcr_win_choice`);
- :class:`TaiValue` (taiwan-16): the tai value of :mod:`strategy.tai` (the best route's
  distance and tai), a kong taken when its value is no lower than the best discard's,
  every win weighed (:func:`strategy.tai.win_choice`);
- :class:`ShapeValue` (rules with no minimum fan, not taiwan-16): the plain deficiency, a
  kong taken when it holds, every win declared.

:func:`rule_value` picks the one for a rule set.  They read a seat's view through
:class:`SeatFacts` (the player's seat view is one), so they depend on ``game`` and
``strategy`` only.
"""

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from game.compat import Protocol
from game.melds import Meld
from game.rulebook import declarable_win, win_context
from game.rules import Family, Ruleset
from game.scoring.tai import own_flowers, tai_items, tai_total
from game.tiles import tiles_of
from strategy.candidates import best_shape_deficiency
from strategy.deadline import Deadline
from strategy.knowledge import KnowledgeBase
from strategy.policy import shape_deficiency_fast
from strategy.tai import TaiModel, TaiSeat, outs, tai_outlook, win_choice
from strategy.value import (
    FanInputs,
    Outlook,
    ValueModel,
    WinChoice,
    WinOut,
    discard_distances,
    fan_distance,
    mcr_wait_worth,
    mcr_win_choice,
    outlook,
    wait_outlook,
)


class SeatFacts(Protocol):
    """What the value reads of one seat's view of a game (the player's ``PlayerState``)."""

    @property
    def seat(self) -> int: ...
    @property
    def prevalent_wind(self) -> int: ...
    @property
    def dealer(self) -> "int | None": ...
    @property
    def provider(self) -> "int | None":
        """The seat that discarded the tile in play."""
        ...
    @property
    def after_kong(self) -> bool: ...
    @property
    def kb(self) -> "KnowledgeBase": ...
    @property
    def melds(self) -> "Sequence[Meld]":
        """The seat's declared melds."""
        ...
    @property
    def own_flowers(self) -> "Sequence[int]": ...
    @property
    def hand(self) -> "np.ndarray": ...
    @property
    def unseen(self) -> "np.ndarray": ...
    @property
    def melds_needed(self) -> int: ...
    def concealed_tiles(self, extra: "int | None" = None) -> "list[int]": ...


class RuleValue(Protocol):
    """What the planner asks of a rule set."""

    @property
    def model(self) -> "ValueModel":
        """The value's numbers (its margin decides claims and close discards)."""
        ...

    @property
    def fan_routes(self) -> bool:
        """The distance is the fan routes' (mcr): the useful draws and the learned order
        rank the close discards far from a win, and in plain Python the routes watch the
        clock."""
        ...

    @property
    def weighs_wins(self) -> bool:
        """Some wins are weighed against keeping the hand (the planner must be asked)."""
        ...

    def hand(self, v: "SeatFacts", hand: "np.ndarray", melds: "Sequence[Meld]", turns: int,
             deal_in: float, watch: "Deadline | None") -> "Outlook":
        """The outlook of holding the 3m+1 ``hand`` beside ``melds`` (the seat's declared
        melds and any being weighed: a claim, a kong)."""
        ...

    def discards(self, v: "SeatFacts", hand: "np.ndarray", melds: "Sequence[Meld]", turns: int,
                 dz: "np.ndarray", watch: "Deadline | None") -> "dict[int, Outlook]":
        """Each kind the 3m+2 ``hand`` holds -> the outlook after discarding it (``dz``:
        each kind's danger)."""
        ...

    def kong_keeps(self, kong: "Outlook", best: "Outlook") -> bool:
        """Whether a kong leaving ``kong`` is taken over the best discard's ``best``."""
        ...

    def win_choice(self, v: "SeatFacts", tile: int, self_drawn: bool, fan: "int | None",
                   dz: "np.ndarray", turns: int) -> "WinChoice | None":
        """Declare the win on ``tile`` now or keep the hand; None: declare it unweighed."""
        ...


def _minus_each(hand: "np.ndarray") -> "list[tuple[int, np.ndarray]]":
    out = []
    for t in np.flatnonzero(hand):
        h = hand.copy()
        h[t] -= 1
        out.append((int(t), h))
    return out


def out_copies(v: "SeatFacts") -> "tuple[np.ndarray, float]":
    """Each kind's copies a wait's outs count (its unseen copies, as floats), and the pool
    they are drawn from (every unseen tile)."""
    unseen = v.unseen
    return unseen.astype(np.float64), float(unseen.sum())


def _risk(v: "SeatFacts", dz: "np.ndarray") -> float:
    """The danger of a discard drawn at random from the unseen tiles (the waiting hand's
    discards to come)."""
    unseen = v.unseen
    total = int(unseen.sum())
    return float((dz * unseen).sum() / total) if total else 0.0


@dataclass(frozen=True)
class FanValue:
    """mcr-botzone: the fan-aware distance to 8 fan (see the module docstring)."""

    model: "ValueModel"
    rules: "Ruleset"
    fan_routes: bool = True
    weighs_wins: bool = True

    def hand(self, v: "SeatFacts", hand: "np.ndarray", melds: "Sequence[Meld]", turns: int,
             deal_in: float, watch: "Deadline | None") -> "Outlook":
        inputs = FanInputs(v.unseen, tuple(melds), v.seat, v.prevalent_wind)
        return self._outlook(v, hand, melds, fan_distance(hand, inputs, (), watch),
                             turns, deal_in, watch)

    def discards(self, v: "SeatFacts", hand: "np.ndarray", melds: "Sequence[Meld]", turns: int,
                 dz: "np.ndarray", watch: "Deadline | None") -> "dict[int, Outlook]":
        inputs = FanInputs(v.unseen, tuple(melds), v.seat, v.prevalent_wind)
        distances = discard_distances(hand, inputs, (), watch)
        if self.model.wait_worth < 2.0:
            return {t: outlook(d, turns, float(dz[t]), self.model)
                    for t, d in distances.items()}
        found = {}
        for t, d in distances.items():
            h = hand.copy()
            h[t] -= 1
            found[t] = self._outlook(v, h, melds, d, turns, float(dz[t]), watch)
        return found

    def _outlook(self, v: "SeatFacts", hand: "np.ndarray", melds: "Sequence[Meld]",
                 distance: int, turns: int, deal_in: float, watch: "Deadline | None"
                 ) -> "Outlook":
        """The outlook of a 3m+1 ``hand`` at fan-aware ``distance``: a waiting hand by its
        outs (``wait_worth`` 2), else by the chain."""
        if distance == 1 and self.model.wait_worth >= 2.0:
            return self._wait_outlook(v, hand, melds, turns, deal_in, watch)
        return outlook(distance, turns, deal_in, self.model)

    def _wait_outlook(self, v: "SeatFacts", hand: "np.ndarray", melds: "Sequence[Meld]",
                      turns: int, deal_in: float, watch: "Deadline | None") -> "Outlook":
        """:func:`strategy.value.wait_outlook` of a waiting ``hand`` (3m+1 concealed
        tiles beside ``melds``)."""
        if watch is not None:
            watch.check_clock()
        outs, pool = self._outs_and_pool(v, hand, melds)
        return wait_outlook(outs, pool, turns, deal_in, self.model)

    def kong_keeps(self, kong: "Outlook", best: "Outlook") -> bool:
        return kong.distance <= best.distance

    def win_choice(self, v: "SeatFacts", tile: int, self_drawn: bool, fan: "int | None",
                   dz: "np.ndarray", turns: int) -> "WinChoice | None":
        """A self-drawn win is always declared (the wait's best case is the same
        self-draw later); a win on a discard is weighed by :func:`strategy.value.
        mcr_win_choice` (24 + its fan now against the kept hand's outs)."""
        if self_drawn or fan is None:
            return None
        outs, pool = self._outs_and_pool(v, v.hand, v.melds)
        return mcr_win_choice(fan, outs, pool, turns, _risk(v, dz), self.model)

    def outs(self, v: "SeatFacts") -> "list[WinOut]":
        """The unseen tiles that would complete the seat's 13-tile hand as a declarable
        win, with the fan drawn and on a discard (the rule book's, :func:`game.rulebook.
        declarable_win`)."""
        return self.hand_outs(v, v.hand, v.melds)

    def _outs_and_pool(self, v: "SeatFacts", hand: "np.ndarray", melds: "Sequence[Meld]"
                       ) -> "tuple[list[WinOut], float]":
        """:meth:`hand_outs` counted by :func:`out_copies`, and the pool of its copies."""
        copies, pool = out_copies(v)
        outs = [dataclasses.replace(o, copies=float(copies[o.tile]))
                for o in self.hand_outs(v, hand, melds)]
        return outs, pool

    def hand_outs(self, v: "SeatFacts", hand: "np.ndarray", melds: "Sequence[Meld]"
                  ) -> "list[WinOut]":
        """:meth:`outs` of a concealed ``hand`` (3m+1 tiles) beside ``melds``: the seat's
        own after a discard being weighed, or after a claim."""
        unseen = v.unseen
        tiles = tiles_of(hand)
        needed = self.rules.melds_needed - len(melds)
        found = []
        for t in np.flatnonzero(unseen > 0):
            tile = int(t)
            counts = hand.copy()
            counts[tile] += 1
            if hand[tile] >= 4 or not self._winning_shape(counts, needed):
                continue
            fans = []
            for self_drawn in (True, False):
                # a discarded out is seen once it is thrown
                seen = int(v.kb.known[tile]) + (0 if self_drawn else 1)
                context = win_context(seat=v.seat, prevalent_wind=v.prevalent_wind,
                                      self_drawn=self_drawn, visible_copies=seen,
                                      flowers=int(v.kb.flowers[v.seat]))
                offer = declarable_win(self.rules, tiles, melds, tile, context)
                fans.append(None if offer is None else offer.fan)
            found.append(WinOut(tile, int(unseen[tile]), fans[0], fans[1]))
        return found

    def wait_worth(self, v: "SeatFacts", hand: "np.ndarray", melds: "Sequence[Meld]", turns: int,
                   dz: "np.ndarray") -> float:
        """Expected points of a waiting ``hand`` (3m+1 concealed tiles beside ``melds``)
        kept to the end: its outs, each at its own fan (:func:`strategy.value.
        mcr_wait_worth`)."""
        outs, pool = self._outs_and_pool(v, hand, melds)
        return mcr_wait_worth(outs, pool, turns, _risk(v, dz), self.model)

    def _winning_shape(self, counts: "np.ndarray", needed: int) -> bool:
        """Whether ``counts`` (concealed tiles with a winning tile) complete a shape of
        ``needed`` melds and a pair, the rules' special shapes included when no meld is
        declared."""
        concealed = needed == self.rules.melds_needed
        return best_shape_deficiency(counts, (4 - counts).astype(np.int8), needed,
                                     True, concealed) == 0


@dataclass(frozen=True)
class TaiValue:
    """taiwan-16: the tai value of :mod:`strategy.tai` (see the module docstring)."""

    model: "TaiModel"
    fan_routes: bool = False
    weighs_wins: bool = True

    @staticmethod
    def seat(v: "SeatFacts") -> "TaiSeat":
        wind = (v.seat - v.dealer) % 4 if v.dealer is not None else 1
        mine = sum(1 for f in v.own_flowers if f in own_flowers(wind))
        return TaiSeat(wind, v.prevalent_wind, mine)

    def hand(self, v: "SeatFacts", hand: "np.ndarray", melds: "Sequence[Meld]", turns: int,
             deal_in: float, watch: "Deadline | None") -> "Outlook":
        return tai_outlook(hand, v.unseen, melds, self.seat(v), turns, deal_in, self.model)

    def discards(self, v: "SeatFacts", hand: "np.ndarray", melds: "Sequence[Meld]", turns: int,
                 dz: "np.ndarray", watch: "Deadline | None") -> "dict[int, Outlook]":
        return {t: self.hand(v, h, melds, turns, float(dz[t]), watch)
                for t, h in _minus_each(hand)}

    def kong_keeps(self, kong: "Outlook", best: "Outlook") -> bool:
        """The replacement draw comes on top: a kong is taken unless it loses value."""
        return kong.value >= best.value

    def win_choice(self, v: "SeatFacts", tile: int, self_drawn: bool, fan: "int | None",
                   dz: "np.ndarray", turns: int) -> "WinChoice | None":
        """Declare the win on ``tile`` now or keep the waiting hand (:func:`strategy.tai.
        win_choice`; the tai from the scorer, game.scoring.tai; the table allows winning
        later on any tile)."""
        seat = self.seat(v)
        concealed = v.concealed_tiles()
        if not self_drawn:
            concealed.append(tile)
        provider_deals = not self_drawn and v.provider is not None and v.provider == v.dealer
        flowers = tuple(f for f in v.own_flowers if f in own_flowers(seat.seat_wind))
        now = tai_items(concealed, v.melds, winning_tile=tile, self_drawn=self_drawn,
                        seat_wind=seat.seat_wind, prevalent_wind=v.prevalent_wind,
                        dealer_involved=seat.dealer or provider_deals, flowers=flowers,
                        replacement_win=self_drawn and v.after_kong)
        later = tai_items(concealed, v.melds, winning_tile=tile, self_drawn=False,
                          seat_wind=seat.seat_wind, prevalent_wind=v.prevalent_wind,
                          dealer_involved=seat.dealer, flowers=flowers)
        now_tai = tai_total(now) if now is not None else 0
        wait_tai = tai_total(later) if later is not None else 0
        hand = v.hand.copy()
        if self_drawn:
            hand[tile] -= 1
        unseen = v.unseen
        n_out = outs(hand, unseen, v.melds_needed)
        return win_choice(now_tai, self_drawn, wait_tai, n_out, int(unseen.sum()), turns,
                          seat, _risk(v, dz), self.model)


@dataclass(frozen=True)
class ShapeValue:
    """Rules with no minimum fan (not taiwan-16): the plain deficiency of the shapes the
    rules allow."""

    model: "ValueModel"
    rules: "Ruleset"
    fan_routes: bool = False
    weighs_wins: bool = False

    def _outlook(self, hand: "np.ndarray", v: "SeatFacts", melds: "Sequence[Meld]", turns: int,
                 deal_in: float) -> "Outlook":
        needed = self.rules.melds_needed - len(melds)
        d = shape_deficiency_fast(hand, v.unseen, needed, self.rules)
        return outlook(d, turns, deal_in, self.model)

    def hand(self, v: "SeatFacts", hand: "np.ndarray", melds: "Sequence[Meld]", turns: int,
             deal_in: float, watch: "Deadline | None") -> "Outlook":
        return self._outlook(hand, v, melds, turns, deal_in)

    def discards(self, v: "SeatFacts", hand: "np.ndarray", melds: "Sequence[Meld]", turns: int,
                 dz: "np.ndarray", watch: "Deadline | None") -> "dict[int, Outlook]":
        return {t: self._outlook(h, v, melds, turns, float(dz[t]))
                for t, h in _minus_each(hand)}

    def kong_keeps(self, kong: "Outlook", best: "Outlook") -> bool:
        return kong.distance <= best.distance

    def win_choice(self, v: "SeatFacts", tile: int, self_drawn: bool, fan: "int | None",
                   dz: "np.ndarray", turns: int) -> "WinChoice | None":
        return None


def rule_value(rules: "Ruleset", model: "ValueModel", tai_model: "TaiModel") -> "RuleValue":
    """The planner's value under ``rules``: the tai value under taiwan-16, the fan-aware
    one under MCR (a win needs a minimum fan), else the plain deficiency."""
    if rules.family is Family.TAIWAN:
        return TaiValue(tai_model)
    if rules.family is Family.MCR:
        return FanValue(model, rules)
    return ShapeValue(model, rules)
