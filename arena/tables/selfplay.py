"""``mjbot selfplay``: in-process games between named players, with honest statistics.

Walls come from the seed; every wall is played four times with the players rotated one
seat each time (:attr:`arena.stats.seating.SeatingFormat.ROTATE`, the duplicate idea of
the Computer Olympiad and of Botzone's IJCAI format), so luck of the deal is shared.  Per
player, as ``mjbot arena`` reports them (:func:`arena.stats.clustered.player_stats`): mean
score, placement points, win, self-draw and deal-in rates and the mean fan per win, with
95 % intervals clustered by wall (a wall's four games share its luck, so the wall is the
sample); and the counts that must stay 0: illegal actions and false wins.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from arena.stats.clustered import GameOutcome, PlayerStats, player_stats, players_of
from arena.stats.report import INTERVALS, PLACE_POINTS, PLAYER_HEADER, player_line
from arena.stats.seating import SeatingFormat, seated, seatings
from arena.tools.output_files import OutputError, output_directory, replace_file
from bot.options import non_negative_int, positive_int
from game.table import WRONG_WIN

ROTATIONS = seatings(SeatingFormat.ROTATE)


@dataclass(frozen=True)
class SelfplayGame:
    """One self-play game: its outcome (wall ``game // 4``), and per seat whether the
    table refused an answer of it (an illegal action) or penalised its false win."""

    game: int
    outcome: GameOutcome
    illegal: tuple[bool, bool, bool, bool]
    false_win: tuple[bool, bool, bool, bool]
    ending: str
    detail: str = ""


def play_one(args: tuple[int, int, list[str], str, str | None]
             | tuple[int, int, list[str], str, str | None, str]) -> SelfplayGame:
    """Game ``game`` of ``seed``: wall ``game // 4`` with the players in rotation
    ``game % 4`` (:data:`ROTATIONS`), played by the arena's game (:func:`arena.tables.play.play`:
    every seat through the platform's seat session), on taiwan-16's single wall or stable
    draw wall."""
    from arena.tables.games import GameSpec, Rules
    from arena.tables.play import play
    from game.stable_wall import WallMode

    game, seed, names, rules_name, records = args[:5]
    shift = game % 4
    seating = seated(names, ROTATIONS[shift])
    if rules_name not in (r.value for r in Rules):
        raise ValueError(f"self-play plays {' or '.join(r.value for r in Rules)}, "
                         f"not {rules_name!r}")
    wall = str(args[5]) if len(args) > 5 else "single"
    spec = GameSpec(Rules(rules_name), seed, game // 4, shift, seating, seating,
                    WallMode(wall), record=records is not None)
    played = play(spec)
    o = played.outcome
    if records and played.record is not None:
        path = Path(records) / f"game-{seed}-{game:05d}.jsonl"
        path.parent.mkdir(parents=True, exist_ok=True)
        replace_file(path, "\n".join(played.record) + "\n")  # never through a planted link
    false_win = played.penalty.startswith(f"{WRONG_WIN}:") or played.penalty == WRONG_WIN
    a, b, c, d = (played.replaced[s] > 0 or (o.penalized == s and not false_win)
                  for s in range(4))
    e, f, g, h = (o.penalized == s and false_win for s in range(4))
    return SelfplayGame(game, o, (a, b, c, d), (e, f, g, h), played.ending, played.penalty)


@dataclass(frozen=True)
class PlayerReport:
    """A player's figures over the self-play games (clustered by wall), and its counts of
    illegal actions and false wins (both must be 0)."""

    stats: PlayerStats
    illegal_actions: int
    false_wins: int

    def to_json(self) -> dict[str, object]:
        return {**self.stats.to_json(), "illegal_actions": self.illegal_actions,
                "false_wins": self.false_wins}


def report(summaries: Sequence[SelfplayGame]) -> list[PlayerReport]:
    """Every player's report, in order of first appearance."""
    outcomes = [s.outcome for s in summaries]

    def count(name: str, flags: str) -> int:
        return sum(int(getattr(s, flags)[seat]) for s in summaries
                   for seat in s.outcome.seats_of(name))

    return [PlayerReport(player_stats(outcomes, name), count(name, "illegal"),
                         count(name, "false_win")) for name in players_of(outcomes)]


def render(rows: Sequence[PlayerReport], games: int, seed: int) -> str:
    walls = len({g // 4 for g in range(games)})
    lines = [f"{games} games on {walls} wall{'s' if walls != 1 else ''}, seed {seed}; "
             "each wall played 4 times with the players rotated",
             INTERVALS, PLACE_POINTS, f"{PLAYER_HEADER} {'illegal':>7} {'false HU':>8}"]
    lines += [f"{player_line(r.stats)} {r.illegal_actions:>7} {r.false_wins:>8}"
              for r in rows]
    return "\n".join(lines)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rules", default="mcr-botzone", choices=["mcr-botzone", "taiwan-16"])
    p.add_argument("--wall", choices=["single", "sdw"], default="single",
                   help="taiwan-16: one wall or the stable draw wall (Tang, Chen & Wu)")
    p.add_argument("--agents", nargs=4, default=["mjbot", "greedy", "mjbot", "random"],
                   metavar="PLAYER",
                   help="four in-process players of the arena's registry: mjbot (the shipped "
                        "bot), planner-v1, baseline-v1, planner[:OPTIONS], mjbot-eps:E, "
                        "greedy, random (see mjbot arena --help)")
    p.add_argument("--games", type=positive_int, default=8)
    p.add_argument("--seed", type=non_negative_int, default=1)
    p.add_argument("--workers", type=positive_int, default=1)
    p.add_argument("--records", metavar="DIR", help="write one game record per game here")
    p.add_argument("--json", action="store_true")


def run(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    if args.wall != "single" and args.rules != "taiwan-16":
        print("mjbot selfplay: --wall sdw is a taiwan-16 wall mode (mcr-botzone's per-seat "
              "walls keep draws stable already)", file=sys.stderr)
        return 2
    from arena.players.lineup import PlayerSpecError, parse_player

    for text in args.agents:
        try:
            player = parse_player(text)
        except PlayerSpecError as exc:
            print(f"mjbot selfplay: {exc}", file=sys.stderr)
            return 2
        if not player.in_process:
            print(f"mjbot selfplay: {text!r} is a program; play it with mjbot arena",
                  file=sys.stderr)
            return 2
    if args.records is not None:
        try:  # checked and made before the first game, not found wrong after one
            output_directory(Path(args.records))
        except OutputError as exc:
            print(f"mjbot selfplay: {exc}", file=sys.stderr)
            return 2
    jobs = [(g, args.seed, list(args.agents), args.rules, args.records, args.wall)
            for g in range(args.games)]
    summaries: list[SelfplayGame] = []
    bar = tqdm(total=len(jobs), file=sys.stderr, unit="game", disable=args.json)
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as pool:
            for s in pool.map(play_one, jobs, chunksize=4):
                summaries.append(s)
                bar.update()
    else:
        for job in jobs:
            summaries.append(play_one(job))
            bar.update()
    bar.close()
    rows = report(summaries)
    if args.json:
        print(json.dumps({"games": args.games, "seed": args.seed,
                          "players": [r.to_json() for r in rows]}))
    else:
        print(render(rows, args.games, args.seed))
    return 1 if any(r.illegal_actions or r.false_wins for r in rows) else 0
