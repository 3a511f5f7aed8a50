"""The planner: every action compared by one value (:mod:`strategy.value`).

``Planner`` is a :class:`bot.agent.Strategy` beside the step-value agent, :class:`bot.agent.Agent`
(whose wins, fan check and step-value search it reuses, and whose behaviour it leaves
alone).  What it adds:

- discards: the value of the hand each discard leaves, its distance the fan-aware
  deficiency (:mod:`strategy.fan`, mcr-botzone; the plain one where the rules set no
  minimum) and its danger the chance that the tile completes another seat's hand
  (:mod:`strategy.danger`); discards within the value's margin of the best are ranked by
  the agent's step-value search (with its 8-fan check), and far from 8 fan by the order
  learned from the rank-1 Botzone bot (:mod:`strategy.discard_rank`);
- claims (pung, chow, kong): the best value after the meld and its discard, with the meld
  declared (a claimed meld ends the concealed hand and may close or open routes to 8 fan),
  against passing; a claim must gain the margin;
- concealed and added kongs: taken when the fan-aware distance after the kong is no worse
  than the best discard's;
- a win on a discard is declared or passed by its worth (:func:`strategy.value.
  mcr_win_choice`: 24 + its fan now against the kept waiting hand, whose outs are worth
  3 * (8 + fan) drawn; MCR has no furiten); a self-drawn win is always declared.

Under taiwan-16 the same comparisons use the tai value of :mod:`strategy.tai` (the best
route's distance and tai, its points from the tai; its numbers in every candidate's
reasons), kongs are taken when their value is no lower than the best discard's, and a win
is declared or passed by its worth (:func:`strategy.tai.win_choice`: the points now
against keeping the waiting hand; the table allows winning later on any tile).

Every candidate lists its numbers (:class:`strategy.value.ValuedCandidate`).  What differs
between rule sets (the distance, a kong's test, which wins are weighed) is one
:class:`strategy.rule_value.RuleValue` per rule set; the out-of-time answer of the Botzone
zip is a wrapper strategy, :class:`OnTime`.
"""

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from bot.agent import Agent, Decision, Strategy
from bot.seat import PlayerState
from game import events as ev
from game.melds import Chow, ConcealedKong, Kong, Meld, Pung
from game.rulebook import claim_answer
from game.rules import Family, Ruleset, WallLayout
from game.tiles import tile_name
from strategy.danger import DANGER_FIT, DANGER_V1, SeatSigns, danger
from strategy.deadline import Deadline, OutOfTime
from strategy.deficiency.kernel import UNREACHABLE
from strategy.discard_rank import RANK1, DiscardFacts, DiscardRanker, features
from strategy.jit import HAVE_NUMBA
from strategy.policy import Method, choose_discard
from strategy.rule_value import FanValue, RuleValue, rule_value
from strategy.tai import TAI_MODEL, TaiModel
from strategy.value import (
    DEFAULT_MODEL,
    FanInputs,
    Outlook,
    ValuedCandidate,
    ValueModel,
    WinChoice,
    best_by_value,
    useful_draws,
)


@dataclass(frozen=True)
class ClaimOption:
    """One way to claim the discard in play, as weighed against passing: the answer (a
    kong, or a pung or chow with the discard after it where the table takes them together,
    :func:`game.rulebook.claim_answer`), the tiles it takes from the
    hand, the meld it declares, and the value and distance of the hand it leaves."""

    value: float
    action: "ev.Action"
    taken: "tuple[int, ...]"
    meld: "Meld"
    distance: int


QUICK_BUDGET = 2_000
"""Kernel calls for the step-value agent when it answers for a planner out of time (about 0.2 s
of its search in plain Python)."""

ZIP_BUDGET = 4_000
"""Kernel calls of the zip's step-value search per decision (:class:`OnTime`), and the
arena's ``mjbot`` budget (``arena.players.lineup.DEFAULT_BUDGET`` is this), so the zip decides as
the bot every arena result measures wherever its clock allows.  The platform's 10**6
takes seconds in plain Python (the zip's slowest decisions were that search); compiled,
the strength is flat in the budget (``docs/results.md``, "Does thinking longer help?")."""

