"""``mjbot bench sampling``: the sampling search's speed and decision latency.

Plays seeded mcr-botzone games with four ``planner`` seats and keeps every decision of
one seat (after a draw, or on a discard it could claim) as a situation.  Then, for each
budget, :class:`bot.sampling_planner.SamplingPlanner` decides every situation:

- rollout budgets (``rollouts=N``, no clock): deterministic, CPU-independent;
- wall-clock budgets (``think=S``): the deadline the Botzone seat gives it (80 % of the
  thinking time, as :class:`bot.session.SeatSession` does), no rollout cap.

It prints, per budget, how many decisions were sampled
(the others had no close rival), the rollouts per CPU second of the sampling alone (the
median over sampled decisions, timed by the process CPU clock around
:func:`strategy.sampling.compare`, so a loaded machine changes it little), and the decision
latency p50/p99/max over all decisions and over the sampled ones (wall-clock
milliseconds, the planner's own work included).  The first decisions compile numba
kernels: a warm-up decision runs first.
"""

from __future__ import annotations

import argparse
import copy
import json
import statistics
import time

from arena.players.lineup import ArenaSeat
from arena.tables.games import GameSpec, Rules, play_mcr_table, seat_answer
from bot.planner import Planner
from bot.sampling_planner import SamplingPlanner
from bot.seat import AskKind, PlayerState
from game.events import Action, ClaimChow, ClaimKong, ClaimPung, claim_of
from game.rules import MCR_BOTZONE
from strategy.deadline import Deadline
from strategy.sampling import Budget, compare

ROLLOUT_BUDGETS = (16, 64, 256)
THINK_BUDGETS = (0.5, 2.0)
WORK_BUDGET = 4_000


def situations(seed: int, games: int, seat: int = 0) -> list[PlayerState]:
    """Copies of one seat's view at each of its decisions in ``games`` planner games."""
    out: list[PlayerState] = []

    def kept(s: int, player: ArenaSeat) -> Action:
        ask = player.view.ask
        if s == seat and player.asked and (ask.kind is AskKind.DRAW or any(
                isinstance(claim_of(a), ClaimPung | ClaimChow | ClaimKong) for a in ask.legal)):
            out.append(copy.deepcopy(player.view))
        return seat_answer(s, player)

    for g in range(games):
        play_mcr_table(GameSpec(Rules.MCR_BOTZONE, seed, g, 0, ("planner",) * 4,
                                ("planner",) * 4), kept)
    return out


def _quantile(xs: list[float], q: float) -> float:
    ys = sorted(xs)
    return ys[min(len(ys) - 1, int(q * len(ys)))] if ys else 0.0


def _latency(xs: list[float]) -> dict[str, float]:
    if not xs:
        return {"p50_ms": 0.0, "p99_ms": 0.0, "max_ms": 0.0}
    return {"p50_ms": statistics.median(xs), "p99_ms": _quantile(xs, 0.99),
            "max_ms": max(xs)}


def rollout_speed(views: list[PlayerState], rollouts: int) -> list[float]:
    """Rollouts per CPU second of :func:`strategy.sampling.compare` alone, per sampled
    decision (the candidates the sampling planner would compare, ``rollouts`` of them)."""
    from bot.sampling_planner import knowledge, seat_seed

    agent = SamplingPlanner(MCR_BOTZONE, rollouts=rollouts)
    out = []
    for view in views:
        agent.reset()
        v = copy.deepcopy(view)
        base = Planner.decide(agent, v, Deadline(budget=WORK_BUDGET))
        options = agent._options(v, base)
        if len(options) < 2:
            continue
        k = knowledge(v)
        t0 = time.process_time()
        r = compare(k, [line for _, line, _ in options], seat_seed(v), Budget(rollouts))
        cpu = time.process_time() - t0
        if cpu > 0:
            out.append(r.rollouts / cpu)
    return out


def measure(views: list[PlayerState], rollouts: int | None, think: float | None
            ) -> dict[str, object]:
    agent = SamplingPlanner(MCR_BOTZONE, rollouts=rollouts)
    every, sampled = [], []
    played, sampling_s, changed = 0, 0.0, 0
    for view in views:
        agent.reset()
        v = copy.deepcopy(view)
        if think is None:
            deadline = Deadline(budget=WORK_BUDGET)
        else:
            deadline = Deadline(budget=WORK_BUDGET, clock=time.monotonic,
                                until=time.monotonic() + 0.8 * think)
        t0 = time.perf_counter()
        decision = agent.decide(v, deadline)
        ms = (time.perf_counter() - t0) * 1e3
        every.append(ms)
        if agent.last is not None:
            sampled.append(ms)
            played += agent.last.rollouts
            sampling_s += ms / 1e3
            changed += decision.method.value == "sampled"
    speed = rollout_speed(views, rollouts) if rollouts is not None else []
    return {"budget": f"rollouts={rollouts}" if think is None else f"think={think}",
            "decisions": len(every), "sampled": len(sampled), "changed": changed,
            "rollouts": played,
            "rollouts_per_s": played / sampling_s if sampling_s > 0 else 0.0,
            "rollouts_per_cpu_s_median": statistics.median(speed) if speed else 0.0,
            "all": _latency(every), "when_sampled": _latency(sampled)}


def main(args: argparse.Namespace) -> int:
    games = 1 if args.quick else 3
    views = situations(args.seed, games)
    if args.quick:
        views = views[:12]
    rows = []
    measure(views[:2], 8, None)  # compile the kernels
    rows += [measure(views, n, None) for n in ((8,) if args.quick else ROLLOUT_BUDGETS)]
    rows += [measure(views, None, s) for s in ((0.2,) if args.quick else THINK_BUDGETS)]
    if args.json:
        print(json.dumps({"situations": len(views), "seed": args.seed, "rows": rows}))
        return 0
    print(f"{len(views)} decisions of seat 0 in {games} planner games (mcr-botzone, seed "
          f"{args.seed})")
    print(f"{'budget':<16}{'sampled':>8}{'changed':>8}{'rollouts/s':>11}"
          f"{'/cpu s':>8}"
          f"{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}   {'sampled: p50':>12}{'p99':>8}"
          f"{'max':>8}")
    for r in rows:
        a, s = r["all"], r["when_sampled"]
        assert isinstance(a, dict) and isinstance(s, dict)
        print(f"{r['budget']!s:<16}{r['sampled']!s:>8}{r['changed']!s:>8}"
              f"{r['rollouts_per_s']:>11.0f}{r['rollouts_per_cpu_s_median']:>8.0f}"
              f"{a['p50_ms']:>9.1f}{a['p99_ms']:>9.1f}"
              f"{a['max_ms']:>9.1f}   {s['p50_ms']:>12.1f}{s['p99_ms']:>8.1f}"
              f"{s['max_ms']:>8.1f}")
    return 0
