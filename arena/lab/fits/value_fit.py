"""A value learned from play: P(win before the wall ends | distance, turns) and the points,
fitted on self-play positions.

Seeded mcr-botzone self-play games (``planner-v1`` on every seat by default) are played on
Ray (``--workers N``: a local Ray of N CPUs, as ``mjbot arena`` starts one; ``--workers
0``: in this process).  At each decision of a planner seat whose chosen action has an
outlook (a discard after a draw or a claim, a claim or the pass that weighed claims, a
kong) a row keeps what the value reads of the hand the action leaves
(:mod:`strategy.value`): the fan-aware distance, the seat's draws left, the useful unseen
copies (:func:`strategy.value.useful_draws`; after a discard or a pass, else −1), whether
the hand is concealed, the chosen discard's danger; and the game's truth for that seat:
did it win, and its points.

Fitted on the ``--fit-seed`` games only (the ``--test-seed`` games are never fitted on):

- the win chain of :func:`strategy.value.win_chance` with its rates learned by maximum
  likelihood (log loss): a ready rate, one step rate per distance 2..7 (the last also
  for every greater distance) and an end rate (:class:`strategy.value.WinChain`);
- for information, a logistic model on (distance, turns, useful copies, concealed);
- the points: of a win (mean over the seat-games won) and of the game by distance.

Printed: the held-out log loss and Brier score of the hand-set chain
(:data:`strategy.value.DEFAULT_MODEL`), the shipped fit (:data:`strategy.value.WIN_FIT`)
and the refit, each with its reliability table; ``--plot PNG`` draws them.

    python -m arena.lab.fits.value_fit [--fit-seed S --fit-games N] [--test-seed S
        --test-games N] [--players P,P,P,P] [--workers N] [--cache DIR] [--plot PNG]
        [--json]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
from collections.abc import Iterator, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np

from arena.lab.fits.danger_fit import (
    log_loss,
    logistic,
    plot_reliability,
    reliability_lines,
    scores,
    selfplay_arguments,
    selfplay_header,
    selfplay_title,
)
from arena.players.lineup import ArenaSeat
from arena.tables.games import GameSpec, Rules, play_mcr_table
from bot.agent import Decision
from game import events as ev
from game.events import Won
from game.melds import ConcealedKong
from strategy.deficiency.kernel import UNREACHABLE
from strategy.value import (
    DEFAULT_MODEL,
    WIN_FIT,
    FanInputs,
    ValuedCandidate,
    WinChain,
    chain_table,
    useful_draws,
    win_chance,
)

COLUMNS = ("game", "seat", "distance", "turns", "useful", "concealed", "deal_in", "kind",
           "won", "points")
"""The rows' columns (one array each)."""
KIND_DISCARD, KIND_CLAIM, KIND_KONG = 0, 1, 2
MAX_TURNS = 34
"""A Botzone seat's wall: no seat has more draws left."""
STEPS = 6
"""Step rates fitted: distances 2..7, the last also for every greater distance."""


Rows = dict[str, np.ndarray]


def _chosen(decision: Decision) -> ValuedCandidate | None:
    """The candidate of the action ``decision`` took (its outlook is the value's), or None
    (a win, a fallback, a player with no outlooks)."""
    action = decision.action
    if isinstance(action, ev.Discard):
        kind, tile = ev.ActionKind.DISCARD, action.tile
    elif isinstance(action, ev.ClaimAndDiscard):
        kind, tile = action.claim.kind, action.discard
    elif isinstance(action, ev.ClaimKong):
        kind, tile = ev.ActionKind.KONG, None
    elif isinstance(action, ev.DeclareConcealedKong | ev.DeclareAddedKong):
        kind, tile = action.kind, action.tile
    elif isinstance(action, ev.Pass):
        kind, tile = ev.ActionKind.PASS, None
    else:
        return None
    found = [c for c in decision.reasons if isinstance(c, ValuedCandidate)
             and c.outlook is not None and c.action is kind
             and (tile is None or c.tile == tile)]
    if not found:
        return None
    return max(found, key=lambda c: c.outlook.value if c.outlook else 0.0)


