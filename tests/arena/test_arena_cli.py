"""``mjbot arena`` and ``mjbot experiment sdw`` end to end, in this process."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from arena.cli import main
from arena.records import read_record
from arena.sprt import MIN_WALLS


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict[str, Any]:
    assert main(argv) == 0
    out = capsys.readouterr().out
    data: dict[str, Any] = json.loads(out)
    return data


def test_tiny_match_gives_table_json_plot_and_replayable_records(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records = tmp_path / "records"
    data = _run(capsys, ["arena", "mjbot:budget=300", "greedy", "--games", "8", "--local",
                         "--records", str(records), "--json", "--no-progress"])
    assert data["games"] == 8 and data["walls"] == 4  # teams: two games per wall
    assert data["seating"] == "teams" and data["rules"] == "mcr-botzone"
    players = {p["player"]: p for p in data["players"]}
    assert set(players) == {"mjbot:budget=300", "greedy"}
    assert all(p["seat_games"] == 16 for p in players.values())
    # A - B is the difference of the two players' mean scores (same games, same weights)
    diff = data["difference"]["estimate"]
    a, b = (players[n]["score"]["estimate"] for n in ("mjbot:budget=300", "greedy"))
    assert diff == pytest.approx(a - b)
    # Botzone's per-seat walls: every draw follows the wall
    consistent = data["consistent_draws"]
    assert consistent["rate"] == 1.0 and consistent["draws"] > 100
    plot = Path(str(data["plot"]))
    assert plot.parent == records and plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    files = sorted(records.glob("game-*.jsonl"))
    assert len(files) == 8
    summary = json.loads((records / "summary.json").read_text())
    assert summary["games"] == 8
    record = read_record(files[0])
    assert record.header.seats == ("mjbot:budget=300", "greedy") * 2
    assert record.result is not None and len(record.events) > 50
    # any game replays
    assert main(["replay", str(files[1]), "--seat", "1"]) == 0
    assert "requests" in capsys.readouterr().out


def test_text_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "greedy", "random", "--rules", "taiwan-16", "--wall", "sdw",
                 "--seating", "all24", "--games", "24", "--local", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "24 games on 4 walls" in out and "all24 seating" in out  # 6 distinct per wall
    assert "A - B = greedy - random" in out and "consistent draws" in out


@pytest.mark.parametrize(("h0", "h1", "state"), [("0", "3", "accept H1"),
                                                 ("25", "28", "accept H0")])
def test_sprt_stops_a_clear_match(h0: str, h1: str, state: str,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    """greedy against random (mcr-botzone) gains about 16 points per game: a test of
    0 against 3 accepts H1, one of 25 against 28 accepts H0, both long before the cap."""
    data = _run(capsys, ["arena", "greedy", "random", "--sprt", h0, h1, "--max-games", "800",
                         "--local", "--json", "--no-progress"])
    sprt = data["sprt"]
    assert sprt["state"] == state
    assert abs(sprt["llr"]) >= 2.94  # log(0.95 / 0.05)
    assert data["games"] < 800
    assert 3 < data["difference"]["estimate"] < 25
    # the mean where the test stopped, adjusted for the stop (arena.sprt_bias): a clear
    # difference, decided by its size at the first walls allowed, hardly moves
    assert sprt["adjusted"] == pytest.approx(data["difference"]["estimate"], abs=1.0)


def test_two_copies_of_one_deterministic_program_differ_by_nothing(
        capsys: pytest.CaptureFixture[str]) -> None:
    data = _run(capsys, ["arena", "greedy", "greedy", "--sprt", "0", "3", "--local", "--json",
                         "--no-progress"])
    assert data["b"] == "greedy#2" and data["difference"]["estimate"] == 0.0
    assert data["sprt"]["state"] == "accept H0" and data["walls"] == MIN_WALLS
    assert data["sprt"]["adjusted"] == 0.0  # no variance: nothing leans on luck
    assert data["variance_reduction"]["ratio"] is None  # infinite: no variance at all


@pytest.mark.parametrize(("argv", "message"), [
    (["arena", "mjbot", "greedy", "random"], "3 players"),
    (["arena", "mjbot", "nobody"], "unknown name 'nobody'"),
    (["arena", "mjbot", "greedy", "--wall", "sdw"], "taiwan-16 wall mode"),
    (["arena", "mjbot", "greedy", "--games", "4", "--sprt", "0", "1"], "not both"),
    (["arena", "botzone:./x", "greedy", "--rules", "taiwan-16"], "mcr-botzone only"),
])
def test_bad_arguments_are_named(argv: list[str], message: str,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_experiment_sdw_quick(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    dump = tmp_path / "games.jsonl"
    data = _run(capsys, ["experiment", "sdw", "--quick", "--workers", "0", "--json",
                         "--no-progress", "--budget", "200", "--dump", str(dump)])
    assert len(dump.read_text().splitlines()) == 6 * 16
    again = _run(capsys, ["experiment", "sdw", "--from-dump", str(dump), "--json"])
    assert again["cells"] == data["cells"]  # the tables come back from the dump alone
    cells = data["cells"]
    assert isinstance(cells, list) and len(cells) == 6
    by = {(c["epsilon"], c["wall"]): c for c in cells}
    for eps in (1.0, 0.5, 0.2):
        single, sdw = by[(eps, "single")], by[(eps, "sdw")]
        assert single["games"] == sdw["games"] == 16
        # the stable draw wall keeps most draws, the single wall few (paper 002, Table 4)
        assert sdw["consistent"] > 80 > 50 > single["consistent"]
        assert sum(sdw[f"rsf_{k}"] for k in ("0", "1", "2", "3+")) == pytest.approx(100)
        assert 0 < single["r_steal"] < 100


def test_experiment_imitate_quick(capsys: pytest.CaptureFixture[str]) -> None:
    """The ranker fitted to two logs' far discards, each log's also ranked by weights
    fitted on the other; the near ones are the planner's."""
    from strategy.discard_rank import FEATURES

    data = _run(capsys, ["experiment", "imitate", "--quick", "--json"])
    assert data["logs"] == 2 and data["situations"] > 50
    assert 0 < data["fitted"] <= data["ranked"] < data["situations"]
    assert data["near"] <= data["planner"]
    for figure in ("held_out", "in_sample"):
        assert data["near"] < data[figure] <= data["near"] + data["fitted"]
    assert len(data["weights"]) == len(FEATURES)


