"""Seeded whole games in-process: no illegal action, no false win, records that read back,
and the report as ``mjbot arena`` makes it (rotated seats, intervals clustered by wall)."""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from arena.records.files import read_record
from arena.stats.clustered import GameOutcome, player_stats
from arena.stats.seating import SeatingFormat, seated, seatings
from arena.tables.selfplay import SelfplayGame, play_one, render, report

GAMES = 208


def test_two_hundred_seeded_games_have_no_illegal_action_or_false_win() -> None:
    jobs = [(g, 7, ["mjbot", "greedy", "mjbot", "random"], "mcr-botzone", None)
            for g in range(GAMES)]
    with ProcessPoolExecutor(2) as pool:
        summaries = list(pool.map(play_one, jobs, chunksize=8))
    assert len(summaries) == GAMES
    bad = [s for s in summaries if s.ending == "penalty"]
    assert not bad, bad[:3]
    rows = {r.stats.player: r for r in report(summaries)}
    assert rows["mjbot"].stats.seat_games == 2 * GAMES
    assert rows["mjbot"].stats.walls == GAMES // 4
    assert rows["mjbot"].illegal_actions == 0 and rows["mjbot"].false_wins == 0
    # a sanity bound, not a strength claim: our agent must out-win the random player
    assert rows["mjbot"].stats.win_rate.estimate > rows["random"].stats.win_rate.estimate


def test_the_same_seed_gives_the_same_game(tmp_path: Path) -> None:
    a = play_one((3, 5, ["mjbot", "greedy", "random", "mjbot"], "mcr-botzone", str(tmp_path)))
    b = play_one((3, 5, ["mjbot", "greedy", "random", "mjbot"], "mcr-botzone", None))
    assert a == b
    record = read_record(tmp_path / "game-5-00003.jsonl")
    assert record.header.seats == a.outcome.players
    assert record.result is not None and record.result.scores == a.outcome.scores
    assert record.header.walltiles is not None and len(record.header.walltiles) == 136
    assert record.events and record.decisions


def test_a_wall_is_played_in_the_four_rotations() -> None:
    names = ["mjbot", "greedy", "random", "baseline-v1"]
    played = [play_one((g, 3, names, "mcr-botzone", None)).outcome for g in range(4)]
    assert {o.wall for o in played} == {0}
    assert [o.players for o in played] == [seated(names, s)
                                           for s in seatings(SeatingFormat.ROTATE)]
    for name in names:
        assert sorted(s for o in played for s in o.seats_of(name)) == [0, 1, 2, 3]


def _summary(game: int, scores: tuple[float, float, float, float], winner: int | None,
             illegal: int | None = None) -> SelfplayGame:
    names = seated(["p", "q", "r", "s"], seatings(SeatingFormat.ROTATE)[game % 4])
    outcome = GameOutcome(game // 4, names, scores, winner, winner is not None, None,
                          8 if winner is not None else None)
    flags = tuple(seat == illegal for seat in range(4))
    return SelfplayGame(game, outcome, flags, (False,) * 4, "win")  # type: ignore[arg-type]


def test_the_report_is_the_arenas_clustered_by_wall_with_the_counts_by_player() -> None:
    """Two walls whose four games all went alike: the intervals are over the two walls (t
    with one degree of freedom), not over eight seat-games; an illegal answer counts for
    the player in the seat that made it."""
    games = [_summary(g, (24.0, -8.0, -8.0, -8.0) if g < 4 else (-8.0, -8.0, -8.0, 24.0),
                      0 if g < 4 else 3, illegal=1 if g == 5 else None) for g in range(8)]
    rows = {r.stats.player: r for r in report(games)}
    outcomes = [g.outcome for g in games]
    for name, row in rows.items():
        assert row.stats == player_stats(outcomes, name)
        assert row.stats.score.samples == 2 and row.stats.seat_games == 8
    # seat 1 of game 5 (rotation 1) is the lineup's first player
    assert {n: r.illegal_actions for n, r in rows.items()} == {"p": 1, "q": 0, "r": 0, "s": 0}
    text = render(list(rows.values()), 8, 3)
    assert text.splitlines()[0] == ("8 games on 2 walls, seed 3; each wall played 4 times "
                                    "with the players rotated")
    assert "clustered by wall" in text and "independent" not in text
    p_line = next(line for line in text.splitlines() if line.startswith("p "))
    assert p_line.split()[-2:] == ["1", "0"] and "8.0" in p_line
