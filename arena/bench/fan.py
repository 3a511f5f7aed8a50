"""Fan-aware deficiency (strategy.fan): exactness against the brute-force oracle, and speed.

Exactness: hands near complete ones (``strategy.fan.brute.sample_case``: some declared
melds, some kinds seen elsewhere, random seat and round winds), the routes' answer against
the oracle (every complete hand within ``--budget`` changes, judged by PyMahjongGB whatever
its last tile).  The routes are never below the truth; where they are above, the nearest
8-fan hands need small fans no route combines.

Real hands: every hand a seat held before a discard in the repository's data (the PKU sample and
the Botzone logs, as ``arena/lab/experiments/danger.py`` replays them), with its declared melds and
what it could not see; ``--real N`` of them drawn at random.

Speed: the median time of one call, from Python, on random 14-tile hands from the wall and
on the near-complete hands.

    python -m arena.bench.fan [--cases N] [--real N] [--budget B] [--json]
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from arena.tools.data import data_dir
from game.melds import Meld
from strategy.deficiency import deficiency
from strategy.fan import declared_rows, fan_deficiency
from strategy.fan.brute import brute_fan_deficiency, sample_case
from strategy.fan.routes import route_table
from strategy.fan.table import NUM_ROUTES

Case = tuple[np.ndarray, tuple[Meld, ...], np.ndarray, int, int]


def real_cases(data: Path, n: int, seed: int) -> list[Case]:
    """``n`` hands seats held before a discard in ``data`` (:mod:`arena.tools.data`)."""
    from arena.lab.experiments.danger import decisions_of, load_matches

    cases: list[Case] = []
    for matches in load_matches(data).values():
        for m in matches:
            for d in decisions_of(m):
                cases.append((d.hand.astype(np.int8), d.melds, d.unseen, d.seat,
                              m.prevalent_wind))
    rng = np.random.default_rng(seed)
    return [cases[i] for i in rng.choice(len(cases), min(n, len(cases)), replace=False)]


def exactness(label: str, sample: list[Case], budget: int) -> dict[str, object]:
    exact = above = below = both_over = 0
    excess: list[int] = []
    brute_s = 0.0
    cases = len(sample)
    for hand, melds, unseen, seat, wind in sample:
        got = fan_deficiency(hand, melds, unseen, seat_wind=seat, prevalent_wind=wind)
        t0 = time.perf_counter()
        truth = brute_fan_deficiency(hand, melds, unseen, budget, seat_wind=seat,
                                     prevalent_wind=wind)
        brute_s += time.perf_counter() - t0
        if truth is None:
            if got > budget:
                both_over += 1
            else:
                below += 1
        elif got == truth:
            exact += 1
        elif got > truth:
            above += 1
            excess.append(got - truth)
        else:
            below += 1
    known = exact + above + below
    return {"hands": label, "cases": cases, "truth_within_budget": known,
            "exact": exact, "above": above, "below": below,
            "exact_share": exact / max(1, known),
            "mean_excess_when_above": float(np.mean(excess)) if excess else 0.0,
            "truth_and_routes_over_budget": both_over,
            "brute_ms_per_case": 1000 * brute_s / cases}


def median_us(calls: Sequence[Callable[..., object]], passes: int) -> float:
    for c in calls[:50]:
        c()
    times = []
    clock = time.perf_counter_ns
    for _ in range(passes):
        for c in calls:
            t0 = clock()
            c()
            times.append(clock() - t0)
    return float(np.median(times)) / 1000


def speed(hands: int, seed: int) -> list[dict[str, object]]:
    rng = np.random.default_rng(seed)
    rows = []
    random14 = [np.bincount(rng.choice(136, 14, replace=False) // 4, minlength=34)
                .astype(np.int8) for _ in range(hands)]
    near = [sample_case(rng) for _ in range(hands)]
    sets: dict[str, list[Case]] = {
        "random 14 tiles": [(h, (), (4 - h).astype(np.int8), 0, 0) for h in random14],
        "near complete": near,
    }
    for name, cases in sets.items():
        out = np.empty(NUM_ROUTES, np.int64)
        public = [lambda c=c: fan_deficiency(c[0], c[1], c[2], seat_wind=c[3],
                                             prevalent_wind=c[4]) for c in cases]
        prepared = [(c[0], c[2], 4 - len(c[1]), declared_rows(c[1]), c[3], c[4])
                    for c in cases]
        kernel = [lambda p=p, o=out: route_table(p[0], p[1], p[2], p[3], p[4], p[5], o, True)
                  for p in prepared]
        every = [lambda p=p, o=out: route_table(p[0], p[1], p[2], p[3], p[4], p[5], o, False)
                 for p in prepared]
        plain = [lambda p=p: deficiency(p[0], p[2], p[1]) for p in prepared]
        for call, calls in (("fan_deficiency() (checked)", public),
                            ("route_table(least_only)", kernel),
                            ("route_table(every family)", every),
                            ("deficiency() for scale", plain)):
            rows.append({"hands": name, "call": call, "median_us": median_us(calls, 3)})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=300, help="hands per exactness row")
    parser.add_argument("--real", type=int, default=200, help="real hands (0: none)")
    parser.add_argument("--data", type=Path, default=data_dir())
    parser.add_argument("--budget", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--hands", type=int, default=500, help="hands per speed row")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    exact_rows = []
    for k in (1, 2, 3):
        rng = np.random.default_rng(args.seed + k)
        sample = [sample_case(rng, k) for _ in range(args.cases)]
        exact_rows.append(exactness(f"near, {k} changes", sample, args.budget))
    if args.real:
        exact_rows.append(exactness("real (data)", real_cases(args.data, args.real,
                                                               args.seed), args.budget))
    speed_rows = speed(args.hands, args.seed)
    if args.json:
        print(json.dumps({"exactness": exact_rows, "speed": speed_rows}, indent=1))
        return
    print(f"exactness against the brute-force oracle (budget {args.budget} changes)")
    print(f"{'hands':<16} {'cases':>5} {'known':>5} {'exact':>5} {'above':>5} {'below':>5}"
          f" {'exact %':>7} {'excess':>6} {'both>B':>6} {'oracle ms':>9}")
    for r in exact_rows:
        print(f"{r['hands']:<16} {r['cases']:>5} {r['truth_within_budget']:>5} "
              f"{r['exact']:>5} {r['above']:>5} {r['below']:>5} "
              f"{100 * float(r['exact_share']):>7.1f} {r['mean_excess_when_above']:>6.2f} "  # type: ignore[arg-type]
              f"{r['truth_and_routes_over_budget']:>6} {r['brute_ms_per_case']:>9.1f}")
    print()
    print(f"{'hands':<16} {'call':<28} {'median µs':>10}")
    for r in speed_rows:
        print(f"{r['hands']:<16} {r['call']:<28} {r['median_us']:>10.1f}")


if __name__ == "__main__":
    main()
