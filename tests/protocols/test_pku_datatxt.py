"""The PKU data format, and its 16 sample matches replayed through the judge mock.

Each match's walls are rebuilt from the tiles the seats took, its lines are
turned into the seats' answers, and ``game.table`` plays it again: the table
must draw, claim and discard exactly as the file says, reach the same end,
and score the winning hand with the file's fan total and fans.
"""

from __future__ import annotations

import pytest
from support import pku_sample

from game.events import (
    Chowed,
    ConcealedKonged,
    Discarded,
    Drew,
    Event,
    KongAdded,
    Konged,
    Punged,
    WallExhausted,
    Won,
)
from game.rules import PER_SEAT_WALL
from game.table import play_game
from game.tiles import Notation, parse_tile
from protocols.pku_datatxt import (
    PkuFormatError,
    PkuMatch,
    PkuVerb,
    botzone_responses,
    parse_pku_datatxt,
    tiles_taken,
    walltiles_of,
)

SAMPLE = pku_sample()
MATCHES = parse_pku_datatxt(SAMPLE.read_text(encoding="utf-8"))

# PyMahjongGB 1.4 names the three waits differently from the judge's fan table.
JUDGE_FAN_NAME = {"独听・边张": "边张", "独听・嵌张": "嵌张", "独听・单钓": "单钓将"}

Line = tuple[int, PkuVerb, int]


def t(name: str) -> int:
    return parse_tile(name, Notation.BOTZONE)


def as_lines(history: tuple[Event, ...]) -> list[Line]:
    """The table's events written as the data file writes them."""
    out: list[Line] = []
    for e in history:
        if isinstance(e, Drew):
            assert e.tile is not None
            out.append((e.seat, PkuVerb.DRAW, e.tile))
        elif isinstance(e, Discarded):
            out.append((e.seat, PkuVerb.PLAY, e.tile))
        elif isinstance(e, Chowed):
            out += [(e.seat, PkuVerb.CHI, e.middle), (e.seat, PkuVerb.PLAY, e.discard)]
        elif isinstance(e, Punged):
            out += [(e.seat, PkuVerb.PENG, e.tile), (e.seat, PkuVerb.PLAY, e.discard)]
        elif isinstance(e, Konged):
            out.append((e.seat, PkuVerb.GANG, e.tile))
        elif isinstance(e, ConcealedKonged):
            assert e.tile is not None
            out.append((e.seat, PkuVerb.ANGANG, e.tile))
        elif isinstance(e, KongAdded):
            out.append((e.seat, PkuVerb.BUGANG, e.tile))
    return out


def last_discard(lines: list[Line]) -> int:
    return next(tile for _, verb, tile in reversed(lines) if verb is PkuVerb.PLAY)


# ---------------------------------------------------------------- parsing
def test_the_sample_holds_16_matches() -> None:
    assert len(MATCHES) == 16
    assert MATCHES[0].match_id == "61602cb45ddc087351c04358"
    assert MATCHES[0].prevalent_wind == 1
    assert MATCHES[0].deals[0][:3] == (t("T8"), t("B7"), t("T1"))
    assert MATCHES[0].fan_total == 9
    assert MATCHES[0].fans == (("混一色", 1), ("箭刻", 1), ("老少副", 1))
    assert MATCHES[0].scores == (-8, 33, -17, -8)
    assert sum(m.fan_total is None for m in MATCHES) == 2  # two draw games (Huang)


def test_ignore_suffixes_are_read() -> None:
    step = next(s for s in MATCHES[0].steps if s.ignored)
    assert (step.seat, step.verb, step.tile) == (0, PkuVerb.PENG, t("W9"))
    assert [(c.seat, c.verb, c.tile) for c in step.ignored] == [(3, PkuVerb.CHI, t("W8"))]


BLOCK = """Match m1
Wind 2
Player 0 Deal W1 W2 W3 W4 W5 W6 W7 W8 W9 B1 B2 B3 B4
Player 1 Deal T1 T2 T3 T4 T5 T6 T7 T8 T9 B1 B2 B3 B4
Player 2 Deal F1 F2 F3 F4 J1 J2 J3 F1 F2 F3 F4 J1 J2
Player 3 Deal W1 W2 W3 W4 W5 W6 W7 W8 W9 B5 B6 B7 B8
Player 0 Draw B9
Player 0 Play B9
Huang
Score 0 0 0 0
"""


def test_a_small_block_parses_and_notes_around_blocks_are_skipped() -> None:
    [match] = parse_pku_datatxt("notes before\n" + BLOCK + "\nnotes after\nFan 3 x*1\n")
    assert match.match_id == "m1" and match.prevalent_wind == 2
    assert [(s.seat, s.verb, s.tile) for s in match.steps] == [
        (0, PkuVerb.DRAW, t("B9")),
        (0, PkuVerb.PLAY, t("B9")),
    ]
    assert match.fan_total is None and match.scores == (0, 0, 0, 0)


