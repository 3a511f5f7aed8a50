"""Decision latency of in-process players over whole seeded games, and the games'
penalties (an illegal answer or a false win ends a Botzone game with a penalty).

    python -m arena.bench.planner --games 8 planner baseline-v1 baseline-v1 baseline-v1

prints, per player (and per kind of ask: after a draw, on a discard), the decisions timed
and their p50/p99/max in milliseconds, and how many games ended in a penalty of that
player.  The first game's decisions include the
jit compilation (run ``--warmup 1`` to leave it out).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import defaultdict

from arena.games import GameSpec, Rules, finish_mcr, play_mcr_table
from arena.lineup import ArenaSeat, parse_player
from arena.stats import GameOutcome
from game.events import Action, Pass


def play_timed(spec: GameSpec, times: dict[str, list[float]]) -> GameOutcome:
    def timed(s: int, player: ArenaSeat) -> Action:
        if not player.asked:
            return Pass()
        kind = player.view.ask.kind.value
        t0 = time.perf_counter()
        action = player.decide()
        ms = (time.perf_counter() - t0) * 1e3
        times[spec.labels[s]].append(ms)
        times[f"{spec.labels[s]} ({kind})"].append(ms)
        return action

    table = play_mcr_table(spec, timed)
    return finish_mcr(spec, table.walltiles, table.history, table.result, []).outcome


def _quantile(xs: list[float], q: float) -> float:
    ys = sorted(xs)
    return ys[min(len(ys) - 1, int(q * len(ys)))]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("players", nargs=4)
    p.add_argument("--games", type=int, default=4)
    p.add_argument("--warmup", type=int, default=0)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    for text in args.players:
        parse_player(text)
    times: dict[str, list[float]] = defaultdict(list)
    penalties: dict[str, int] = defaultdict(int)
    wins: dict[str, int] = defaultdict(int)
    games = 0
    for g in range(args.warmup + args.games):
        rot = g % 4
        players = tuple(args.players[(s - rot) % 4] for s in range(4))
        spec = GameSpec(Rules.MCR_BOTZONE, args.seed, g // 4, rot,
                        (players[0], players[1], players[2], players[3]),
                        (players[0], players[1], players[2], players[3]))
        sink: dict[str, list[float]] = defaultdict(list) if g < args.warmup else times
        outcome = play_timed(spec, sink)
        if g < args.warmup:
            continue
        games += 1
        if outcome.penalized is not None:
            penalties[outcome.players[outcome.penalized]] += 1
        if outcome.winner is not None:
            wins[outcome.players[outcome.winner]] += 1
    rows = {name: {"decisions": len(xs), "p50_ms": statistics.median(xs),
                   "p99_ms": _quantile(xs, 0.99), "max_ms": max(xs),
                   "penalties": penalties[name], "wins": wins[name]}
            for name, xs in times.items()}
    if args.json:
        print(json.dumps({"games": games, "players": rows}))
        return 0
    print(f"{games} games (mcr-botzone, seed {args.seed}, seats rotated)")
    print(f"{'player':<28}{'decisions':>10}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}"
          f"{'penalties':>10}{'wins':>6}")
    for name, r in sorted(rows.items()):
        print(f"{name:<28}{r['decisions']:>10}{r['p50_ms']:>9.2f}{r['p99_ms']:>9.2f}"
              f"{r['max_ms']:>9.1f}{r['penalties']:>10}{r['wins']:>6}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
