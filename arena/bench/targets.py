"""A benchmark's targets, printed one way by every benchmark: the figure, its target,
and ``MISSED`` when the figure does not meet it.

    >>> CALL_US = Target("≤", 2.0, "µs")
    >>> CALL_US.mark(3.85)
    'target ≤ 2 µs: MISSED'
    >>> CALL_US.mark(1.2)
    'target ≤ 2 µs: met'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

MISSED = "MISSED"


@dataclass(frozen=True)
class Target:
    """A bound a figure should keep: at most (``≤``) or at least (``≥``) ``bound``."""

    sense: Literal["≤", "≥"]
    bound: float
    unit: str = ""

    def met(self, value: float) -> bool:
        return value <= self.bound if self.sense == "≤" else value >= self.bound

    def describe(self) -> str:
        unit = f" {self.unit}" if self.unit else ""
        return f"target {self.sense} {self.bound:g}{unit}"

    def mark(self, value: float) -> str:
        """``target ≤ 2 µs: met`` or ``target ≤ 2 µs: MISSED``."""
        return f"{self.describe()}: {'met' if self.met(value) else MISSED}"

    def to_json(self, value: float) -> dict[str, object]:
        """The target beside a figure in a benchmark's ``--json`` row."""
        return {"target": self.describe(), "met": self.met(value)}


def missed_line(missed: int, total: int) -> str:
    """A benchmark's last line: how many of its targets were missed."""
    if total == 0:
        return ""
    if missed == 0:
        return f"all {total} targets met"
    return f"{MISSED}: {missed} of {total} targets"
