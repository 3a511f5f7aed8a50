"""Who is waiting, and on what: strategy.danger's estimate against self-play ground truth.

Seeded mcr-botzone self-play games (``planner-v1`` on every seat by default, played in this
process through the judge mock) give every hand at every discard.  At each discard, for
each other seat, the row holds what the discarder sees of that seat
(:class:`strategy.danger.SeatSigns`: its discards, melds, concealed count, the tiles it let
pass) and the truth: which kinds complete its hand with at least 8 fan on a discard
(the rule book's scorer, PyMahjongGB's fans), so whether it waits.

Printed for the hand-set model (:data:`strategy.danger.DANGER_V1`) and the one fitted here
(on the ``--fit-seed`` games only; the ``--test-seed`` games are never fitted on):

- P(waiting) (:func:`strategy.danger.readiness`) and P(a kind completes the hand)
  (:func:`strategy.danger.seat_danger`, over the kinds the discarder holds), each as a
  reliability table (predicted against observed per bin), Brier score and log loss;
- the fit: the readiness logistic's weights by Newton's method (a small ridge), and the
  waits' scale ``mean_waits`` by log loss on the waiting rows (a grid), and, for
  information, what the discard right after a claim would add to the logistic.

``--plot PNG`` draws the reliability curves (matplotlib, Agg).  ``--logs`` also checks
both models on the 8 Botzone match logs (``arena.lab.experiments.danger.load_matches``): checking
only, never fitting.

    python -m arena.lab.fits.danger_fit [--fit-seed S --fit-games N] [--test-seed S
        --test-games N] [--players P,P,P,P] [--plot PNG] [--logs] [--json]
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from arena.lab.experiments.danger import _completes, load_matches, table_match
from arena.review.match_replay import MatchReplay
from arena.tables.games import GameSpec, Rules, play_mcr_table
from arena.tools.data import DataMissing
from game.tiles import NUM_KINDS
from protocols.pku_datatxt import PkuMatch, PkuVerb
from strategy.danger import (
    DANGER_FIT,
    DANGER_V1,
    DangerModel,
    SeatSigns,
    readiness_features,
    wait_weights,
)

BINS = 10
EPS = 1e-4


@dataclass
class Rows:
    """One row per (discard, other seat)."""

    features: np.ndarray
    """(N, 5): discards, melds, recent middle tiles, recent honours/terminals, and whether
    the seat's last discard came right after its claim."""
    share: np.ndarray
    """(N, 34): the kinds' wait weights normalised to sum 1 (``wait_share`` at
    ``mean_waits`` = 1, uncapped)."""
    waits: np.ndarray
    """(N, 34) bool: the kind completes the seat's hand with at least 8 fan."""
    held: np.ndarray
    """(N, 34) bool: the discarder holds the kind (what it could discard)."""
    decision: np.ndarray
    """(N,) the discard's index (rows of one discard share it)."""

    @property
    def waiting(self) -> np.ndarray:
        return np.asarray(self.waits.any(axis=1))

    def __len__(self) -> int:
        return len(self.features)


def _concat(parts: Sequence[Rows]) -> Rows:
    offset = 0
    decisions = []
    for p in parts:
        decisions.append(p.decision + offset)
        offset += int(p.decision.max()) + 1 if len(p) else 0
    return Rows(np.concatenate([p.features for p in parts]),
                np.concatenate([p.share for p in parts]),
                np.concatenate([p.waits for p in parts]),
                np.concatenate([p.held for p in parts]), np.concatenate(decisions))


