"""``mjbot arena A B [C D]``: a duplicate match between players, with a sequential test.

Players (:mod:`arena.players.lineup`): ``mjbot``, ``mjbot:budget=20000``, ``baseline-v1``,
``mjbot-eps:0.5``, ``greedy``, ``random``, ``botzone:CMD``, ``olympiad:CMD``.
Two players sit A B A B; four sit as given.  Every wall is played in every
seating of ``--seating`` and is one paired sample; A - B is the first player's
mean score per game minus the second's.

A small match (up to 64 games) plays in this process unless ``--workers N`` asks for a
local Ray of N CPUs or ``--address`` for a cluster; a larger one plays on a local Ray
when Ray (the ``cluster`` extra) is installed; ``--workers 0`` (``--local``) keeps any
match in this process.  The results are the same for the same ``--seed``; the output says
where the games ran and why.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from arena.players.lineup import PlayerKind, PlayerSpecError, check_program, parse_player
from arena.stats.seating import SeatingFormat
from arena.stats.sprt import MIN_WALLS
from arena.tables.games import Rules
from arena.tables.match import (
    MatchConfig,
    MatchProgress,
    SprtBounds,
    plot,
    render,
    run_match,
    summarize,
    write_summary,
)
from arena.tables.runner import (
    SMALL_MATCH,
    RayMissing,
    Runner,
    choose_workers,
    default_workers,
    ray_installed,
)
from bot.options import (
    finite_float,
    non_negative_int,
    positive_int,
    probability,
)
from game.stable_wall import WallMode


def player_table() -> str:
    """The players the arena knows, by name with their options (:mod:`arena.players.lineup`'s
    table, without its markup), for ``--help``."""
    import arena.players.lineup

    lines = (arena.players.lineup.__doc__ or "").splitlines()
    rules = [i for i, line in enumerate(lines) if line.startswith("=====")]
    if len(rules) < 2:
        return ", ".join(k.value for k in PlayerKind)
    column = len(lines[rules[0]].split()[0]) + 2  # where the table's second column starts

    def plain(text: str) -> str:
        for markup in ("``", ":class:", ":func:", ":mod:", "`"):
            text = text.replace(markup, "")
        return text.strip()

    return "\n".join(f"  {plain(line[:column]):<17} {plain(line[column:])}"
                     for line in lines[rules[0] + 1:rules[-1]])


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.epilog = "players:\n" + player_table()
    names = ", ".join(k.value for k in PlayerKind)
    p.add_argument("players", nargs="+", metavar="PLAYER",
                   help=f"two (A B A B) or four player specs, e.g. mjbot baseline-v1; names: "
                   f"{names} (NAME:OPTIONS; below)")
    p.add_argument("--rules", choices=[r.value for r in Rules], default=Rules.MCR_BOTZONE.value)
    p.add_argument("--wall", choices=[m.value for m in WallMode], default=WallMode.SINGLE.value,
                   help="taiwan-16: one wall or the stable draw wall (mcr-botzone's per-seat "
                        "walls are stable by construction)")
    p.add_argument("--seating", choices=[s.value for s in SeatingFormat], default=None,
                   help="rotate: 4 rotations; teams: A B A B and B A B A (the stable-draw-wall "
                        "paper); "
                        "all24: every permutation (default: teams for two players, rotate "
                        "for four)")
    p.add_argument("--games", type=positive_int, default=None,
                   help="games to play (rounded up to whole walls; default 8)")
    p.add_argument("--sprt", nargs=2, type=finite_float, metavar=("H0", "H1"),
                   help="stop when the SPRT on A - B (points per game) decides")
    p.add_argument("--alpha", type=probability, default=0.05, help="SPRT: false H1 rate")
    p.add_argument("--beta", type=probability, default=0.05, help="SPRT: false H0 rate")
    p.add_argument("--sprt-min-walls", type=positive_int, default=MIN_WALLS,
                   help="SPRT: walls before it may decide (its variance is the walls' own)")
    p.add_argument("--max-games", type=positive_int, default=20_000,
                   help="SPRT: stop undecided after this many games")
    p.add_argument("--workers", type=non_negative_int, default=None,
                   help=f"a local Ray of this many CPUs; 0 plays in this process (default: "
                   f"in this process up to {SMALL_MATCH} games, else {default_workers()} "
                   "CPUs of a local Ray when Ray is installed)")
    p.add_argument("--local", action="store_true", help="the same as --workers 0")
    p.add_argument("--address", help="join this Ray cluster (HOST:PORT or auto)")
    p.add_argument("--records", type=Path, metavar="DIR",
                   help="one JSON Lines record per game, the summary and the plot here")
    p.add_argument("--plot", type=Path, metavar="PNG",
                   help="the plot's path (default: DIR/arena.png with --records)")
    p.add_argument("--seed", type=non_negative_int, default=1)
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")


def config_from(args: argparse.Namespace) -> MatchConfig:
    if len(args.players) not in (2, 4):
        raise ValueError(f"{len(args.players)} players: give two (A B A B) or four")
    for p in args.players:
        parse_player(p)
    seating = SeatingFormat(args.seating) if args.seating else (
        SeatingFormat.TEAMS if len(args.players) == 2 else SeatingFormat.ROTATE)
    sprt = None
    if args.sprt is not None:
        sprt = SprtBounds(args.sprt[0], args.sprt[1], args.alpha, args.beta,
                          args.sprt_min_walls)
        if args.games is not None:
            raise ValueError("give --games or --sprt, not both (--max-games caps the SPRT)")
    config = MatchConfig(tuple(args.players), Rules(args.rules), WallMode(args.wall), seating,
                         games=args.games or 8, sprt=sprt, max_games=args.max_games,
                         seed=args.seed, records=args.records)
    for p in args.players:  # a program that cannot start is refused before any game
        check_program(parse_player(p))
    return config


def run(args: argparse.Namespace) -> int:
    try:
        config = config_from(args)
    except (ValueError, PlayerSpecError) as exc:
        print(f"mjbot arena: {exc}", file=sys.stderr)
        return 2
    from tqdm import tqdm

    per_wall = config.games_per_wall
    total = config.walls_planned() * per_wall
    workers, why = choose_workers(0 if args.local else args.workers, args.address,
                                  total if config.sprt is None else config.max_games)
    if (workers or args.address is not None) and not ray_installed():
        print(f"mjbot arena: {RayMissing.message(args.address, workers)}", file=sys.stderr)
        return 2
    print(f"mjbot arena: playing {why}", file=sys.stderr, flush=True)
    bar = tqdm(total=total, file=sys.stderr, unit="game", disable=args.no_progress,
               dynamic_ncols=True)

    def on_wall(progress: MatchProgress) -> None:
        bar.update(per_wall)
        bar.set_postfix_str(progress.describe(), refresh=False)

    started = time.perf_counter()
    with Runner(workers=workers, address=args.address) as runner:
        where = runner.where()
        progress = run_match(config, runner, on_wall)
    seconds = time.perf_counter() - started
    bar.close()
    summary = summarize(progress, seconds, where)
    plot_path = args.plot or (args.records / "arena.png" if args.records else None)
    if plot_path is not None and progress.running:
        plot(progress, plot_path)
    if args.records is not None:
        write_summary(summary, args.records / "summary.json")
    if args.json:
        out = summary.to_json()
        out["plot"] = str(plot_path) if plot_path is not None and progress.running else None
        print(json.dumps(out))
    else:
        print(render(summary))
        if plot_path is not None and progress.running:
            print(f"plot: {plot_path}")
    return 0