def game_rows(seed: int, wall: int, players: Sequence[str], game: int = 0) -> Rows:
    """The rows of one seeded game (seating 0): see the module docstring."""
    four = (players[0], players[1], players[2], players[3])
    spec = GameSpec(Rules.MCR_BOTZONE, seed, wall, 0, four, four)
    found: list[tuple[float, ...]] = []

    def answer(s: int, seat: ArenaSeat) -> ev.Action:
        if not seat.asked:
            return ev.Pass()
        v = seat.view
        hand = v.hand.copy()
        inputs = FanInputs(v.unseen.copy(), tuple(v.melds), v.seat, v.prevalent_wind)
        decision = seat.session.answer_inline(seat.deadline())
        c = _chosen(decision)
        if c is not None and c.outlook is not None:
            o = c.outlook
            useful = -1
            open_melds = any(not isinstance(m, ConcealedKong) for m in inputs.melds)
            if c.action is ev.ActionKind.DISCARD and o.distance < UNREACHABLE \
                    and c.tile is not None and int(hand.sum()) % 3 == 2:
                h = hand.copy()
                h[c.tile] -= 1
                useful = useful_draws(h, inputs, o.distance)
                kind = KIND_DISCARD
            elif c.action is ev.ActionKind.PASS and o.distance < UNREACHABLE:
                useful = useful_draws(hand, inputs, o.distance)
                kind = KIND_CLAIM
            elif c.action in (ev.ActionKind.PUNG, ev.ActionKind.CHOW, ev.ActionKind.KONG):
                kind, open_melds = KIND_CLAIM, True
            elif c.action is ev.ActionKind.DISCARD:
                kind = KIND_DISCARD
            else:
                kind = KIND_KONG
            found.append((game, s, o.distance, o.turns, useful, float(not open_melds),
                          o.deal_in, kind))
        return decision.action

    table = play_mcr_table(spec, answer)
    result = table.result
    assert result is not None
    winner = result.ending.seat if isinstance(result.ending, Won) else -1
    rows = [(*r, float(r[1] == winner), float(result.scores[int(r[1])])) for r in found]
    if not rows:
        return {c: np.zeros(0) for c in COLUMNS}
    a = np.array(rows, dtype=np.float64)
    return {c: a[:, i] for i, c in enumerate(COLUMNS)}


def concat(parts: Sequence[Rows]) -> Rows:
    return {c: np.concatenate([p[c] for p in parts]) if parts else np.zeros(0)
            for c in COLUMNS}


def batch_rows(seed: int, walls: Sequence[int], players: Sequence[str]) -> Rows:
    """The rows of ``walls`` (a Ray task's body; the game id is the wall)."""
    return concat([game_rows(seed, w, players, w) for w in walls])


def _batches(games: int, size: int) -> Iterator[list[int]]:
    for start in range(0, games, size):
        yield list(range(start, min(games, start + size)))


def selfplay_rows(seed: int, games: int, players: Sequence[str], workers: int = 0,
                  cache: Path | None = None, batch: int = 10) -> Rows:
    """The rows of walls 0..games-1 of ``seed``, played in this process (``workers`` 0) or
    on a local Ray of ``workers`` CPUs, kept in ``cache`` (a folder) if given."""
    path = None
    if cache is not None:
        path = cache / f"value-rows-{seed}-{games}-{'_'.join(players).replace(':', '-')}.npz"
        if path.is_file():
            z = np.load(path)
            return {c: z[c] for c in COLUMNS}
    if workers <= 0:
        rows = concat([batch_rows(seed, b, players) for b in _batches(games, batch)])
    else:
        rows = _on_ray(seed, games, players, workers, batch)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(path, **rows)  # type: ignore[arg-type]
    return rows


def _on_ray(seed: int, games: int, players: Sequence[str], workers: int, batch: int) -> Rows:
    """The batches as tasks on Ray: the one :func:`ray_pool` started, else a local one of
    ``workers`` CPUs for these games alone."""
    import ray

    with contextlib.ExitStack() as stack:
        if not ray.is_initialized():
            stack.enter_context(ray_pool(workers))
        task = ray.remote(num_cpus=1)(batch_rows)
        refs = [task.remote(seed, b, list(players)) for b in _batches(games, batch)]
        return concat(ray.get(refs))


@contextlib.contextmanager
def ray_pool(workers: int) -> Iterator[None]:
    """A local Ray of ``workers`` CPUs, as :class:`arena.tables.runner.Runner` starts one
    (loopback, this code on the workers' path); nothing for ``workers`` 0."""
    if workers <= 0:
        yield
        return
    import ray

    from arena.tables.runner import start_local_ray

    start_local_ray(workers)
    try:
        yield
    finally:
        ray.shutdown()


