"""The seat view and the judge mock agree: on the seat's hand, melds and walls after every
request, and everything the view calls legal the judge accepts, wins included (both ask
the one rule book, :mod:`game.rulebook`; the view may miss a win the judge would take
only where it cannot see a tile: another seat's concealed kong makes the judge's fourth
tile).

Checked at every request of seeded whole games, including the late turns when walls run
empty — where the view once allowed a kong claim with the claimer's own wall empty."""

from __future__ import annotations

import numpy as np
import pytest

from arena.players.lineup import ArenaSeat, parse_player
from game.events import DeclareWin
from game.rules import MCR_BOTZONE
from game.table import BotzoneTable, random_walltiles


@pytest.mark.parametrize(("lineup", "games"), [(("mjbot", "greedy", "baseline-v1", "random"), 12),
                                                (("greedy", "random", "greedy", "random"), 500)])
def test_the_views_legal_actions_are_the_judges(lineup: tuple[str, ...], games: int) -> None:
    checked = wins = 0
    for game in range(games):
        table = BotzoneTable(random_walltiles(np.random.default_rng([77, game])), game % 4)
        players = [ArenaSeat(parse_player(n), MCR_BOTZONE, 4 * game + s)
                   for s, n in enumerate(lineup)]
        while not table.finished:
            requests = table.requests
            answers = []
            for seat, player in enumerate(players):
                player.observe(requests[seat])
                answers.append(player.decide())
                # the seat and the judge agree on the seat's state
                truth = table.view(seat)
                held = sorted([*truth.hand, *([] if truth.drawn is None else [truth.drawn])])
                view = player.view
                if not view.dealt:
                    continue
                assert view.concealed_tiles() == held, (game, seat, requests[seat])
                assert view.melds == list(truth.melds), (game, seat)
                walls = [p.wall_remaining for p in truth.table]
                assert view.wall_left == walls, (game, seat, view.wall_left, walls)
                judge = set(table.legal_actions(seat))
                ours = player.view.ask.legal
                extra = [a for a in ours if a not in judge]
                assert not extra, (game, seat, requests[seat], extra)
                checked += len(ours)
                wins += DeclareWin() in ours
            table.respond(answers)
    assert checked > 150 * games and wins > 0


def test_game_1840_of_seed_42_has_no_wrong_kong_claim() -> None:
    from arena.tables.selfplay import play_one

    summary = play_one((1840, 42, ["mjbot", "greedy", "mjbot", "random"], "mcr-botzone", None))
    assert summary.ending != "Penalized", summary.detail
