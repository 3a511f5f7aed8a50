"""``mjbot experiment sdw``: the experiments of Tang, Chen & Wu, "An Efficient
Method for Assessing the Strength of Mahjong Programs" (ICAART 2025, section 4),
with our agent as SIMCAT and ``mjbot-eps`` as SIMCAT-ε.

As in the paper: taiwan-16, two teams (SIMCAT on seats 0 and 2, SIMCAT-ε on 1
and 3), each wall played twice with the players moved one seat
(:attr:`arena.stats.seating.SeatingFormat.TEAMS`), ε = 1.0, 0.5, 0.2, every wall once
as the original (single) wall and once as the stable draw wall.  Per ε and
wall mode:

- Table 1: ``n_steal`` (claims of a discard per player per game), ``n_total``
  (normal draws and claims per player per game) and ``r_steal``, averaged over
  all four players;
- Table 4: the consistent-draw rate (:mod:`game.draw_consistency`), the mean of
  the games' rates;
- Table 5: the share of SDW games by number of reshuffles; Table 6: the share
  by ``n_rad`` (normal draws still available) at the first reshuffle, and its
  mean;
- Table 7: the win rate of SIMCAT (games won by the SIMCAT team over games that
  somebody won: our reading of the paper's "win rate") over all the
  original-wall games is the ground truth ``wr_gr``; the games are cut, in wall
  order, into matches of 500 and of 1,000 games, and the mean absolute error
  ``|wr - wr_gr|`` of those matches is given for each wall mode.

The paper plays 20,000 games per ε and wall (40 matches of 500, 20 of 1,000);
``--games`` sets the number (``--quick``: a few games, for tests), and the
match sizes shrink with it when fewer games would leave no match.

Differences we know of: the paper's tiles are 136 without flowers, ours are
taiwan-16's 144 with flowers (flower replacements come from the seat's rear
sub-wall, so more reshuffles are supplementary); SIMCAT is the paper's
program, ours is mjbot with a small search budget (``--budget``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from arena.stats.clustered import GameOutcome
from arena.stats.seating import SeatingFormat, lineup_for, seated, seatings
from arena.tables.games import GameSpec, PlayedGame, Rules
from arena.tables.runner import (
    SMALL_MATCH,
    RayMissing,
    Runner,
    choose_workers,
    default_workers,
    ray_installed,
)
from bot.options import fraction, non_negative_int, positive_int
from game.draw_consistency import DrawConsistency
from game.stable_wall import Reshuffle, WallMode

EPSILONS = (1.0, 0.5, 0.2)
PAPER_GAMES = 20_000
MATCH_SIZES = (500, 1000)
DEFAULT_BUDGET = 500
"""SIMCAT's search budget (kernel calls per decision): small, so 20,000-game runs fit
on two cores."""

PAPER: dict[str, dict[float, dict[str, float]]] = {
    "single": {
        1.0: {"n_steal": 1.31, "n_total": 9.88, "r_steal": 13.26, "consistent": 20.98,
              "err_500": 1.88, "err_1000": 1.33},
        0.5: {"n_steal": 1.44, "n_total": 9.61, "r_steal": 14.98, "consistent": 22.49,
              "err_500": 1.54, "err_1000": 1.27},
        0.2: {"n_steal": 1.50, "n_total": 9.33, "r_steal": 16.08, "consistent": 23.43,
              "err_500": 1.73, "err_1000": 1.45},
    },
    "sdw": {
        1.0: {"n_steal": 1.31, "n_total": 9.86, "r_steal": 13.29, "consistent": 94.72,
              "err_500": 1.27, "err_1000": 0.73, "rsf_0": 87.10, "rsf_1": 11.12,
              "rsf_2": 1.61, "rsf_3+": 0.26, "rad_mean": 6.54, "rad_1-5": 25.72,
              "rad_6-10": 61.55, "rad_11-15": 12.37, "rad_16+": 0.35},
        0.5: {"n_steal": 1.44, "n_total": 9.61, "r_steal": 14.98, "consistent": 94.71,
              "err_500": 1.51, "err_1000": 0.93, "rsf_0": 90.37, "rsf_1": 8.48,
              "rsf_2": 1.02, "rsf_3+": 0.14, "rad_mean": 7.47, "rad_1-5": 17.08,
              "rad_6-10": 61.42, "rad_11-15": 20.46, "rad_16+": 1.04},
        0.2: {"n_steal": 1.50, "n_total": 9.30, "r_steal": 16.13, "consistent": 95.00,
              "err_500": 1.29, "err_1000": 0.90, "rsf_0": 92.47, "rsf_1": 6.91,
              "rsf_2": 0.54, "rsf_3+": 0.09, "rad_mean": 8.11, "rad_1-5": 13.98,
              "rad_6-10": 60.35, "rad_11-15": 23.89, "rad_16+": 1.77},
    },
}
PAPER_WR_GR = {1.0: 71.58, 0.5: 61.70, 0.2: 54.90}
RAD_BUCKETS = (("0", 0, 0), ("1-5", 1, 5), ("6-10", 6, 10), ("11-15", 11, 15),
               ("16+", 16, 10_000))


@dataclass(frozen=True)
class Cell:
    epsilon: float
    mode: WallMode
    games: tuple[PlayedGame, ...]


def players(epsilon: float, budget: int) -> tuple[str, str]:
    return (f"mjbot:budget={budget}", f"mjbot-eps:eps={epsilon},budget={budget}")


def cell_batches(epsilon: float, mode: WallMode, games: int, seed: int, budget: int,
                 walls_per_batch: int) -> Iterator[list[GameSpec]]:
    simcat, weaker = players(epsilon, budget)
    labels = lineup_for(SeatingFormat.TEAMS, ("simcat", "eps"))
    programs = lineup_for(SeatingFormat.TEAMS, (simcat, weaker))
    order = seatings(SeatingFormat.TEAMS)
    walls = (games + len(order) - 1) // len(order)
    batch: list[GameSpec] = []
    for wall in range(walls):
        for k, seating in enumerate(order):
            batch.append(GameSpec(Rules.TAIWAN_16, seed, wall, k, seated(programs, seating),
                                  seated(labels, seating), mode))
        if (wall + 1) % walls_per_batch == 0:
            yield batch
            batch = []
    if batch:
        yield batch


def win_rate(games: Sequence[PlayedGame]) -> float | None:
    """SIMCAT's wins over the games somebody won (``None`` without such games)."""
    won = [g for g in games if g.outcome.winner is not None]
    if not won:
        return None
    simcat = sum(g.outcome.players[g.outcome.winner] == "simcat"  # type: ignore[index]
                 for g in won)
    return simcat / len(won)


