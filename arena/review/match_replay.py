"""A whole-table replay of a recorded match (:class:`protocols.pku_datatxt.PkuMatch`): every
hand, meld and discard after each step, and what a discarder sees of each other seat.

The danger benches (:mod:`arena.lab.experiments.danger` on real games,
:mod:`arena.lab.fits.danger_fit`
on self-play) both walk a match step by step and, at each discard, compare what the
discarder could see with the truth about the other hands; this is that walk, once.

    replay = MatchReplay(match)
    for step in match.steps:
        if step.verb is PkuVerb.PLAY:
            ...  # replay.hands, replay.unseen_for(step.seat), replay.signs_of(o)
        replay.apply(step)
"""

from __future__ import annotations

import numpy as np

from game.melds import Chow, ConcealedKong, Kong, Meld, Pung
from game.tiles import NUM_KINDS
from protocols.pku_datatxt import PkuMatch, PkuStep, PkuVerb
from strategy.danger import SeatSigns


class MatchReplay:
    """The table's state between the steps of one match (see the module docstring)."""

    def __init__(self, match: PkuMatch) -> None:
        self.hands = [np.zeros(NUM_KINDS, dtype=np.int64) for _ in range(4)]
        """Each seat's concealed tiles."""
        for s, deal in enumerate(match.deals):
            for t in deal:
                self.hands[s][t] += 1
        self.melds: list[list[Meld]] = [[] for _ in range(4)]
        self.discards: list[list[int]] = [[] for _ in range(4)]
        self.river = np.zeros(NUM_KINDS, dtype=np.int64)
        """Discards still on the table (not claimed)."""
        self.since: list[list[int]] = [[] for _ in range(4)]
        """The others' discards since the seat's own last discard or meld: its hand has not
        changed since, so it let each of them pass."""
        self.claimed = [False] * 4
        """The seat's last action was a chow or pung (its next discard follows a claim)."""
        self.after_claim = [False] * 4
        """The seat's last discard followed a claim."""
        self.last: tuple[int, int] | None = None
        """(seat, tile) of the last discard."""
        self.previous: PkuVerb | None = None
        """The verb of the last step applied."""

    def unseen_for(self, seat: int) -> np.ndarray:
        """Copies of each kind ``seat`` cannot see: not in its hand, not on the table, not in
        a meld it can see (every exposed meld and its own concealed kongs)."""
        seen = self.hands[seat].copy() + self.river
        for o, ms in enumerate(self.melds):
            for m in ms:
                if o == seat or not isinstance(m, ConcealedKong):
                    for x in m.tiles:
                        seen[x] += 1
        return np.clip(4 - seen, 0, 4).astype(np.int8)

    def signs_of(self, seat: int) -> SeatSigns:
        """What the other seats see of ``seat`` (its concealed kongs stay hidden)."""
        shown = tuple(m for m in self.melds[seat] if not isinstance(m, ConcealedKong))
        return SeatSigns(tuple(self.discards[seat]), shown, int(self.hands[seat].sum()),
                         tuple(self.since[seat]))

    def apply(self, step: PkuStep) -> None:
        """Play one step onto the table."""
        s, t, verb = step.seat, step.tile, step.verb
        hands = self.hands
        if verb == PkuVerb.DRAW:
            hands[s][t] += 1
            self.claimed[s] = False
        elif verb == PkuVerb.PLAY:
            hands[s][t] -= 1
            self.discards[s].append(t)
            self.after_claim[s] = self.claimed[s]
            self.claimed[s] = False
            self.since[s] = []
            for o in range(4):
                if o != s:
                    self.since[o].append(t)
            self.river[t] += 1
            self.last = (s, t)
        elif verb in (PkuVerb.CHI, PkuVerb.PENG, PkuVerb.GANG):
            if self.last is None:
                raise ValueError(f"{verb.name} by seat {s} with no discard before it")
            provider, tile = self.last
            self.river[tile] -= 1
            hands[s][tile] += 1
            self.since[s] = []
            if verb == PkuVerb.CHI:
                for x in (t - 1, t, t + 1):
                    hands[s][x] -= 1
                self.melds[s].append(Chow(t, tile, provider))
                self.claimed[s] = True
            elif verb == PkuVerb.PENG:
                hands[s][t] -= 3
                self.melds[s].append(Pung(t, provider))
                self.claimed[s] = True
            else:
                hands[s][t] -= 4
                self.melds[s].append(Kong(t, provider))
        elif verb == PkuVerb.ANGANG:
            hands[s][t] -= 4
            self.melds[s].append(ConcealedKong(t))
            self.since[s] = []
        elif verb == PkuVerb.BUGANG:
            hands[s][t] -= 1
            self.since[s] = []
            for i, m in enumerate(self.melds[s]):
                if isinstance(m, Pung) and m.tile == t:
                    self.melds[s][i] = m.with_fourth_tile()
        self.previous = verb
