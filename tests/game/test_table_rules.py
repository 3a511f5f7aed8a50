"""The judge's rules that the recorded matches never reach, on walls built for them.

Every expectation is a fact of the official judge (per-seat-wall
``judge/main.cpp``) as written in ``protocols/botzone.md``, or where that file
and the judge disagree, the judge's.  Hands are written in Botzone notation.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence

import numpy as np
import pytest

from game import events as ev
from game.melds import ConcealedKong, Kong, Pung
from game.scoring.mcr import WinContext, mcr_fans
from game.table import (
    BotzoneStage,
    BotzoneTable,
    TableError,
    WallError,
    check_walltiles,
    play_game,
    random_walltiles,
)
from game.tiles import Notation, parse_tile, parse_tiles


def t(name: str) -> int:
    return parse_tile(name, Notation.BOTZONE)


def build_walls(deals: Sequence[str], draws: Sequence[str] = ("", "", "", "")) -> tuple[int, ...]:
    """``walltiles`` dealing ``deals`` and drawing ``draws`` in order (``?``: any unused tile).

    Seat ``i`` takes from the back of ``walltiles[34i .. 34i+33]``.
    """
    taken: list[list[int | None]] = []
    left = [4] * 34
    for seat in range(4):
        deal = parse_tiles(deals[seat], Notation.BOTZONE)
        assert len(deal) == 13, f"seat {seat} is dealt {len(deal)} tiles"
        drawn = [None if tok == "?" else t(tok) for tok in draws[seat].split()]
        taken.append([*deal, *drawn])
        for tile in taken[-1]:
            if tile is not None:
                left[tile] -= 1
                assert left[tile] >= 0, f"a fifth {tile}"
    pool = [tile for tile in range(34) for _ in range(left[tile])]
    wall: list[int] = []
    for seat_taken in taken:
        filled = [tile if tile is not None else pool.pop() for tile in seat_taken]
        front = [pool.pop() for _ in range(34 - len(filled))]
        wall += front + filled[::-1]
    return check_walltiles(wall)


FILLER = "W1 W2 W3 B4 B5 B6 T7 T8 T9 F1 F2 F3 F4"


def auto(table: BotzoneTable, **override: ev.Response) -> list[ev.Response]:
    """Everyone passes; a drawer discards what it drew; ``s0=..`` etc. override seats."""
    answers: list[ev.Response] = [ev.Pass()] * 4
    if table.stage is BotzoneStage.DRAWN:
        drawer = table.view(0).current_seat
        drawn = table.view(drawer).drawn
        assert drawn is not None
        answers[drawer] = ev.Discard(drawn)
    for key, response in override.items():
        answers[int(key[1:])] = response
    return answers


def step(table: BotzoneTable, **override: ev.Response) -> None:
    table.respond(auto(table, **override))


def first_discard(tile: str, seat1: str = FILLER, seat2: str = FILLER, seat3: str = FILLER,
                  draws: Sequence[str] = ("F4", "", "", "")) -> BotzoneTable:
    """A table just after seat 0, dealt ``tile`` and W1-W3 B4-B6 T7-T9 F1-F3, has drawn
    (F4 unless ``draws`` says) and discarded ``tile``; seats 1-3 are dealt ``seat1``-``seat3``."""
    table = start(build_walls([f"{tile} W1 W2 W3 B4 B5 B6 T7 T8 T9 F1 F2 F3", seat1, seat2, seat3],
                              draws))
    step(table, s0=ev.Discard(t(tile)))
    return table


def start(walls: Sequence[int], prevalent_wind: int = 0) -> BotzoneTable:
    """A table at seat 0's first draw."""
    table = BotzoneTable(walls, prevalent_wind)
    step(table)
    step(table)
    assert table.stage is BotzoneStage.DRAWN
    return table


def draws_of(table: BotzoneTable, seat: int) -> int:
    return sum(1 for e in table.history if isinstance(e, ev.Drew) and e.seat == seat)


def until_draw(table: BotzoneTable, seat: int, nth: int) -> None:
    """Everyone discards what they draw until ``seat`` has drawn ``nth`` tiles."""
    while not (
        table.stage is BotzoneStage.DRAWN
        and table.view(0).current_seat == seat
        and draws_of(table, seat) == nth
    ):
        assert not table.finished, table.result
        step(table)


def result_of(table: BotzoneTable) -> tuple[object, tuple[int, int, int, int]]:
    assert table.result is not None
    return table.result.ending, table.result.scores


