"""``mjbot bench planner``'s stage clock: exclusive times that add up."""

from __future__ import annotations

from arena.bench.planner import Stages


def test_a_stage_inside_another_counts_for_itself_only() -> None:
    now = [0.0]

    def clock() -> float:
        return now[0]

    stages = Stages(clock)

    def inner() -> str:
        now[0] += 2.0
        return "inner"

    def outer() -> str:
        now[0] += 1.0
        got = stages.run("inner", inner)
        now[0] += 3.0
        return got

    assert stages.run("outer", outer) == "inner"
    assert stages.total == {"outer": 4.0, "inner": 2.0}
    assert stages.calls == {"outer": 1, "inner": 1}
    wrapped = stages.wrap("inner", inner)
    assert wrapped() == "inner" and stages.total["inner"] == 4.0
