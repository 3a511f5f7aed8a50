"""The planner under taiwan-16: the tai value in every candidate's reasons, and a win
declared or passed by its worth (the tai from game.scoring.tai)."""

from __future__ import annotations

from support.game import dealt_view

from bot.planner import Planner
from bot.seat import PlayerState
from game.events import ClaimPung, DeclareWin, Discard, Discarded, Drew, Pass
from game.rules import TAIWAN_16
from game.tiles import parse_tiles
from strategy.tai import TaiModel
from strategy.value import ValuedCandidate

WAITING = "123m456m789m234p56s55z"  # 16 tiles waiting on 4s or 7s (eight copies unseen)


def tile(name: str) -> int:
    return parse_tiles(name)[0]


def view_of(hand: str, *events: object) -> PlayerState:
    return dealt_view(TAIWAN_16, hand, *events)


def test_discards_show_the_tai_numbers() -> None:
    v = view_of("123m456m789m24p19s55z1z", Drew(0, tile("7z")))
    assert v.dealer == 0
    d = Planner(TAIWAN_16).decide(v)
    assert isinstance(d.action, Discard) and v.ask.allows(d.action)
    cands = [c for c in d.reasons if isinstance(c, ValuedCandidate)]
    assert len(cands) == 16  # one per kind held
    for c in cands:
        assert c.outlook is not None and "tai" in c.describe() and "P(win)" in c.describe()
    best = max(c.outlook.value for c in cands if c.outlook is not None)
    chosen = next(c for c in cands if c.tile == d.action.tile)
    assert chosen.outlook is not None
    assert chosen.outlook.value >= best - Planner(TAIWAN_16).tai_model.margin


def test_a_self_drawn_win_is_declared() -> None:
    v = view_of(WAITING, Drew(0, tile("7s")))
    d = Planner(TAIWAN_16).decide(v)
    # dealer 1, self-drawn 1, concealed 1, all chows 2: 3 * (1 + 5) = 18 now
    assert d.action == DeclareWin() and "now 5 tai = +18.00" in d.note


def test_a_small_discard_win_with_many_outs_is_passed_early() -> None:
    v = view_of(WAITING, Drew(0, tile("9p")), Discarded(0, tile("9p")),
                Drew(1, None), Discarded(1, tile("4s")))
    planner = Planner(TAIWAN_16)
    assert planner.can_win(v, tile("4s"), self_drawn=False)[0]
    d = planner.decide(v)
    # dealer 1, concealed 1, all chows 2: 5 points now, against waiting on the 7 outs
    # left for a self-draw worth 3 * (1 + 5)
    assert d.action == Pass() and "passed: wait: now 4 tai = +5.00, wait on 7 outs" in d.note


def test_a_claim_worth_less_than_the_margin_is_taken_with_the_slack() -> None:
    # the pung of 4s brings the plain route from 3 to 2 tiles away and gives up the
    # concealed hand's tai: +2.49 against +2.37 for passing, less than the margin (0.25)
    v = view_of("234m79m347p12344s33z4z", Drew(0, tile("4z")), Discarded(0, tile("4z")),
                Drew(1, None), Discarded(1, tile("4s")))
    d = Planner(TAIWAN_16).decide(v)
    assert d.action == Pass() and "value +2.37" in d.note
    slack = Planner(TAIWAN_16, tai_model=TaiModel(claim_slack=0.25)).decide(v)
    assert slack.action == ClaimPung() and slack.note.endswith("+2.37: +2.49")
