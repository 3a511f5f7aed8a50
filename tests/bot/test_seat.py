"""The seat view through Botzone's request lines: details the wire leaves out."""

from __future__ import annotations

from bot.botzone import BotzoneSeat
from game.events import DeclareConcealedKong
from game.melds import ConcealedKong
from game.tiles import Notation, parse_tile


def test_own_concealed_kong_tile_comes_from_our_answer() -> None:
    """'3 0 GANG' does not name the tile; the seat fills it in from what it answered."""
    seat = BotzoneSeat(work_budget=4_000)  # kernel calls, not the clock: no load can time it out
    seat.answer("0 0 0")
    seat.answer("1 0 0 0 0 W1 W1 W1 W1 B2 B3 B4 T5 T6 T7 F1 F1 J1")
    seat.answer("2 J2")
    seat.session.answered(DeclareConcealedKong(parse_tile("W1", Notation.BOTZONE)))
    seat.answer("3 0 GANG")
    view = seat.session.view
    assert view.melds == [ConcealedKong(0)]
    assert int(view.hand.sum()) == 10 and view.hand[0] == 0
    answer = seat.answer("2 J3")  # the replacement draw: 11 tiles, 3 melds needed
    assert answer.response.startswith("PLAY ") and not answer.debug


def test_others_concealed_kong_stays_unseen() -> None:
    seat = BotzoneSeat()
    seat.answer("0 1 0")
    seat.answer("1 0 0 0 0 W1 W2 W3 B2 B3 B4 T5 T6 T7 F1 F1 J1 J2")
    before = seat.session.view.kb.unseen_total()
    seat.answer("3 0 DRAW")
    seat.answer("3 0 GANG")
    assert seat.session.view.kb.unseen_total() == before
