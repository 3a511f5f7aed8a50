"""``mjbot arena`` and ``mjbot experiment sdw`` end to end, in this process."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from arena.cli import main
from arena.records.files import read_record
from arena.stats.sprt import MIN_WALLS


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
    # the mean where the test stopped, adjusted for the stop (arena.stats.sprt_bias): a clear
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
    (["arena", "mjbot", "botzone:nonexistent_prog"],
     "player 'botzone:nonexistent_prog': cannot start 'nonexistent_prog': no such program "
     "on PATH"),
    (["arena", "mjbot", "botzone:./README.md"], "cannot start './README.md': not an "
     "executable file"),
    (["arena", "olympiad:./no/such/client", "greedy", "--rules", "taiwan-16"],
     "cannot start './no/such/client': no such file"),
    (["bench", "agreement", "--strategies", "mjbot", "nobody"],
     "--strategies: player 'nobody': unknown name 'nobody'; known: mjbot, planner-v1"),
    (["bench", "agreement", "--strategies", "botzone:./x"],
     "is a program, not a strategy this bench can ask; in-process players: baseline-v1"),
])
def test_bad_arguments_are_named(argv: list[str], message: str,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    """Refused before any game: exit 2, one line on stderr naming what is wrong."""
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1 and message in err, err


def test_the_agreement_bench_asks_any_in_process_player_of_the_arena() -> None:
    from arena.lab.experiments.agreement import DEFAULT_STRATEGIES, strategy_maker
    from arena.players.lineup import planner_v1
    from game.rules import MCR_BOTZONE

    made = strategy_maker("planner-v1")()
    assert type(made) is type(planner_v1(MCR_BOTZONE))
    assert all(callable(strategy_maker(name)) for name in DEFAULT_STRATEGIES)


def test_a_small_match_plays_in_this_process_and_says_so(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "greedy", "random", "--games", "4", "--json", "--no-progress"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["where"] == "in-process"
    assert "mjbot arena: playing in this process (up to 64 games" in err


def test_workers_without_ray_is_refused_before_any_game(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import arena.commands.arena

    monkeypatch.setattr(arena.commands.arena, "ray_installed", lambda: False)
    assert main(["arena", "greedy", "random", "--workers", "2", "--no-progress"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == ("mjbot arena: --workers 2 plays on Ray, which is not "
                                 "installed: pip install -e '.[cluster]' in the mjbot clone "
                                 "(or --workers 0: "
                                 "in this process)\n")


@pytest.mark.parametrize(("workers", "address", "games", "chosen", "words"), [
    (None, None, 8, 0, "in this process (up to 64 games"),
    (None, None, 64, 0, "in this process (up to 64 games"),
    (0, None, 5000, 0, "in this process (--workers 0)"),
    (3, None, 8, 3, "on a local Ray of 3 CPUs (--workers 3)"),
    (None, "auto", 8, 0, "on the Ray cluster at auto"),
])
def test_where_games_run_by_default(workers: int | None, address: str | None, games: int,
                                    chosen: int, words: str) -> None:
    from arena.tables.runner import choose_workers

    got, why = choose_workers(workers, address, games)
    assert got == chosen and why.startswith(words), why


def test_a_large_match_goes_to_a_local_ray_when_ray_is_installed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import arena.tables.runner
    from arena.tables.runner import choose_workers, default_workers

    monkeypatch.setattr(arena.tables.runner, "ray_installed", lambda: True)
    assert choose_workers(None, None, 65) == (
        default_workers(), f"on a local Ray of {default_workers()} CPUs (65 games; "
        "--workers 0 plays in this process)")
    monkeypatch.setattr(arena.tables.runner, "ray_installed", lambda: False)
    got, why = choose_workers(None, None, 65)
    assert got == 0 and "pip install -e '.[cluster]'" in why


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
        # the stable draw wall keeps most draws, the single wall few (its paper's Table 4)
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
                         "--strategies", "baseline-v1", "planner:rank=steps"])
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


def test_the_text_counts_one_wall_as_one_and_says_when_no_ratio_exists(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "greedy", "random", "--games", "2", "--local", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "2 games on 1 wall," in out and "points/game (1 wall)" in out
    assert "1 walls" not in out
    assert main(["arena", "greedy", "greedy", "--games", "8", "--local", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "none with duplicate seatings (the walls' differences never varied)" in out
    assert "infx" not in out and "inf" not in out.replace("interval", "")


def test_the_plot_counts_walls_in_whole_numbers(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A few walls: matplotlib alone would tick 2.25, 2.5, ... on a count of walls."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from arena.tables.match import MatchConfig, plot, run_match
    from arena.tables.runner import Runner

    config = MatchConfig(("greedy", "random"), games=8, sprt=None)
    with Runner(workers=0) as runner:
        progress = run_match(config, runner, lambda _: None)
    shown: list[list[float]] = []
    real_savefig = matplotlib.figure.Figure.savefig

    def savefig(fig: matplotlib.figure.Figure, *args: object, **kwargs: object) -> None:
        fig.canvas.draw()
        shown.extend([t for t in ax.get_xticks() if ax.get_xlim()[0] <= t <= ax.get_xlim()[1]]
                     for ax in fig.axes)
        real_savefig(fig, *args, **kwargs)

    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", savefig)
    plot(progress, tmp_path / "arena.png")
    plt.close("all")
    assert shown and all(shown)
    assert all(float(t).is_integer() for ticks in shown for t in ticks), shown
