"""``mjbot bench NAME``: benchmark scripts that print a table of medians and ratios."""

from __future__ import annotations

import argparse
import importlib

from bot.options import non_negative_int, positive_float, positive_int

BENCHES = {
    "deficiency": "arena.bench.deficiency",
    "call": "arena.bench.deficiency_call",
    "decide": "arena.bench.decide",
    "selfplay": "arena.bench.selfplay",
    "olympiad": "arena.bench.olympiad",
    "arena": "arena.bench.arena",
    "agreement": "arena.lab.experiments.agreement",
    "zip": "arena.bench.zip",
    "soak": "arena.platforms.olympiad.soak.run",
    "sampling": "arena.bench.sampling",
    "planner": "arena.bench.planner",
    "startup": "arena.bench.startup",
}


DESCRIPTIONS = {
    "deficiency": "the deficiency implementations side by side: speed and agreement "
                  "(needs mahjong, the dev extra)",
    "call": "median time of one call to strategy.deficiency.deficiency() from Python",
    "decide": "decision latency over a fixed set of game situations",
    "selfplay": "games per second, the player's start-up and its memory",
    "olympiad": "N concurrent taiwan-16 tables in one referee process: round trips",
    "arena": "arena games per second in this process and on Ray, and Ray's overhead",
    "agreement": "how often a strategy decides as the bot of the real Botzone logs did",
    "zip": "the Botzone upload's decisions over whole games, numba off: fallbacks, times",
    "soak": "Olympiad tables under trouble play exactly the undisturbed games",
    "sampling": "the sampling search's speed and decision latency",
    "planner": "where one game's time goes, by stage, compiled and plain",
    "startup": "a fresh Botzone player's cold start to its first answer and decision",
}
"""One line per benchmark, for ``mjbot bench --help`` (every name in :data:`BENCHES`)."""


def add_arguments(p: argparse.ArgumentParser) -> None:
    width = max(len(name) for name in BENCHES)
    p.description = "Benchmarks that print a table of medians (and --json), each figure\n" \
        "beside its target, MISSED when it misses it.\n\nbenchmarks:\n" + "\n".join(
            f"  {name:<{width}}  {DESCRIPTIONS.get(name, '')}" for name in sorted(BENCHES))
    p.add_argument("name", choices=sorted(BENCHES), metavar="NAME",
                   help="the benchmark (listed above)")
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    p.add_argument("--seed", type=non_negative_int, default=2024)
    p.add_argument("--quick", action="store_true", help="a smaller sample (for tests)")
    p.add_argument("--budget-ms", type=positive_float, default=30.0,
                   help="decide: the search budget per decision")
    p.add_argument("--strategies", nargs="+", metavar="NAME",
                   help="agreement: which strategies (default: all it knows)")
    p.add_argument("--data", choices=["logs", "pku"], default="logs",
                   help="agreement: with the rank-1 bot of the 8 Botzone logs (default) or "
                   "with the PKU sample's contest games")
    p.add_argument("--games", type=positive_int, default=None,
                   help="planner: games to profile compiled, 8 unless given; zip: games "
                   "to play, 20 unless given")
    p.add_argument("--plain-games", type=positive_int, default=None,
                   help="planner: games to profile in plain Python (default 2)")
    p.add_argument("--modes", nargs="+", choices=["compiled", "plain"], default=None,
                   help="planner: which builds to profile (default both)")
    p.add_argument("--regenerate", action="store_true",
                   help="decide: rebuild the committed situations from --seed")
    p.add_argument("--runs", type=positive_int, default=None,
                   help="startup: fresh processes per way of starting (default 20, 5 with "
                   "--quick)")
    p.add_argument("--python", action="append", metavar="PATH",
                   help="startup, zip: run the Botzone zip under this interpreter (repeat for "
                   "several; default: Botzone's CPython 3.6 where scripts/setup_py36.sh set "
                   "it up, and this Python)")
    p.add_argument("--load", type=non_negative_int, default=0,
                   help="startup, zip: busy processes kept running meanwhile (2 on a "
                   "2-core machine: the loaded target)")


def run(args: argparse.Namespace) -> int:
    module = importlib.import_module(BENCHES[args.name])
    code: int = module.main(args)
    return code