def test_experiment_imitate_on_the_pku_sample_scores_the_logs_it_never_saw(
        capsys: pytest.CaptureFixture[str]) -> None:
    """``--data pku``: fitted to the contest games, held out by game, and the weights also
    scored on the Botzone logs, none of whose discards they were fitted to."""
    data = _run(capsys, ["experiment", "imitate", "--quick", "--data", "pku", "--json"])
    assert data["data"] == "pku" and data["games"] == 2 and data["situations"] > 40
    assert 0 < data["fitted"] <= data["ranked"] < data["situations"]
    assert 0 < data["logs_agreement"] <= data["logs_situations"]
    logs = _run(capsys, ["experiment", "imitate", "--quick", "--json"])
    assert data["logs_situations"] == logs["situations"]  # the same two logs
    assert logs["logs_agreement"] is None


def test_bench_agreement_on_the_pku_sample_counts_its_discards_after_a_draw(
        capsys: pytest.CaptureFixture[str]) -> None:
    """``--data pku --quick``: the first contest game; every ``Play`` right after the same
    player's ``Draw`` is a discard after a draw, counted once per strategy."""
    import itertools
    import re

    from support import pku_sample

    first = ("\n" + pku_sample().read_text(encoding="utf-8")).split("\nMatch ")[1]
    lines = first.split("\nScore ")[0].splitlines()
    expected = sum(1 for a, b in itertools.pairwise(lines)
                   if (m := re.match(r"Player (\d) Draw ", a)) and b.startswith(
                       f"Player {m.group(1)} Play "))
    data = _run(capsys, ["bench", "agreement", "--quick", "--data", "pku", "--json",
                         "--strategies", "baseline-v1", "planner:rank=pku"])
    assert data["data"] == "pku" and expected > 20
    for row in data["rows"]:
        assert row["discards"] == expected
        assert 0 < row["discard_agreement_pct"] <= 100


def test_experiment_imitate_shipped_ranks_the_shipped_planners_close_discards(
        capsys: pytest.CaptureFixture[str]) -> None:
    """``--shipped``: the same logged discards, the close ones and the near answers the
    shipped value's (mjbot's), and planner-v1's without it."""
    v1 = _run(capsys, ["experiment", "imitate", "--quick", "--json"])
    shipped = _run(capsys, ["experiment", "imitate", "--quick", "--json", "--shipped"])
    assert (v1["value"], shipped["value"]) == ("planner-v1", "shipped")
    assert shipped["situations"] == v1["situations"]
    assert shipped["near"] <= shipped["held_out"] <= shipped["near"] + shipped["fitted"]