SHIPPED_MODEL = ValueModel(wait_worth=1.0, danger_fit=1.0, deal_in_points=20.0)
"""The value of the bot that ships (``mjbot``; arena ``planner:waits=1,fitdanger=1,
deal=20``): ``planner-v1``'s, with the waits weighed by their outs' copies and fan
(:attr:`strategy.value.ValueModel.wait_worth`), the danger read from the model calibrated
on self-play (:data:`strategy.danger.DANGER_FIT`) and a deal-in costing 20 points (8 +
the winner's fan, about 12) beyond the lost chance of winning.  It ships because it
gained over ``planner-v1`` on seeds not used while tuning it, dealing in less and winning as
often (``docs/results.md``, "Is mjbot stronger than planner-v1?")."""


@dataclass
class Planner(Agent):
    name: str = "planner"
    model: "ValueModel" = field(default=DEFAULT_MODEL)
    tai_model: "TaiModel" = field(default=TAI_MODEL)
    """The value's numbers under taiwan-16 (:mod:`strategy.tai`)."""
    ranker: "DiscardRanker | None" = RANK1
    """The learned order of the close discards after a draw far from 8 fan
    (:mod:`strategy.discard_rank`; mcr, compiled): where given, it replaces the
    useful-draws-then-step-value order; None keeps that order (``planner:rank=steps``)."""
    _watch: "Deadline | None" = field(init=False, default=None, repr=False)
    """The decision's deadline, while the fan routes run in plain Python (no numba: a
    Botzone upload) and it has a clock: the routes check it between discards."""
    _cut: str = field(init=False, default="", repr=False)
    """What the clock cut from the decision being made (plain Python on a clock: the
    useful draws or the learned order), said in its note; empty when nothing was."""
    value: "RuleValue" = field(init=False, repr=False)
    """The value under these rules (:func:`strategy.rule_value.rule_value`)."""

    def __post_init__(self) -> None:
        self.value = rule_value(self.rules, self.model, self.tai_model)

    def decide(self, v: "PlayerState", deadline: "Deadline | None" = None) -> "Decision":
        """The planner's decision.  Without numba, under a deadline with a clock, the fan
        routes check it between discards and raise :class:`strategy.deadline.OutOfTime`
        when it has passed (:class:`OnTime` lets the step-value agent answer then).  The work is
        ordered so the clock cuts the least: each discard's value first (any answer needs
        it), then the step-value search (cut, it ranks what it reached), then the useful
        draws or the learned order far from 8 fan (cut, the step-value order stands, and
        the note says so: the one place such a decision differs from the compiled bot's).

        Compiled, the routes take milliseconds and no clock is watched, so the decisions
        are the same on every machine; in plain Python one decision's routes take from
        milliseconds to seconds, more than a platform's turn allows."""
        watched = (not HAVE_NUMBA and deadline is not None and deadline.clock is not None
                   and self.value.fan_routes)
        watch = deadline if watched else None
        self._watch = watch
        self._cut = ""
        try:
            decision = super().decide(v, deadline)
            if (watch is not None and watch.clock is not None and not self._cut
                    and decision.method in (Method.SEARCH_CUT, Method.SEARCH_CLOCK_CUT)
                    and watch.clock() > watch.until):
                # (the search may have run out of its budget first, as the compiled one
                # does: counted as the clock's, the safe side)
                self._cut = "the clock cut the step-value search"
            if self._cut and self._watch is watch:
                decision = dataclasses.replace(decision, note=f"{decision.note} [{self._cut}]")
            return decision
        finally:
            if self._watch is watch:  # not a later decision's (an abandoned one ends late)
                self._watch = None

    # ------------------------------------------------------------------ inputs
    def _hand_outlook(self, v: "PlayerState", hand: "np.ndarray", melds: "Sequence[Meld]",
                      turns: int, deal_in: float) -> "Outlook":
        """The outlook of holding the 3m+1 ``hand`` beside all of ``melds`` (the declared
        ones and any being weighed)."""
        return self.value.hand(v, hand, melds, turns, deal_in, self._watch)

    def _discard_outlooks(self, v: "PlayerState", hand: "np.ndarray", extra: "Sequence[Meld]",
                          turns: int, dz: "np.ndarray") -> "dict[int, Outlook]":
        """Each kind the 3m+2 ``hand`` holds -> the outlook after discarding it."""
        return self.value.discards(v, hand, (*v.melds, *extra), turns, dz, self._watch)

    def _turns(self, v: "PlayerState") -> int:
        """Draws this seat has left (a shared wall is drawn by four seats)."""
        left = v.wall_left[v.seat]
        return left if self.rules.wall_layout is WallLayout.PER_SEAT else left // 4

    def _signs(self, v: "PlayerState") -> "list[SeatSigns]":
        signs = []
        for s in range(4):
            if s == v.seat:
                continue
            melds = tuple(v.shown_melds[s])
            concealed = self.rules.hand_size - 3 * len(melds)
            signs.append(SeatSigns(tuple(v.discards[s]), melds, concealed, tuple(v.passed[s])))
        return signs

    def _danger(self, v: "PlayerState") -> "np.ndarray":
        """P(each kind discarded completes another seat's hand), by the model the value
        reads (:attr:`strategy.value.ValueModel.danger_fit`)."""
        model = DANGER_FIT if self.model.danger_fit >= 1.0 else DANGER_V1
        return danger(self._signs(v), v.unseen, model)

    def _inputs(self, v: "PlayerState") -> "FanInputs":
        return FanInputs(v.unseen, tuple(v.melds), v.seat, v.prevalent_wind)

    # ------------------------------------------------------------------ discards
    def _discard_plan(self, v: "PlayerState", hand: "np.ndarray", extra: "Sequence[Meld]",
                      deadline: "Deadline | None", dz: "np.ndarray", turns: int,
                      with_search: bool = True, fan_check: bool = True,
                      ) -> "tuple[int, tuple[ValuedCandidate, ...], Outlook, Method]":
        """The discard from a 3m+2 hand by value, ties (within the margin) by step value
        (``fan_check``: the search's leaves must reach the minimum fan; not for the hand
        of a claim the view does not hold yet, nor the discard after a claim)."""
        needed = v.melds_needed - len(extra)
        # the outlooks first: on a clock (plain Python) they are what any answer of the
        # planner needs, the search after them is cut, not lost, when the clock passes
        outlooks = self._discard_outlooks(v, hand, extra, turns, dz)
        if with_search:
            check = self._fan_check(v) if fan_check and not extra else None
            choice = choose_discard(hand, v.unseen, needed, self.rules, deadline,
                                    win_check=check, cache=self._suits)
            ranked = list(choice.candidates)
            method = choice.method
        else:
            ranked, method = [], Method.DP
        steps = [c.tile for c in ranked if c.tile is not None]
        order = steps + sorted(t for t in outlooks if t not in steps)
        if self._ranks(outlooks) and not extra and with_search:
            assert self.ranker is not None
            try:
                close, x = self._close_features(v, hand, outlooks, dz, steps)
            except OutOfTime:  # plain Python on a clock: the step-value order stands
                self._cut = "the clock cut the learned order: step-value order"
            else:
                ranked_close = self.ranker.order(close, x)
                order = ranked_close + [t for t in order if t not in ranked_close]
        else:
            order = self._useful_first(v, hand, extra, outlooks, order)
        chosen = best_by_value(outlooks, order, self.value.model)
        chosen = self._best_wait(v, hand, extra, outlooks, chosen, turns, dz)
        by_tile = {c.tile: c for c in ranked}
        cands = []
        for t in order:
            c = by_tile.get(t)
            if c is None:
                cands.append(ValuedCandidate(ev.ActionKind.DISCARD, t, outlooks[t].distance,
                                             outlook=outlooks[t]))
            else:
                cands.append(ValuedCandidate(c.action, c.tile, outlooks[t].distance, c.value,
                                             c.chance, c.delta, c.work, c.time_us, c.note,
                                             outlook=outlooks[t],
                                             plain_deficiency=c.deficiency))
        cands.sort(key=lambda c: -c.outlook.value if c.outlook else 0.0)
        return chosen, tuple(cands), outlooks[chosen], method

    def _best_wait(self, v: "PlayerState", hand: "np.ndarray", extra: "Sequence[Meld]",
                   outlooks: "dict[int, Outlook]", chosen: int, turns: int, dz: "np.ndarray",
                   ) -> int:
        """``chosen``, or where it leaves the hand waiting and ``model.wait_worth`` is on
        (mcr), the discard within the margin that leaves the wait worth most
        (:meth:`strategy.rule_value.FanValue.wait_worth`, times the chance that the
        discard itself does not deal in, less what dealing in costs).  On a clock (plain
        Python) the clock is checked before each discard's outs; when it has passed,
        ``chosen`` stands."""
        value, model = self.value, self.value.model
        if (not isinstance(value, FanValue) or model.wait_worth <= 0.0
                or outlooks[chosen].distance != 1):
            return chosen
        top = max(o.value for o in outlooks.values())
        waiting = [t for t, o in outlooks.items()
                   if o.distance == 1 and o.value >= top - model.margin]
        if len(waiting) < 2:
            return chosen
        melds = (*v.melds, *extra)
        best, best_worth = chosen, -np.inf
        try:
            for t in sorted(waiting, key=lambda x: x != chosen):
                if self._watch is not None:
                    self._watch.check_clock()
                h = hand.copy()
                h[t] -= 1
                p = float(dz[t])
                worth = ((1.0 - p) * value.wait_worth(v, h, melds, turns, dz)
                         - p * model.deal_in_win_points)
                if worth > best_worth:
                    best, best_worth = t, worth
        except OutOfTime:
            self._cut = "the clock cut the waits' worth"
            return chosen
        return best

    def _useful_first(self, v: "PlayerState", hand: "np.ndarray", extra: "Sequence[Meld]",
                      outlooks: "dict[int, Outlook]", order: "list[int]") -> "list[int]":
        """``order`` with the discards within the margin ranked first by their useful draws
        toward 8 fan, where the best distance is at least ``model.useful_from`` (mcr)."""
        least = min(o.distance for o in outlooks.values())
        if not self.value.fan_routes or least < self.model.useful_from \
                or least >= UNREACHABLE:
            return order
        try:
            useful = self._close_useful(v, hand, extra, outlooks, order)
        except OutOfTime:  # plain Python on a clock: the step-value order stands
            self._cut = "the clock cut the useful draws: step-value order"
            return order
        return sorted(useful, key=lambda t: -useful[t]) + [t for t in order if t not in useful]

    def _close_useful(self, v: "PlayerState", hand: "np.ndarray", extra: "Sequence[Meld]",
                      outlooks: "dict[int, Outlook]", order: "Sequence[int]") -> "dict[int, int]":
        """The discards within the margin of the best value (in ``order``) -> their useful
        draws toward 8 fan.  On a clock (plain Python) it is checked before each discard's
        draws (:class:`strategy.deadline.OutOfTime` when it has passed)."""
        top = max(o.value for o in outlooks.values())
        inputs = self._inputs(v)
        useful = {}
        for t in order:
            if outlooks[t].value >= top - self.model.margin:
                if self._watch is not None:
                    self._watch.check_clock()
                h = hand.copy()
                h[t] -= 1
                useful[t] = useful_draws(h, inputs, outlooks[t].distance, extra)
        return useful

    def _ranks(self, outlooks: "dict[int, Outlook]") -> bool:
        """Whether the learned order ranks these discards (mcr, from the distance
        ``model.useful_from`` on, where it replaces the useful-draws order)."""
        return self.ranker is not None and self.value.fan_routes and self._far(outlooks)

    def _far(self, outlooks: "dict[int, Outlook]") -> bool:
        least = min(o.distance for o in outlooks.values())
        return self.model.useful_from <= least < UNREACHABLE

    def _close_features(self, v: "PlayerState", hand: "np.ndarray", outlooks: "dict[int, Outlook]",
                        dz: "np.ndarray", steps: "Sequence[int]") -> "tuple[list[int], np.ndarray]":
        """The discards within the margin (in the step-value order) and their features."""
        order = list(steps) + sorted(t for t in outlooks if t not in steps)
        useful = self._close_useful(v, hand, (), outlooks, order)
        close = list(useful)
        facts = [DiscardFacts(t, outlooks[t].value, outlooks[t].distance, useful[t],
                              float(dz[t])) for t in close]
        return close, features(hand, v.unseen, facts, steps, v.seat, v.prevalent_wind,
                               v.drawn)

    def _after_draw(self, v: "PlayerState", deadline: "Deadline | None") -> "Decision":
        assert v.drawn is not None
        ok, fan = self.can_win(v, v.drawn, self_drawn=True)
        turns, hand, legal = self._turns(v), v.hand, self.answers(v)
        dz = self._danger(v)
        if ok:
            wc = self.value.win_choice(v, v.drawn, True, fan, dz, turns)
            if wc is None:
                return Decision(ev.DeclareWin(), Method.WIN, note="self-drawn", fan=fan)
            if wc.declare:
                return Decision(ev.DeclareWin(), Method.WIN, note=f"self-drawn: {wc.describe()}",
                                fan=wc.worth)
        chosen, cands, best, method = self._discard_plan(v, hand, (), deadline, dz, turns)
        for kind in np.flatnonzero(hand >= 4):
            t = int(kind)
            if ev.DeclareConcealedKong(t) not in legal:
                continue
            h = hand.copy()
            h[t] -= 4
            o = self._hand_outlook(v, h, (*v.melds, ConcealedKong(t)), turns, 0.0)
            d = o.distance
            if self.value.kong_keeps(o, best):
                c = ValuedCandidate(ev.ActionKind.CONCEALED_KONG, t, d, outlook=o,
                                    note="keeps the distance to a win")
                return Decision(ev.DeclareConcealedKong(t), Method.KONG, (c, *cands), c.note)
        for t in v.pungs():
            if hand[t] < 1 or ev.DeclareAddedKong(t) not in legal:
                continue
            h = hand.copy()
            h[t] -= 1
            melds = tuple(Kong(m.tile, m.provider, added=True)
                          if isinstance(m, Pung) and m.tile == t else m for m in v.melds)
            o = self._hand_outlook(v, h, melds, turns, 0.0)
            d = o.distance
            if self.value.kong_keeps(o, best):
                c = ValuedCandidate(ev.ActionKind.ADDED_KONG, t, d, outlook=o,
                                    note="the fourth tile of a pung, distance kept")
                return Decision(ev.DeclareAddedKong(t), Method.KONG, (c, *cands), c.note)
        return Decision(ev.Discard(chosen), method, cands,
                        note=f"by value: {tile_name(chosen)} {best.describe()}")

    # ------------------------------------------------------------------ claims
    def _on_discard(self, v: "PlayerState", deadline: "Deadline | None") -> "Decision":
        assert v.tile_in_play is not None and v.provider is not None
        t, provider = v.tile_in_play, v.provider
        ok, fan = self.can_win(v, t, self_drawn=False)
        wc: "WinChoice | None" = None
        if ok and self.value.weighs_wins:
            wc = self.value.win_choice(v, t, False, fan, self._danger(v), self._turns(v))
        if wc is not None:
            if wc.declare:
                return Decision(ev.DeclareWin(), Method.WIN,
                                note=f"on {tile_name(t)}: {wc.describe()}", fan=wc.worth)
            return Decision(ev.Pass(), Method.PASS, note=f"win on {tile_name(t)} passed: "
                            f"{wc.describe()}")
        if ok:
            return Decision(ev.DeclareWin(), Method.WIN, note=f"on {tile_name(t)}", fan=fan)
        legal = self.answers(v)
        claims = {ev.claim_of(a) for a in legal}
        if not any(isinstance(a, (ev.ClaimPung, ev.ClaimChow, ev.ClaimKong)) for a in claims):
            return Decision(ev.Pass(), Method.PASS, note="no claim is legal")
        dz, turns, hand = self._danger(v), self._turns(v), v.hand
        held = np.flatnonzero(hand)
        pass_o = self._hand_outlook(v, hand, v.melds, turns, float(dz[held].min()))
        d_pass = pass_o.distance
        pass_c = ValuedCandidate(ev.ActionKind.PASS, None, d_pass, outlook=pass_o)
        cands: "list[ValuedCandidate]" = [pass_c]
        options: "list[tuple[Meld, tuple[int, ...]]]" = []
        if ev.ClaimKong() in legal:
            options.append((Kong(t, provider), (t, t, t)))
        if ev.ClaimPung() in claims:
            options.append((Pung(t, provider), (t, t)))
        middles = sorted({a.middle for a in claims if isinstance(a, ev.ClaimChow)})
        for middle in middles:
            chow = Chow(middle, t, provider)
            options.append((chow, tuple(x for x in chow.tiles if x != t)))
        best: "ClaimOption | None" = None
        per_meld: "dict[Meld, ClaimOption]" = {}
        for meld, taken in options:
            h = hand.copy()
            for x in taken:
                h[x] -= 1
            if isinstance(meld, Kong):  # a replacement draw follows, not a discard
                o = self._hand_outlook(v, h, (*v.melds, meld), turns, pass_o.deal_in)
                d = o.distance
                cands.append(ValuedCandidate(ev.ActionKind.KONG, t, d, outlook=o,
                                             note="then a replacement draw", meld=(t,) * 4))
                kong = ClaimOption(o.value, ev.ClaimKong(), taken, meld, d)
                if best is None or o.value > best.value:
                    best = kong
                per_meld[meld] = kong
                continue
            after = self._discard_outlooks(v, h, (meld,), turns, dz)
            for x, o in sorted(after.items()):
                d = o.distance
                bare = (ev.ClaimPung() if isinstance(meld, Pung)
                        else ev.ClaimChow(meld.middle) if isinstance(meld, Chow) else None)
                claim = None if bare is None else claim_answer(bare, x, legal)
                if claim is None:
                    continue
                kind = ev.ActionKind.PUNG if isinstance(meld, Pung) else ev.ActionKind.CHOW
                cands.append(ValuedCandidate(kind, x, d, outlook=o, meld=tuple(meld.tiles)))
                option = ClaimOption(o.value, claim, taken, meld, d)
                if best is None or o.value > best.value:
                    best = option
                if meld not in per_meld or o.value > per_meld[meld].value:
                    per_meld[meld] = option
        cands.sort(key=lambda c: -c.outlook.value if c.outlook else 0.0)
        note = f"claim by value over pass {pass_o.value:+.2f}"
        if best is None or best.value < pass_o.value + self._claim_margin():
            below = self._claim_below_margin(v, deadline, per_meld, pass_o)
            if below is None:
                return Decision(ev.Pass(), Method.CLAIM, tuple(cands),
                                note=f"pass: {pass_o.describe()}")
            best, note = below
        value, action, taken, meld = best.value, best.action, best.taken, best.meld
        if isinstance(action, ev.ClaimAndDiscard):
            # the discard after the meld: by value, ties by the step-value search (where
            # the table asks for it after the claim, the view asks it then: AskKind.CALLED)
            h = hand.copy()
            for x in taken:
                h[x] -= 1
            chosen, _, _, _ = self._discard_plan(v, h, (meld,), deadline, dz, turns)
            alt = claim_answer(action.claim, chosen, legal)
            if alt is not None:
                action = alt
        return Decision(action, Method.CLAIM, tuple(cands), note=f"{note}: {value:+.2f}")

    def _claim_margin(self) -> float:
        """Points a claim must gain over passing: the value's margin, less the tai value's
        :attr:`strategy.tai.TaiModel.claim_slack` under taiwan-16."""
        model = self.value.model
        slack = model.claim_slack if isinstance(model, TaiModel) else 0.0
        return model.margin - slack

    def _claim_below_margin(self, v: "PlayerState", deadline: "Deadline | None",
                            per_meld: "dict[Meld, ClaimOption]", pass_o: "Outlook",
                            ) -> "tuple[ClaimOption, str] | None":
        """A claim made although none gains the margin over passing, and its note: none
        here (the arena's ``planner-calls`` makes the step-value agent's claims too)."""
        return None

    def _after_claim(self, v: "PlayerState", deadline: "Deadline | None") -> "Decision":
        """The discard after this seat's own chow or pung, by value (the view holds the
        meld already: the Olympiad flow asks for the discard once the claim is taken)."""
        chosen, cands, best, method = self._discard_plan(v, v.hand, (), deadline,
                                                         self._danger(v), self._turns(v),
                                                         fan_check=False)
        return Decision(ev.Discard(chosen), method, cands, note=f"by value: {best.describe()}")


