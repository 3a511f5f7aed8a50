"""Programs in arena games: a Botzone program through the judge mock, an Olympiad
program fed the referee's messages (the example program ``mjbot wrap`` runs)."""

from __future__ import annotations

import sys
from pathlib import Path

from arena.games import GameSpec, Rules, play
from game.stable_wall import WallMode

ROOT = Path(__file__).resolve().parents[2]
OLYMPIAD = f"olympiad:{sys.executable} {ROOT / 'examples' / 'olympiad_simple_bot.py'}"
BOTZONE = f"botzone:{sys.executable} -m bot"


def test_an_olympiad_program_plays_taiwan_16_beside_in_process_players() -> None:
    players = ("mjbot:budget=300", OLYMPIAD, "greedy", OLYMPIAD)
    labels = ("mjbot", "simple", "greedy", "simple")
    for wall in range(3):
        game = play(GameSpec(Rules.TAIWAN_16, 4, wall, 0, players, labels, WallMode.SDW,
                             record=True))
        assert game.replaced == (0, 0, 0, 0)  # every act the program sent was legal
        assert game.draws[1] > 0 and game.draws[3] > 0
        assert sum(game.outcome.scores) == 0
        # the example never claims; the in-process seats are seeded: replayed, the same game
        assert game.steals[1] == game.steals[3] == 0
        again = play(GameSpec(Rules.TAIWAN_16, 4, wall, 0, players, labels, WallMode.SDW))
        assert again.outcome == game.outcome


def test_a_botzone_program_plays_mcr_through_the_judge_mock() -> None:
    players = ("greedy", BOTZONE, "random", "greedy")
    game = play(GameSpec(Rules.MCR_BOTZONE, 4, 1, 0, players, players, record=True))
    assert game.outcome.penalized is None  # the program answered legally in time
    assert game.draws[1] > 0
    assert game.record is not None and '"record": "result"' in game.record[-1]
