"""``--wall sdw`` for the Olympiad referee: its games are dealt from the stable draw
wall (measured: the draws follow the wall as the stable draw wall paper's Table 4 says they do)."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.cli import main
from arena.records.files import read_record
from game.draw_consistency import (
    DrawConsistency,
    consistent_draws,
    draw_rounds,
    single_wall_references,
)
from game.stable_wall import WallMode


def _consistency(records: Path) -> DrawConsistency:
    total = DrawConsistency(0, 0)
    for path in sorted(records.glob("*.jsonl")):
        record = read_record(path)
        header = record.header
        assert header.walltiles is not None and header.dealer is not None
        references = single_wall_references(list(header.walltiles), header.dealer)
        total = total + consistent_draws(
            references, draw_rounds(record.events, claims_take_rounds=True))
    return total


def test_match_olympiad_on_the_stable_draw_wall(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    rates = {}
    for wall in ("single", "sdw"):
        records = tmp_path / wall
        assert main(["match", "olympiad", "--games", "3", "--seed", "5", "--wall", wall,
                     "--decision-ms", "20000", "--records", str(records), "--json"]) == 0
        capsys.readouterr()
        headers = [read_record(p).header for p in records.glob("*.jsonl")]
        assert len(headers) == 3 and {h.wall_mode for h in headers} == {WallMode(wall)}
        rates[wall] = _consistency(records).rate
    assert rates["sdw"] > 0.85 and rates["single"] < 0.6, rates