# ---------------------------------------------------------------- walls and requests
def test_seats_deal_and_draw_from_the_back_of_their_own_wall() -> None:
    walls = random_walltiles(np.random.default_rng(7))
    table = BotzoneTable(walls, 2)
    assert table.requests == tuple(ev.SeatAssigned(s, 2) for s in range(4))
    step(table)
    for seat, request in enumerate(table.requests):
        assert request == ev.Dealt(seat, tuple(walls[34 * seat + 33 - k] for k in range(13)))
    step(table)
    assert table.requests == (ev.Drew(0, walls[20]), ev.Drew(0, None),
                              ev.Drew(0, None), ev.Drew(0, None))
    step(table)
    step(table)
    assert table.requests[1] == ev.Drew(1, walls[34 + 20])


def test_walltiles_are_checked() -> None:
    walls = list(random_walltiles(np.random.default_rng(1)))
    with pytest.raises(WallError, match="135 tiles"):
        BotzoneTable(walls[:-1], 0)
    walls[0] = walls[1] if walls[0] != walls[1] else walls[2]
    with pytest.raises(WallError, match=r"^walltiles holds 5 of [WBTFJ]\d; mcr-botzone needs 4$"):
        BotzoneTable(walls, 0)
    walls[0] = 34
    with pytest.raises(WallError, match=r"^walltiles\[0\] = 34 is not a tile of mcr-botzone$"):
        BotzoneTable(walls, 0)
    with pytest.raises(ValueError, match="prevalent wind 4"):
        BotzoneTable(random_walltiles(np.random.default_rng(1)), 4)


def test_a_seed_gives_the_walltiles_it_always_gave() -> None:
    """The duplicate wall is the rule set's shuffled wall: the same permutation of the 136
    tiles in index order that the arena's seeds have always named."""
    rng = np.random.default_rng(7)
    before = tuple(int(x) for x in rng.permutation(np.repeat(np.arange(34), 4)))
    assert random_walltiles(np.random.default_rng(7)) == before


def test_random_walls_come_only_from_the_generator() -> None:
    a = random_walltiles(np.random.default_rng(123))
    assert a == random_walltiles(np.random.default_rng(123))
    assert a != random_walltiles(np.random.default_rng(124))
    check_walltiles(a)


def test_driving_a_finished_game_is_an_error() -> None:
    table = BotzoneTable(random_walltiles(np.random.default_rng(3)), 0)
    with pytest.raises(TableError, match="expected 4 responses"):
        table.respond([ev.Pass()] * 3)
    table.respond([ev.InvalidAction("x", "bad"), ev.Pass(), ev.Pass(), ev.Pass()])
    assert table.finished
    with pytest.raises(TableError, match="over"):
        table.respond([ev.Pass()] * 4)
    with pytest.raises(TableError, match="over"):
        _ = table.requests


def test_play_game_with_a_responder_that_only_passes() -> None:
    table = play_game(random_walltiles(np.random.default_rng(11)), 1, lambda seat, req: ev.Pass())
    ending, scores = result_of(table)
    assert isinstance(ending, ev.Penalized) and (ending.seat, ending.reason) == (0, "WA")
    assert scores == (-30, 10, 10, 10)


def test_play_game_with_stages_that_run_out() -> None:
    with pytest.raises(TableError, match="ran out"):
        play_game(random_walltiles(np.random.default_rng(11)), 1, [[ev.Pass()] * 4])


def test_a_game_where_nobody_claims_ends_in_a_draw_after_84_draws() -> None:
    table = start(random_walltiles(np.random.default_rng(11)))
    while not table.finished:
        step(table)
    ending, scores = result_of(table)
    assert ending == ev.WallExhausted() and scores == (0, 0, 0, 0)
    assert [draws_of(table, s) for s in range(4)] == [21, 21, 21, 21]
    assert table.history[-1].seat == 3  # seat 3 discarded; seat 0's wall was empty


# ---------------------------------------------------------------- winning and scores
DRAGON_STRAIGHT = "W1 W2 W3 W4 W5 W6 W7 W8 W9 B1 B2 B3 T5"
KANCHAN_T5 = "W1 W2 W3 W4 W5 W6 W7 W8 W9 B1 B1 T4 T6"


def test_self_drawn_win_scores_three_times_eight_plus_fan() -> None:
    walls = build_walls([DRAGON_STRAIGHT, FILLER, FILLER, FILLER], ["T5", "", "", ""])
    table = start(walls)
    assert ev.DeclareWin() in table.legal_actions(0)
    step(table, s0=ev.DeclareWin())
    ending, scores = result_of(table)
    assert isinstance(ending, ev.Won) and ending.self_drawn and ending.payer is None
    expected = mcr_fans(parse_tiles(DRAGON_STRAIGHT, Notation.BOTZONE), [], t("T5"),
                        WinContext(seat=0, prevalent_wind=0, self_drawn=True))
    assert expected is not None and ending.fans == expected
    assert {"清龙", "不求人"} <= {f.name for f in ending.fans}
    fan = ending.fan_total
    assert scores == (3 * (8 + fan), -(8 + fan), -(8 + fan), -(8 + fan))


