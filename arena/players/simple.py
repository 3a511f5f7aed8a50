"""The arena's own strategies: ``greedy``, ``random`` and SIMCAT-ε (``mjbot-eps``).

Each is a :class:`bot.agent.Strategy`, so an arena seat plays it through the same
:class:`bot.session.SeatSession` as the shipped bot (legality check and fallback):

- ``random``: a random discard, never claims, wins when the rule book offers a win
  (Botzone's sample bot);
- ``greedy``: discards to the least hand-only deficiency (no knowledge base, no claims),
  wins when offered;
- SIMCAT-ε of Tang, Chen & Wu, "An Efficient Method for Assessing the Strength of Mahjong
  Programs" (section 4): with probability ε a random action among those that keep the
  deficiency, else the wrapped agent's; a win is always declared.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

import numpy as np

from bot.agent import Agent, Decision
from bot.planner import ClaimOption, Planner
from bot.seat import AskKind, PlayerState
from game import events as ev
from game.melds import Chow, Kong, Meld, Pung
from game.rulebook import taken_by, with_discards
from strategy.deadline import Deadline
from strategy.deficiency.kernel import kernel_deficiency
from strategy.policy import Method, choose_claim, shape_deficiency_fast
from strategy.value import Outlook

__all__ = ["SimcatStrategy", "SimpleRule", "SimpleStrategy", "least_shanten_discard"]

_FULL = np.zeros(0, dtype=np.int8)


def least_shanten_discard(hand: np.ndarray, melds: int, held: list[int]) -> int:
    """The held tile whose discard leaves the least hand-only deficiency (the first)."""
    best, best_d = held[0], 1 << 30
    h = hand.copy()
    for t in held:
        h[t] -= 1
        d = int(kernel_deficiency(h, _FULL, melds))
        h[t] += 1
        if d < best_d:
            best, best_d = t, d
    return best


def _offered_win(v: PlayerState) -> Decision | None:
    """Declare the win the rule book offers, if it offers one."""
    ask = v.ask
    if ask.win is None:
        return None
    return Decision(ev.DeclareWin(), Method.WIN, fan=ask.win.fan)


class SimpleRule(Enum):
    """The arena's fixed discard rules."""

    RANDOM = "random"
    """A random discard (Botzone's sample bot)."""
    GREEDY = "greedy"
    """The discard to the least hand-only deficiency."""


@dataclass
class SimpleStrategy:
    """A fixed discard rule, never a claim; every win offered is declared."""

    rule: SimpleRule
    rng: np.random.Generator = field(default_factory=lambda: np.random.default_rng(0))

    def reset(self) -> None:
        return None

    def decide(self, v: PlayerState, deadline: Deadline | None = None) -> Decision:
        win = _offered_win(v)
        if win is not None:
            return win
        if v.ask.kind is not AskKind.DRAW:
            return Decision(ev.Pass(), Method.PASS)
        held = [int(t) for t in np.nonzero(v.hand)[0]]
        if self.rule is SimpleRule.RANDOM:
            tile = int(self.rng.choice(held))
        else:
            tile = least_shanten_discard(v.hand, v.melds_needed, held)
        return Decision(ev.Discard(tile), Method.SIMPLE)