@pytest.mark.parametrize(
    ("old", "new", "names"),
    [
        ("Player 0 Draw B9", "Player 0 Draw X9", "line 7: unknown tile 'X9'"),
        ("Player 0 Draw B9", "Player 0 Steal B9", "line 7: unknown action 'Steal'"),
        ("Player 0 Draw B9", "Player 7 Draw B9", "line 7: seat '7'"),
        ("Wind 2", "Wind 5", "line 2: wind '5'"),
        ("Wind 2", "Wind two", "line 2: wind 'two'"),
        ("Player 3 Deal W1 W2", "Player 3 Deal W2", "line 6: a deal needs 13 tiles"),
        ("Huang\n", "", "'Score' before 'Fan' or 'Huang'"),
        ("Score 0 0 0 0", "Score 0 0 0", "line 10: 'Score' takes four numbers"),
        ("Score 0 0 0 0\n", "", "is cut short"),
        ("Huang", "Dance", "line 9: unknown line type 'Dance'"),
        ("Huang", "Fan 9 abc", "line 9: fan 'abc'"),
        ("Player 0 Play B9", "Player 0 Play B9 Ignore Player 1 Peng", "line 8: expected"),
    ],
)
def test_malformed_lines_name_line_and_token(old: str, new: str, names: str) -> None:
    text = BLOCK.replace(old, new)
    assert text != BLOCK
    with pytest.raises(PkuFormatError, match=names):
        parse_pku_datatxt(text)


def test_a_match_without_its_score_before_the_next_is_refused() -> None:
    with pytest.raises(PkuFormatError, match="has no 'Score' line"):
        parse_pku_datatxt(BLOCK.replace("Score 0 0 0 0", "") + BLOCK)


# ---------------------------------------------------------------- replay
@pytest.mark.parametrize("match", MATCHES, ids=lambda m: m.match_id[-6:])
def test_rebuilt_walls_deal_and_draw_as_recorded(match: PkuMatch) -> None:
    walls = walltiles_of(match)
    for seat, taken in enumerate(tiles_taken(match)):
        own = walls[PER_SEAT_WALL * seat : PER_SEAT_WALL * (seat + 1)]
        assert tuple(reversed(own))[: len(taken)] == taken


@pytest.mark.parametrize("match", MATCHES, ids=lambda m: m.match_id[-6:])
def test_the_judge_mock_replays_the_match(match: PkuMatch) -> None:
    table = play_game(walltiles_of(match), match.prevalent_wind, botzone_responses(match))
    assert table.result is not None
    lines = as_lines(table.history)
    ending = table.result.ending
    if isinstance(ending, Won):
        # The file's writer names the last discard on a self-drawn Hu line, not the draw.
        written = last_discard(lines) if ending.self_drawn else ending.tile
        lines.append((ending.seat, PkuVerb.HU, written))
    else:
        assert ending == WallExhausted()
    assert lines == [(s.seat, s.verb, s.tile) for s in match.steps]
    assert table.result.scores == match.scores


@pytest.mark.parametrize(
    "match", [m for m in MATCHES if m.fan_total is not None], ids=lambda m: m.match_id[-6:]
)
def test_winning_hands_score_the_recorded_fan(match: PkuMatch) -> None:
    table = play_game(walltiles_of(match), match.prevalent_wind, botzone_responses(match))
    assert table.result is not None
    ending = table.result.ending
    assert isinstance(ending, Won)
    assert ending.fan_total == match.fan_total
    assert [(JUDGE_FAN_NAME.get(f.name, f.name), f.count) for f in ending.fans] == list(match.fans)


def test_the_sample_reaches_rules_the_botzone_logs_do_not() -> None:
    """Kongs of every kind, a win beating a pung, a pung beating a chow, draw games."""
    verbs = {s.verb for m in MATCHES for s in m.steps}
    assert {PkuVerb.ANGANG, PkuVerb.GANG, PkuVerb.BUGANG, PkuVerb.CHI} <= verbs
    beaten = {(s.verb, c.verb) for m in MATCHES for s in m.steps for c in s.ignored}
    assert (PkuVerb.HU, PkuVerb.PENG) in beaten and (PkuVerb.PENG, PkuVerb.CHI) in beaten
    fan_names = {name for m in MATCHES for name, _ in m.fans}
    assert {"和绝张", "自摸", "不求人"} <= fan_names


def test_a_kong_replacement_must_come_from_the_kongers_own_wall() -> None:
    match = next(m for m in MATCHES if any(s.verb is PkuVerb.ANGANG for s in m.steps))
    index = next(i for i, s in enumerate(match.steps) if s.verb is PkuVerb.ANGANG)
    konger = match.steps[index].seat
    assert match.steps[index + 1].verb is PkuVerb.DRAW
    assert match.steps[index + 1].seat == konger


def test_walls_that_took_too_many_tiles_are_refused() -> None:
    [match] = parse_pku_datatxt(BLOCK)
    greedy = PkuMatch(
        match.match_id,
        match.prevalent_wind,
        match.deals,
        match.steps[:1] * 22,
        None,
        (),
        (0, 0, 0, 0),
    )
    with pytest.raises(PkuFormatError, match="seat 0 took 35 tiles"):
        walltiles_of(greedy)