def test_win_on_a_discard_discarder_pays_eight_plus_fan_others_eight() -> None:
    table = first_discard("T5", DRAGON_STRAIGHT)
    step(table, s1=ev.DeclareWin())
    ending, scores = result_of(table)
    assert isinstance(ending, ev.Won) and ending.seat == 1 and ending.payer == 0
    assert not ending.self_drawn
    fan = ending.fan_total
    assert scores == (-(8 + fan), 24 + fan, -8, -8)


def test_a_win_below_eight_fan_is_a_false_win() -> None:
    cheap = "W1 W2 W3 W4 W5 W6 B2 B3 B4 T6 T7 T8 B5"
    fans = mcr_fans(parse_tiles(cheap, Notation.BOTZONE), [], t("B5"),
                    WinContext(seat=1, prevalent_wind=0))
    assert fans is not None and sum(f.total for f in fans) < 8
    seat0 = "B5 W1 W2 W3 B4 B6 B7 T7 T8 T9 F1 F2 F3"
    table = start(build_walls([seat0, cheap, FILLER, FILLER], ["F4", "", "", ""]))
    step(table, s0=ev.Discard(t("B5")))
    assert ev.DeclareWin() not in table.legal_actions(1)
    step(table, s1=ev.DeclareWin())
    ending, scores = result_of(table)
    assert isinstance(ending, ev.Penalized) and (ending.seat, ending.reason) == (1, "WH")
    assert scores == (10, -30, 10, 10)


def test_declaring_a_win_without_a_winning_hand_is_penalised() -> None:
    table = start(random_walltiles(np.random.default_rng(5)))
    step(table, s0=ev.DeclareWin())
    ending, scores = result_of(table)
    assert isinstance(ending, ev.Penalized) and ending.reason == "WH"
    assert scores == (-30, 10, 10, 10)


# ---------------------------------------------------------------- claim priority
def test_win_beats_pung_and_the_first_winner_after_the_discarder_takes_it() -> None:
    pair = "T5 T5 W1 W2 W3 B4 B5 B6 T7 T8 T9 F1 F2"
    table = first_discard("T5", pair, KANCHAN_T5, KANCHAN_T5)
    step(table, s1=ev.ClaimAndDiscard(ev.ClaimPung(), t("F1")), s2=ev.DeclareWin(),
         s3=ev.DeclareWin())
    ending, _ = result_of(table)
    assert isinstance(ending, ev.Won) and ending.seat == 2


def test_among_winners_turn_order_from_the_discarder_decides_not_seat_order() -> None:
    seat2 = "T5 W1 W2 W3 B4 B5 B6 T7 T8 T9 F1 F2 F3"
    walls = build_walls([FILLER, DRAGON_STRAIGHT, seat2, DRAGON_STRAIGHT], ["", "", "F4", ""])
    table = start(walls)
    until_draw(table, 2, 1)
    step(table, s2=ev.Discard(t("T5")))
    step(table, s1=ev.DeclareWin(), s3=ev.DeclareWin())
    ending, _ = result_of(table)
    assert isinstance(ending, ev.Won) and ending.seat == 3 and ending.payer == 2


def test_pung_beats_chow_and_the_request_names_the_discard_after_it() -> None:
    chow = "W4 W6 B1 B2 B3 B7 B8 B9 T1 T2 T3 J1 J2"
    pung = "W5 W5 B1 B2 B3 B7 B8 B9 T1 T2 T3 J1 J3"
    table = first_discard("W5", chow, pung)
    assert ev.ClaimAndDiscard(ev.ClaimChow(t("W5")), t("J1")) in table.legal_actions(1)
    assert not any(isinstance(ev.claim_of(a), ev.ClaimChow) for a in table.legal_actions(2))
    step(table, s1=ev.ClaimAndDiscard(ev.ClaimChow(t("W5")), t("J1")),
         s2=ev.ClaimAndDiscard(ev.ClaimPung(), t("J3")))
    assert table.requests == (ev.Punged(2, t("W5"), t("J3")),) * 4
    assert table.view(2).melds == (Pung(t("W5"), 0),)
    assert table.view(3).table[0].river == ()  # the claimed discard left seat 0's river


