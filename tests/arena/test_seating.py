"""Duplicate seatings: each format's defining property, checked by counting."""

from __future__ import annotations

from collections import Counter

import pytest

from arena.stats.seating import SeatingFormat, lineup_for, seated, seatings


def test_rotations_put_every_lineup_entry_in_every_seat_once() -> None:
    rows = seatings(SeatingFormat.ROTATE)
    assert len(rows) == 4
    for seat in range(4):
        assert sorted(r[seat] for r in rows) == [0, 1, 2, 3]
    for r in rows:
        assert sorted(r) == [0, 1, 2, 3]
    # the players keep their order around the table: a rotation, not any permutation
    for r in rows:
        assert all((r[(s + 1) % 4] - r[s]) % 4 == 1 for s in range(4))


def test_teams_two_copies_opposite_each_wall_twice_one_seat_moved() -> None:
    rows = seatings(SeatingFormat.TEAMS)
    lineup = lineup_for(SeatingFormat.TEAMS, ["simcat", "eps"])
    assert lineup == ("simcat", "eps", "simcat", "eps")
    games = [seated(lineup, r) for r in rows]
    assert len(games) == 2
    for g in games:
        assert g[0] == g[2] and g[1] == g[3] and g[0] != g[1]
    # each program sits in each seat once over the wall's two games
    for seat in range(4):
        assert {g[seat] for g in games} == {"simcat", "eps"}


def test_all24_is_every_permutation_once() -> None:
    rows = seatings(SeatingFormat.ALL24)
    assert len(rows) == 24 and len(set(rows)) == 24
    per_seat = Counter((seat, r[seat]) for r in rows for seat in range(4))
    assert set(per_seat.values()) == {6}  # 24 / 4 games with each entry in each seat


def test_lineups() -> None:
    assert lineup_for(SeatingFormat.ROTATE, ["a", "b", "c", "d"]) == ("a", "b", "c", "d")
    assert lineup_for(SeatingFormat.ALL24, ["a", "b"]) == ("a", "b", "a", "b")
    with pytest.raises(ValueError, match="teams"):
        lineup_for(SeatingFormat.TEAMS, ["a", "b", "c", "d"])
    with pytest.raises(ValueError, match="3 players"):
        lineup_for(SeatingFormat.ROTATE, ["a", "b", "c"])


@pytest.mark.parametrize(("programs", "fmt", "per_wall"), [
    (("greedy", "random"), SeatingFormat.TEAMS, 2),
    (("greedy", "random"), SeatingFormat.ROTATE, 2),  # A B A B turned by two is itself
    (("greedy", "random"), SeatingFormat.ALL24, 6),  # 4! / (2! 2!)
    (("greedy", "random", "mjbot", "baseline-v1"), SeatingFormat.ALL24, 24),
    (("greedy", "random", "greedy", "mjbot"), SeatingFormat.ROTATE, 4),
])
def test_a_match_plays_each_distinct_seating_once(programs: tuple[str, ...],
                                                  fmt: SeatingFormat, per_wall: int) -> None:
    from arena.tables.match import MatchConfig

    config = MatchConfig(programs, seating=fmt)
    specs = config.wall_specs(3)
    assert config.games_per_wall == len(specs) == per_wall
    assert len({s.labels for s in specs}) == per_wall
    assert {s.wall for s in specs} == {3}
