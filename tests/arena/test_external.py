"""Programs in arena games: a Botzone program through the judge mock, an Olympiad
program fed the referee's messages (the example program ``mjbot wrap`` runs)."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pytest

from arena.platforms.botzone_judge.turns import Reply, referee_game
from arena.tables.external import InProcessChannel, play_botzone
from arena.tables.games import GameSpec, Rules
from arena.tables.play import play
from bot.seat import PlayerState
from game.melds import ConcealedKong
from game.stable_wall import WallMode
from game.table import BotzoneTable, random_walltiles
from protocols.botzone_envelope import TurnInput

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


# ---------------------------------------------------------------- views against the judge
MJBOT = Path(sys.executable).parent / "mjbot"
PROGRAM = f"botzone:{MJBOT} play botzone --work-budget 50"
"""This project's own bot as an outside program, with a work budget (it replays)."""
GENEROUS = 600.0
"""A time limit a loaded machine cannot hit: these games are about views, not time."""


def held(hand: tuple[int, ...], drawn: int | None) -> list[int]:
    return sorted([*hand, *([] if drawn is None else [drawn])])


@pytest.mark.parametrize("player", ["planner:budget=300", "baseline-v1:budget=300"])
def test_an_in_process_seat_sees_its_hand_as_the_judge_holds_it(player: str) -> None:
    """Issue 27: Botzone's ``3 p GANG`` for a seat's own concealed kong names no tile; the
    in-process seat's view must take it from its own answer, as ``mjbot play botzone``
    does (it kept the four tiles: the planner crashed on its next discard, baseline-v1
    played from a wrong hand).  Seed 7000, wall 65, seat 2 declares two concealed kongs."""
    seat = 2
    players = (PROGRAM, PROGRAM, player, PROGRAM)
    spec = GameSpec(Rules.MCR_BOTZONE, 7000, 65, seat, players, players)
    compared = 0
    kongs: set[int] = set()

    def check(table: BotzoneTable, views: Mapping[int, PlayerState]) -> None:
        nonlocal compared
        assert list(views) == [seat]
        view, judge = views[seat], table.view(seat)
        if not view.dealt:
            return
        assert view.concealed_tiles() == held(judge.hand, judge.drawn), view.last_event
        assert view.melds == list(judge.melds), view.last_event
        kongs.update(m.tile for m in judge.melds if isinstance(m, ConcealedKong))
        compared += 1

    game = asyncio.run(play_botzone(spec, time_limit=GENEROUS, on_turn=check))
    assert game.outcome.penalized is None and not game.failures
    assert compared > 20
    assert len(kongs) == 2  # the case the test is for happened, twice


class Tsumogiri:
    """A scripted channel (discards its draw, passes otherwise) that notes when it is asked."""

    def __init__(self, seat: int, order: list[tuple[int, int]], blocking: bool) -> None:
        self.seat, self.order, self.blocking = seat, order, blocking

    async def turn(self, turn: TurnInput) -> Reply:
        self.order.append((turn.turn, self.seat))
        request = turn.requests[-1].split()
        return Reply(response=f"PLAY {request[1]}" if request[0] == "2" else "PASS")

    async def close(self) -> None:
        return None


def test_the_judge_asks_an_in_process_seat_before_starting_the_programs_clocks() -> None:
    """An in-process seat thinks on the event loop's thread: asked among the programs, it
    would run their clocks (a program was timed out for the planner's thinking)."""
    order: list[tuple[int, int]] = []
    channels = [Tsumogiri(s, order, blocking=s == 2) for s in range(4)]
    report = asyncio.run(referee_game(channels, random_walltiles(np.random.default_rng(4)), 0))
    assert report.result.ending is not None
    turns = sorted({t for t, _ in order})
    assert len(turns) > 20
    assert all(next(s for u, s in order if u == t) == 2 for t in turns)
    assert InProcessChannel.blocking


# ---------------------------------------------------------------- the arena plays what ships
@pytest.mark.parametrize(("wall", "seat"), [(3, 0), (8, 2)])
def test_the_arenas_mjbot_plays_as_the_botzone_program_does(wall: int, seat: int) -> None:
    """``mjbot:budget=B`` in the arena and ``botzone:mjbot play botzone --work-budget B``
    under the judge mock make the same decisions: the same game, event for event, so over
    duplicate seatings A − B is exactly 0.00.  Both are the shipped bot through one seat
    session; only the wire between them differs."""
    budget = 200
    others = "baseline-v1:budget=100"
    in_process = f"mjbot:budget={budget}"
    program = f"botzone:{MJBOT} play botzone --work-budget {budget}"

    def game(player: str) -> tuple[tuple[str, ...], tuple[float, ...]]:
        players = tuple(player if s == seat else others for s in range(4))
        labels = tuple("us" if s == seat else "them" for s in range(4))
        played = play(GameSpec(Rules.MCR_BOTZONE, 7100, wall, seat, players, labels,
                               record=True))
        assert played.record is not None and not played.failures
        events = tuple(line for line in played.record
                       if '"record": "decision"' not in line and '"record": "header"' not in line)
        return events, played.outcome.scores

    ours, ours_scores = game(in_process)
    theirs, their_scores = game(program)
    assert len(ours) > 40
    assert ours == theirs
    assert ours_scores == their_scores