def test_chow_by_the_next_seat_when_nobody_pungs() -> None:
    chow = "W4 W6 B1 B2 B3 B7 B8 B9 T1 T2 T3 J1 J2"
    table = first_discard("W5", chow)
    step(table, s1=ev.ClaimAndDiscard(ev.ClaimChow(t("W5")), t("J1")))
    view = table.view(1)
    assert view.melds[0].tiles == (t("W4"), t("W5"), t("W6"))
    assert view.melds[0].pack_entry(1) == ("CHI", "W5", 2)
    assert table.stage is BotzoneStage.DISCARDED and view.tile_in_play == t("J1")


# ---------------------------------------------------------------- wrong actions and blame
def test_passing_after_ones_own_draw_is_a_wrong_action() -> None:
    table = start(random_walltiles(np.random.default_rng(2)))
    step(table, s0=ev.Pass())
    ending, scores = result_of(table)
    assert isinstance(ending, ev.Penalized) and (ending.seat, ending.reason) == (0, "WA")
    assert scores == (-30, 10, 10, 10)


def test_during_a_draw_the_other_seats_are_checked_before_the_drawer() -> None:
    table = start(random_walltiles(np.random.default_rng(2)))
    step(table, s0=ev.Pass(), s3=ev.ClaimKong())
    ending, _ = result_of(table)
    assert isinstance(ending, ev.Penalized) and ending.seat == 3


def test_first_wrong_seat_in_seat_order_is_blamed_when_all_must_pass() -> None:
    table = BotzoneTable(random_walltiles(np.random.default_rng(2)), 0)
    step(table, s1=ev.InvalidAction("PAS", "unknown action"), s3=ev.DeclareWin())
    ending, scores = result_of(table)
    assert isinstance(ending, ev.Penalized) and ending.seat == 1
    assert scores == (10, -30, 10, 10)


def test_platform_faults_are_blamed_before_wrong_answers() -> None:
    table = BotzoneTable(random_walltiles(np.random.default_rng(2)), 0)
    step(table, s1=ev.InvalidAction("PAS", "unknown action"), s2=ev.PlatformFault("TLE"))
    ending, _ = result_of(table)
    assert ending == ev.Penalized(2, "TLE", "platform verdict")


def test_a_failed_pung_is_penalised_even_if_a_later_seat_could_pung() -> None:
    pung = "W5 W5 B1 B2 B3 B7 B8 B9 T1 T2 T3 J1 J3"
    table = first_discard("W5", FILLER, FILLER, pung)
    step(table, s2=ev.ClaimAndDiscard(ev.ClaimPung(), t("F1")),
         s3=ev.ClaimAndDiscard(ev.ClaimPung(), t("J3")))
    ending, _ = result_of(table)
    assert isinstance(ending, ev.Penalized) and (ending.seat, ending.reason) == (2, "WA")


def test_an_unreadable_pung_counts_as_a_failed_pung() -> None:
    table = first_discard("W5")
    step(table, s1=ev.InvalidAction("PENG X1", "unknown tile 'X1'", ev.ActionKind.PUNG))
    ending, _ = result_of(table)
    assert isinstance(ending, ev.Penalized) and ending.seat == 1 and "X1" in ending.detail


def test_wrong_answers_are_ignored_when_a_claim_succeeds() -> None:
    pung = "W5 W5 B1 B2 B3 B7 B8 B9 T1 T2 T3 J1 J3"
    table = first_discard("W5", FILLER, pung)
    step(table, s0=ev.ClaimKong(), s2=ev.ClaimAndDiscard(ev.ClaimPung(), t("J3")),
         s3=ev.ClaimAndDiscard(ev.ClaimChow(t("W5")), t("F1")))
    assert not table.finished and table.requests[0] == ev.Punged(2, t("W5"), t("J3"))


def test_a_chow_by_a_seat_that_is_not_next_is_a_wrong_action_if_nobody_claims() -> None:
    chow = "W4 W6 B1 B2 B3 B7 B8 B9 T1 T2 T3 J1 J2"
    table = first_discard("W5", FILLER, FILLER, chow)
    step(table, s3=ev.ClaimAndDiscard(ev.ClaimChow(t("W5")), t("J1")))
    ending, _ = result_of(table)
    assert isinstance(ending, ev.Penalized) and ending.seat == 3


def test_a_chow_must_use_the_discard() -> None:
    chow = "T2 T3 T4 B1 B2 B3 B7 B8 B9 T1 J1 J2 J3"
    table = first_discard("W5", chow)
    step(table, s1=ev.ClaimAndDiscard(ev.ClaimChow(t("T3")), t("J1")))
    ending, _ = result_of(table)
    assert isinstance(ending, ev.Penalized) and ending.seat == 1 and "does not use" in ending.detail


