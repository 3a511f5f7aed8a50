"""``mjbot experiment imitate``: fit the planner's discard ranker to the real Botzone logs.

Every seat of the 8 match logs in ``data/botzone-match-logs`` (the rank-1 bot in
all four seats) is rebuilt request by request through a seat session
(:func:`arena.review.replay.seat_turns`), as the agreement bench does.  At each discard
after a draw the planner lists its close discards and their features
(:func:`close_discards`); the logged discard is the choice.
The ranker orders discards only far from 8 fan (from the distance ``useful_from`` on;
nearer, the planner's own order stands), so :func:`strategy.discard_rank.fit` fits the
conditional logit to the far situations, and the agreement counts the planner's own
discard in the near ones.

The honest figure is the held-out one: each log's discards are ranked by weights fitted
on the other seven (leave one log out), so no discard is ranked by weights that saw it.
The in-sample figure (the weights shipped, fitted on all eight) is printed beside it.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from arena.lab.experiments.agreement import LoggedSeat, log_files, logged_seats, pku_seats
from arena.review.replay import seat_turns
from arena.tools.data import DataMissing, pku_sample
from bot.options import positive_float
from bot.planner import SHIPPED_MODEL, Planner
from bot.seat import AskKind, PlayerState
from bot.session import SeatSession
from game.events import Discard
from game.rules import MCR_BOTZONE
from strategy.deadline import Deadline
from strategy.discard_rank import FEATURES, ObservedChoice, agreement, describe, fit
from strategy.policy import choose_discard
from strategy.value import DEFAULT_MODEL, ValueModel

BUDGET = 20_000
"""Kernel calls per decision, as the agreement bench gives."""
L2 = 0.3
"""The penalty on the weights (chosen before the held-out runs: a prior of about unit
scale on each weight)."""


@dataclass(frozen=True)
class CloseDiscards:
    """The discards after a draw within the margin of the best value, as the ranker sees
    them: the kinds, their :data:`strategy.discard_rank.FEATURES` (rows), and whether the
    ranker orders them (the least distance is at least ``useful_from``)."""

    tiles: tuple[int, ...]
    features: np.ndarray
    ranked: bool


def close_discards(planner: Planner, v: PlayerState,
                   deadline: Deadline | None = None) -> CloseDiscards:
    """After a draw (mcr): the discards within the margin of the planner's best value and
    their :data:`strategy.discard_rank.FEATURES`, as its ranker sees them (for fitting
    it): the planner's own steps, as :meth:`bot.planner.Planner._discard_plan` takes them."""
    hand, dz = v.hand, planner._danger(v)
    choice = choose_discard(hand, v.unseen, v.melds_needed, planner.rules, deadline,
                            win_check=planner._fan_check(v), cache=planner._suits)
    outlooks = planner._discard_outlooks(v, hand, (), planner._turns(v), dz)
    steps = [c.tile for c in choice.candidates if c.tile is not None]
    close, x = planner._close_features(v, hand, outlooks, dz, steps)
    return CloseDiscards(tuple(close), x, planner._far(outlooks))


@dataclass(frozen=True)
class Situation:
    """One logged discard after a draw: its log, the close discards, their features."""

    log: int
    close: CloseDiscards
    chosen: int
    """The kind the logged bot discarded."""
    planner: int | None
    """The kind the planner without the ranker (``planner:rank=steps``) discards; None
    for a kong or a win."""

    def choice(self) -> ObservedChoice | None:
        """The fit's observation (None where the ranker does not order the discards or the
        logged discard is not among the close)."""
        if not self.close.ranked or self.chosen not in self.close.tiles:
            return None
        return ObservedChoice(self.close.features, self.close.tiles.index(self.chosen))


def situations(seats: Iterable[LoggedSeat], budget: int = BUDGET,
               model: ValueModel = DEFAULT_MODEL) -> list[Situation]:
    """Every logged discard after a draw with the close discards of the planner on
    ``model`` (``planner-v1``'s unless given; a fresh one for every seat, whose own discard
    is asked through the seat's session)."""
    out: list[Situation] = []
    for seat in seats:
        planner = Planner(MCR_BOTZONE, model=model, ranker=None)
        session = SeatSession(MCR_BOTZONE, planner, work_budget=budget)
        for turn in seat_turns(seat.steps, session):
            played = turn.step.played
            if turn.view.ask.kind is AskKind.DRAW and isinstance(played, Discard):
                close = close_discards(planner, turn.view, Deadline(budget=budget))
                ours = turn.reask(Deadline(budget=budget)).action
                out.append(Situation(seat.log, close, played.tile,
                                     ours.tile if isinstance(ours, Discard) else None))
    return out


def choices(items: Sequence[Situation]) -> list[ObservedChoice]:
    return [c for c in (s.choice() for s in items) if c is not None]


