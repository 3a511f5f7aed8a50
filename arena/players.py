"""In-process players by name: ``mjbot`` (ours), ``random`` and ``greedy``.

Each answers one seat's requests (``game.events``) with an action:

- ``mjbot``: :class:`bot.agent.Agent` (knowledge-aware deficiency, step
  values, claims, fan-checked wins);
- ``random``: a random legal discard, never claims, wins when the judge would
  accept it — Botzone's sample bot;
- ``greedy``: discards to the least hand-only shanten (no knowledge base, no
  claims), wins only at 8 fan or more.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from bot.agent import Agent, Decision
from bot.seat import AskKind, SeatView
from game.events import Action, DeclareWin, Discard, Event, Pass
from game.rules import Ruleset
from strategy.deficiency.kernel import kernel_deficiency
from strategy.stepvalue import Deadline

PLAYERS = ("mjbot", "random", "greedy")
_FULL = np.zeros(0, dtype=np.int8)


@dataclass
class Player:
    """A named in-process player for one seat."""

    name: str
    rules: Ruleset
    seed: int = 0
    budget: int = 4_000
    """Kernel calls per decision (deterministic, so seeded games replay exactly)."""
    agent: Agent = field(init=False)
    view: SeatView = field(init=False)
    rng: np.random.Generator = field(init=False)
    last: Decision | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        if self.name not in PLAYERS:
            raise ValueError(f"unknown player {self.name!r}; known: {', '.join(PLAYERS)}")
        self.agent = Agent(self.rules, self.name)
        self.view = SeatView(self.rules)
        self.rng = np.random.default_rng(self.seed)

    def answer(self, request: Event) -> Action:
        v = self.view
        v.observe(request)
        self.last = None
        kind = v.ask.kind
        if kind is AskKind.NOTHING:
            return Pass()
        if self.name == "mjbot":
            self.last = self.agent.decide(v, Deadline(budget=self.budget))
            return self.last.action
        if kind is AskKind.DRAW:
            assert v.drawn is not None
            if self.agent.can_win(v, v.drawn, self_drawn=True)[0]:
                return DeclareWin()
            held = [int(t) for t in np.nonzero(v.hand)[0]]
            if self.name == "random":
                return Discard(int(self.rng.choice(held)))
            return Discard(least_shanten_discard(v.hand, v.melds_needed, held))
        if kind in (AskKind.DISCARD, AskKind.ROB) and v.tile_in_play is not None:
            robbing = kind is AskKind.ROB
            if self.agent.can_win(v, v.tile_in_play, self_drawn=False, robbing=robbing)[0]:
                return DeclareWin()
        return Pass()


def least_shanten_discard(hand: np.ndarray, melds: int, held: list[int]) -> int:
    best, best_d = held[0], 1 << 30
    h = hand.copy()
    for t in held:
        h[t] -= 1
        d = int(kernel_deficiency(h, _FULL, melds))
        h[t] += 1
        if d < best_d:
            best, best_d = t, d
    return best


def make_player(name: str, rules: Ruleset, seed: int = 0) -> Player:
    return Player(name, rules, seed)