def table1(games: Sequence[PlayedGame]) -> dict[str, float]:
    seat_games = 4 * len(games)
    steals = sum(sum(g.steals) for g in games) / seat_games
    total = sum(sum(g.steals) + sum(g.draws) for g in games) / seat_games
    return {"n_steal": steals, "n_total": total, "r_steal": 100 * steals / total}


def consistent_rate(games: Sequence[PlayedGame]) -> float:
    return 100 * statistics.fmean(g.consistency.rate for g in games)


def reshuffle_table(games: Sequence[PlayedGame]) -> dict[str, float | None]:
    """Table 5 and Table 6; a mean of no reshuffle is ``None`` (printed ``n/a``)."""
    n = len(games)
    out: dict[str, float | None] = {}
    counts = [len(g.reshuffles) for g in games]
    for k in (0, 1, 2):
        out[f"rsf_{k}"] = 100 * sum(c == k for c in counts) / n
    out["rsf_3+"] = 100 * sum(c >= 3 for c in counts) / n
    firsts = [g.reshuffles[0].available_draws for g in games if g.reshuffles]
    for name, low, high in RAD_BUCKETS:
        out[f"rad_{name}"] = 100 * sum(low <= r <= high for r in firsts) / len(firsts) \
            if firsts else 0.0
    out["rad_mean"] = statistics.fmean(firsts) if firsts else None
    fronts = [g.reshuffles[0].available_draws for g in games
              if g.reshuffles and not g.reshuffles[0].supplementary]
    out["rad_mean_front"] = statistics.fmean(fronts) if fronts else None
    out["supplementary_first"] = 100 * sum(g.reshuffles[0].supplementary for g in games
                                           if g.reshuffles) / len(firsts) if firsts else 0.0
    return out


