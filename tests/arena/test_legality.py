"""The seat view and the judge mock agree: on the seat's hand, melds and walls after every
request, and everything the view calls legal the judge accepts (wins aside: fan decides).

Checked at every request of seeded whole games, including the late turns when walls run
empty — where the view once allowed a kong claim with the claimer's own wall empty."""

from __future__ import annotations

import numpy as np
import pytest

from arena.players import make_player
from game.events import DeclareWin
from game.rules import MCR_BOTZONE
from game.table import BotzoneTable, random_walltiles


@pytest.mark.parametrize(("lineup", "games"), [(("mjbot", "greedy", "mjbot", "random"), 40),
                                                (("greedy", "random", "greedy", "random"), 500)])
def test_the_views_legal_actions_are_the_judges(lineup: tuple[str, ...], games: int) -> None:
    checked = 0
    for game in range(games):
        table = BotzoneTable(random_walltiles(np.random.default_rng([77, game])), game % 4)
        players = [make_player(n, MCR_BOTZONE, 4 * game + s) for s, n in enumerate(lineup)]
        while not table.finished:
            requests = table.requests
            answers = []
            for seat, player in enumerate(players):
                answers.append(player.answer(requests[seat]))
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
                ours = [a for a in player.view.ask.legal
                        if not isinstance(a, DeclareWin)]
                extra = [a for a in ours if a not in judge]
                assert not extra, (game, seat, requests[seat], extra)
                checked += len(ours)
            table.respond(answers)
    assert checked > 10_000


def test_game_1840_of_seed_42_has_no_wrong_kong_claim() -> None:
    from arena.selfplay import play_one

    summary = play_one((1840, 42, ["mjbot", "greedy", "mjbot", "random"], "mcr-botzone", None))
    assert summary.ending != "Penalized", summary.detail