# ---------------------------------------------------------------- kongs
def test_concealed_kong_replacement_from_own_wall_and_win_on_it() -> None:
    seat0 = "J1 J1 J1 B1 B2 B3 B4 B5 B6 B7 B8 B9 T5"
    walls = build_walls([seat0, FILLER, FILLER, FILLER], ["J1 T5", "", "", ""])
    table = start(walls)
    assert ev.DeclareConcealedKong(t("J1")) in table.legal_actions(0)
    step(table, s0=ev.DeclareConcealedKong(t("J1")))
    assert table.requests == (
        ev.ConcealedKonged(0, t("J1")),
        ev.ConcealedKonged(0, None),
        ev.ConcealedKonged(0, None),
        ev.ConcealedKonged(0, None),
    )
    public = table.view(2).table[0]
    assert public.concealed_kongs == 1 and public.exposed_melds == ()
    assert table.view(0).melds == (ConcealedKong(t("J1")),)
    step(table)
    assert table.requests[0] == ev.Drew(0, walls[19])
    step(table, s0=ev.DeclareWin())
    ending, scores = result_of(table)
    assert isinstance(ending, ev.Won) and ending.self_drawn
    assert "杠上开花" in {f.name for f in ending.fans}
    assert scores[0] == 3 * (8 + ending.fan_total)


def test_exposed_kong_on_a_discard_then_replacement() -> None:
    kong = "T5 T5 T5 B1 B2 B3 B7 B8 B9 T1 T2 T3 J1"
    table = first_discard("T5", kong, draws=["F4", "J2", "", ""])
    step(table, s1=ev.ClaimKong())
    assert table.requests == (ev.Konged(1, t("T5")),) * 4
    assert table.view(1).melds == (Kong(t("T5"), 0),)
    step(table)
    assert table.requests[1] == ev.Drew(1, t("J2")) and table.requests[0] == ev.Drew(1, None)


def rob_setup() -> BotzoneTable:
    """Seat 1 pungs seat 0's T5, later draws the fourth T5; seat 3 waits on T5."""
    pung = "T5 T5 B1 B2 B3 B7 B8 B9 T1 T2 T3 J1 J2"
    table = first_discard("T5", pung, FILLER, KANCHAN_T5, draws=["F4 ?", "T5 J3", "", ""])
    step(table, s1=ev.ClaimAndDiscard(ev.ClaimPung(), t("J1")))
    until_draw(table, 1, 1)
    step(table, s1=ev.DeclareAddedKong(t("T5")))
    assert table.requests == (ev.KongAdded(1, t("T5")),) * 4
    assert table.view(1).melds == (Kong(t("T5"), 0, added=True),)
    return table


def test_robbing_an_added_kong_the_konger_pays() -> None:
    table = rob_setup()
    assert ev.DeclareWin() in table.legal_actions(3)
    step(table, s3=ev.DeclareWin())
    ending, scores = result_of(table)
    assert isinstance(ending, ev.Won) and ending.robbed_kong and ending.payer == 1
    assert "抢杠和" in {f.name for f in ending.fans}
    fan = ending.fan_total
    assert scores == (-8, -(8 + fan), -8, 24 + fan)


def test_an_added_kong_nobody_robs_draws_a_replacement() -> None:
    table = rob_setup()
    step(table)
    assert table.requests[1] == ev.Drew(1, t("J3"))


def test_the_konger_cannot_rob_its_own_kong() -> None:
    table = rob_setup()
    step(table, s1=ev.DeclareWin())
    ending, _ = result_of(table)
    assert isinstance(ending, ev.Penalized) and (ending.seat, ending.reason) == (1, "WA")


# ---------------------------------------------------------------- the end of the walls
LATE_FILLER = "W1 W2 W3 B4 B5 B6 T7 T8 J3 J3 F3 F4 W7"


def late_table(seat3_round20: str, seat1_deal: str = LATE_FILLER) -> BotzoneTable:
    """Seat 0 made a concealed kong at its first draw, so its wall empties one round early.

    The table stops at seat 3's 20th draw (``seat3_round20``): seat 3 still has
    one tile in its wall but seat 0's is empty.
    """
    seat0 = "F1 F1 F1 W1 W2 W3 B4 B5 B6 T7 T8 T9 J1"
    seat3 = "F2 F2 F2 W4 W5 W6 B1 B2 B3 T1 T2 T3 J2"
    walls = build_walls(
        [seat0, seat1_deal, LATE_FILLER, seat3],
        ["F1", "", "", " ".join(["?"] * 19 + [seat3_round20])],
    )
    table = start(walls)
    step(table, s0=ev.DeclareConcealedKong(t("F1")))
    step(table)
    until_draw(table, 3, 20)
    assert table.view(0).table[0].wall_remaining == 0
    assert table.view(0).table[3].wall_remaining == 1
    return table


