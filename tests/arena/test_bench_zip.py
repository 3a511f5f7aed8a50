"""``mjbot bench zip`` counts its fallbacks per decision from the zip's decision log."""

from __future__ import annotations

from arena.bench.zip import _kind, fell_back, missed, summarise, was_cut


def test_what_each_request_asks() -> None:
    assert _kind("2 W5") == "draw"
    assert _kind("3 1 PLAY B3") == "discard"
    assert _kind("3 2 PENG J1") == "discard"
    assert _kind("3 3 CHI T4 T7") == "discard"
    assert _kind("3 1 BUGANG F2") == "kong"
    assert _kind("3 1 DRAW") is None


def test_a_fallback_is_the_agent_out_of_time_or_the_session_s_replacement() -> None:
    assert fell_back({"method": "dp", "note": "the value ran out of time, the step-value agent "
                      "answers: by deficiency"})
    assert fell_back({"method": "fallback", "note": "late"})
    assert not fell_back({"method": "claim", "note": "pass: to win 3 in 8 turns"})


def test_a_decision_cut_short_is_the_planners_but_counted_apart() -> None:
    assert was_cut({"method": "search", "note": "by value: 7z [the clock cut the useful "
                    "draws: step-value order]"})
    assert was_cut({"method": "search (cut by the clock)", "note": "by value: 7z [the clock "
                    "cut the step-value search]"})
    assert not was_cut({"method": "search (cut by work budget)", "note": "by value: 7z"})
    assert not was_cut({"method": "search", "note": "by value: 7z"})
    assert not was_cut({"method": "dp", "note": "the value ran out of time, the step-value agent "
                        "answers: by deficiency"})


def test_the_summary_counts_decisions_and_fallbacks_per_kind() -> None:
    raw = {"turns": [0.1, 0.2, 1.7, 0.01, 0.3],
           "decisions": [("draw", 0.2, False, 0.15, True), ("draw", 1.7, True, 1.2, False),
                         ("discard", 0.01, False, 0.0, False),
                         ("discard", 0.3, False, 0.2, False)],
           "peak_mb": 40.0, "penalties": 0, "seconds": 3.0}
    row = summarise(raw, games=1, load=2)
    assert (row["decisions"], row["fallbacks"], row["fallback_pct"]) == (4, 1, 25.0)
    assert (row["cut"], row["cut_pct"]) == (1, 25.0)
    assert (row["draw_decisions"], row["draw_fallbacks"], row["draw_max_s"]) == (2, 1, 1.7)
    assert (row["discard_decisions"], row["discard_fallbacks"]) == (2, 0)
    assert row["draw_max_cpu_s"] == 1.2 and row["over_clock"] == 1
    assert missed(row) == ["draw_p99_s", "fallback_pct"]


def test_the_bench_reports_per_interpreter(capsys) -> None:
    """``--python`` names the interpreter each row was played under."""
    import json
    import platform
    import sys

    from arena.cli import main

    assert main(["bench", "zip", "--games", "1", "--json", "--python", sys.executable]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    assert [(r["python"], r["version"]) for r in rows] == [
        (sys.executable, f"CPython {platform.python_version()}")]
    assert rows[0]["penalties"] == 0 and rows[0]["decisions"] > 0
