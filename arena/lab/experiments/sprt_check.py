"""Is the arena's SPRT honest on my matches?  Its error rates, by resampling real walls.

The arena's SPRT (:class:`arena.stats.sprt.PairedSprt`) plugs in the variance of the per-wall
differences seen so far.  That is the textbook variant, but its error rates hold only
once the variance is well estimated, and two near-identical players (a policy change
against its own baseline) play most walls identically: the differences are mostly exact
zeros with a few large ones, and the first walls' variance can be far too small.

This bench takes the per-wall differences of finished matches (``--records`` directories
of ``mjbot arena``), centres each match's differences on 0 (so H0 at ``mu0`` = 0 is true),
then runs the SPRT on walls drawn with replacement from them, shifted by ``mu0`` (H0 true)
and by ``mu1`` (H1 true), and counts how often it decides wrongly, for each ``min_walls``.
A bootstrap of the SPRT's operating characteristic: no model of the differences is
assumed, the matches' own are replayed.  Seeded; no clock.

    python -m arena.lab.experiments.sprt_check DIR [DIR ...] --sprt 0 0.5 --min-walls 10 50 100

With ``--replay`` it reads each match's walls in the order they were played instead, as
if the SPRT had been watching: where it would have stopped, A - B there, and that mean
adjusted for the stop (:mod:`arena.stats.sprt_bias`; the cap is `--cap`, else the match's walls):

    python -m arena.lab.experiments.sprt_check DIR --replay --sprt 0 2
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from arena.records.files import read_record
from arena.stats.clustered import outcome_of, wall_differences
from arena.stats.sprt import MIN_WALLS, PairedSprt, SprtState
from arena.stats.sprt_bias import StoppedEstimate, bias_adjusted

BASELINE = "planner-v1"
MEASURED_MIN_WALLS = (10, 50, 100)
"""The ``min_walls`` whose error rates are measured unless ``--min-walls`` says."""


@dataclass(frozen=True)
class Rates:
    """The SPRT's behaviour on resampled walls at one ``min_walls``."""

    min_walls: int
    false_h1: float
    """Share of tests accepting H1 when H0 is true."""
    false_h0: float
    """Share of tests accepting H0 when H1 is true."""
    undecided: float
    """Share of tests (either truth) stopped at ``max_walls`` undecided."""
    median_walls_h0: float
    median_walls_h1: float


def match_differences(folder: Path, a: str | None = None, b: str = BASELINE) -> np.ndarray:
    """The per-wall differences A - B of one records directory; A is the player that is
    not ``b`` (or ``a``)."""
    outcomes = []
    names: set[str] = set()
    for path in sorted(folder.glob("*.jsonl")):
        record = read_record(path)
        header, result = record.header, record.result
        if result is None or header.seats is None or header.wall_index is None:
            continue  # a game cut short, or not an arena game
        outcomes.append(outcome_of(header.wall_index, header.seats, result))
        names.update(header.seats)
    if not outcomes:
        raise ValueError(f"{folder}: no finished arena game records")
    if a is None:
        others = sorted(names - {b})
        if len(others) != 1:
            raise ValueError(f"{folder}: give --a; the players are {sorted(names)}")
        a = others[0]
    return np.array(list(wall_differences(outcomes, a, b).values()), dtype=np.float64)


def error_rates(differences: np.ndarray, mu0: float, mu1: float, min_walls: int,
                trials: int, seed: int, max_walls: int = 20_000, alpha: float = 0.05,
                beta: float = 0.05) -> Rates:
    """The SPRT run ``trials`` times under each truth on walls drawn from the centred
    ``differences``."""
    rng = np.random.default_rng([seed, min_walls])
    wrong: Counter[float] = Counter()
    undecided = 0
    walls: dict[float, list[int]] = {mu0: [], mu1: []}
    for truth in (mu0, mu1):
        for _ in range(trials):
            test = PairedSprt(mu0, mu1, alpha, beta, min_walls)
            draws = rng.choice(differences, size=max_walls) + truth
            n = 0
            while test.state is SprtState.CONTINUE and n < max_walls:
                test.add(float(draws[n]))
                n += 1
            walls[truth].append(n)
            if test.state is SprtState.CONTINUE:
                undecided += 1
            elif test.state is (SprtState.ACCEPT_H1 if truth == mu0 else SprtState.ACCEPT_H0):
                wrong[truth] += 1
    return Rates(min_walls, wrong[mu0] / trials, wrong[mu1] / trials,
                 undecided / (2 * trials), float(np.median(walls[mu0])),
                 float(np.median(walls[mu1])))


@dataclass(frozen=True)
class Replayed:
    """A finished match read wall by wall by an SPRT."""

    walls: int
    """The match's walls."""
    mean: float
    """A - B over all of them."""
    state: SprtState
    stopped: StoppedEstimate
    """A - B where the test stopped (all the walls when it never did), as read and
    adjusted for the stop."""