def test_no_kong_when_the_next_seats_wall_is_empty() -> None:
    table = late_table("F2")
    assert ev.DeclareConcealedKong(t("F2")) not in table.legal_actions(3)
    step(table, s3=ev.DeclareConcealedKong(t("F2")))
    ending, _ = result_of(table)
    assert isinstance(ending, ev.Penalized) and ending.seat == 3 and "wall" in ending.detail


def test_an_unclaimed_discard_before_an_empty_wall_ends_the_game() -> None:
    table = late_table("J1")
    step(table)
    step(table)
    ending, scores = result_of(table)
    assert ending == ev.WallExhausted() and scores == (0, 0, 0, 0)
    assert [table.view(0).table[s].wall_remaining for s in range(4)] == [0, 1, 1, 1]


def test_the_judge_allows_a_pung_of_the_last_discard() -> None:
    """botzone.md (from the wiki) forbids it; the judge does not, and the judge wins."""
    seat1 = "W9 W9 B1 B2 B3 B7 B8 B9 T1 T2 T3 J1 J2"
    table = late_table("W9", seat1_deal=seat1)
    step(table)
    assert ev.ClaimKong() not in table.legal_actions(1)
    assert ev.ClaimAndDiscard(ev.ClaimPung(), t("J1")) in table.legal_actions(1)
    step(table, s1=ev.ClaimAndDiscard(ev.ClaimPung(), t("J1")))
    assert table.requests[0] == ev.Punged(1, t("W9"), t("J1"))
    step(table)
    assert table.requests[2] == ev.Drew(2, table.walltiles[68])


def test_no_kong_claim_on_the_last_discard() -> None:
    seat1 = "W9 W9 W9 B2 B3 B7 B8 B9 T1 T2 T3 J1 J2"
    table = late_table("W9", seat1_deal=seat1)
    assert ev.ClaimKong() not in table.legal_actions(1)
    step(table)
    step(table, s1=ev.ClaimKong())
    ending, _ = result_of(table)
    assert isinstance(ending, ev.Penalized) and ending.seat == 1


# ---------------------------------------------------------------- legal actions, cross-checked
def all_actions(rng: np.random.Generator) -> ev.Action | ev.InvalidAction:
    """A random answer from the whole action space."""
    pick = int(rng.integers(9))
    tile = int(rng.integers(34))
    other = int(rng.integers(34))
    choices: list[ev.Action | ev.InvalidAction] = [
        ev.Pass(),
        ev.DeclareWin(),
        ev.Discard(tile),
        ev.ClaimAndDiscard(ev.ClaimPung(), tile),
        ev.ClaimKong(),
        ev.ClaimAndDiscard(ev.ClaimChow(tile), other),
        ev.DeclareConcealedKong(tile),
        ev.DeclareAddedKong(tile),
        ev.InvalidAction("??", "unreadable"),
    ]
    return choices[pick]


def legal_play(rng: np.random.Generator, table: BotzoneTable, seat: int) -> ev.Action:
    """A random legal answer that always wins, mostly konged and often claims."""
    legal = table.legal_actions(seat)
    if ev.DeclareWin() in legal:
        return ev.DeclareWin()
    kongs = [a for a in legal
             if isinstance(a, ev.ClaimKong | ev.DeclareConcealedKong | ev.DeclareAddedKong)]
    if kongs and rng.random() < 0.8:
        return kongs[int(rng.integers(len(kongs)))]
    if table.stage is BotzoneStage.DISCARDED and rng.random() < 0.5:
        return ev.Pass()
    return legal[int(rng.integers(len(legal)))]


@pytest.mark.parametrize("seed", range(16))
def test_legal_actions_are_exactly_what_the_judge_accepts(seed: int) -> None:
    """Random games: a legal answer is never penalised, any other answer always is."""
    rng = np.random.default_rng(seed)
    table = BotzoneTable(random_walltiles(rng), seed % 4)
    while not table.finished:
        seat = int(rng.integers(4))
        probe = all_actions(rng)
        if rng.random() < 0.5:
            legal = table.legal_actions(seat)
            probe = legal[int(rng.integers(len(legal)))]
        answers = auto(table)  # everyone passes, a drawer discards its draw...
        answers[seat] = probe  # ...but the probed seat
        trial = copy.deepcopy(table)
        trial.respond(answers)
        penalised = trial.result is not None and isinstance(trial.result.ending, ev.Penalized)
        assert penalised == (probe not in table.legal_actions(seat)), (table.stage, seat, probe)
        if penalised:
            assert trial.result is not None and trial.result.ending.seat == seat  # type: ignore[union-attr]
        table.respond([legal_play(rng, table, s) for s in range(4)])
    assert table.result is not None
    assert not isinstance(table.result.ending, ev.Penalized)
    assert sum(table.result.scores) == 0