def rows_of(match: PkuMatch) -> Rows:
    """Every (discard, other seat) row of one game (see :class:`Rows`)."""
    table = MatchReplay(match)
    hands, melds = table.hands, table.melds
    truth: dict[tuple[int, bytes, int], np.ndarray] = {}
    feats, shares, waits, held, decision = [], [], [], [], []
    n_dec = 0

    def waits_of(o: int) -> np.ndarray:
        key = (o, hands[o].tobytes(), len(melds[o]))
        if key not in truth:
            truth[key] = np.array([_completes(hands[o], melds[o], o, k,
                                              match.prevalent_wind)[1]
                                   for k in range(NUM_KINDS)], dtype=bool)
        return truth[key]

    for step in match.steps:
        s = step.seat
        if step.verb == PkuVerb.PLAY:
            unseen = table.unseen_for(s)
            for o in range(4):
                if o == s:
                    continue
                signs = table.signs_of(o)
                feats.append((*readiness_features(signs), int(table.after_claim[o])))
                shares.append(_share(signs, unseen))
                waits.append(waits_of(o))
                held.append(hands[s] > 0)
                decision.append(n_dec)
            n_dec += 1
        table.apply(step)
    if not feats:
        empty = np.zeros((0, NUM_KINDS))
        return Rows(np.zeros((0, 5)), empty, empty.astype(bool), empty.astype(bool),
                    np.zeros(0, dtype=np.int64))
    return Rows(np.array(feats, dtype=np.float64), np.array(shares), np.array(waits),
                np.array(held), np.array(decision, dtype=np.int64))


def _share(signs: SeatSigns, unseen: np.ndarray) -> np.ndarray:
    """The wait weights normalised to sum 1 (``wait_share`` before its scale and cap)."""
    w = wait_weights(signs, unseen)
    mass = float(w.sum())
    return w / mass if mass > 0 else np.zeros(NUM_KINDS)


def cached_arrays(cache: Path | None, name: str, seed: int, games: int,
                  players: Sequence[str], build: Callable[[], dict[str, np.ndarray]]
                  ) -> dict[str, np.ndarray]:
    """``build()``'s arrays for ``games`` self-play games of ``seed``, kept in ``cache`` (a
    folder) as ``{name}-{seed}-{games}-{players}.npz`` and read from there when present."""
    if cache is None:
        return build()
    path = cache / f"{name}-{seed}-{games}-{'_'.join(players).replace(':', '-')}.npz"
    if path.is_file():
        z = np.load(path)
        return {k: z[k] for k in z.files}
    arrays = build()
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, **arrays)  # type: ignore[arg-type]
    return arrays


def selfplay_rows(seed: int, games: int, players: Sequence[str], cache: Path | None = None
                  ) -> Rows:
    """The rows of :func:`selfplay_matches`' games, kept in ``cache`` (a folder) if given."""
    def build() -> dict[str, np.ndarray]:
        return asdict(_concat([rows_of(m) for m in selfplay_matches(seed, games, players)]))

    return Rows(**cached_arrays(cache, "rows", seed, games, players, build))


def selfplay_title(args: argparse.Namespace, players: Sequence[str]) -> str:
    """A self-play fit's plot title: the held-out games and those fitted on."""
    return (f"held-out self-play: seed {args.test_seed}, {args.test_games} games of "
            f"{', '.join(players)}; fitted on seed {args.fit_seed}, {args.fit_games} games")


def selfplay_matches(seed: int, games: int, players: Sequence[str]) -> Iterable[PkuMatch]:
    """``games`` seeded mcr-botzone games (walls 0..games-1 of ``seed``, seats as given)."""
    four = (players[0], players[1], players[2], players[3])
    for wall in range(games):
        spec = GameSpec(Rules.MCR_BOTZONE, seed, wall, 0, four, four)
        table = play_mcr_table(spec)
        yield table_match(f"{seed}-{wall}", spec.prevalent_wind, table)


# ---------------------------------------------------------------- the model on rows
def p_waiting(rows: Rows, model: DangerModel) -> np.ndarray:
    f = rows.features
    x = model.bias + model.per_discard * f[:, 0] + model.per_meld * f[:, 1]
    x = x + model.recent_middle * f[:, 2] + model.recent_honour * f[:, 3]
    return 1.0 / (1.0 + np.exp(-x))


def p_tiles(rows: Rows, model: DangerModel) -> np.ndarray:
    """(N, 34) P(the kind completes the seat's hand), as :func:`strategy.danger.
    seat_danger` computes it."""
    return p_waiting(rows, model)[:, None] * np.minimum(1.0, model.mean_waits * rows.share)