# ---------------------------------------------------------------- the fit
def _usable(rows: Rows) -> np.ndarray:
    return np.asarray((rows["distance"] >= 1) & (rows["distance"] < UNREACHABLE))


def p_chain(rows: Rows, chain: WinChain) -> np.ndarray:
    """P(win) of each row by ``chain`` (:func:`strategy.value.chain_table`)."""
    d = np.minimum(rows["distance"].astype(np.int64), UNREACHABLE)
    t = np.clip(rows["turns"].astype(np.int64), 0, MAX_TURNS)
    table = chain_table(chain, int(d[d < UNREACHABLE].max(initial=1)), MAX_TURNS)
    out = np.zeros(len(d))
    ok = d < UNREACHABLE
    out[ok] = table[d[ok], t[ok]]
    out[d <= 0] = 1.0
    return out


def p_handset(rows: Rows) -> np.ndarray:
    """P(win) of each row by the hand-set chain (:data:`strategy.value.DEFAULT_MODEL`)."""
    return np.array([win_chance(int(d), int(t), DEFAULT_MODEL)
                     for d, t in zip(rows["distance"], rows["turns"], strict=True)])


def _chain_of(theta: np.ndarray) -> WinChain:
    r = 1.0 / (1.0 + np.exp(-theta))
    return WinChain(round(float(r[0]), 4), tuple(round(float(x), 4) for x in r[1:-1]),
                    round(float(r[-1]), 4))


def fit_chain(rows: Rows, rounds: int = 6) -> WinChain:
    """The chain's rates by least log loss on ``rows`` (distance 1..UNREACHABLE−1):
    coordinate search on the rates' logits, from the hand-set ones."""
    m = _usable(rows)
    sub = {c: rows[c][m] for c in COLUMNS}
    y = sub["won"]
    start = DEFAULT_MODEL
    theta = np.array([start.ready_rate] + [start.step_rate] * STEPS + [start.end_rate])
    theta = np.log(theta / (1 - theta))

    def loss(th: np.ndarray) -> float:
        r = 1.0 / (1.0 + np.exp(-th))
        chain = WinChain(float(r[0]), tuple(float(x) for x in r[1:-1]), float(r[-1]))
        return log_loss(p_chain(sub, chain), y)

    best = loss(theta)
    step = 1.0
    for _ in range(rounds):
        for i in range(len(theta)):
            for sign in (1.0, -1.0):
                h = step
                while h > 1e-3:
                    trial = theta.copy()
                    trial[i] += sign * h
                    value = loss(trial)
                    if value < best - 1e-9:
                        theta, best = trial, value
                    else:
                        h /= 2
        step /= 2
    return _chain_of(theta)


def _design(rows: Rows) -> np.ndarray:
    d = np.minimum(rows["distance"], 8.0)
    t = rows["turns"] / MAX_TURNS
    u = np.maximum(rows["useful"], 0.0) / 20.0
    return np.stack([np.ones(len(d)), d, t, d * t, u, rows["concealed"]], axis=1)


def fit_logistic(rows: Rows) -> np.ndarray:
    """For information: logistic weights on (1, distance ≤ 8, turns/34, their product,
    useful copies / 20, concealed), rows with known useful copies."""
    m = _usable(rows) & (rows["useful"] >= 0)
    return logistic(_design({c: rows[c][m] for c in COLUMNS}), rows["won"][m])


def p_logistic(rows: Rows, w: np.ndarray) -> np.ndarray:
    return np.asarray(1.0 / (1.0 + np.exp(-(_design(rows) @ w))))


def points(rows: Rows) -> dict[str, Any]:
    """The points: of a win (per seat-game won), of a seat-game, and per row by distance."""
    key = rows["game"] * 4 + rows["seat"]
    _, first = np.unique(key, return_index=True)
    won = rows["won"][first] > 0
    pts = rows["points"][first]
    by_distance = {}
    for d in range(1, 8):
        m = (rows["distance"] == d) if d < 7 else (rows["distance"] >= 7) & _usable(rows)
        if m.any():
            by_distance[f"{d}" if d < 7 else "7+"] = {
                "n": int(m.sum()), "win": float(rows["won"][m].mean()),
                "points": float(rows["points"][m].mean())}
    return {"seat_games": len(first), "win_rate": float(won.mean()),
            "win_points": float(pts[won].mean()) if won.any() else math.nan,
            "game_points": float(pts.mean()), "by_distance": by_distance}


