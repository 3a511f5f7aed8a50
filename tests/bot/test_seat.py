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


def test_the_olympiad_flow_asks_the_claimers_discard_as_the_views_own_question() -> None:
    """taiwan-16: a pung is shown before its discard; the claimer's view holds the meld at
    once and asks for the discard (``CALLED``, the rule book's discards of the hand left);
    another seat's view asks nothing until the discard, then offers it to claim."""
    from bot.seat import AskKind, PlayerState
    from game.events import ActionKind, Dealt, Discard, Discarded, Melded, SeatAssigned
    from game.melds import Pung
    from game.rules import TAIWAN_16
    from game.tiles import parse_tiles

    hand = tuple(parse_tiles("1122345m678p999s1z"))
    views = [PlayerState(TAIWAN_16), PlayerState(TAIWAN_16)]
    for seat, view in enumerate(views):
        view.observe(SeatAssigned(seat, 0))
        view.observe(Dealt(seat, hand if seat == 0 else tuple(parse_tiles("1234567m1234567p11s")),
                           (0, 0, 0, 0), ()))
    one_m = parse_tiles("1m")[0]
    for view in views:
        view.observe(Discarded(2, one_m))
    claim = Melded(0, ActionKind.PUNG, (one_m,) * 3, one_m, 2)
    for view in views:
        view.observe(claim)
    own, other = views
    assert own.ask.kind is AskKind.CALLED and own.melds == [Pung(one_m, 2)]
    assert own.ask.legal == tuple(Discard(t) for t in sorted(set(parse_tiles("22345m678p999s1z"))))
    assert other.ask.kind is AskKind.NOTHING
    for view in views:
        view.observe(Discarded(0, parse_tiles("1z")[0]))
    assert own.ask.kind is AskKind.NOTHING and other.ask.kind is AskKind.DISCARD
    assert other.tile_in_play == parse_tiles("1z")[0] and other.provider == 0