def match_errors(games: Sequence[PlayedGame], size: int,
                 truth: float) -> tuple[int, float | None]:
    """Matches of ``size`` games in order (whole walls) and their mean |wr - truth|, in %
    (``None`` when no match of ``size`` games had a win)."""
    errors = []
    for start in range(0, len(games) - size + 1, size):
        wr = win_rate(games[start : start + size])
        if wr is not None:
            errors.append(abs(wr - truth))
    return len(errors), 100 * statistics.fmean(errors) if errors else None


def bootstrap_error(games: Sequence[PlayedGame], size: int, truth: float,
                    reps: int = 4000, seed: int = 0) -> float:
    """The expected |wr - truth| (in %) of a match of ``size`` games, by resampling whole
    walls (a wall's games stay together, as a match plays them): far more matches than
    the games hold side by side, so a steadier figure than :func:`match_errors`."""
    per_wall: dict[int, list[int]] = {}
    for g in games:
        row = per_wall.setdefault(g.outcome.wall, [0, 0])
        if g.outcome.winner is not None:
            row[1] += 1
            row[0] += g.outcome.players[g.outcome.winner] == "simcat"
    counts = np.array(list(per_wall.values()), dtype=np.int64)
    walls = max(1, round(size * len(counts) / len(games)))
    picks = np.random.default_rng(seed).integers(len(counts), size=(reps, walls))
    sums = counts[picks].sum(axis=1)
    won = np.maximum(sums[:, 1], 1)
    return float(100 * np.mean(np.abs(sums[:, 0] / won - truth)))