def replay(differences: np.ndarray, mu0: float, mu1: float, min_walls: int = MIN_WALLS,
           seed: int = 0, cap: int | None = None) -> Replayed:
    """The SPRT run over a match's per-wall ``differences`` in order; ``cap``: the walls
    the match could have played (None: the walls it did, a match of fixed size)."""
    if cap is None:
        cap = len(differences)
    elif cap < len(differences):
        raise ValueError(f"the cap, {cap} walls, is below the {len(differences)} walls played")
    test = PairedSprt(mu0, mu1, min_walls=min_walls)
    for d in differences:
        if test.add(float(d)) is not SprtState.CONTINUE:
            break
    played = differences[:test.walls]
    stopped = bias_adjusted(played, PairedSprt(mu0, mu1, min_walls=min_walls), cap,
                            seed=seed)
    return Replayed(len(differences), float(differences.mean()), test.state, stopped)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m arena.lab.experiments.sprt_check",
                                description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("records", nargs="+", type=Path, help="mjbot arena --records directories")
    p.add_argument("--a", help="player A's label (default: the one that is not --b)")
    p.add_argument("--b", default=BASELINE, help="player B's label (default: planner-v1)")
    p.add_argument("--sprt", nargs=2, type=float, default=(0.0, 0.5), metavar=("H0", "H1"))
    p.add_argument("--min-walls", nargs="+", type=int,
                   help="walls before the SPRT may decide: each is measured (default 10 50 "
                        "100); with --replay one (default the arena's, 50)")
    p.add_argument("--trials", type=int, default=1000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--replay", action="store_true",
                   help="read each match's walls in order: where the SPRT would stop")
    p.add_argument("--cap", type=int, help="--replay: the walls the match could have played "
                   "(its --max-games over its games per wall; default: the walls it did)")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    if args.replay:
        return _replay(args)
    min_walls = MEASURED_MIN_WALLS if args.min_walls is None else args.min_walls
    pooled = []
    for folder in args.records:
        d = match_differences(folder, args.a, args.b)
        zero = float(np.mean(d == 0.0))
        print(f"{folder}: {len(d)} walls, mean {d.mean():+.3f}, sd {d.std(ddof=1):.2f}, "
              f"{100 * zero:.0f} % exact zeros", file=sys.stderr)
        pooled.append(d - d.mean())
    centred = np.concatenate(pooled)
    mu0, mu1 = args.sprt
    rows = [error_rates(centred, mu0, mu1, m, args.trials, args.seed) for m in min_walls]
    if args.json:
        print(json.dumps({"walls": len(centred), "sprt": [mu0, mu1],
                          "rates": [asdict(r) for r in rows]}, indent=2))
        return 0
    print(f"SPRT ({mu0:+g}, {mu1:+g}), alpha = beta = 0.05, {args.trials} tests per truth on "
          f"{len(centred)} resampled walls")
    print("| min walls | false H1 | false H0 | undecided | median walls (H0 true / H1 true) |")
    print("|---:|---:|---:|---:|---|")
    for r in rows:
        print(f"| {r.min_walls} | {r.false_h1:.3f} | {r.false_h0:.3f} | {r.undecided:.3f} | "
              f"{r.median_walls_h0:.0f} / {r.median_walls_h1:.0f} |")
    return 0


def _replay(args: argparse.Namespace) -> int:
    mu0, mu1 = args.sprt
    if args.min_walls is not None and len(args.min_walls) > 1:
        print("python -m arena.lab.experiments.sprt_check: --replay reads one --min-walls, not "
              f"{len(args.min_walls)}", file=sys.stderr)
        return 2
    min_walls = MIN_WALLS if args.min_walls is None else args.min_walls[0]
    rows = []
    for folder in args.records:
        r = replay(match_differences(folder, args.a, args.b), mu0, mu1, min_walls, args.seed,
                   args.cap)
        rows.append((folder, r))
    if args.json:
        print(json.dumps([{"records": str(f), "walls": r.walls, "mean": r.mean,
                           "state": r.state.value, "stopped_walls": r.stopped.walls,
                           "stopped_mean": r.stopped.observed,
                           "adjusted": r.stopped.adjusted} for f, r in rows], indent=2))
        return 0
    print(f"SPRT ({mu0:+g}, {mu1:+g}) from wall {min_walls}, read in the order played")
    print("| records | walls | A - B | SPRT | at wall | A - B there | adjusted for the stop |")
    print("|---|---:|---:|---|---:|---:|---:|")
    for f, r in rows:
        print(f"| {f.name} | {r.walls} | {r.mean:+.2f} | {r.state.value} | {r.stopped.walls} "
              f"| {r.stopped.observed:+.2f} | {r.stopped.adjusted:+.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