# ---------------------------------------------------------------- every refusal, by name
def at_first_draw() -> BotzoneTable:
    """Seat 0 has drawn F4 onto ``W5 W1 W2 W3 B4 B5 B6 T7 T8 T9 F1 F2 F3``."""
    return first_discard_table("W5")


def first_discard_table(tile: str) -> BotzoneTable:
    return start(build_walls([f"{tile} W1 W2 W3 B4 B5 B6 T7 T8 T9 F1 F2 F3",
                              FILLER, FILLER, FILLER], ["F4", "", "", ""]))


def after_pung() -> BotzoneTable:
    """Seat 1 punged seat 0's T5 and holds one more T5 and no J3."""
    pung = "T5 T5 B1 B2 B3 B7 B8 B9 T1 T2 T3 J1 J2"
    table = first_discard("T5", pung, draws=["F4 ?", "T5 W9", "", ""])
    step(table, s1=ev.ClaimAndDiscard(ev.ClaimPung(), t("J1")))
    until_draw(table, 1, 1)
    return table


CHOWER = "W4 W6 B1 B2 B3 B7 B8 B9 T1 T2 T3 J1 J2"
PUNGER = "W5 W5 B1 B2 B3 B7 B8 B9 T1 T2 T3 J1 J3"
KONGER = "W5 W5 W5 B1 B2 B3 B7 B8 B9 T1 T2 T3 J1"


def on_w5(seat1: str = CHOWER, seat2: str = PUNGER) -> BotzoneTable:
    return first_discard("W5", seat1, seat2)


