"""Every benchmark prints its targets one way, and flags a figure that misses one."""

from __future__ import annotations

from arena.bench.deficiency_call import render, with_targets
from arena.bench.targets import Target, missed_line


def test_a_target_is_met_or_missed() -> None:
    at_most, at_least = Target("≤", 2.0, "µs"), Target("≥", 20, "games/s")
    assert at_most.mark(3.85) == "target ≤ 2 µs: MISSED"
    assert at_most.mark(2.0) == "target ≤ 2 µs: met"
    assert at_least.mark(12.5) == "target ≥ 20 games/s: MISSED"
    assert at_least.to_json(25.0) == {"target": "target ≥ 20 games/s", "met": True}
    assert missed_line(3, 3) == "MISSED: 3 of 3 targets"
    assert missed_line(0, 2) == "all 2 targets met"


def test_bench_call_flags_a_call_over_its_target() -> None:
    rows: list[dict[str, object]] = [
        {"tiles": 14, "call": "deficiency(hand, 4)", "median_us": 3.85, "cpu_median_us": 3.0},
        {"tiles": 14, "call": "deficiency(hand, 4, kb)", "median_us": 1.5, "cpu_median_us": 1.4},
        {"tiles": 14, "call": "kernel_deficiency(hand, kb, 4)", "median_us": 1.4,
         "cpu_median_us": 1.3},
    ]
    lines = render(rows).splitlines()
    assert lines[1].endswith("3.85     3.00      2.75  target ≤ 2 µs: MISSED")
    assert lines[2].endswith("target ≤ 2 µs: met")
    assert "target" not in lines[3]
    assert lines[-1] == "MISSED: 1 of 2 targets"
    assert [r.get("met") for r in with_targets(rows)] == [False, True, None]