@dataclass
class OnTime:
    """A strategy that answers by ``first`` within ``budget`` kernel calls (and the
    deadline's clock) and, when that runs out of time
    (:class:`strategy.deadline.OutOfTime`), by ``quick`` on a small work budget
    (:data:`QUICK_BUDGET`), its note saying so.  The Botzone zip's planner: in plain Python
    its fan routes watch the turn's clock and the step-value agent answers when it has passed.
    Everything else a caller asks (``value``, ``can_win``, ``rules``, ``name``) is
    ``first``'s."""

    first: "Planner"
    quick: "Agent"
    budget: int = ZIP_BUDGET

    def decide(self, v: "PlayerState", deadline: "Deadline | None" = None) -> "Decision":
        d = deadline or Deadline()
        capped = Deadline(budget=min(d.budget, self.budget), clock=d.clock, until=d.until,
                          spent=d.spent)
        try:
            return self.first.decide(v, capped)
        except OutOfTime:
            quick = self.quick.decide(v, Deadline(budget=QUICK_BUDGET))
            return dataclasses.replace(
                quick,
                note=f"the value ran out of time, the step-value agent answers: {quick.note}")

    def reset(self) -> None:
        self.first.reset()
        self.quick.reset()

    def __getattr__(self, name: str) -> "Any":
        if name in ("first", "quick", "budget") or name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.first, name)


def default_strategy(rules: "Ruleset") -> "Strategy":
    """The submitted bot's strategy: the planner under mcr-botzone, with the learned
    discard order far from 8 fan and the shipped value (:data:`SHIPPED_MODEL`; its gain
    over ``baseline-v1`` and ``planner-v1`` is measured in ``docs/results.md``), the step-value
    :class:`Agent` elsewhere.  Without
    numba (a Botzone upload) the planner watches the turn's clock and lets the step-value agent
    answer when its fan routes, in plain Python, run out of time (:class:`OnTime`, its
    search on the arena's budget :data:`ZIP_BUDGET`; the useful draws, the learned order
    and the waits' worth come last, and the clock cutting them leaves the planner's
    step-value order, its note saying so).  Under taiwan-16 the
    planner's tai value (:mod:`strategy.tai`) measured even with the step-value agent
    (``docs/results.md``, "Under taiwan-16, can the planner beat baseline-v1?"), so the
    Olympiad bot keeps the step-value agent."""
    if rules.family is Family.MCR:
        # compiled, no clock is watched and the planner never runs out of time
        planner = Planner(rules, model=SHIPPED_MODEL)
        return planner if HAVE_NUMBA else OnTime(planner, Agent(rules))
    return Agent(rules)
