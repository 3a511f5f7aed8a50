"""The command line: deficiency, advise and the benchmarks' JSON output."""

from __future__ import annotations

import json

import pytest

from arena.cli import main


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def test_deficiency_command(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "deficiency", "1112345678999m", "--json")
    assert out["deficiency"] == 1 and len(out["useful_tiles"]) == 9
    out = run_json(capsys, "deficiency", "(C1C4C6C7C8C9)(D1D2D3D6D6D7D8)", "--rules",
                   "mahjong-0", "--unseen", "010000030 032242321 001100121", "--json")
    assert out["deficiency"] == 4


def test_five_of_a_tile_exits_non_zero_naming_it(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deficiency", "W1 W1 W1 W1 W2 W3 W4 W5 W6 W7 W8 W9 W9", "--unseen",
                 "W1"]) == 2
    assert "1m" in capsys.readouterr().err
    assert main(["deficiency", "W1 W1 W1 W1 W1 W3 W4 W5 W6 W7 W8 W9 W9"]) == 2
    assert "five copies of 1m" in capsys.readouterr().err


def test_advise_reproduces_example_3(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "advise", "(B1B2B3B7B8B9)(C2C2C2)(D1D2D3D5D9)", "--rules",
                   "mahjong-0", "--unseen", "000000000 010110001 000000000", "--json")
    assert out["action"] == "discard" and out["tile"] == "9p"
    assert out["candidates"][0]["value"] == pytest.approx(7 / 12)


def test_bench_deficiency_quick_json(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "bench", "deficiency", "--quick", "--json")
    methods = {r["method"] for r in out["rows"]}
    assert "production kernel (batch, per hand)" in methods and len(out["rows"]) == 18
    for r in out["rows"]:
        if r["method"].startswith(("production", "quadtree")):
            assert r["agree_with_kernel"] == r["pairs"]


def test_bench_decide_quick_json(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "bench", "decide", "--quick", "--json")
    assert out["rows"][0]["rules"] == "all" and out["rows"][0]["n"] > 40


def test_bench_selfplay_quick_json(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "bench", "selfplay", "--quick", "--json")
    rows = out["rows"]
    assert rows["start-up to first answer, s (median)"] > 0
    assert 20 < rows["peak resident memory over a game, MB"] < 1000
    assert out["refereed_games"] == 2
    assert any(name.startswith("referee botzone games/s") for name in rows)
    assert all(v > 0 for v in rows.values())


@pytest.mark.parametrize("thinkers", ["0", "1"])
def test_match_olympiad_json(capsys: pytest.CaptureFixture[str], thinkers: str) -> None:
    out = run_json(capsys, "match", "olympiad", "--tables", "2", "--decision-ms", "3000",
                   "--thinkers", thinkers, "--json")
    assert len(out["games"]) == 2 and sum(out["totals_by_seat"]) == 0
    assert all(g["violations"] == [] for g in out["games"])


def test_match_olympiad_refuses_negative_thinkers(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "olympiad", "--thinkers", "-1"]) == 2
    assert "--thinkers" in capsys.readouterr().err
