"""``mjbot selfplay --rules taiwan-16 --wall sdw``: the arena's taiwan-16 games in self-play."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.cli import main
from arena.records.files import read_record
from game.stable_wall import WallMode


def test_selfplay_taiwan_on_the_stable_draw_wall(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "--rules", "taiwan-16", "--wall", "sdw", "--games", "4",
                 "--agents", "mjbot", "greedy", "random", "greedy", "--records",
                 str(tmp_path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    rows = {r["player"]: r for r in out["players"]}
    assert rows["greedy"]["seat_games"] == 8 and rows["mjbot"]["seat_games"] == 4
    assert sum(r["score"]["estimate"] * r["seat_games"] for r in rows.values()) == \
        pytest.approx(0)
    assert rows["mjbot"]["illegal_actions"] == 0 and rows["mjbot"]["score"]["samples"] == 1
    headers = [read_record(p).header for p in sorted(tmp_path.glob("game-*.jsonl"))]
    assert len(headers) == 4 and {h.wall_mode for h in headers} == {WallMode.SDW}
    assert {h.wall_index for h in headers} == {0}  # one wall, four rotations


def test_selfplay_refuses_sdw_for_botzone(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "--wall", "sdw"]) == 2
    assert "taiwan-16 wall mode" in capsys.readouterr().err