def p_any(rows: Rows, model: DangerModel) -> tuple[np.ndarray, np.ndarray]:
    """Per (discard, held kind): P(it completes some seat's hand) as :func:`strategy.
    danger.danger` computes it, and whether it does."""
    n = int(rows.decision.max()) + 1
    safe = np.ones((n, NUM_KINDS))
    hit = np.zeros((n, NUM_KINDS), dtype=bool)
    held = np.zeros((n, NUM_KINDS), dtype=bool)
    p = p_tiles(rows, model)
    np.multiply.at(safe, rows.decision, 1.0 - p)
    np.logical_or.at(hit, rows.decision, rows.waits)
    held[rows.decision] = rows.held
    return (1.0 - safe)[held], hit[held]


def reliability_table(p: np.ndarray, y: np.ndarray, trials: np.ndarray | None = None
                      ) -> list[dict[str, Any]]:
    """Predicted against observed in equal-width bins of ``p``: each row one trial with
    outcome ``y``, or, given ``trials``, ``trials`` of them with ``y`` successes."""
    table = []
    for b in range(BINS):
        lo, hi = b / BINS, (b + 1) / BINS
        m = (p >= lo) & ((p < hi) if b < BINS - 1 else (p <= hi))
        if not m.any():
            continue
        if trials is None:
            n, predicted, observed = int(m.sum()), float(p[m].mean()), float(y[m].mean())
        else:
            t = trials[m]
            n = int(t.sum())
            predicted = float((p[m] * t).sum() / t.sum())
            observed = float(y[m].sum() / t.sum())
        table.append({"bin": f"{lo:.1f}-{hi:.1f}", "n": n, "predicted": predicted,
                      "observed": observed})
    return table


def scores(p: np.ndarray, y: np.ndarray) -> dict[str, Any]:
    """Brier score, log loss and the reliability table (equal-width bins)."""
    y = y.astype(np.float64)
    return {"n": len(p), "base_rate": float(y.mean()) if len(y) else math.nan,
            "mean_predicted": float(p.mean()) if len(p) else math.nan,
            "brier": float(((p - y) ** 2).mean()),
            "log_loss": log_loss(p, y),
            "reliability": reliability_table(p, y)}


def evaluate(rows: Rows, model: DangerModel) -> dict[str, Any]:
    tiles = p_tiles(rows, model)[rows.held]
    a, hit = p_any(rows, model)
    return {"waiting": scores(p_waiting(rows, model), rows.waiting),
            "tile": scores(tiles, rows.waits[rows.held]),
            "any_seat": scores(a, hit)}


# ---------------------------------------------------------------- the fit
def logistic(x: np.ndarray, y: np.ndarray, ridge: float = 1e-3, steps: int = 30,
             trials: np.ndarray | None = None, free_bias: bool = True) -> np.ndarray:
    """Weights of P(y) = 1 / (1 + exp(-x @ w)) by Newton's method.  Each row is one trial
    with outcome ``y``, or, given ``trials``, ``trials`` of them with ``y`` successes (a
    binomial).  A ridge of ``ridge`` per trial on every weight, but the first column's (the
    bias) where ``free_bias``."""
    w = np.zeros(x.shape[1])
    n: np.ndarray | float = 1.0 if trials is None else trials
    reg = np.full(x.shape[1], ridge * (len(y) if trials is None else float(trials.sum())))
    if free_bias:
        reg[0] = 0.0
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        grad = x.T @ (n * p - y) + reg * w
        hess = (x * (n * p * (1 - p))[:, None]).T @ x + np.diag(reg)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    return w


def _design(f: np.ndarray, after_claim: bool) -> np.ndarray:
    cols = [np.ones(len(f)), f[:, 0], f[:, 1], f[:, 2], f[:, 3]]
    if after_claim:
        cols.append(f[:, 4])
    return np.stack(cols, axis=1)


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    """Mean log loss of probabilities ``p`` (clipped to [EPS, 1 - EPS]) on outcomes ``y``."""
    q = np.clip(p, EPS, 1.0 - EPS)
    return float(-(y * np.log(q) + (1 - y) * np.log(1 - q)).mean())


