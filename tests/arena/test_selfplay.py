"""Seeded whole games in-process: no illegal action, no false win, records that read back."""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from arena.records.files import read_record
from arena.tables.selfplay import play_one, report, tally

GAMES = 208


def test_two_hundred_seeded_games_have_no_illegal_action_or_false_win() -> None:
    jobs = [(g, 7, ["mjbot", "greedy", "mjbot", "random"], "mcr-botzone", None)
            for g in range(GAMES)]
    with ProcessPoolExecutor(2) as pool:
        summaries = list(pool.map(play_one, jobs, chunksize=8))
    assert len(summaries) == GAMES
    bad = [s for s in summaries if s.ending == "Penalized"]
    assert not bad, bad[:3]
    rows = {r["player"]: r for r in report(tally(summaries))}
    assert rows["mjbot"]["seat_games"] == 2 * GAMES
    assert rows["mjbot"]["illegal_actions"] == 0 and rows["mjbot"]["false_wins"] == 0
    # a sanity bound, not a strength claim: our agent must out-win the random player
    assert rows["mjbot"]["win_rate"] > rows["random"]["win_rate"]


def test_the_same_seed_gives_the_same_game(tmp_path: Path) -> None:
    a = play_one((3, 5, ["mjbot", "greedy", "random", "mjbot"], "mcr-botzone", str(tmp_path)))
    b = play_one((3, 5, ["mjbot", "greedy", "random", "mjbot"], "mcr-botzone", None))
    assert a == b
    record = read_record(tmp_path / "game-5-00003.jsonl")
    assert record.header.seats == tuple(s.player for s in a.seats)
    assert record.result is not None and record.result.scores == tuple(s.score for s in a.seats)
    assert record.header.walltiles is not None and len(record.header.walltiles) == 136
    assert record.events and record.decisions


def test_one_win_prints_its_fan_without_an_interval() -> None:
    """``mean fan 10.0 ± 0.0`` from one win claimed a spread nobody measured."""
    from arena.tables.selfplay import Tally, render, report

    one = Tally(games=4, wins=1, scores=[24, -8, -8, -8], fans=[10])
    none = Tally(games=4, scores=[0, 0, 8, -8])
    text = render(report({"mjbot": one, "greedy": none}), 4)
    assert "intervals: 95 %" in text and "± 0.0" not in text
    assert "10.0 (1 win)" in text
