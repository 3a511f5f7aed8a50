"""How long a decision may work: a budget of work units, and optionally a clock.

Every search in ``strategy`` counts its work in kernel calls against a :class:`Deadline`
and, when the deadline passes, raises :class:`OutOfTime`; the caller keeps its anytime
answer.  ``strategy`` reads no clock of its own: a clock is handed in with the deadline.
"""

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum


class Cut(Enum):
    """What cut a search short: its work budget (kernel calls) or the clock."""

    BUDGET = "work budget"
    CLOCK = "clock"


class OutOfTime(Exception):
    """The search's deadline passed (``cut``: its work budget or the clock); the caller
    falls back to its anytime answer."""

    def __init__(self, cut: "Cut" = Cut.BUDGET) -> None:
        super().__init__(f"cut by the {cut.value}")
        self.cut = cut


@dataclass
class Deadline:
    """A decision's limit: ``budget`` work units (kernel calls), and, where a ``clock`` is
    given, the time ``until`` which the work may run on it.

    Without a clock a decision depends on its inputs alone, so seeded games replay exactly
    on any machine: the arena and the tests pass a work budget only.  A platform's seat
    session (:class:`bot.session.SeatSession`) passes its clock as well, stopping at 80 %
    of the seat's thinking time, with the default budget as a cap.  ``spent`` counts the
    units used so far.
    """

    budget: int = 1_000_000
    clock: "Callable[[], float] | None" = None
    until: float = float("inf")
    spent: int = 0

    def tick(self, units: int = 1) -> None:
        """Spend ``units``; raise :class:`OutOfTime` when the budget is spent or (checked
        every 64 units) the clock has passed ``until``."""
        self.spent += units
        if self.spent > self.budget:
            raise OutOfTime(Cut.BUDGET)
        if self.clock is not None and (self.spent & 63) == 0 and self.clock() > self.until:
            raise OutOfTime(Cut.CLOCK)

    def check_clock(self) -> None:
        """Raise :class:`OutOfTime` if the clock (if any) has passed ``until``; spends no
        budget (for work measured in whole steps, not kernel calls)."""
        if self.clock is not None and self.clock() > self.until:
            raise OutOfTime(Cut.CLOCK)
