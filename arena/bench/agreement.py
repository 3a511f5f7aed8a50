"""Agreement with the bot that played the real Botzone games in ``../shared/data``
(``botzone-match-logs``: all four seats one strong bot, the rank-1 bot of the 2020
contest): for every seat of every match, each turn is replayed and our strategies asked.

    python -m arena.bench.agreement

prints, per strategy, how often its discard after a draw is the played one, and where the
bot called (chow, pung, kong) how often the strategy makes the same call (the same kind
and, for a chow, the same chow; the discard named with it is not compared).
"""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Callable
from pathlib import Path

from arena.replay import replay, seat_lines_from_match_log, steps_from_lines
from bot.agent import Agent, Strategy
from bot.planner import Planner
from game.events import Action, ClaimChow, ClaimKong, ClaimPung, Discard
from game.rules import MCR_BOTZONE

STRATEGIES: dict[str, Callable[[], Strategy]] = {
    "baseline-v1 (Agent)": lambda: Agent(MCR_BOTZONE),
    "planner": lambda: Planner(MCR_BOTZONE),
    "planner-calls": lambda: Planner(MCR_BOTZONE, plain_claims=True),
}


def same_call(a: Action, b: Action) -> bool:
    if isinstance(a, ClaimChow) and isinstance(b, ClaimChow):
        return a.middle == b.middle
    return any(isinstance(a, k) and isinstance(b, k) for k in (ClaimPung, ClaimKong))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--shared", type=Path,
                   default=Path(os.environ.get("MJBOT_SHARED", "../shared")))
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    logs = sorted((args.shared / "data" / "botzone-match-logs").glob("*_lite.json"))
    if not logs:
        print(f"no match logs under {args.shared / 'data' / 'botzone-match-logs'}")
        return 2
    rows = {}
    for name, make in STRATEGIES.items():
        discards = same_discards = calls = same_calls = 0
        for path in logs:
            data = json.loads(path.read_text())
            for seat in range(4):
                steps = steps_from_lines(seat_lines_from_match_log(data, seat))
                for turn in replay(steps, agent=make()):
                    played, ours = turn.played_action, turn.ours
                    if played is None or ours is None:
                        continue
                    if isinstance(played, Discard):
                        discards += 1
                        same_discards += ours.action == played
                    elif isinstance(played, ClaimChow | ClaimPung | ClaimKong):
                        calls += 1
                        same_calls += same_call(ours.action, played)
        rows[name] = {"discards": discards, "same_discard": same_discards,
                      "calls": calls, "same_call": same_calls}
    if args.json:
        print(json.dumps({"matches": len(logs), "strategies": rows}))
        return 0
    print(f"{len(logs)} Botzone matches, every seat")
    print(f"{'strategy':<22}{'discards':>9}{'agree':>8}{'calls':>7}{'agree':>8}")
    for name, r in rows.items():
        print(f"{name:<22}{r['discards']:>9}{r['same_discard'] / max(1, r['discards']):>8.1%}"
              f"{r['calls']:>7}{r['same_call'] / max(1, r['calls']):>8.1%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
