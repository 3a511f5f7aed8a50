"""``mjbot bench decide``: decision latency over a fixed set of game situations.

The situations live in ``decide_situations.json`` beside this file (committed;
``--regenerate`` rebuilds them from the seed).  Each is a concealed hand, its
declared melds' count, the unseen counts of a mid-game seat (a random part of
the other copies already seen) and, for claims, the offered tile.  They cover
deficiency 0-6, with and without declared melds, for mcr-botzone and
taiwan-16.  Each is asked of the shipped bot (``mjbot``: :func:`bot.planner.default_strategy`)
through its seat session, as ``mjbot advise`` asks it, with the wall-clock deadline
(``--budget-ms``) the search watches, so the figures are what a platform would see.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

import numpy as np

from arena.players.situation import advice_view
from bot.seat import PlayerState
from bot.session import SeatSession
from game.rules import MCR_BOTZONE, TAIWAN_16, Ruleset, get_ruleset
from strategy.deadline import Deadline
from strategy.policy import shape_deficiency_fast

SITUATIONS = Path(__file__).with_name("decide_situations.json")
PER_CELL = 8


def _random_situation(rng: np.random.Generator, rules: Ruleset, declared: int,
                      claim: bool) -> dict[str, object]:
    melds_needed = rules.melds_needed - declared
    size = 3 * melds_needed + (1 if claim else 2)
    wall = rng.permutation(np.repeat(np.arange(34), 4))
    hand = np.bincount(wall[:size], minlength=34).astype(np.int8)
    # declared melds: pungs of tiles not in the hand (their copies are seen)
    seen = np.zeros(34, dtype=np.int8)
    free = [t for t in range(34) if hand[t] == 0]
    for t in rng.choice(free, declared, replace=False):
        seen[t] += 3
    rest = np.repeat(np.arange(34), 4 - hand - seen)
    k = int(rng.integers(0, max(1, len(rest) // 2)))
    seen += np.bincount(rng.choice(rest, k, replace=False), minlength=34).astype(np.int8)
    unseen = (4 - hand - seen).astype(np.int8)
    situation: dict[str, object] = {
        "rules": rules.name, "declared": int(declared),
        "hand": hand.tolist(), "unseen": unseen.tolist(),
    }
    if claim:
        options = np.nonzero(unseen)[0]
        tile = int(rng.choice(options))
        unseen[tile] -= 1
        situation["unseen"] = unseen.tolist()
        situation["claim"] = tile
    return situation


def regenerate(seed: int) -> list[dict[str, object]]:
    """PER_CELL situations per (rules, declared, kind, deficiency 0-6) where they exist."""
    rng = np.random.default_rng(seed)
    out = []
    for rules in (MCR_BOTZONE, TAIWAN_16):
        for declared in (0, 2):
            for claim in (False, True):
                cells: dict[int, int] = {d: 0 for d in range(7)}
                tries = 0
                while any(v < PER_CELL for v in cells.values()) and tries < 60_000:
                    tries += 1
                    s = _random_situation(rng, rules, declared, claim)
                    hand = np.array(s["hand"], dtype=np.int8)
                    unseen = np.array(s["unseen"], dtype=np.int8)
                    d = shape_deficiency_fast(hand, unseen, rules.melds_needed - declared, rules)
                    d = min(d, 6)
                    if claim and d == 0:
                        continue
                    if cells.get(d, PER_CELL) < PER_CELL:
                        cells[d] += 1
                        s["deficiency"] = d
                        out.append(s)
    return out


def situation_view(s: dict[str, object]) -> tuple[Ruleset, PlayerState]:
    """Seat 0's view of a situation, as ``mjbot advise`` builds it (the declared melds:
    pungs of tiles the hand does not hold and whose copies are seen)."""
    rules = get_ruleset(str(s["rules"]))
    hand = np.array(s["hand"], dtype=np.int8)
    unseen = np.array(s["unseen"], dtype=np.int8)
    seen = 4 - hand - unseen
    declared = int(s["declared"])  # type: ignore[call-overload]
    pungs = [[t] * 3 for t in range(34) if hand[t] == 0 and seen[t] >= 3][:declared]
    claim = int(s["claim"]) if "claim" in s else None  # type: ignore[call-overload]
    drawn = None if claim is not None else int(np.nonzero(hand)[0][-1])
    return rules, advice_view(rules, hand, unseen, pungs, claim, True, drawn)


def decide(s: dict[str, object], budget_ms: float) -> float:
    """The shipped bot's decision on the situation, through its seat session, under the
    wall clock the bot uses; its milliseconds."""
    rules, view = situation_view(s)
    session = SeatSession(rules)
    session.view = view
    t0 = time.perf_counter()
    deadline = Deadline(clock=time.perf_counter, until=t0 + budget_ms / 1000.0)
    session.answer_inline(deadline)
    return (time.perf_counter() - t0) * 1000.0


def main(args: argparse.Namespace) -> int:
    if getattr(args, "regenerate", False) or not SITUATIONS.exists():
        SITUATIONS.write_text(json.dumps(regenerate(args.seed)))
    situations = json.loads(SITUATIONS.read_text())
    if args.quick:
        situations = situations[::8]
    budget = float(getattr(args, "budget_ms", 30.0))
    decide(situations[0], budget)  # load kernels outside the timing
    rows = []
    groups: dict[tuple[str, str], list[float]] = {}
    for s in situations:
        ms = decide(s, budget)
        kind = "claim" if "claim" in s else "discard"
        groups.setdefault((s["rules"], f"{kind} d={s['deficiency']}"), []).append(ms)
        groups.setdefault(("all", "all"), []).append(ms)
    for (rules, cell), times in sorted(groups.items()):
        times.sort()
        p99 = times[min(len(times) - 1, round(0.99 * (len(times) - 1)))]
        rows.append({"rules": rules, "situations": cell, "n": len(times),
                     "median_ms": statistics.median(times), "p99_ms": p99, "max_ms": times[-1]})
    if args.json:
        print(json.dumps({"bench": "decide", "budget_ms": budget, "rows": rows}))
        return 0
    print(f"{'rules':<12} {'situations':<16} {'n':>4} {'median ms':>10} {'p99 ms':>8} "
          f"{'max ms':>8}")
    for r in rows:
        print(f"{r['rules']:<12} {r['situations']:<16} {r['n']:>4} {r['median_ms']:>10.2f} "
              f"{r['p99_ms']:>8.2f} {r['max_ms']:>8.2f}")
    print(f"search budget per decision: {budget:.0f} ms (anytime; the answer is always given)")
    return 0
