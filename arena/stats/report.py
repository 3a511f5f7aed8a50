"""The players' figures as the arena's commands print them: one table, one notation.

``mjbot arena`` and ``mjbot selfplay`` show :class:`arena.stats.clustered.PlayerStats`
the same way: a figure with ``±`` the half-width of its interval (none when a single wall
gives no spread), the intervals explained once above the table.
"""

from __future__ import annotations

import math

from arena.stats.clustered import Interval, PlayerStats

INTERVALS = ("intervals: ± the half-width of a 95 % Student's t interval on the per-wall "
             "means (clustered by wall); none with a single wall")
PLACE_POINTS = ("place pts: placement points per seat-game, 4/3/2/1 for the game's 1st-4th "
                "score (ties share): higher is better, not a mean rank")
PLAYER_HEADER = (f"{'player':<28} {'seat-games':>10} {'score/game':>15} {'place pts':>12} "
                 f"{'win %':>12} {'self-draw %':>11} {'deal-in %':>10} {'fan/win':>7}")


def with_interval(i: Interval, scale: float = 1.0, digits: int = 2) -> str:
    """``estimate ±half-width`` (times ``scale``); the estimate alone without an interval."""
    if not math.isfinite(i.half_width):
        return f"{i.estimate * scale:.{digits}f}"
    return f"{i.estimate * scale:.{digits}f} ±{i.half_width * scale:.{digits}f}"


def player_line(p: PlayerStats) -> str:
    """One row of the table :data:`PLAYER_HEADER` heads."""
    fan = "-" if p.mean_fan is None else f"{p.mean_fan:.1f}"
    return (f"{p.player:<28} {p.seat_games:>10} {with_interval(p.score):>15} "
            f"{with_interval(p.placement):>12} {with_interval(p.win_rate, 100, 1):>12} "
            f"{p.self_draw_rate.estimate * 100:>11.1f} "
            f"{p.deal_in_rate.estimate * 100:>10.1f} {fan:>7}")


__all__ = ["INTERVALS", "PLACE_POINTS", "PLAYER_HEADER", "player_line", "with_interval"]