def match_sizes(games: int) -> tuple[int, int]:
    if games >= 2 * MATCH_SIZES[1]:
        return MATCH_SIZES
    small = max(2, (games // 8) // 2 * 2)
    return (small, 2 * small)


def analyse(cells: dict[tuple[float, WallMode], Cell], games: int) -> dict[str, Any]:
    sizes = match_sizes(games)
    out: dict[str, Any] = {"games_per_cell": games, "match_sizes": list(sizes), "cells": []}
    for eps in EPSILONS:
        single = cells.get((eps, WallMode.SINGLE))
        if single is None:
            continue
        truth = win_rate(single.games)
        for mode in (WallMode.SINGLE, WallMode.SDW):
            cell = cells.get((eps, mode))
            if cell is None:
                continue
            row: dict[str, Any] = {"epsilon": eps, "wall": mode.value, "games": len(cell.games)}
            row.update(table1(cell.games))
            row["consistent"] = consistent_rate(cell.games)
            row["wr"] = 100 * (win_rate(cell.games) or 0.0)
            row["wr_gr"] = 100 * truth if truth is not None else None
            own = win_rate(cell.games)
            for size, key in zip(sizes, ("err_500", "err_1000"), strict=True):
                n, err = match_errors(cell.games, size, truth) if truth is not None \
                    else (0, None)
                row[key] = err
                row[f"{key}_matches"] = n
                # against the wall mode's own win rate: the spread without the bias
                row[f"own_{key}"] = match_errors(cell.games, size, own)[1] \
                    if own is not None else None
                row[f"boot_{key}"] = bootstrap_error(cell.games, size, truth) \
                    if truth is not None else None
                row[f"boot_own_{key}"] = bootstrap_error(cell.games, size, own) \
                    if own is not None else None
            if mode is WallMode.SDW:
                row.update(reshuffle_table(cell.games))
            out["cells"].append(row)
    return out


def _fmt(x: object, digits: int = 2) -> str:
    if isinstance(x, float):
        return "n/a" if x != x else f"{x:.{digits}f}"
    return "-" if x is None else str(x)


NOT_MEASURED = "n/a"
WHY_NOT = {
    "rad_mean": "no game of the cell reshuffled its wall: there is no first reshuffle",
    "rad_mean_front": "no first reshuffle started from the front of the wall",
    "err_500": "no match of that many games had a win (too few games)",
    "own_err_500": "no match of that many games had a win (too few games)",
    "boot_err_500": "no win rate to compare with: no single-wall game was won",
    "boot_own_err_500": "no win rate to compare with: no game of the cell was won",
}
"""Why a figure could not be measured (each ``..._1000`` as its ``..._500``)."""


def _ours(row: dict[str, Any] | None, key: str, missing: set[str]) -> str:
    """Our figure: ``-`` without the cell, ``n/a`` (its reason noted in ``missing``)
    when the cell's games could not measure it."""
    if row is None:
        return "-"
    if key in row and row[key] is None:
        missing.add(key.replace("1000", "500"))
        return NOT_MEASURED
    return _fmt(row.get(key))


def headline(result: dict[str, Any]) -> str:
    """What the run is: a smoke run (``--quick``), fewer games than the paper's, or as many."""
    n = result["games_per_cell"]
    simcat = f"SIMCAT = {result.get('simcat', 'mjbot')}"
    if result.get("smoke"):
        return (f"SMOKE RUN (--quick), not a reproduction: the paper's tables from {n} games "
                f"per ε and wall (the paper played {PAPER_GAMES:,}); it shows the experiment "
                f"runs end to end, its figures compare with nothing; {simcat}; ours | paper")
    if n < PAPER_GAMES:
        return (f"the paper's tables from {n:,} games per ε and wall, fewer than the paper's "
                f"{PAPER_GAMES:,} (wider spread than the paper's); {simcat}; ours | paper")
    return (f"the paper's tables from {n:,} games per ε and wall, as many as the paper's; "
            f"{simcat}; ours | paper")


def render(result: dict[str, Any]) -> str:
    sizes = result["match_sizes"]
    rows = result["cells"]
    lines = [headline(result)]
    missing: set[str] = set()

    def table(title: str, keys: list[tuple[str, str]], modes: Sequence[str]) -> None:
        lines.append("")
        lines.append(title)
        lines.append(f"{'':<26}" + "".join(f"{'ε = ' + str(e):>22}" for e in EPSILONS))
        for mode in modes:
            for key, label in keys:
                cells = []
                for eps in EPSILONS:
                    row = next((r for r in rows if r["epsilon"] == eps and r["wall"] == mode),
                               None)
                    ours = _ours(row, key, missing)
                    paper = PAPER[mode][eps].get(key)
                    cells.append(f"{ours:>10} | {_fmt(paper):<9}")
                lines.append(f"{mode + ' ' + label:<26}" + "".join(f"{c:>22}" for c in cells))

    table("Table 1: steals and actions per player per game",
          [("n_steal", "n_steal"), ("n_total", "n_total"), ("r_steal", "r_steal %")],
          ("single", "sdw"))
    table("Table 4: consistent draws %", [("consistent", "consistent %")], ("single", "sdw"))
    table("Table 5: games by number of reshuffles % (SDW)",
          [("rsf_0", "0"), ("rsf_1", "1"), ("rsf_2", "2"), ("rsf_3+", "3+")], ("sdw",))
    table("Table 6: n_rad at the first reshuffle % (SDW)",
          [(f"rad_{n}", n) for n, _, _ in RAD_BUCKETS] + [
              ("rad_mean", "mean n_rad"), ("supplementary_first", "rear empty %"),
              ("rad_mean_front", "mean n_rad, front")],
          ("sdw",))
    lines.append("")
    lines.append(f"Table 7: mean |wr - wr_gr| % over matches of {sizes[0]} and {sizes[1]} "
                 "games (paper: 500 and 1,000); wr_gr from the single-wall games")
    lines.append(f"{'':<26}" + "".join(f"{'ε = ' + str(e):>22}" for e in EPSILONS))
    for key, label in (("wr_gr", "wr_gr %"),):
        cells = []
        for eps in EPSILONS:
            row = next((r for r in rows if r["epsilon"] == eps), None)
            cells.append(f"{_fmt(row.get(key) if row else None):>10} | "
                         f"{_fmt(PAPER_WR_GR[eps]):<9}")
        lines.append(f"{label:<26}" + "".join(f"{c:>22}" for c in cells))
    for mode in ("single", "sdw"):
        cells = []
        for eps in EPSILONS:
            row = next((r for r in rows if r["epsilon"] == eps and r["wall"] == mode), None)
            cells.append(f"{_fmt(row.get('wr') if row else None):>10} | {'-':<9}")
        lines.append(f"{mode + ' wr %':<26}" + "".join(f"{c:>22}" for c in cells))
    for mode in ("single", "sdw"):
        for key, size in (("err_500", sizes[0]), ("err_1000", sizes[1])):
            cells = []
            for eps in EPSILONS:
                row = next((r for r in rows if r["epsilon"] == eps and r["wall"] == mode),
                           None)
                ours = f"{_ours(row, key, missing)} ({row.get(key + '_matches')})" if row \
                    else "-"
                cells.append(f"{ours:>10} | {_fmt(PAPER[mode][eps].get(key)):<9}")
            lines.append(f"{mode + ' err ' + str(size) + ' (matches)':<26}"
                         + "".join(f"{c:>22}" for c in cells))
    lines.append("against each wall's own win rate (own), and expected by resampling walls "
                 "(boot: 4,000 matches, against wr_gr and against the wall's own):")
    for mode in ("single", "sdw"):
        for key, size in (("own_err_500", sizes[0]), ("own_err_1000", sizes[1]),
                          ("boot_err_500", sizes[0]), ("boot_err_1000", sizes[1]),
                          ("boot_own_err_500", sizes[0]), ("boot_own_err_1000", sizes[1])):
            cells = []
            for eps in EPSILONS:
                row = next((r for r in rows if r["epsilon"] == eps and r["wall"] == mode),
                           None)
                cells.append(f"{_ours(row, key, missing):>10} | {'-':<9}")
            label = key.rsplit("_", 2)[0].replace("_err", "").replace("_", " ")
            lines.append(f"{mode + ' ' + label + ' err ' + str(size):<26}"
                         + "".join(f"{c:>22}" for c in cells))
    if missing:
        lines.append("")
        lines += [f"n/a ({key.removesuffix('_500')}): {WHY_NOT.get(key, 'not measured')}"
                  for key in sorted(missing)]
    return "\n".join(lines)


# ---------------------------------------------------------------- per-game dump
def dump_line(epsilon: float, game: PlayedGame) -> str:
    """One game's figures as a JSON line (what ``--from-dump`` reads back)."""
    o = game.outcome
    return json.dumps({
        "epsilon": epsilon, "wall_mode": game.spec.wall_mode.value, "seed": game.spec.seed,
        "wall": game.spec.wall, "seating": game.spec.seating, "players": list(o.players),
        "scores": list(o.scores), "winner": o.winner, "self_drawn": o.self_drawn,
        "payer": o.payer, "fan": o.fan, "penalized": o.penalized, "steals": list(game.steals),
        "draws": list(game.draws), "consistent": game.consistency.consistent,
        "draws_total": game.consistency.draws, "replaced": list(game.replaced),
        "reshuffles": [[r.seat, r.tiles, r.available_draws, r.supplementary]
                       for r in game.reshuffles]})


def read_dump(path: Path) -> dict[tuple[float, WallMode], Cell]:
    games: dict[tuple[float, WallMode], list[PlayedGame]] = {}
    for line in path.read_text().splitlines():
        d = json.loads(line)
        mode = WallMode(d["wall_mode"])
        a, b, c, e = d["players"]
        spec = GameSpec(Rules.TAIWAN_16, d["seed"], d["wall"], d["seating"], (a, b, c, e),
                        (a, b, c, e), mode)
        s0, s1, s2, s3 = d["scores"]
        outcome = GameOutcome(d["wall"], (a, b, c, e), (s0, s1, s2, s3), d["winner"],
                              d["self_drawn"], d["payer"], d["fan"], d["penalized"])
        t0, t1, t2, t3 = d["steals"]
        n0, n1, n2, n3 = d["draws"]
        r0, r1, r2, r3 = d["replaced"]
        games.setdefault((d["epsilon"], mode), []).append(PlayedGame(
            spec, outcome, (t0, t1, t2, t3), (n0, n1, n2, n3),
            DrawConsistency(d["consistent"], d["draws_total"]),
            tuple(Reshuffle(*r) for r in d["reshuffles"]), (r0, r1, r2, r3)))
    return {k: Cell(k[0], k[1], tuple(v)) for k, v in games.items()}


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--games", type=positive_int, default=PAPER_GAMES,
                   help="games per ε and wall mode (paper: 20,000)")
    p.add_argument("--quick", action="store_true", help="16 games per ε and wall (for tests)")
    p.add_argument("--budget", type=positive_int, default=DEFAULT_BUDGET,
                   help="SIMCAT's search budget, kernel calls per decision")
    p.add_argument("--seed", type=non_negative_int, default=2025)
    p.add_argument("--workers", type=non_negative_int, default=None,
                   help=f"a local Ray of this many CPUs; 0 plays in this process (default: "
                   f"in this process up to {SMALL_MATCH} games, else {default_workers()} "
                   "CPUs of a local Ray when Ray is installed)")
    p.add_argument("--address", help="join this Ray cluster")
    p.add_argument("--walls-per-task", type=positive_int, default=10,
                   help="walls in one batch sent to a worker")
    p.add_argument("--json", action="store_true")
    p.add_argument("--no-progress", action="store_true")
    p.add_argument("--partial", type=Path, metavar="FILE",
                   help="after every ε and wall, write the tables so far here (text)")
    p.add_argument("--epsilons", type=fraction, nargs="+", default=list(EPSILONS),
                   metavar="E", help="the opponents to play, of 1.0 0.5 0.2 (default: all)")
    p.add_argument("--dump", type=Path, metavar="FILE",
                   help="write every game's figures here (JSON Lines)")
    p.add_argument("--from-dump", type=Path, metavar="FILE",
                   help="print the tables of a --dump file instead of playing")


def run(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    if args.from_dump is not None:
        dumped = read_dump(args.from_dump)
        per_cell = min(len(c.games) for c in dumped.values())
        result = analyse(dumped, per_cell)
        print(json.dumps(result) if args.json else render(result))
        return 0
    games = 16 if args.quick else args.games
    walls_per_task = min(args.walls_per_task, max(1, games // 4))
    epsilons = tuple(args.epsilons)
    workers, why = choose_workers(args.workers, args.address, games * len(epsilons) * 2)
    if (workers or args.address is not None) and not ray_installed():
        print(f"mjbot experiment sdw: {RayMissing.message(args.address, workers)}",
              file=sys.stderr)
        return 2
    print(f"mjbot experiment sdw: playing {why}", file=sys.stderr, flush=True)
    cells: dict[tuple[float, WallMode], Cell] = {}
    if args.dump is not None:
        args.dump.write_text("")
    started = time.perf_counter()
    bar = tqdm(total=games * len(epsilons) * 2, file=sys.stderr, unit="game",
               disable=args.no_progress, dynamic_ncols=True)
    with Runner(workers=workers, address=args.address) as runner:
        where = runner.where()
        for eps in epsilons:
            for mode in (WallMode.SINGLE, WallMode.SDW):
                bar.set_postfix_str(f"ε {eps} {mode.value}", refresh=False)
                played: list[PlayedGame] = []
                for batch in runner.run(cell_batches(eps, mode, games, args.seed, args.budget,
                                                     walls_per_task)):
                    played += batch
                    bar.update(len(batch))
                    if args.dump is not None:
                        with args.dump.open("a") as f:
                            f.writelines(dump_line(eps, g) + "\n" for g in batch)
                cells[(eps, mode)] = Cell(eps, mode, tuple(played))
                if args.partial is not None:
                    args.partial.write_text(render(analyse(cells, games)) + "\n")
    bar.close()
    seconds = time.perf_counter() - started
    result = analyse(cells, games)
    result.update(smoke=bool(args.quick), simcat=f"mjbot:budget={args.budget}",
                  seconds=seconds, where=where,
                  games_per_second=games * len(epsilons) * 2 / seconds, seed=args.seed)
    if args.json:
        print(json.dumps(result))
    else:
        print(render(result))
        print(f"\n{games * len(epsilons) * 2} games in {seconds:.0f} s ({where}, "
              f"{result['games_per_second']:.1f} games/s)")
    return 0


__all__ = ["add_arguments", "analyse", "render", "run"]