@dataclass(frozen=True)
class FitReport:
    situations: int
    ranked: int
    """Situations where the ranker orders the discards (far from 8 fan)."""
    fitted: int
    """Of those, the ones whose logged discard is among the close (the fit's data)."""
    planner: int
    """Logged discards the planner without the ranker matches."""
    near: int
    """Of those, in the situations the ranker leaves to the planner."""
    in_sample: int
    """Logged discards matched with the ranker fitted on all logs (near: the planner's)."""
    held_out: int
    """The same, each log's far discards ranked by weights fitted on the other logs."""
    weights: tuple[float, ...]


def _near(items: Sequence[Situation]) -> int:
    """Logged discards the planner's own order matches where the ranker does not order
    them (near 8 fan)."""
    return sum(int(not s.close.ranked and s.planner == s.chosen) for s in items)


def fit_and_hold_out(items: Sequence[Situation], l2: float = L2) -> FitReport:
    """The weights fitted on every far situation, and the agreement in sample and held
    out by log (leave one log out)."""
    near = _near(items)
    held = near
    for log in sorted({s.log for s in items}):
        train = choices([s for s in items if s.log != log])
        held += agreement(fit(train, l2), choices([s for s in items if s.log == log]))
    every = choices(items)
    weights = fit(every, l2)
    return FitReport(len(items), sum(int(s.close.ranked) for s in items), len(every),
                     sum(int(s.planner == s.chosen) for s in items), near,
                     near + agreement(weights, every), held,
                     tuple(round(float(w), 4) for w in weights))


def transfer(weights: Sequence[float], items: Sequence[Situation]) -> int:
    """Discards of ``items`` matched with ``weights`` fitted elsewhere (near: the planner's
    own order)."""
    return _near(items) + agreement(weights, choices(items))


DATA = ("logs", "pku", "both")
"""``--data``: the 8 Botzone logs (the rank-1 bot), the PKU sample (16 contest games of
many bots, :func:`arena.tools.data.pku_sample`), or both."""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--l2", type=positive_float, default=L2, help="the penalty on the weights")
    p.add_argument("--data", choices=DATA, default="logs",
                   help="fit to the 8 Botzone logs (default), the PKU sample's 16 contest "
                        "games, or both; with pku, the weights are also scored on the 8 "
                        "logs they never saw")
    p.add_argument("--shipped", action="store_true",
                   help="the planner on the shipped value (mjbot's, bot.planner.SHIPPED_MODEL) "
                        "instead of planner-v1's: mjbot's agreement held out by game")
    p.add_argument("--quick", action="store_true",
                   help="two logs (and two PKU games) only (for tests)")
    p.add_argument("--json", action="store_true", help="print the results as JSON")


def run(args: argparse.Namespace) -> int:
    logs = log_files("mjbot experiment imitate")
    if not logs:
        return 2
    if args.quick:
        logs = logs[:2]
    try:
        pku = pku_sample() if args.data != "logs" else None
    except DataMissing as exc:
        print(f"mjbot experiment imitate: {exc}", file=sys.stderr)
        return 2
    model = SHIPPED_MODEL if args.shipped else DEFAULT_MODEL
    log_items = situations(logged_seats(logs), model=model)
    pku_items = ([] if pku is None else
                 situations(pku_seats(pku, len(logs), 2 if args.quick else None), model=model))
    items = {"logs": log_items, "pku": pku_items, "both": log_items + pku_items}[args.data]
    report = fit_and_hold_out(items, args.l2)
    on_logs = transfer(report.weights, log_items) if args.data == "pku" else None
    if args.json:
        print(json.dumps({"experiment": "imitate", "data": args.data, "logs": len(logs),
                          "value": "shipped" if args.shipped else "planner-v1",
                          "games": len({s.log for s in items}), "l2": args.l2,
                          **report.__dict__, "features": FEATURES,
                          "logs_situations": len(log_items), "logs_agreement": on_logs}))
        return 0

    def pct(k: int, n: int = report.situations) -> str:
        return f"{100.0 * k / n:.1f} %"

    what = {"logs": f"{len(logs)} Botzone logs",
            "pku": f"the PKU sample's {len({s.log for s in items})} games",
            "both": f"{len(logs)} Botzone logs and the PKU sample"}[args.data]
    value = "the shipped value (mjbot)" if args.shipped else "planner-v1's value"
    print(f"the discard ranker fitted to {what} (l2 {args.l2}, work budget {BUDGET}, "
          f"{value}; held out: each game's far discards ranked by weights fitted on the "
          "other games)")
    print(f"discards after a draw            {report.situations}")
    print(f"  far from 8 fan (ranked)        {report.ranked}, of which {report.fitted} "
          "with the logged discard among the close (fitted)")
    print(f"agreement, the planner           {report.planner} ({pct(report.planner)})")
    print(f"agreement, ranked, held out      {report.held_out} ({pct(report.held_out)})")
    print(f"agreement, ranked, in sample     {report.in_sample} ({pct(report.in_sample)})")
    if on_logs is not None:
        print(f"on the {len(logs)} Botzone logs, never fitted  {on_logs} of "
              f"{len(log_items)} ({pct(on_logs, len(log_items))})")
    print(f"weights: {describe(report.weights)}")
    print(f"as source: weights={report.weights}")
    return 0