def fit(rows: Rows) -> tuple[DangerModel, dict[str, Any]]:
    """The readiness logistic (Newton) and the waits' scale (grid, on the waiting rows)."""
    y = rows.waiting.astype(np.float64)
    w = logistic(_design(rows.features, False), y)
    w_claim = logistic(_design(rows.features, True), y)
    loss = log_loss(1 / (1 + np.exp(-(_design(rows.features, False) @ w))), y)
    loss_claim = log_loss(1 / (1 + np.exp(-(_design(rows.features, True) @ w_claim))), y)
    ready = rows.waiting
    share = rows.share[ready][rows.held[ready]]
    hit = rows.waits[ready][rows.held[ready]].astype(np.float64)
    grid = np.round(np.arange(0.5, 6.01, 0.1), 2)
    losses = [log_loss(np.minimum(1.0, m * share), hit) for m in grid]
    mean_waits = float(grid[int(np.argmin(losses))])
    model = DangerModel(bias=round(float(w[0]), 3), per_discard=round(float(w[1]), 3),
                        per_meld=round(float(w[2]), 3), recent_middle=round(float(w[3]), 3),
                        recent_honour=round(float(w[4]), 3), mean_waits=mean_waits)
    info = {"rows": len(rows), "waiting_rate": float(y.mean()),
            "weights": [float(v) for v in w], "log_loss": loss,
            "with_after_claim": {"weights": [float(v) for v in w_claim],
                                 "log_loss": loss_claim},
            "mean_waits_grid": {f"{m:.1f}": round(v, 5) for m, v in zip(grid, losses,
                                                                       strict=True)
                                if abs(m * 10 % 5) < 1e-9}}
    return model, info


# ---------------------------------------------------------------- output
def plot(results: dict[str, dict[str, Any]], path: Path, title: str) -> None:
    plot_reliability([(label, {name: res[key] for name, res in results.items()})
                      for key, label in (("waiting", "P(seat is waiting)"),
                                         ("tile", "P(kind completes the seat's hand)"),
                                         ("any_seat", "P(kind completes some seat's hand)"))],
                     path, title)


def plot_reliability(panels: Sequence[tuple[str, dict[str, dict[str, Any]]]], path: Path,
                     title: str) -> None:
    """One panel per (what is predicted, each model's :func:`scores`): the models'
    reliability curves beside the diagonal (matplotlib, Agg), written to ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(panels), figsize=(5 * len(panels), 5), squeeze=False)
    for ax, (label, results) in zip(axes[0], panels, strict=True):
        ax.plot([0, 1], [0, 1], color="grey", lw=0.8, ls="--")
        for name, res in results.items():
            rel = res["reliability"]
            ax.plot([r["predicted"] for r in rel], [r["observed"] for r in rel], marker="o",
                    label=f"{name} (Brier {res['brier']:.4f}, log loss {res['log_loss']:.4f})")
        ax.set_xlabel(f"predicted {label}")
        ax.set_ylabel("observed frequency")
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1)
        ax.legend(fontsize=7, loc="upper left")
    fig.suptitle(title, fontsize=10, wrap=True)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=90)
    plt.close(fig)


def _table(results: dict[str, dict[str, Any]]) -> str:
    lines = []
    for key in ("waiting", "tile", "any_seat"):
        lines.append(f"{key}: " + "; ".join(
            f"{name} Brier {r[key]['brier']:.4f} log loss {r[key]['log_loss']:.4f} "
            f"(n {r[key]['n']}, base {r[key]['base_rate']:.4f}, mean p "
            f"{r[key]['mean_predicted']:.4f})" for name, r in results.items()))
        lines += reliability_lines({name: r[key] for name, r in results.items()})
    return "\n".join(lines)


def reliability_lines(results: dict[str, dict[str, Any]]) -> list[str]:
    """Each model's reliability table (its :func:`scores`) side by side, a line per bin."""
    names = list(results)
    lines = [f"  {'bin':<9}" + "".join(f"{n[:16] + ' n':>20}{'pred':>8}{'obs':>8}"
                                       for n in names)]
    bins = sorted({r["bin"] for res in results.values() for r in res["reliability"]})
    for b in bins:
        row = f"  {b:<9}"
        for n in names:
            r = next((r for r in results[n]["reliability"] if r["bin"] == b), None)
            row += (f"{r['n']:>20}{r['predicted']:>8.3f}{r['observed']:>8.3f}" if r
                    else f"{'':>20}{'':>8}{'':>8}")
        lines.append(row)
    return lines