REFUSALS: list[tuple[str, object, dict[str, ev.Response], tuple[int, str, str]]] = [
    ("acknowledging the seats", lambda: BotzoneTable(random_walltiles(np.random.default_rng(2)), 0),
     {"s2": ev.DeclareWin()}, (2, "WA", "must PASS, answered DeclareWin")),
    ("another seat during a draw", at_first_draw, {"s3": ev.ClaimKong()},
     (3, "WA", "must PASS while seat 0 plays, answered ClaimKong")),
    ("a false self-drawn win", at_first_draw, {"s0": ev.DeclareWin()},
     (0, "WH", "HU on F4 is not a winning hand of 8 fan")),
    ("a discard not held", at_first_draw, {"s0": ev.Discard(t("J3"))},
     (0, "WA", "PLAY seat 0 holds 0 of J3, needs 1")),
    ("a concealed kong not held", at_first_draw, {"s0": ev.DeclareConcealedKong(t("W1"))},
     (0, "WA", "GANG W1: seat 0 holds 1 of W1, needs 4")),
    ("an added kong without a pung", at_first_draw, {"s0": ev.DeclareAddedKong(t("W1"))},
     (0, "WA", "BUGANG W1: no pung of it to add to")),
    ("an added kong of a tile not held", after_pung, {"s1": ev.DeclareAddedKong(t("J3"))},
     (1, "WA", "BUGANG J3: seat 1 holds 0 of J3, needs 1")),
    ("a pass after one's own draw", at_first_draw, {"s0": ev.Pass()},
     (0, "WA", "after its draw must PLAY, GANG, BUGANG or HU; answered Pass")),
    ("an unreadable answer to one's own draw", at_first_draw,
     {"s0": ev.InvalidAction("PLAY", "PLAY takes 1 argument(s), got 0")},
     (0, "WA", "after its draw must PLAY, GANG, BUGANG or HU; answered 'PLAY' "
               "(PLAY takes 1 argument(s), got 0)")),
    ("a false win on a discard", on_w5, {"s3": ev.DeclareWin()},
     (3, "WH", "HU on W5 is not a winning hand of 8 fan")),
    ("a kong claim without three", on_w5, {"s2": ev.ClaimKong()},
     (2, "WA", "GANG on W5: seat 2 holds 2 of W5, needs 3")),
    ("an unreadable kong claim", lambda: on_w5(seat2=KONGER),
     {"s2": ev.InvalidAction("GANG", "no reason", ev.ActionKind.KONG)},
     (2, "WA", "GANG: 'GANG' (no reason)")),
    ("a pung claim without two", on_w5, {"s3": ev.ClaimAndDiscard(ev.ClaimPung(), t("F1"))},
     (3, "WA", "PENG on W5: seat 3 holds 0 of W5, needs 2")),
    ("a pung's discard not held", on_w5, {"s2": ev.ClaimAndDiscard(ev.ClaimPung(), t("J2"))},
     (2, "WA", "PENG on W5: cannot discard J2 after the pung")),
    ("a pung without its discard", on_w5, {"s2": ev.ClaimPung()},
     (2, "WA", "PENG: ClaimPung")),
    ("an unreadable pung", on_w5,
     {"s2": ev.InvalidAction("PENG X1", "unknown tile 'X1'", ev.ActionKind.PUNG)},
     (2, "WA", "PENG: 'PENG X1' (unknown tile 'X1')")),
    ("a chow without its discard", on_w5, {"s1": ev.ClaimChow(t("W5"))},
     (1, "WA", "CHI: ClaimChow")),
    ("a chow around a terminal", on_w5, {"s1": ev.ClaimAndDiscard(ev.ClaimChow(t("W9")), t("J1"))},
     (1, "WA", "CHI W9: W9 cannot be the middle of a chow")),
    ("a chow that does not use the discard", on_w5,
     {"s1": ev.ClaimAndDiscard(ev.ClaimChow(t("B2")), t("J1"))},
     (1, "WA", "CHI B2: the chow around B2 does not use the discard W5")),
    ("a chow of tiles not held", on_w5, {"s1": ev.ClaimAndDiscard(ev.ClaimChow(t("W6")), t("J1"))},
     (1, "WA", "CHI W6: seat 1 holds 0 of W7, needs 1")),
    ("a chow's discard not held", on_w5,
     {"s1": ev.ClaimAndDiscard(ev.ClaimChow(t("W5")), t("W4"))},
     (1, "WA", "CHI W5: cannot discard W4 after the chow")),
    ("a chow by a seat not next", on_w5,
     {"s2": ev.ClaimAndDiscard(ev.ClaimChow(t("W5")), t("J1"))},
     (2, "WA", "made no valid claim and did not PASS: ClaimAndDiscard")),
    ("the discarder claiming its own discard", on_w5, {"s0": ev.ClaimKong()},
     (0, "WA", "made no valid claim and did not PASS: ClaimKong")),
    ("a discard out of turn", on_w5, {"s3": ev.Discard(t("F1"))},
     (3, "WA", "made no valid claim and did not PASS: Discard")),
    ("a false robbing of a kong", rob_setup, {"s2": ev.DeclareWin()},
     (2, "WH", "HU on T5 is not a winning hand of 8 fan")),
    ("the konger robbing its own kong", rob_setup, {"s1": ev.DeclareWin()},
     (1, "WA", "may only PASS or rob the kong, answered DeclareWin")),
    ("a claim on an added kong", rob_setup, {"s2": ev.ClaimKong()},
     (2, "WA", "may only PASS or rob the kong, answered ClaimKong")),
    ("a platform fault", on_w5, {"s2": ev.PlatformFault("TLE")}, (2, "TLE", "platform verdict")),
]


@pytest.mark.parametrize(("setup", "answers", "penalty"), [r[1:] for r in REFUSALS],
                         ids=[r[0] for r in REFUSALS])
def test_each_refusal_names_its_seat_reason_and_detail(
        setup: object, answers: dict[str, ev.Response], penalty: tuple[int, str, str]) -> None:
    """Every way an answer is refused: the seat blamed, Botzone's reason and the detail."""
    assert callable(setup)
    table = setup()
    step(table, **answers)
    ending, scores = result_of(table)
    assert ending == ev.Penalized(*penalty)
    assert scores == tuple(-30 if s == penalty[0] else 10 for s in range(4))


def test_an_answer_refused_when_its_wall_is_empty_says_so() -> None:
    table = late_table("F2")
    step(table, s3=ev.DeclareConcealedKong(t("F2")))
    assert table.result is not None and table.result.ending == ev.Penalized(
        3, "WA", "GANG F2: the wall of the seat after the last discarder or drawer is empty")
    table = late_table("W9", seat1_deal="W9 W9 W9 B2 B3 B7 B8 B9 T1 T2 T3 J1 J2")
    step(table)
    step(table, s1=ev.ClaimKong())
    assert table.result is not None and table.result.ending == ev.Penalized(
        1, "WA", "GANG on W9: the wall of the seat after the last discarder or drawer is empty")
