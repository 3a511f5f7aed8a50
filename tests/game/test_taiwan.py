"""The taiwan-16 table on walls laid out by hand, and 360 seeded whole games.

Hands are written in compact notation (``5z`` white, ``6z`` green, ``7z``
red; ``1f``-``8f`` flowers).  ``arrange`` builds a wall with
:func:`game.walls.arranged_single_wall`: the seats named get exactly those
16 tiles (in the order dealt), the others get distinct tiles from what is
left, ``draws`` come next from the front, ``replacements`` from the back.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping

import numpy as np
import pytest
from support.game import (
    arrange_taiwan_wall,
    check_taiwan_invariants,
    compact_tiles,
    crude_taiwan_action,
)

from game import events as ev
from game.melds import Chow, ConcealedKong, Kong, Pung
from game.rules import TAIWAN_16
from game.scoring.tai import tai_total
from game.taiwan import (
    IllegalAction,
    TableError,
    TaiwanStage,
    TaiwanTable,
    WallError,
)
from game.tiles import Notation, parse_tile
from game.walls import arranged_single_wall, check_wall, shuffled_wall

tiles = compact_tiles


def t(name: str) -> int:
    return parse_tile(name, Notation.COMPACT)


arrange = arrange_taiwan_wall


def step(table: TaiwanTable, answers: Mapping[int, ev.Action] | None = None) -> None:
    """Answer for every asked seat: ``answers`` where given, else the default."""
    answers = answers or {}
    assert set(answers) <= set(table.asked_seats), (answers, table.asked_seats)
    table.respond({s: answers.get(s, table.default_action(s)) for s in table.asked_seats})


def play_defaults_until(table: TaiwanTable, done: Callable[[TaiwanTable], bool]) -> None:
    while not table.finished and not done(table):
        step(table)


def snapshot(table: TaiwanTable) -> tuple[object, ...]:
    return (
        table.history, table.stage, table.asked_seats, table.current_seat, table.tile_in_play,
        table.wall_tiles, table.result,
        *(
            (table.hand(s), table.melds(s), table.river(s), table.flowers(s),
             table.legal_actions(s), table.drawn_tile(s))
            for s in range(4)
        ),
    )




# ---------------------------------------------------------------- walls
def test_check_wall_names_what_is_wrong() -> None:
    wall = list(shuffled_wall(TAIWAN_16, np.random.default_rng(1)))
    assert check_wall(TAIWAN_16, wall) == tuple(wall)
    with pytest.raises(WallError, match=r"^wall holds 143 tiles; taiwan-16 needs 144$"):
        TaiwanTable(wall[:-1])
    bad = [t("1m") if x == t("2m") else x for x in wall]
    with pytest.raises(WallError, match=r"^wall holds 8 of 1m; taiwan-16 needs 4$"):
        TaiwanTable(bad)
    bad = [t("1m") if x == t("3f") else x for x in wall]
    with pytest.raises(WallError, match="5 of 1m"):
        check_wall(TAIWAN_16, bad)
    bad = [99 if x == t("3f") else x for x in wall]
    with pytest.raises(WallError, match=r"^wall\[\d+\] = 99 is not a tile of taiwan-16$"):
        TaiwanTable(bad)
    with pytest.raises(ValueError, match="seat 4"):
        TaiwanTable(wall, dealer=4)
    with pytest.raises(ValueError, match="prevalent wind 5"):
        TaiwanTable(wall, prevalent_wind=5)


def test_arranged_wall_refuses_a_fifth_tile() -> None:
    hands = [tiles("1111m222233334444m")[:16]] + [tiles("5555m666677778888m")] * 3
    with pytest.raises(ValueError, match="5m more often"):
        arranged_single_wall(TAIWAN_16, hands)


# ---------------------------------------------------------------- the deal
def test_deal_four_rounds_of_four_from_the_dealer_then_the_dealer_draws() -> None:
    hands = {
        0: "111z222z333z444z7s8s9s9s",
        1: "123p46p89p555z666z777z",
        2: "55p77p99m11s22s33s44s78s",
        3: "123m456m789m123s456s5p",
    }
    wall = arrange(hands, draws="9p", dealer=1)
    assert wall[:4] == tuple(tiles(hands[1])[:4])
    assert wall[4:8] == tuple(tiles(hands[2])[:4])
    assert wall[16:20] == tuple(tiles(hands[1])[4:8])
    table = TaiwanTable(wall, prevalent_wind=2, dealer=1)
    assert table.history[:4] == tuple(ev.Dealt(s, tuple(tiles(hands[s]))) for s in range(4))
    assert table.history[4:] == (ev.Drew(1, t("9p")),)
    assert table.dealer == 1 and table.prevalent_wind == 2 and table.seat_wind(0) == 3
    assert table.stage is TaiwanStage.DRAWN
    assert table.asked_seats == (1,) and table.current_seat == 1
    assert table.drawn_tile(1) == t("9p") and table.drawn_tile(0) is None
    assert table.hand(1) == tuple(sorted([*tiles(hands[1]), t("9p")]))
    assert table.hand(0) == tuple(sorted(tiles(hands[0])))
    assert table.wall_remaining == 144 - 64 - 1 == len(table.wall_tiles)
    check_taiwan_invariants(table)


def test_flowers_at_the_deal_are_replaced_dealer_first_until_none_is_left() -> None:
    dealt0 = "1f123m456m789m11p2p3p6s7s"
    dealt2 = "2f3f5z5z5z6z6z6z7z7z7z99s1z2z3z"
    # Back of the wall: seat 0's 1f -> 4f (a flower again), seat 2's 2f -> 4p,
    # 3f -> 5p; second pass: seat 0's 4f -> 9p.
    wall = arrange({0: dealt0, 2: dealt2}, draws="1s", replacements="4f4p5p9p")
    table = TaiwanTable(wall)
    counts, shown = (2, 0, 2, 0), tuple(tiles("1f4f")) + tuple(tiles("2f3f"))
    deals = table.history[:4]
    assert deals[0] == ev.Dealt(0, (*tiles(dealt0)[1:], t("9p")), counts, shown)
    assert deals[2] == ev.Dealt(2, (*tiles(dealt2)[2:], t("4p"), t("5p")), counts, shown)
    assert all(d.flower_counts == counts and d.flowers == shown for d in deals)
    assert not any(isinstance(e, ev.FlowerReplaced) for e in table.history)
    assert table.flowers(0) == tuple(tiles("1f4f")) and table.flowers(2) == tuple(tiles("2f3f"))
    assert table.wall_remaining == 144 - 64 - 4 - 1
    check_taiwan_invariants(table)


def test_a_drawn_flower_is_shown_and_replaced_from_the_back_repeatedly() -> None:
    wall = arrange({}, draws="1z5f", replacements="6f3m")
    table = TaiwanTable(wall)
    step(table, {0: ev.Discard(t("1z"))})
    play_defaults_until(table, lambda tb: tb.current_seat == 1 and tb.stage is TaiwanStage.DRAWN)
    tail = table.history[-5:]
    assert tail == (
        ev.Drew(1, t("5f")), ev.FlowerReplaced(1, t("5f")), ev.Drew(1, t("6f"), replacement=True),
        ev.FlowerReplaced(1, t("6f")), ev.Drew(1, t("3m"), replacement=True),
    )
    assert table.flowers(1) == tuple(tiles("5f6f")) and table.drawn_tile(1) == t("3m")
    assert table.events_seen_by(2)[-5:] == (
        ev.Drew(1, None), ev.FlowerReplaced(1, t("5f")), ev.Drew(1, None, replacement=True),
        ev.FlowerReplaced(1, t("6f")), ev.Drew(1, None, replacement=True),
    )
    check_taiwan_invariants(table)


def test_win_on_a_flower_replacement() -> None:
    # East's own flowers are 1f and 5f.
    wall = arrange({0: "123m456m789m123p999s4p"}, draws="5f", replacements="4p")
    table = TaiwanTable(wall)
    assert ev.DeclareWin() in table.legal_actions(0)
    step(table, {0: ev.DeclareWin()})
    ending = table.result.ending
    assert isinstance(ending, ev.Won) and ending.self_drawn and ending.tile == t("4p")
    assert {f.name: f.count for f in ending.fans} == {
        "dealer": 1, "self_draw": 1, "concealed_hand": 1, "own_flower": 1, "replacement_win": 1,
    }
    assert table.result.scores == (18, -6, -6, -6)
    check_taiwan_invariants(table)


# ---------------------------------------------------------------- the dead wall
def test_the_game_is_a_draw_when_the_wall_holds_16() -> None:
    table = TaiwanTable(arrange({}))
    walls_at_draw = []
    while not table.finished:
        if table.stage is TaiwanStage.DRAWN:
            walls_at_draw.append(table.wall_remaining)
        step(table)
        check_taiwan_invariants(table)
    assert table.result.ending == ev.WallExhausted() and table.result.scores == (0, 0, 0, 0)
    assert table.wall_remaining == 16
    normal = [e for e in table.history if isinstance(e, ev.Drew) and not e.replacement]
    assert len(normal) == 144 - 64 - 16 and walls_at_draw[-1] == 16
    assert isinstance(table.history[-1], ev.Discarded) and table.history[-1].seat == 3


def _last_tile_wall(
    hands: Mapping[int, str], last: str, replacements: str = ""
) -> tuple[int, ...]:
    """``arrange(hands)`` with ``last`` moved to the last normal draw (index 127)."""
    wall = list(arrange(hands, replacements=replacements))
    j = next(i for i in range(64, 128) if wall[i] == t(last))
    wall[j], wall[127] = wall[127], wall[j]
    return tuple(wall)


def test_self_drawn_win_on_the_last_normal_draw() -> None:
    # Seat 3 draws the 64th and last normal tile.
    table = TaiwanTable(_last_tile_wall({3: "123m456m789m123s456s5p"}, "5p"))
    play_defaults_until(table, lambda tb: tb.wall_remaining == 16 and tb.stage is TaiwanStage.DRAWN)
    assert table.current_seat == 3 and table.drawn_tile(3) == t("5p")
    step(table, {3: ev.DeclareWin()})
    ending = table.result.ending
    assert isinstance(ending, ev.Won) and ending.self_drawn
    names = {f.name for f in ending.fans}
    assert names == {"self_draw", "concealed_hand", "all_chows", "last_tile"}
    assert table.result.scores == (-6, -6, -6, 18)


def test_a_replacement_after_the_last_normal_draw_is_the_last_tile_too() -> None:
    wall = _last_tile_wall({3: "5555m123p456p789p11s2s"}, "3s", replacements="4s")
    table = TaiwanTable(wall)
    play_defaults_until(table, lambda tb: tb.wall_remaining == 16 and tb.stage is TaiwanStage.DRAWN)
    assert table.current_seat == 3 and table.drawn_tile(3) == t("3s")
    step(table, {3: ev.DeclareConcealedKong(t("5m"))})
    assert table.wall_remaining == 15 and table.drawn_tile(3) == t("4s")
    step(table, {3: ev.DeclareWin()})
    ending = table.result.ending
    assert isinstance(ending, ev.Won) and ending.self_drawn
    names = {f.name for f in ending.fans}
    assert names == {"self_draw", "concealed_hand", "replacement_win", "last_tile"}


def test_win_on_the_discard_after_the_last_draw() -> None:
    table = TaiwanTable(_last_tile_wall({0: "123m456m789m123s456s5p"}, "5p"))
    play_defaults_until(table, lambda tb: tb.wall_remaining == 16
                        and tb.stage is TaiwanStage.DISCARDED)
    assert table.history[-1] == ev.Discarded(3, t("5p")) and table.asked_seats == (0,)
    step(table, {0: ev.DeclareWin()})
    ending = table.result.ending
    assert isinstance(ending, ev.Won) and ending.payer == 3 and not ending.self_drawn
    assert {f.name for f in ending.fans} == {"dealer", "concealed_hand", "all_chows", "last_tile"}
    assert table.result.scores == (6, 0, 0, -6)


# ---------------------------------------------------------------- kongs
def test_concealed_kong_replacement_from_the_back_and_a_replacement_win() -> None:
    wall = arrange({0: "5555m123p456p789p11s2s"}, draws="3s", replacements="4s")
    table = TaiwanTable(wall)
    assert ev.DeclareConcealedKong(t("5m")) in table.legal_actions(0)
    assert ev.DeclareWin() not in table.legal_actions(0)
    back = table.wall_tiles[-1]
    step(table, {0: ev.DeclareConcealedKong(t("5m"))})
    assert back == t("4s")
    assert table.history[-2:] == (ev.ConcealedKonged(0, t("5m")),
                                  ev.Drew(0, t("4s"), replacement=True))
    assert table.events_seen_by(1)[-2:] == (
        ev.ConcealedKonged(0, None), ev.Drew(0, None, replacement=True),
    )
    assert table.melds(0) == (ConcealedKong(t("5m")),) and table.drawn_tile(0) == t("4s")
    check_taiwan_invariants(table)
    step(table, {0: ev.DeclareWin()})
    ending = table.result.ending
    assert isinstance(ending, ev.Won) and ending.self_drawn and ending.payer is None
    assert [f.name for f in ending.fans] == [
        "dealer", "self_draw", "concealed_hand", "replacement_win",
    ]
    assert table.result.scores == (15, -5, -5, -5)
    check_taiwan_invariants(table)


def test_claimed_kong() -> None:
    wall = arrange({1: "999p111z222z333z44z6s8s"}, draws="9p", replacements="7s")
    table = TaiwanTable(wall)
    step(table, {0: ev.Discard(t("9p"))})
    assert ev.ClaimKong() in table.legal_actions(1) and ev.ClaimPung() in table.legal_actions(1)
    step(table, {1: ev.ClaimKong()})
    assert table.history[-2:] == (ev.Konged(1, t("9p")), ev.Drew(1, t("7s"), replacement=True))
    assert table.melds(1) == (Kong(t("9p"), 0),) and table.river(0) == ()
    assert table.stage is TaiwanStage.DRAWN and table.asked_seats == (1,)
    check_taiwan_invariants(table)


# A pung of 2s by seat 1, its fourth 2s drawn later; seat 2 waits on 2s (1s3s).
ROB_HANDS = {
    0: "456m456p789s666z11p8m9p",
    1: "22s9m77m33p66s55s777z1p2p",
    2: "13s123m456m789m555z77p",
    3: "111z222z333z444z6p8p9p9p",
}
ROB_DRAWS = "2s9s2p8s2s"


def _to_added_kong() -> TaiwanTable:
    table = TaiwanTable(arrange(ROB_HANDS, draws=ROB_DRAWS, replacements="3z"))
    step(table, {0: ev.Discard(t("2s"))})
    assert table.asked_seats == (1, 2)
    assert table.legal_actions(2) == (ev.Pass(), ev.DeclareWin())
    step(table, {1: ev.ClaimPung(), 2: ev.Pass()})
    assert table.history[-1] == ev.Melded(1, ev.ActionKind.PUNG, (t("2s"),) * 3, t("2s"), 0)
    assert table.stage is TaiwanStage.CALLED and table.asked_seats == (1,)
    actions = table.legal_actions(1)
    assert all(isinstance(a, ev.Discard) for a in actions)
    assert {a.tile for a in actions if isinstance(a, ev.Discard)} == set(table.hand(1))
    assert table.default_action(1) == ev.Discard(table.hand(1)[-1]) == ev.Discard(t("7z"))
    check_taiwan_invariants(table)
    step(table, {1: ev.Discard(t("6s"))})
    play_defaults_until(table, lambda tb: tb.current_seat == 1 and tb.stage is TaiwanStage.DRAWN)
    assert table.drawn_tile(1) == t("2s")
    assert ev.DeclareAddedKong(t("2s")) in table.legal_actions(1)
    step(table, {1: ev.DeclareAddedKong(t("2s"))})
    assert table.history[-1] == ev.KongAdded(1, t("2s"))
    assert table.stage is TaiwanStage.KONG_ADDED and table.asked_seats == (2,)
    assert table.legal_actions(2) == (ev.Pass(), ev.DeclareWin()) and table.tile_in_play == t("2s")
    check_taiwan_invariants(table)
    return table


def test_robbing_an_added_kong() -> None:
    table = _to_added_kong()
    step(table, {2: ev.DeclareWin()})
    ending = table.result.ending
    assert ending == ev.Won(2, t("2s"), False, True, 1, ending.fans)
    assert {f.name for f in ending.fans} == {"concealed_hand", "dragon_pong", "robbing_a_kong"}
    assert table.result.scores == (0, -4, 4, 0)
    assert table.melds(1) == (Pung(t("2s"), 0),)
    check_taiwan_invariants(table)


def test_an_added_kong_not_robbed_draws_its_replacement() -> None:
    table = _to_added_kong()
    step(table, {2: ev.Pass()})
    assert table.history[-1] == ev.Drew(1, t("3z"), replacement=True)
    assert table.melds(1) == (Kong(t("2s"), 0, added=True),)
    assert table.stage is TaiwanStage.DRAWN and table.asked_seats == (1,)
    check_taiwan_invariants(table)


def test_a_concealed_kong_cannot_be_robbed() -> None:
    # Seat 1 waits on 6s or 9s (78s); seat 0's concealed kong of 9s goes straight on.
    wall = arrange({0: "9999s123p456p11z2z3z4z5z", 1: "78s123m456m789m111p55z"},
                   draws="1s", replacements="5s")
    table = TaiwanTable(wall)
    step(table, {0: ev.DeclareConcealedKong(t("9s"))})
    assert table.stage is TaiwanStage.DRAWN and table.current_seat == 0
    assert table.history[-2:] == (
        ev.ConcealedKonged(0, t("9s")), ev.Drew(0, t("5s"), replacement=True),
    )


# ---------------------------------------------------------------- claims
# Seat 0 discards 5p: seat 1 may chow (3p4p or 4p6p), seat 2 pung, seat 3 win.
CLAIM_HANDS = {
    0: "111z222z333z444z7s8s9s9s",
    1: "123p46p89p555z666z777z",
    2: "55p77p99m11s22s33s44s78s",
    3: "123m456m789m123s456s5p",
}


def _after_5p() -> TaiwanTable:
    table = TaiwanTable(arrange(CLAIM_HANDS, draws="5p"))
    step(table, {0: ev.Discard(t("5p"))})
    return table


def test_claim_options_chow_only_for_the_next_seat() -> None:
    table = _after_5p()
    assert table.stage is TaiwanStage.DISCARDED and table.tile_in_play == t("5p")
    assert table.asked_seats == (1, 2, 3)
    assert table.legal_actions(1) == (ev.Pass(), ev.ClaimChow(t("4p")), ev.ClaimChow(t("5p")))
    assert table.legal_actions(2) == (ev.Pass(), ev.ClaimPung())
    assert table.legal_actions(3) == (ev.Pass(), ev.DeclareWin())
    assert table.legal_actions(0) == ()
    with pytest.raises(TableError, match="not asked"):
        table.default_action(0)


def test_win_beats_pung_and_chow() -> None:
    table = _after_5p()
    step(table, {1: ev.ClaimChow(t("5p")), 2: ev.ClaimPung(), 3: ev.DeclareWin()})
    ending = table.result.ending
    assert isinstance(ending, ev.Won) and (ending.seat, ending.payer) == (3, 0)
    assert {f.name for f in ending.fans} == {"dealer", "concealed_hand", "all_chows"}
    assert table.result.scores == (-5, 0, 0, 5)
    check_taiwan_invariants(table)


def test_pung_beats_chow() -> None:
    table = _after_5p()
    step(table, {1: ev.ClaimChow(t("5p")), 2: ev.ClaimPung(), 3: ev.Pass()})
    assert table.history[-1] == ev.Melded(2, ev.ActionKind.PUNG, (t("5p"),) * 3, t("5p"), 0)
    assert table.melds(2) == (Pung(t("5p"), 0),) and table.river(0) == ()
    assert table.asked_seats == (2,) and table.stage is TaiwanStage.CALLED
    check_taiwan_invariants(table)


def test_chow_when_nobody_else_claims() -> None:
    table = _after_5p()
    step(table, {1: ev.ClaimChow(t("5p")), 2: ev.Pass(), 3: ev.Pass()})
    assert table.history[-1] == ev.Melded(1, ev.ActionKind.CHOW, tuple(tiles("456p")), t("5p"), 0)
    assert table.melds(1) == (Chow(t("5p"), t("5p"), 0),)
    assert table.asked_seats == (1,) and table.stage is TaiwanStage.CALLED
    assert ev.DeclareWin() not in table.legal_actions(1)
    check_taiwan_invariants(table)
    step(table, {1: ev.Discard(t("9p"))})
    # Nobody can claim 9p: the next seat draws at once.
    assert table.history[-2] == ev.Discarded(1, t("9p")) and table.asked_seats == (2,)
    assert table.history[-1] == ev.Drew(2, table.drawn_tile(2))


def test_all_pass_and_the_next_seat_draws() -> None:
    table = _after_5p()
    step(table, {1: ev.Pass(), 2: ev.Pass(), 3: ev.Pass()})
    assert table.stage is TaiwanStage.DRAWN and table.current_seat == 1
    assert isinstance(table.history[-1], ev.Drew) and table.river(0) == (t("5p"),)


def test_one_winner_the_first_in_turn_order_after_the_discarder() -> None:
    # Dealer 2 discards 5p; seats 3 and 1 both win on it: turn order 3, 0, 1.
    hands = {
        0: "777z11m22m33m44p66p88p9p",
        1: "555z666z789p789s123s5p",
        2: "111z222z333z444z7m8m9m9s",
        3: "123m456m789m123s456s5p",
    }
    table = TaiwanTable(arrange(hands, draws="5p", dealer=2), dealer=2)
    step(table, {2: ev.Discard(t("5p"))})
    assert table.asked_seats == (1, 3)
    step(table, {1: ev.DeclareWin(), 3: ev.DeclareWin()})
    ending = table.result.ending
    assert isinstance(ending, ev.Won) and (ending.seat, ending.payer) == (3, 2)
    assert table.result.scores == (0, 0, -5, 5)
    table = TaiwanTable(arrange(hands, draws="5p", dealer=2), dealer=2)
    step(table, {2: ev.Discard(t("5p"))})
    step(table, {1: ev.DeclareWin(), 3: ev.Pass()})
    ending = table.result.ending
    assert isinstance(ending, ev.Won) and ending.seat == 1
    assert {f.name: f.count for f in ending.fans} == {
        "dealer": 1, "concealed_hand": 1, "dragon_pong": 2,
    }


# ---------------------------------------------------------------- bad answers
def test_illegal_answers_raise_and_change_nothing() -> None:
    table = _after_5p()
    before = snapshot(table)
    bad: list[tuple[dict[int, ev.Action], int, str]] = [
        ({1: ev.Pass(), 2: ev.Pass(), 3: ev.Discard(t("5p"))}, 3, "one of Pass, DeclareWin"),
        ({1: ev.ClaimPung(), 2: ev.Pass(), 3: ev.Pass()}, 1, "holds 0 of 5p, a pung needs 2"),
        ({1: ev.ClaimChow(t("6p")), 2: ev.Pass(), 3: ev.Pass()}, 1, "holds no 7p"),
        ({1: ev.ClaimChow(t("8p")), 2: ev.Pass(), 3: ev.Pass()}, 1, "no chow around 8p"),
        ({1: ev.Pass(), 2: ev.ClaimChow(t("5p")), 3: ev.Pass()}, 2, "only seat 1"),
        ({1: ev.Pass(), 2: ev.ClaimKong(), 3: ev.Pass()}, 2, "holds 2 of 5p, a kong needs 3"),
        ({1: ev.ClaimAndDiscard(ev.ClaimPung(), t("1p")), 2: ev.Pass(), 3: ev.Pass()}, 1,
         "stage 'discarded'"),
    ]
    for answers, seat, reason in bad:
        with pytest.raises(IllegalAction, match=reason) as caught:
            table.respond(answers)
        assert caught.value.seat == seat and caught.value.action == answers[seat]
        assert isinstance(caught.value, ValueError)
        assert snapshot(table) == before
    for answers_ in ({1: ev.Pass(), 2: ev.Pass()},
                     {0: ev.Pass(), 1: ev.Pass(), 2: ev.Pass(), 3: ev.Pass()}):
        with pytest.raises(TableError, match="asked are"):
            table.respond(answers_)
        assert snapshot(table) == before


def test_illegal_answers_after_a_draw() -> None:
    table = TaiwanTable(arrange(CLAIM_HANDS, draws="5p"))
    before = snapshot(table)
    bad: list[tuple[ev.Action, str]] = [
        (ev.Discard(t("1m")), "holds no 1m"),
        (ev.DeclareWin(), "5 melds and a pair"),
        (ev.DeclareConcealedKong(t("1z")), "holds 3 of 1z, needs 4"),
        (ev.DeclareAddedKong(t("1z")), "no pung of 1z"),
        (ev.Pass(), "stage 'drawn'"),
        (ev.Discard(t("3f")), "holds no 3f"),
    ]
    for action, reason in bad:
        with pytest.raises(IllegalAction, match=reason):
            table.respond({0: action})
        assert snapshot(table) == before


def test_forfeit() -> None:
    table = _after_5p()
    table.forfeit(2, "no answer in time")
    assert table.finished and table.stage is TaiwanStage.FINISHED and table.asked_seats == ()
    assert table.result.ending == ev.Penalized(2, "forfeit", "no answer in time")
    assert table.result.scores == (30, 30, -90, 30)
    assert table.legal_actions(1) == ()
    with pytest.raises(TableError, match="over"):
        table.respond({})
    with pytest.raises(TableError, match="over"):
        table.forfeit(1, "again")


def test_events_seen_by_hides_others_draws_hands_and_concealed_kongs() -> None:
    wall = arrange({0: "5555m123p456p789p11s2s"}, draws="3s", replacements="7p")
    table = TaiwanTable(wall)
    step(table, {0: ev.DeclareConcealedKong(t("5m"))})
    seen = table.events_seen_by(2)
    assert seen[0] == ev.SeatAssigned(2, 0)
    assert [e for e in seen if isinstance(e, ev.Dealt)] == [table.history[2]]
    assert seen[2:] == (
        ev.Drew(0, None), ev.ConcealedKonged(0, None), ev.Drew(0, None, replacement=True),
    )
    own = table.events_seen_by(0)
    assert own[2:] == (
        ev.Drew(0, t("3s")), ev.ConcealedKonged(0, t("5m")), ev.Drew(0, t("7p"), replacement=True),
    )


# ---------------------------------------------------------------- whole games
def _check_seen(table: TaiwanTable) -> None:
    full = table.history
    for viewer in range(4):
        seen = table.events_seen_by(viewer)
        assert seen[0] == ev.SeatAssigned(viewer, table.prevalent_wind)
        rest = [e for e in full if not (isinstance(e, ev.Dealt) and e.seat != viewer)]
        assert len(seen) == 1 + len(rest)
        for shown, event in zip(seen[1:], rest, strict=True):
            if isinstance(event, ev.Drew) and event.seat != viewer:
                assert shown == ev.Drew(event.seat, None, event.replacement)
            elif isinstance(event, ev.ConcealedKonged) and event.seat != viewer:
                assert shown == ev.ConcealedKonged(event.seat, None)
            else:
                assert shown == event


@pytest.mark.parametrize("wild", [0.2, 1.0])
def test_seeded_games_keep_every_invariant(wild: float) -> None:
    endings: Counter[str] = Counter()
    games = 300 if wild < 1 else 60
    for seed in range(games):
        rng = np.random.default_rng(seed)
        table = TaiwanTable(shuffled_wall(TAIWAN_16, rng), seed % 4, (seed // 4) % 4)
        check_taiwan_invariants(table)
        while not table.finished:
            asked = table.asked_seats
            assert asked
            for s in asked:
                legal = table.legal_actions(s)
                assert table.default_action(s) in legal
                if table.stage in (TaiwanStage.DISCARDED, TaiwanStage.KONG_ADDED):
                    assert ev.Pass() in legal and len(legal) > 1
            table.respond({s: crude_taiwan_action(table, s, rng, wild) for s in asked})
            check_taiwan_invariants(table)
        result = table.result
        assert result is not None and sum(result.scores) == 0
        ending = result.ending
        endings[type(ending).__name__] += 1
        endings.update(type(e).__name__ for e in table.history)
        if isinstance(ending, ev.Won):
            endings["robbed" if ending.robbed_kong else "self" if ending.self_drawn else "on"] += 1
            payers = 3 if ending.self_drawn else 1
            assert result.scores[ending.seat] == payers * (1 + tai_total(ending.fans))
            names = {f.name for f in ending.fans}
            assert ("last_tile" in names) == (
                table.wall_remaining <= 16 and not ending.robbed_kong
            )
            assert ("self_draw" in names) == ending.self_drawn
        else:
            assert ending == ev.WallExhausted() and table.wall_remaining <= 16
        _check_seen(table)
    assert endings["WallExhausted"] > 0
    if wild < 1:
        assert endings["Won"] > games // 2, endings
        seen = ("self", "on", "robbed", "FlowerReplaced", "Melded", "Konged", "ConcealedKonged",
                "KongAdded")
        assert all(endings[k] for k in seen), endings