def evaluate(rows: Rows, chains: dict[str, WinChain], w: np.ndarray | None
             ) -> dict[str, Any]:
    m = _usable(rows)
    sub = {c: rows[c][m] for c in COLUMNS}
    y = sub["won"]
    out = {"hand-set chain": scores(p_handset(sub), y)}
    for name, chain in chains.items():
        out[name] = scores(p_chain(sub, chain), y)
    if w is not None:
        k = sub["useful"] >= 0
        out["logistic (useful rows)"] = scores(p_logistic({c: sub[c][k] for c in COLUMNS}, w),
                                               y[k])
    return out


def by_cell(rows: Rows, chains: dict[str, WinChain]) -> list[dict[str, Any]]:
    """Observed and predicted P(win) by distance and turns (thirds of the wall)."""
    out = []
    m = _usable(rows)
    sub = {c: rows[c][m] for c in COLUMNS}
    preds = {"hand-set": p_handset(sub)} | {n: p_chain(sub, c) for n, c in chains.items()}
    for d in range(1, 7):
        for lo, hi in ((0, 8), (8, 20), (20, 35)):
            k = (np.minimum(sub["distance"], 6) == d) & (sub["turns"] >= lo) & (sub["turns"] < hi)
            if k.sum() < 20:
                continue
            out.append({"distance": f"{d}" if d < 6 else "6+", "turns": f"{lo}-{hi - 1}",
                        "n": int(k.sum()), "observed": float(sub["won"][k].mean()),
                        **{n: float(p[k].mean()) for n, p in preds.items()}})
    return out


# ---------------------------------------------------------------- output
def plot(results: dict[str, Any], path: Path, title: str) -> None:
    plot_reliability([("P(win before the wall ends)", results)], path, title)


def _table(results: dict[str, Any]) -> str:
    lines = [f"{name}: Brier {r['brier']:.4f} log loss {r['log_loss']:.4f} (n {r['n']}, "
             f"base {r['base_rate']:.4f}, mean p {r['mean_predicted']:.4f})"
             for name, r in results.items()]
    return "\n".join(lines + reliability_lines(results))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    selfplay_arguments(parser, fit_seed=9601, fit_games=400, test_seed=9602, test_games=200)
    parser.add_argument("--workers", type=int, default=0,
                        help="a local Ray of this many CPUs (0: in this process)")
    args = parser.parse_args(argv)
    players, out = selfplay_header(parser, args)
    chains = {"shipped fit": WIN_FIT}
    w = None
    with ray_pool(args.workers):
        train = (selfplay_rows(args.fit_seed, args.fit_games, players, args.workers,
                               args.cache) if args.fit_games > 0 else None)
        test = selfplay_rows(args.test_seed, args.test_games, players, args.workers,
                             args.cache)
    if train is not None:
        refit = fit_chain(train)
        w = fit_logistic(train)
        chains["refit"] = refit
        out["fit"] = {"rows": len(train["won"]), "chain": asdict(refit),
                      "logistic": [round(float(x), 4) for x in w], "points": points(train)}
    out["test"] = evaluate(test, chains, w)
    out["cells"] = by_cell(test, chains)
    out["test_points"] = points(test)
    if args.plot:
        plot(out["test"], args.plot, selfplay_title(args, players))
    if args.json:
        print(json.dumps(out, indent=1))
        return
    if "fit" in out:
        f = out["fit"]
        print(f"fit on seed {args.fit_seed} ({args.fit_games} games, {f['rows']} rows): "
              f"{f['chain']}")
        print(f"  logistic (1, d, t/34, d*t/34, useful/20, concealed): {f['logistic']}")
        print(f"  points: {f['points']}")
    print(f"held out: seed {args.test_seed}, {args.test_games} games; points "
          f"{out['test_points']}")
    print(_table(out["test"]))
    names = [k for k in out["cells"][0] if k not in ("distance", "turns", "n")] \
        if out["cells"] else []
    print(f"  {'d':<3}{'turns':<7}{'n':>7}" + "".join(f"{n[:12]:>13}" for n in names))
    for c in out["cells"]:
        print(f"  {c['distance']:<3}{c['turns']:<7}{c['n']:>7}"
              + "".join(f"{c[n]:>13.3f}" for n in names))


if __name__ == "__main__":
    main()
