"""A seat's view of a situation given by hand: the hand, its declared melds, the unseen tiles
and the offered discard, as ``mjbot advise`` and ``mjbot bench decide`` ask the player."""

from __future__ import annotations

import numpy as np

from bot.seat import PlayerState
from game import events as ev
from game.melds import Chow, ConcealedKong, Meld, MeldShape, Pung, meld_shape
from game.rules import Ruleset, WallLayout


def advice_view(rules: Ruleset, hand: np.ndarray, unseen: np.ndarray,
                meld_groups: list[list[int]], claim: int | None, from_left: bool,
                drawn: int | None) -> PlayerState:
    """Seat 0's view of the situation: its concealed ``hand`` (with the drawn tile, or
    without the ``claim``ed discard of seat 3, from its left, else seat 2), declared melds,
    and ``unseen`` as its knowledge base (every other copy is seen)."""
    view = PlayerState(rules)
    view.kb.hand[:] = hand
    view.kb.known[:] = (4 - hand - unseen).astype(np.int8)
    view.melds = [_meld(group, rules) for group in meld_groups]
    view.dealt = True
    view.dealer = 0
    if rules.wall_layout is WallLayout.SINGLE:
        view.tiles_left = int(unseen.sum())
        view.wall_left = [max(0, view.tiles_left - rules.dead_wall)] * 4
    if claim is None:
        assert drawn is not None
        view.last_event = ev.Drew(0, drawn)
        view.drawn = drawn
    else:
        provider = 3 if from_left else 2
        view.last_event = ev.Discarded(provider, claim)
        view.tile_in_play, view.provider = claim, provider
    return view


def _meld(group: list[int], rules: Ruleset) -> Meld:
    """A declared meld of the advised hand (claimed from seat 3, a kong concealed)."""
    shape = meld_shape(group, rules)
    low = min(group)
    if shape is MeldShape.CHOW:
        return Chow(low + 1, low, 3)
    if shape is MeldShape.KONG:
        return ConcealedKong(low)
    return Pung(low, 3)
