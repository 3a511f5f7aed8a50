"""One arena game, whoever plays it: :func:`play` runs a game of in-process players in this
process (:mod:`arena.tables.games`) and a game with programs in it through the platform mocks
(:mod:`arena.tables.external`), so neither of those modules needs the other's.
"""

from __future__ import annotations

from arena.players.lineup import parse_player
from arena.tables.games import GameSpec, PlayedGame, play_in_process

__all__ = ["play"]


def play(spec: GameSpec) -> PlayedGame:
    """Play the game ``spec`` describes."""
    if any(not parse_player(p).in_process for p in spec.players):
        # the platform mocks load only for a game with programs in it
        from arena.tables.external import play_external

        return play_external(spec)
    return play_in_process(spec)