def selfplay_arguments(parser: argparse.ArgumentParser, fit_seed: int, fit_games: int,
                       test_seed: int, test_games: int) -> None:
    """A self-play fit's options: the seeds and games fitted on and held out, the four
    players, the plot, the rows' cache, JSON."""
    parser.add_argument("--fit-seed", type=int, default=fit_seed)
    parser.add_argument("--fit-games", type=int, default=fit_games)
    parser.add_argument("--test-seed", type=int, default=test_seed)
    parser.add_argument("--test-games", type=int, default=test_games)
    parser.add_argument("--players", default="planner-v1,planner-v1,planner-v1,planner-v1",
                        help="four player arguments, comma-separated")
    parser.add_argument("--plot", type=Path, help="write the reliability curves here (PNG)")
    parser.add_argument("--cache", type=Path,
                        help="keep the self-play rows in this folder (npz) and reuse them")
    parser.add_argument("--json", action="store_true")


def selfplay_header(parser: argparse.ArgumentParser, args: argparse.Namespace
                    ) -> tuple[list[str], dict[str, Any]]:
    """The four players of :func:`selfplay_arguments`' ``--players`` (the parser's error
    otherwise) and the report's first fields."""
    players: list[str] = args.players.split(",")
    if len(players) != 4:
        parser.error("--players takes four player arguments")
    return players, {"players": players, "fit_seed": args.fit_seed,
                     "fit_games": args.fit_games, "test_seed": args.test_seed,
                     "test_games": args.test_games}


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    selfplay_arguments(parser, fit_seed=9001, fit_games=100, test_seed=9002, test_games=50)
    parser.add_argument("--logs", action="store_true",
                        help="also check both models on the 8 Botzone match logs")
    args = parser.parse_args(argv)
    players, out = selfplay_header(parser, args)
    models = {"v1 (hand-set)": DANGER_V1, "shipped fit": DANGER_FIT}
    if args.fit_games > 0:
        train = selfplay_rows(args.fit_seed, args.fit_games, players, args.cache)
        fitted, info = fit(train)
        out["fit"] = {"model": asdict(fitted), **info}
        models["refit"] = fitted
    test = selfplay_rows(args.test_seed, args.test_games, players, args.cache)
    out["test"] = {name: evaluate(test, m) for name, m in models.items()}
    out["models"] = {name: asdict(m) for name, m in models.items()}
    if args.logs:
        try:
            logs = load_matches()["botzone-match-logs"]
            rows = _concat([rows_of(m) for m in logs])
            out["logs"] = {name: evaluate(rows, m) for name, m in models.items()}
        except DataMissing as e:
            out["logs"] = {"missing": str(e)}
    if args.plot:
        plot(out["test"], args.plot, selfplay_title(args, players))
    if args.json:
        print(json.dumps(out, indent=1))
        return
    if "fit" in out:
        print(f"fit on seed {args.fit_seed} ({args.fit_games} games, {out['fit']['rows']} rows,"
              f" waiting {out['fit']['waiting_rate']:.3f}): {out['fit']['model']}")
        wc = out["fit"]["with_after_claim"]
        print(f"  with the discard after a claim: weights {[round(v, 3) for v in wc['weights']]}"
              f", log loss {wc['log_loss']:.5f} against {out['fit']['log_loss']:.5f}")
    print(f"held out: seed {args.test_seed}, {args.test_games} games")
    print(_table(out["test"]))
    if "logs" in out and "missing" not in out["logs"]:
        print("the 8 Botzone logs (checking only)")
        print(_table(out["logs"]))


if __name__ == "__main__":
    main()
