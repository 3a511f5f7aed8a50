"""The planner with a sampling search at the top (:mod:`strategy.sampling`).

:class:`SamplingPlanner` asks the :class:`bot.planner.Planner` first.  When the answer is a
discard after a draw, or a claim-or-pass on another seat's discard, and other candidates
lie within :attr:`SamplingPlanner.window` points of the planner's choice by its value, the
top ones (at most :attr:`SamplingPlanner.top_k`, the planner's choice first; on a discard:
passing and the planner's best claim) are played on common deals by
:func:`strategy.sampling.compare` until the budget is spent: :attr:`SamplingPlanner.rollouts`
rollouts and/or the deadline's clock (the seat session's thinking time).  The planner's
choice is replaced only by a candidate whose paired sampled gain over it exceeds ``z``
standard errors.  Each compared candidate's reason carries its sampled mean ± se and n.

Deterministic for a given seed: the sampler's seed is :attr:`SamplingPlanner.seed` mixed
with a hash of what the seat has seen (its seat, the events so far, its hand, every
discard), so the same game replays identically under a rollout budget.  With a clock
budget the number of rollouts, and so the answer, depends on the machine.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from bot.agent import Decision, Strategy
from bot.planner import Planner, default_strategy
from bot.seat import AskKind, PlayerState
from game.events import Action, ActionKind, ClaimAndDiscard, ClaimChow, ClaimPung, Discard, Pass
from game.melds import Chow, Meld, Pung, chow_tiles
from game.rules import Family, Ruleset
from game.tiles import tile_name
from strategy.deadline import Deadline
from strategy.jit import HAVE_NUMBA
from strategy.policy import Candidate, Method
from strategy.sampling import (
    Budget,
    Comparison,
    DealError,
    Knowledge,
    Line,
    compare,
)
from strategy.value import ValuedCandidate

DEFAULT_ROLLOUTS = 96
"""Rollouts per decision in the arena (``planner-think``) when no other budget is given."""
CLOCK_ROLLOUT_CAP = 20_000
"""Rollouts per decision at most when the clock is the budget (Botzone)."""


@dataclass
class SamplingPlanner(Planner):
    name: str = "planner-think"
    rollouts: int | None = DEFAULT_ROLLOUTS
    """Rollouts per decision (None: only the deadline's clock stops the sampling)."""
    top_k: int = 4
    window: float = 4.0
    """Candidates within this many points of the planner's choice (by its value) are
    sampled; a decision without such a rival is the planner's, unsampled."""
    z: float = 1.0
    """Standard errors of the paired gain a rival needs to replace the planner's choice."""
    seed: int = 0
    last: Comparison | None = dataclasses.field(init=False, default=None, repr=False)
    """The last decision's comparison (for benchmarks), None if it sampled nothing."""

    def decide(self, v: PlayerState, deadline: Deadline | None = None) -> Decision:
        base = super().decide(v, deadline)
        self.last = None
        clocked = deadline if deadline is not None and deadline.clock is not None else None
        if self.rollouts is None and clocked is None:
            return base
        options = self._options(v, base)
        if len(options) < 2:
            return base
        if clocked is not None and clocked.clock is not None and \
                clocked.clock() > clocked.until:
            return base
        try:
            result = compare(knowledge(v), [line for _, line, _ in options], self._seed(v),
                             Budget(self.rollouts, clocked))
        except DealError as exc:
            return dataclasses.replace(base, note=f"{base.note}; not sampled: {exc}")
        if result.samples < 2:
            return base
        self.last = result
        best, gain = 0, 0.0
        for i, e in enumerate(result.estimates):
            if i and e.diff > gain and e.diff > self.z * e.diff_se:
                best, gain = i, e.diff
        sampled = {c: e for (_, _, c), e in zip(options, result.estimates, strict=True)
                   if c is not None}
        reasons = tuple(dataclasses.replace(c, note=_join(c.note, sampled[c].describe()))
                        if c in sampled else c for c in base.reasons)
        action = options[best][0]
        what = ("kept" if best == 0 else "changed to") + f" {options[best][1].label}"
        note = (f"sampled {result.samples} deals x {len(options)} ({result.rollouts} rollouts):"
                f" {what}; planner: {base.note}")
        if best == 0:
            return dataclasses.replace(base, reasons=reasons, note=note)
        return Decision(action, Method.SAMPLED, reasons, note=note)

    # ------------------------------------------------------------------ candidates
    def _options(self, v: PlayerState, base: Decision
                 ) -> list[tuple[Action, Line, Candidate | None]]:
        """(action, line, its reason) for the planner's choice first, then its rivals."""
        kind = v.ask.kind
        if kind is AskKind.DRAW and isinstance(base.action, Discard):
            return self._discards(v, base)
        if kind is AskKind.DISCARD and base.method is Method.CLAIM:
            return self._claims(v, base)
        return []

    def _discards(self, v: PlayerState, base: Decision
                  ) -> list[tuple[Action, Line, Candidate | None]]:
        assert isinstance(base.action, Discard)
        cands = [c for c in base.reasons if isinstance(c, ValuedCandidate)
                 and c.action is ActionKind.DISCARD and c.tile is not None
                 and c.outlook is not None]
        chosen = next((c for c in cands if c.tile == base.action.tile), None)
        if chosen is None or chosen.outlook is None:
            return []
        top = chosen.outlook.value
        rivals = [c for c in cands if c is not chosen and c.outlook is not None
                  and c.outlook.value >= top - self.window][:self.top_k - 1]
        out: list[tuple[Action, Line, Candidate | None]] = []
        for c in (chosen, *rivals):
            assert c.tile is not None
            if Discard(c.tile) not in self.answers(v):
                continue
            hand = v.hand.copy()
            hand[c.tile] -= 1
            out.append((Discard(c.tile), Line(hand, None, c.tile, v.seat, _label(c)), c))
        return out

    def _claims(self, v: PlayerState, base: Decision
                ) -> list[tuple[Action, Line, Candidate | None]]:
        assert v.tile_in_play is not None and v.provider is not None
        t, provider = v.tile_in_play, v.provider
        valued = [c for c in base.reasons if isinstance(c, ValuedCandidate)
                  and c.outlook is not None]
        passing = next((c for c in valued if c.action is ActionKind.PASS), None)
        claims = [c for c in valued if c.action in (ActionKind.PUNG, ActionKind.CHOW)]
        if passing is None or passing.outlook is None:
            return []
        pass_line = (Pass(), Line(v.hand.copy(), None, t, provider, "pass"), passing)
        if isinstance(base.action, Pass):
            if not claims or claims[0].outlook is None or \
                    claims[0].outlook.value < passing.outlook.value - self.window:
                return []
            claim = self._claim_action(v, claims[0])
            if claim is None:
                return []
            return [pass_line, (claim, self._claim_line(v, claim), claims[0])]
        action = base.action
        if not isinstance(action, ClaimAndDiscard):
            return []
        mine = next((c for c in claims if c.tile == action.discard
                     and c.action is action.kind), None)
        if mine is None or mine.outlook is None or \
                passing.outlook.value < mine.outlook.value - self.window:
            return []
        return [(action, self._claim_line(v, action), mine), pass_line]

    def _claim_action(self, v: PlayerState, c: Candidate) -> ClaimAndDiscard | None:
        """A legal claim for a claim candidate (a chow's meld read from its note)."""
        if c.tile is None:
            return None
        if c.action is ActionKind.PUNG:
            pung = ClaimAndDiscard(ClaimPung(), c.tile)
            return pung if pung in self.answers(v) else None
        chows = [a for a in self.answers(v) if isinstance(a, ClaimAndDiscard)
                 and isinstance(a.claim, ClaimChow) and a.discard == c.tile]
        for chow in chows:
            assert isinstance(chow.claim, ClaimChow)
            if c.note.startswith("meld " + " ".join(_names(chow_tiles(chow.claim.middle)))):
                return chow
        return chows[0] if chows else None

    def _claim_line(self, v: PlayerState, action: ClaimAndDiscard) -> Line:
        assert v.tile_in_play is not None and v.provider is not None
        t = v.tile_in_play
        hand = v.hand.copy()
        meld: Meld
        claim = action.claim
        if isinstance(claim, ClaimPung):
            hand[t] -= 2
            meld = Pung(t, v.provider)
            label = f"pung, discard {_names([action.discard])[0]}"
        else:
            for x in chow_tiles(claim.middle):
                if x != t:
                    hand[x] -= 1
            meld = Chow(claim.middle, t, v.provider)
            label = (f"chow {' '.join(_names(chow_tiles(claim.middle)))}, "
                     f"discard {_names([action.discard])[0]}")
        hand[action.discard] -= 1
        return Line(hand, meld, action.discard, v.seat, label)

    def _seed(self, v: PlayerState) -> int:
        return seat_seed(v, self.seed)


def knowledge(v: PlayerState) -> Knowledge:
    """What the sampler needs from a seat's view."""
    me = v.seat
    melds = tuple(tuple(v.melds) if s == me else tuple(v.shown_melds[s]) for s in range(4))
    needed = tuple(v.melds_needed if s == me
                   else v.rules.melds_needed - len(v.shown_melds[s]) - v.hidden_kongs[s]
                   for s in range(4))
    sizes = tuple(int(v.hand.sum()) if s == me else 3 * needed[s] + 1 for s in range(4))
    return Knowledge(me, v.prevalent_wind, v.unseen.copy(),
                     (melds[0], melds[1], melds[2], melds[3]),
                     (needed[0], needed[1], needed[2], needed[3]),
                     (sizes[0], sizes[1], sizes[2], sizes[3]),
                     (v.wall_left[0], v.wall_left[1], v.wall_left[2], v.wall_left[3]),
                     v.kb.known.copy())


def seat_seed(v: PlayerState, base: int = 0) -> int:
    """A seed from what the seat has seen (the same game gives the same seeds)."""
    h = hashlib.blake2b(digest_size=8)
    h.update(np.array([base, v.seat, v.prevalent_wind, v.events], dtype=np.int64).tobytes())
    h.update(v.hand.tobytes())
    h.update(v.kb.known.tobytes())
    for pile in v.discards:
        h.update(np.array([-1, *pile], dtype=np.int64).tobytes())
    return int.from_bytes(h.digest(), "little") >> 1


def _names(tiles: Sequence[int]) -> list[str]:
    return [tile_name(t) for t in tiles]


def _label(c: Candidate) -> str:
    return f"discard {_names([c.tile])[0]}" if c.tile is not None else c.action.value


def _join(note: str, more: str) -> str:
    return f"{note}; {more}" if note else more


def sampling_strategy(rules: Ruleset) -> Strategy:
    """The sampling planner on the wall clock (its deadline is the seat's thinking time;
    at most :data:`CLOCK_ROLLOUT_CAP` rollouts) where the planner is the default strategy
    (mcr-botzone with numba: without numba a rollout takes far too long), else
    :func:`bot.planner.default_strategy`."""
    if HAVE_NUMBA and rules.family is Family.MCR:
        return SamplingPlanner(rules, rollouts=CLOCK_ROLLOUT_CAP)
    return default_strategy(rules)