@dataclass
class SimcatStrategy:
    """SIMCAT-ε around an agent: the ε roll happens at every decision that has a choice
    (after a draw, on a discard it could claim); a random action is drawn uniformly among

    - after a draw: the discards that keep the deficiency (the least over all discards;
      kongs are not among the random actions);
    - on a discard: passing and every chow or pung (with its discard) that does not raise
      the deficiency of the hand (kongs left out);

    and a win is always declared.  The deficiency is the knowledge-aware one of the view
    (:func:`strategy.policy.shape_deficiency_fast`)."""

    agent: Agent
    epsilon: float
    rng: np.random.Generator
    planned: int | None = field(init=False, default=None)
    """The discard a random claim was weighed with: the answer when the claim is taken and
    the table asks for the discard next (the Olympiad flow)."""

    def reset(self) -> None:
        self.agent.reset()
        self.planned = None

    def decide(self, v: PlayerState, deadline: Deadline | None = None) -> Decision:
        planned, self.planned = self.planned, None
        asked = v.ask.kind
        if asked is AskKind.CALLED and planned is not None and ev.Discard(planned) in (
                v.ask.legal):
            return Decision(ev.Discard(planned), Method.EPSILON_RANDOM)
        win = _offered_win(v)
        if win is not None:
            return win
        if asked in (AskKind.DRAW, AskKind.DISCARD) and self.rng.random() < self.epsilon:
            return self._random_keeping(v, asked)
        return self.agent.decide(v, deadline)

    def _deficiency(self, v: PlayerState, hand: np.ndarray, melds: int) -> int:
        return shape_deficiency_fast(hand, v.unseen, melds, v.rules)

    def _random_keeping(self, v: PlayerState, asked: AskKind) -> Decision:
        if asked is AskKind.DRAW:
            hand = v.hand.copy()
            held = [int(t) for t in np.nonzero(hand)[0]]
            after = []
            for t in held:
                hand[t] -= 1
                after.append(self._deficiency(v, hand, v.melds_needed))
                hand[t] += 1
            least = min(after)
            keeping = [t for t, d in zip(held, after, strict=True) if d == least]
            action: ev.Action = ev.Discard(keeping[int(self.rng.integers(len(keeping)))])
        else:
            options: list[ev.Action] = [ev.Pass()]
            before = self._deficiency(v, v.hand, v.melds_needed)
            tile = v.tile_in_play
            assert tile is not None
            # every chow or pung with each discard after it (one answer each where the
            # table takes them together), in the rule book's order
            for claim in dict.fromkeys(ev.claim_of(a) for a in self.agent.answers(v)):
                if not isinstance(claim, ev.ClaimPung | ev.ClaimChow):
                    continue
                for both in with_discards(claim, v.hand, tile):
                    hand = v.hand.copy()
                    for x in (*taken_by(claim, tile), both.discard):
                        hand[x] -= 1
                    if self._deficiency(v, hand, v.melds_needed - 1) <= before:
                        options.append(both)
            action = options[int(self.rng.integers(len(options)))]
            if isinstance(action, ev.ClaimAndDiscard) and action not in v.ask.legal:
                # the table takes the claim alone and asks for the discard next
                self.planned = action.discard
                action = action.claim
        return Decision(action, Method.EPSILON_RANDOM)


@dataclass
class CallingPlanner(Planner):
    """``planner-calls``: the planner that also makes the agent's claims (the plain deficiency
    falls) where the fan-aware distance does not grow and the value loses at most the
    margin."""

    def _claim_below_margin(self, v: PlayerState, deadline: Deadline | None,
                            per_meld: dict[Meld, ClaimOption], pass_o: Outlook,
                            ) -> tuple[ClaimOption, str] | None:
        """Today's claim rule (the plain deficiency falls) where the fan-aware distance does
        not grow and the value loses at most the margin, with its note."""
        assert v.tile_in_play is not None and v.provider is not None
        t, provider = v.tile_in_play, v.provider
        can_chow = any(isinstance(ev.claim_of(a), ev.ClaimChow) for a in self.answers(v))
        plain = choose_claim(v.hand, v.unseen, v.melds_needed, self.rules, t,
                             can_chow=can_chow, can_win=False, deadline=deadline,
                             cache=self._suits)
        meld: Meld
        if plain.action is ev.ActionKind.PUNG:
            meld = Pung(t, provider)
        elif plain.action is ev.ActionKind.CHOW:
            meld = Chow(plain.meld_tiles[1], t, provider)
        elif plain.action is ev.ActionKind.KONG:
            meld = Kong(t, provider)
        else:
            return None
        ours = per_meld.get(meld)
        if ours is None or ours.distance > pass_o.distance \
                or ours.value < pass_o.value - self.value.model.margin:
            return None
        return ours, (f"claim: the plain deficiency falls and the distance to 8 fan holds "
                      f"({ours.distance}; pass {pass_o.value:+.2f})")
