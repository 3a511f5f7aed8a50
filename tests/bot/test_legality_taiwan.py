"""The seat view and the taiwan-16 table agree, as on Botzone (test_legality.py).

At every step of seeded whole games each seat's view, fed only what the
seat is shown (``history_seen_by``, a claim joined with its discard as the
Olympiad client joins them), holds the table's hand and melds, counts the
table's normal draws left, and everything it calls legal the table accepts
(Botzone-shaped claims name their discard; the table takes the call first).
"""

from __future__ import annotations

import numpy as np
import pytest
from support import needs_extra

pytest.importorskip("pydantic", reason=needs_extra("olympiad"))  # plays through the arena

from bot.seat import PlayerState
from game.events import DeclareWin, Melded, history_seen_by
from game.rules import TAIWAN_16
from game.taiwan import TaiwanTable
from game.walls import shuffled_wall
from protocols.olympiad_codec import joined_claims


def test_seat_views_follow_the_taiwan_table() -> None:
    checked = states = 0
    for game in range(150):
        rng = np.random.default_rng([5, game])
        table = TaiwanTable(shuffled_wall(TAIWAN_16, rng), game % 4, (game // 4) % 4)
        views = [PlayerState(TAIWAN_16) for _ in range(4)]
        fed = [0, 0, 0, 0]
        while True:
            for seat, view in enumerate(views):
                seen = joined_claims(history_seen_by(table.history, seat, table.prevalent_wind))
                if seen and isinstance(seen[-1], Melded):
                    continue  # the claim is shown with the discard that follows it
                for event in seen[fed[seat]:]:
                    view.observe(event)
                fed[seat] = len(seen)
                assert view.concealed_tiles() == list(table.hand(seat)), (game, seat)
                assert view.melds == list(table.melds(seat)), (game, seat)
                assert view.wall_left == [max(0, table.wall_remaining - 16)] * 4, (game, seat)
                states += 1
                if table.finished or seat not in table.asked_seats:
                    continue
                accepted = set(table.legal_actions(seat))
                ours = [a for a in view.ask.legal if a != DeclareWin()]
                extra = [a for a in ours if a not in accepted]
                assert not extra, (game, seat, view.ask.kind, extra)
                checked += len(ours)
            if table.finished:
                break
            answers = {}
            for s in table.asked_seats:
                legal = table.legal_actions(s)
                wild = rng.random() < 0.3
                answers[s] = legal[int(rng.integers(len(legal)))] if wild else (
                    table.default_action(s))
            table.respond(answers)
    assert checked > 20_000 and states > 40_000
