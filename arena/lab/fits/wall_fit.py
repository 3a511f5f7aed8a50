"""Which unseen tiles are in the wall: strategy.availability's model against self-play.

Seeded mcr-botzone self-play games (``mjbot`` on every seat by default, played in this
process through the judge mock) give every hand at every discard.  At each discard, for
each kind the discarder cannot see, the row holds what the discarder sees
(:func:`strategy.availability.features`: the kind's class and unseen copies, the wall's
share of the unseen tiles, the discards of the kind and of its neighbours) and the truth:
how many of those copies lie in the wall rather than in another seat's hand.

The logistic is fitted by Newton's method with the copies as binomial trials, on the
``--fit-seed`` games only; the ``--test-seed`` games are never fitted on.  Printed for the
uniform count (:data:`strategy.availability.UNIFORM`), the shipped weights and the refit:
the log loss per copy, a reliability table, and the error of the expected copies in the
wall (:func:`strategy.availability.wall_copies`) per kind.  ``--plot PNG`` draws the
reliability curves.

    python -m arena.lab.fits.wall_fit [--fit-seed S --fit-games N] [--test-seed S
        --test-games N] [--players P,P,P,P] [--plot PNG] [--cache DIR] [--json]
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from arena.lab.fits.danger_fit import (
    cached_arrays,
    logistic,
    plot_reliability,
    reliability_lines,
    reliability_table,
    selfplay_arguments,
    selfplay_header,
    selfplay_matches,
    selfplay_title,
)
from arena.review.match_replay import MatchReplay
from game.melds import ConcealedKong
from game.tiles import NUM_KINDS
from protocols.pku_datatxt import PkuMatch, PkuVerb
from strategy.availability import (
    FEATURE_NAMES,
    UNIFORM,
    WALL_FIT,
    WallModel,
    discarded_counts,
    features,
    wall_copies,
)


@dataclass
class Rows:
    """One row per (discard, kind the discarder cannot see), and what the discard's rows
    share once per discard (``wall_tiles``, ``discarded``: the k-th discard's at k)."""

    x: np.ndarray
    """(N, FEATURES) the kind's features."""
    unseen: np.ndarray
    """(N,) its unseen copies (the binomial trials)."""
    in_wall: np.ndarray
    """(N,) how many of them lie in the wall."""
    decision: np.ndarray
    """(N,) the discard's index (rows of one discard share it)."""
    kind: np.ndarray
    """(N,) the kind."""
    wall_tiles: np.ndarray
    """(D,) the wall's count at each discard."""
    discarded: np.ndarray
    """(D, 34) copies of each kind discarded before each discard."""

    def __len__(self) -> int:
        return len(self.unseen)


def rows_of(match: PkuMatch, first: int = 0) -> Rows:
    """Every (discard, unseen kind) row of one game; discards numbered from ``first``."""
    table = MatchReplay(match)
    xs, us, ws, dec, kinds, walls, disc = [], [], [], [], [], [], []
    n = first
    for step in match.steps:
        s = step.seat
        if step.verb == PkuVerb.PLAY:
            unseen = table.unseen_for(s).astype(np.int64)
            elsewhere = np.zeros(NUM_KINDS, dtype=np.int64)
            for o in range(4):
                if o == s:
                    continue
                elsewhere += table.hands[o]
                for m in table.melds[o]:
                    if isinstance(m, ConcealedKong):
                        elsewhere[m.tile] += 4
            wall = unseen - elsewhere
            if (wall < 0).any():
                raise ValueError(f"match {match.match_id}: more copies in hands than unseen")
            total, wall_tiles = int(unseen.sum()), int(wall.sum())
            if 0 < wall_tiles < total:
                discarded = discarded_counts(table.discards)
                x = features(unseen, discarded, wall_tiles / total)
                for k in np.flatnonzero(unseen > 0):
                    xs.append(x[k])
                    us.append(unseen[k])
                    ws.append(wall[k])
                    dec.append(n)
                    kinds.append(k)
                walls.append(wall_tiles)
                disc.append(discarded)
                n += 1
        table.apply(step)
    return Rows(np.array(xs, dtype=np.float64).reshape(-1, len(FEATURE_NAMES)),
                np.array(us, dtype=np.float64), np.array(ws, dtype=np.float64),
                np.array(dec, dtype=np.int64), np.array(kinds, dtype=np.int64),
                np.array(walls, dtype=np.int64),
                np.array(disc, dtype=np.int64).reshape(-1, NUM_KINDS))


def _concat(parts: Sequence[Rows]) -> Rows:
    return Rows(*(np.concatenate([getattr(p, f) for p in parts])
                  for f in ("x", "unseen", "in_wall", "decision", "kind", "wall_tiles",
                            "discarded")))


def selfplay_rows(seed: int, games: int, players: Sequence[str], cache: Path | None = None
                  ) -> Rows:
    """The rows of ``games`` self-play games of ``seed``, kept in ``cache`` if given."""
    def build() -> dict[str, np.ndarray]:
        parts, first = [], 0
        for m in selfplay_matches(seed, games, players):
            r = rows_of(m, first)
            if len(r):
                first = int(r.decision.max()) + 1
            parts.append(r)
        return asdict(_concat(parts))

    return Rows(**cached_arrays(cache, "wall", seed, games, players, build))


def fit(rows: Rows, ridge: float = 1e-4, steps: int = 40) -> WallModel:
    """The logistic's weights by Newton's method (:func:`arena.lab.fits.danger_fit.
    logistic`): each row is ``unseen`` binomial trials with ``in_wall`` successes; a small
    ridge on every weight (the class-by-copies columns are the intercepts)."""
    w = logistic(rows.x, rows.in_wall, ridge, steps, trials=rows.unseen, free_bias=False)
    return WallModel(tuple(round(float(v), 4) for v in w))


def evaluate(rows: Rows, model: WallModel) -> dict[str, Any]:
    """Per copy: log loss and Brier score of "in the wall", the reliability table; per
    (discard, kind): the mean absolute error of the expected copies in the wall, after
    :func:`strategy.availability.wall_copies` scales them to the wall's count."""
    p = 1.0 / (1.0 + np.exp(-(rows.x @ np.asarray(model.weights))))
    n, k = rows.unseen, rows.in_wall
    q = np.clip(p, 1e-6, 1 - 1e-6)
    loss = float(-(k * np.log(q) + (n - k) * np.log(1 - q)).sum() / n.sum())
    brier = float(((k * (1 - p) ** 2 + (n - k) * p ** 2)).sum() / n.sum())
    errors = []
    starts = np.flatnonzero(np.r_[True, rows.decision[1:] != rows.decision[:-1]])
    ends = np.r_[starts[1:], len(rows)]
    for i, (a, b) in enumerate(zip(starts, ends, strict=True)):
        unseen = np.zeros(NUM_KINDS, dtype=np.int64)
        unseen[rows.kind[a:b]] = rows.unseen[a:b].astype(np.int64)
        e = wall_copies(unseen, rows.discarded[i], int(rows.wall_tiles[i]), model)
        errors.append(np.abs(e[rows.kind[a:b]] - rows.in_wall[a:b]))
    mae = float(np.concatenate(errors).mean()) if errors else float("nan")
    return {"n": int(n.sum()), "base_rate": float(k.sum() / n.sum()),
            "mean_predicted": float((p * n).sum() / n.sum()), "brier": brier,
            "log_loss": loss, "copies_mae": mae,
            "reliability": reliability_table(p, k, n)}


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    selfplay_arguments(parser, fit_seed=70001, fit_games=300, test_seed=70002,
                       test_games=150)
    parser.set_defaults(players="mjbot,mjbot,mjbot,mjbot")
    args = parser.parse_args(argv)
    players, out = selfplay_header(parser, args)
    models = {"uniform": UNIFORM, "shipped fit": WALL_FIT}
    if args.fit_games > 0:
        train = selfplay_rows(args.fit_seed, args.fit_games, players, args.cache)
        refit = fit(train)
        out["fit"] = {"rows": len(train), "copies": int(train.unseen.sum()),
                      "weights": dict(zip(FEATURE_NAMES, refit.weights, strict=True))}
        models["refit"] = refit
    test = selfplay_rows(args.test_seed, args.test_games, players, args.cache)
    out["test"] = {name: evaluate(test, m) for name, m in models.items()}
    if args.plot:
        plot_reliability([("P(an unseen copy is in the wall)", out["test"])], args.plot,
                         selfplay_title(args, players))
    if args.json:
        print(json.dumps(out, indent=1))
        return
    if "fit" in out:
        print(f"fit on seed {args.fit_seed} ({args.fit_games} games, {out['fit']['rows']} "
              f"rows, {out['fit']['copies']} copies):")
        print("  " + ", ".join(f"{k} {v:+.3f}" for k, v in out["fit"]["weights"].items()))
    print(f"held out: seed {args.test_seed}, {args.test_games} games")
    for name, r in out["test"].items():
        print(f"  {name}: log loss {r['log_loss']:.5f}, Brier {r['brier']:.5f}, copies in "
              f"the wall off by {r['copies_mae']:.4f} per kind (n {r['n']} copies, in the "
              f"wall {r['base_rate']:.4f}, mean p {r['mean_predicted']:.4f})")
    print("\n".join(reliability_lines(out["test"])))


if __name__ == "__main__":
    main()
