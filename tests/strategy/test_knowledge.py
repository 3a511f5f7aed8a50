"""The knowledge base: hand + seen + unseen = 4 for every tile after every event."""

from __future__ import annotations

import numpy as np
import pytest

from game.tiles import Notation, parse_tiles
from strategy.knowledge import KnowledgeBase, KnowledgeError


def tiles(text: str) -> list[int]:
    return parse_tiles(text, Notation.BOTZONE)


def test_a_sequence_of_events_keeps_the_invariant() -> None:
    kb = KnowledgeBase()
    kb.deal(tiles("W1 W1 W2 W3 B5 B5 B5 T7 T8 F1 F1 J1 H3"))  # the flower is not a kind
    kb.check()
    assert kb.unseen_total() == 136 - 12
    steps = [
        lambda: kb.draw(tiles("W1")[0]),
        lambda: kb.discard(tiles("J1")[0]),
        lambda: kb.seen_discard(tiles("T9")[0]),
        lambda: kb.seen_meld(tiles("T9 T9")),  # another seat pungs the T9
        lambda: kb.seen_added_kong(tiles("T9")[0]),
        lambda: kb.seen_concealed_kong(),  # tiles not shown: nothing changes
        lambda: kb.own_meld(tiles("W2 W3")),  # own chow W1-W2-W3 on a discarded W1
        lambda: kb.own_concealed_kong(tiles("W1")[0]) if kb.hand[0] == 4 else None,
        lambda: kb.flower(2, tiles("H5")[0]),
    ]
    for step in steps:
        step()
        kb.check()
    assert kb.unseen[tiles("T9")[0]] == 0
    assert kb.flowers == [0, 0, 1, 0]


def test_a_fifth_copy_is_refused_naming_tile_and_event() -> None:
    kb = KnowledgeBase()
    kb.deal(tiles("W5 W5 W5 W5"))
    before = (kb.hand.copy(), kb.known.copy())
    with pytest.raises(KnowledgeError, match=r"discard 5m by another seat: a fifth 5m"):
        kb.seen_discard(tiles("W5")[0])
    assert np.array_equal(kb.hand, before[0]) and np.array_equal(kb.known, before[1])


def test_giving_up_a_tile_not_held_is_refused() -> None:
    kb = KnowledgeBase()
    kb.deal(tiles("W5"))
    with pytest.raises(KnowledgeError, match="holds no 1p"):
        kb.discard(tiles("B1")[0])
    with pytest.raises(KnowledgeError, match="not a flower"):
        kb.flower(0, tiles("W1")[0])


def test_random_games_keep_the_invariant() -> None:
    """Random legal event streams: the invariant holds after each event."""
    rng = np.random.default_rng(5)
    for _ in range(50):
        wall = list(rng.permutation(np.repeat(np.arange(34), 4)))
        kb = KnowledgeBase()
        kb.deal([wall.pop() for _ in range(13)])
        kb.check()
        while len(wall) > 8:
            t = int(wall.pop())
            if rng.random() < 0.25:
                kb.draw(t)
                held = np.nonzero(kb.hand)[0]
                kb.discard(int(rng.choice(held)))
            else:
                kb.seen_discard(t)
                if rng.random() < 0.1 and wall.count(t) >= 2:
                    wall.remove(t)
                    wall.remove(t)
                    kb.seen_meld([t, t])
            kb.check()
